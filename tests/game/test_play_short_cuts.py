"""The one-card play's short cuts (``game/hand/play.py``: ``tap``, ``_lay_one``, ``_finish_trick``) against
the general path they skip: whole hands of several presets, with wrong taps injected (an illegal
follow, a card of another seat, out of turn, a card already played), replayed event by event with
the short cuts off — every effect (refusals and their reasons included) and every snapshot the same."""
import sys
from pathlib import Path

import pytest

from shengji_table.game import events as ev
from shengji_table.game.hand import play
from shengji_table.game.match import Match

sys.path.insert(0, str(Path(__file__).parent))
from recorded import recorded_match  # noqa: E402  (tests/game/recorded.py)


def _wrong_taps(hand, rng):
    """Taps the engine must refuse now: an off-suit card while the seat holds the led suit (R-4.4),
    a card of another seat, a card of the seat not on turn, a card already played."""
    turn, order, out = hand.turn, hand.order, []
    mine = sorted(hand.hands[turn], key=lambda c: c.key)
    if hand.trick and not hand.pending and len(hand.trick[0].cards) == 1:
        led = order.suit_of(hand.trick[0].cards[0].card)
        off = [c for c in mine if order.suit_of(c.card) != led]
        if off and any(order.suit_of(c.card) == led for c in mine):
            out.append(ev.Tap(turn, rng.choice(off)))
    other = rng.choice([s for s in range(hand.players) if s != turn])
    theirs = sorted(hand.hands[other], key=lambda c: c.key)
    if theirs:
        out += [ev.Tap(turn, rng.choice(theirs)), ev.Tap(other, rng.choice(theirs))]
    if hand.played:
        out.append(ev.Tap(turn, rng.choice(sorted(hand.played, key=lambda c: c.key))))
    return out


def _state(m: Match) -> tuple:
    """The snapshot and the parts a view or the referee reads that it leaves out."""
    h = m.hand
    if h is None:
        return m.snapshot(), None
    return m.snapshot(), (list(h.played_count), list(h.play_starts), h.entry_start, sorted(c.key for c in h.played),
                          h.trick_views, h.trick_plays() if h.trick else (), h.throw_window,
                          [(held.faces(), list(held.counts())) for held in h.hands])


def _wrong_now(match, rng) -> list:
    hand = match.hand
    return _wrong_taps(hand, rng) if hand.phase == "playing" and rng.random() < 0.3 else []


def _played_with_short_cuts(preset: str, seed: int, hands: int) -> tuple:
    """Every event a match received (the driver's and the wrong ones), its effects, the snapshot."""
    return recorded_match(preset, seed, hands, _state, _wrong_now)


@pytest.mark.parametrize("preset", ["classic", "one-deck-two-colour", "find-friend-5", "six-players",
                                    "three-players", "four-decks"])
def test_R4_4_R5_one_card_short_cuts_agree_with_the_general_path(preset, monkeypatch):
    laid = []
    lay_one = play._lay_one
    monkeypatch.setattr(play, "_lay_one", lambda *a: laid.append(1) or lay_one(*a))
    rs, log = _played_with_short_cuts(preset, seed=7, hands=3)
    assert len(laid) > 60                              # the short cuts did the laying
    assert sum(1 for _, out, _ in log if out and out[0].type == "refusal") > 20
    monkeypatch.setattr(play, "_SHORT_CUTS", False)
    laid.clear()
    m = Match(rs)
    for i, (e, out, snap) in enumerate(log):
        assert m.apply(e) == out, (i, e)
        assert _state(m) == snap, (i, e)
    assert not laid
