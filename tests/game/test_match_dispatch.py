"""``Match.apply`` runs a seated event's phase rule itself (``SEATED_RULES``, without
``Hand.apply``'s frame): against ``Hand.apply`` doing it, on whole matches of several presets with
wrong events injected — bad seats (a float, a bool, out of range, negative, None), out-of-turn
taps, events of another phase, the match's own events while a hand is in play — every
effect (refusals and their reasons included), every snapshot and the event lists the same."""
import sys
from pathlib import Path

import pytest

from shengji_table.game import events as ev
from shengji_table.game import match as match_module
from shengji_table.game.match import Match

sys.path.insert(0, str(Path(__file__).parent))
from recorded import recorded_match  # noqa: E402  (tests/game/recorded.py)


def _wrong(match, rng) -> list:
    """Events the match must refuse now (the driver's next one must still be accepted)."""
    hand = match.hand
    if hand is None or rng.random() > 0.15:
        return []
    copies = sorted((c for held in hand.hands for c in held), key=lambda c: c.key)
    c = rng.choice(copies) if copies else None
    seat = rng.choice([1.0, 7, -1, None, hand.players, "1"])
    out = [ev.Tap(seat, c), ev.Confirm(seat), ev.TakeBack(seat, c), ev.Deal(seed=5)]
    if hand.stack is not None and hand.drawn < len(hand.stack):
        out.append(ev.Draw(seat, hand.stack[hand.drawn]))
    if hand.phase == "drawing" and hand.drawn < hand.deal_size:
        out.append(ev.CloseDeclarations())
    others = [s for s in range(hand.players) if s not in (hand.turn, hand.dealer, hand.kitty_holder)]
    if others and hand.phase == "playing":
        other = rng.choice(others)
        out += [ev.Tap(other, c), ev.Confirm(other)]
    return [rng.choice(out) for _ in range(2)]


def _state(m: Match) -> tuple:
    h = m.hand
    return m.snapshot(), list(m.events), None if h is None else h.events


@pytest.mark.parametrize("preset", ["classic", "find-friend-5", "three-players", "four-decks"])
def test_match_dispatch_agrees_with_hand_apply(preset, monkeypatch):
    """The same verdicts whichever door runs the rule (the table's seat test, ``table.seat``;
    out of turn, R-4.1 and R-7.1; events of another phase)."""
    rs, log = recorded_match(preset, 3, 2, _state, _wrong)
    refused = sum(1 for _, out, _ in log if out and out[0].type == "refusal")
    assert refused > 20 and len(log) - refused > 200
    monkeypatch.setattr(match_module, "SEATED_RULES", {phase: {} for phase in match_module.SEATED_RULES})
    m = Match(rs)
    for i, (e, out, state) in enumerate(log):
        assert m.apply(e) == out, (i, e)
        assert _state(m) == state, (i, e)
