"""The draw's short cut (``game/hand/draw.py``: a known stack's next copy drawn by the seat on
turn, R-7.1) against the general path it skips (``draw._draw``): whole hands of several presets
with wrong draws injected (out of turn, a copy further down the stack, a draw past the deal, an
equal copy that is another object, an unknown stack), replayed event by event through the general
path — every effect (refusals and their reasons included) and every snapshot the same."""
import random
import sys
from pathlib import Path

import pytest

from shengji_table.game import events as ev
from shengji_table.game.hand import Hand, draw
from shengji_table.game.hand.rules_table import PHASE_CLASSES, SEATED_RULES
from shengji_table.game.match import Match
from shengji_table.game.phase import Phase
from shengji_table.rules.cards import CardCopy, all_copies
from shengji_table.rules.ruleset import Ruleset

sys.path.insert(0, str(Path(__file__).parent))
from recorded import recorded_match, wrong_draws  # noqa: E402  (tests/game/recorded.py)


def _state(m: Match):
    """The snapshot, and the hands' faces and dealt cards (what a view and the referee read)."""
    return m.snapshot(), m.hand and ([h.faces() for h in m.hand.hands], m.hand.dealt)


def _wrong_now(match, rng) -> list:
    hand = match.hand
    return wrong_draws(hand, rng) if hand.phase == Phase.DRAWING and rng.random() < 0.3 else []


def _played(preset: str, seed: int, hands: int) -> tuple:
    return recorded_match(preset, seed, hands, _state, _wrong_now)


@pytest.mark.parametrize("preset", ["classic", "one-deck", "find-friend-5", "six-players", "three-players",
                                    "four-decks"])
def test_R7_1_draw_short_cut_agrees_with_the_general_path(preset, monkeypatch):
    rs, log = _played(preset, seed=11, hands=2)
    draws = [out for e, out, *_ in log if type(e) is ev.Draw]
    assert sum(1 for out in draws if out[0].type == "refusal") > 20
    assert sum(1 for out in draws if out[0].type != "refusal") >= rs.hand_size * rs.players
    general = []
    def general_draw(hand, e):
        general.append(1)
        return draw._draw(hand, e)
    monkeypatch.setitem(PHASE_CLASSES[Phase.DRAWING], ev.Draw, (general_draw, True))   # Hand.apply's table
    monkeypatch.setitem(SEATED_RULES[Phase.DRAWING], ev.Draw, general_draw)            # Match.apply's
    m = Match(rs)
    for i, (e, out, state) in enumerate(log):
        assert m.apply(e) == out, (i, e)
        assert _state(m) == state, (i, e)
    assert len(general) == len(draws)


def test_R7_1_equal_copies_and_unknown_stacks_take_the_general_path():
    """A copy equal to the stack's next but another object is drawn as that copy; with an unknown
    stack any copy not drawn yet may be drawn (and a copy drawn twice is refused)."""
    rs = Ruleset.from_preset("classic")
    for deal in (ev.Deal(seed=5), ev.Deal()):
        fast, slow = Hand(rs), Hand(rs)
        fast.apply(deal)
        slow.apply(deal)
        stack = fast.stack or tuple(random.Random(5).sample(list(all_copies(rs.decks)), rs.decks * 54))
        for n in range(fast.deal_size):
            seat = (fast.first_seat + n) % rs.players
            e = ev.Draw(seat, CardCopy(stack[n].card, stack[n].deck))     # equal, not the same object
            got, want = fast.apply(e), draw._draw(slow, e)
            slow.log.append(e)
            assert got == want and got[0].type == "ring", n
            if deal.seed is None and n == 3:
                again = ev.Draw((seat + 1) % rs.players, stack[0])
                assert fast.apply(again)[0].reason == f"{stack[0]} was already drawn"
        assert fast.snapshot() == slow.snapshot() and fast.drawn == fast.deal_size
        assert fast.dealt == slow.dealt == [list(stack[s:fast.deal_size:rs.players]) for s in range(rs.players)]


def test_table_seat_one_test_and_the_full_test_agree():
    """``Hand.apply`` takes a table's seat in one test (an int in ``hand.seats``); anything else goes
    through the full test: a number equal to a seat that is not an int (1.0), a seat off the table,
    text — each refused as no seat (``table.seat``), nothing changed; a bool is an int."""
    rs = Ruleset.from_preset("classic")
    hand = Hand(rs)
    hand.apply(ev.Deal(seed=3))
    before = hand.snapshot()
    for seat in (1.0, 0.0, -1, 4, 2 ** 70, "0"):
        out = hand.apply(ev.Draw(seat, hand.stack[0]))
        assert [(r.type, r.rule) for r in out] == [("refusal", "table.seat")], seat
        assert out[0].reason == f"there is no seat {seat} at a table of 4"
    assert hand.snapshot() == before
    assert hand.apply(ev.Draw(False, hand.stack[0]))[0].type == "ring"    # seat 0, as isinstance says


@pytest.mark.parametrize("decks", [1, 2, 3, 4])
def test_R1_1_shuffled_stack_is_the_generators_shuffle(decks):
    """A seeded deal's stack (R-1.1: every copy once) is ``random.Random(seed).shuffle`` of the
    copies, for every deck count and many seeds (the records of every seeded deal depend on it)."""
    copies = tuple(all_copies(decks))
    for seed in [0, 1, 2, 97, 2 ** 31 - 1, 10 ** 12, -5, "text"] + list(range(1000, 1040)):
        expected = list(copies)
        random.Random(seed).shuffle(expected)
        assert draw.shuffled(copies, seed) == tuple(expected), seed
    for n in range(0, 6):                             # the shortest lists too
        items = list(range(n))
        random.Random(n).shuffle(items)
        assert draw.shuffled(range(n), n) == tuple(items)
