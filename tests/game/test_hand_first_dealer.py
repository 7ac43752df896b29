"""R-6.6, the first hand's dealer — one rule for every preset: the seat whose call stands when the
draw closes deals (翻主方, seeds 000 l.127, 002 l.17, 003 l.35; 第一盤反底反樁, seed 000 l.123: an overcall in
the first hand takes the deal).  When nobody overcalls this is also the first to show (先亮者為莊家,
seeds 000 l.54, 001 l.49).  Nobody declared: the seat that drew first deals.  Later hands: the
dealer follows R-8.5 and an overcall changes only the trump.  See docs/game.md.
"""
import pytest

from shengji_table.game import events as ev
from shengji_table.game.effects import Announce, Refusal

# preset, the first call (seat 0), a stronger call by seat 1 on that preset's ladder
CASES = [
    ("classic", "H2", "S2 S2"),
    ("one-deck-two-colour", "H2", "S2 C2"),
    ("three-decks", "H2", "S2 S2"),
    ("four-decks", "H3", "S3 S3"),                # hidden calls, ruled when the draw closes
    ("find-friend-5", "H2", "LJ LJ"),
    ("six-players", "H2", "S2 S2 S2"),
]


def refused(out):
    return bool(out) and isinstance(out[0], Refusal)


@pytest.mark.parametrize("preset,first,stronger", CASES)
def test_first_hand_the_standing_call_deals_r6_6(table, preset, first, stronger):
    start = {"four-decks": "3"}.get(preset, "2")
    t = table(preset, {0: first, 1: stronger}, start_level=start)
    n = t.rs.players
    t.draw(n)
    assert not refused(t.declare(0, first))                      # 先亮者: seat 0 shows first
    t.draw(n * len(stronger.split()))
    assert not refused(t.declare(1, stronger))                   # seat 1 overcalls (反主 / 反无主)
    t.draw()
    out = t.close()
    assert t.hand.dealer == 1, "the seat whose call stands deals (翻主方, 反底反樁)"
    assert t.hand.standing.seat == 1
    assert any(isinstance(e, Announce) and e.rule == "R-6.6" and "seat 1 deals" in e.text for e in out)


def test_first_hand_without_overcall_the_first_to_show_deals(table):
    """Both seed readings agree when the first call stands: 先亮者 = 翻主方."""
    t = table("classic", {2: "D2"})
    t.draw(4)
    assert not refused(t.declare(2, "D2"))
    t.draw()
    t.close()
    assert t.hand.dealer == 2 and t.hand.trump == "D"


def test_first_hand_nobody_declared_first_drawer_deals(table):
    t = table("classic", first_seat=0)
    t.draw()
    out = t.close()
    assert t.hand.dealer == 0 and t.hand.trump is None                   # default NT
    assert any(isinstance(e, Announce) and "drew first" in e.text for e in out)


def test_later_hand_overcall_changes_trump_not_dealer(table):
    """R-6.6, later hands: the dealer comes from R-8.5; a declaration only sets trump."""
    t = table("classic", {0: "H2"})
    t.draw(1)
    t.declare(0, "H2")
    t.draw()
    t.close()
    t.ok(ev.RefereeEndHand(1, "R-10.2", "attacker revoked"))         # declarers keep it: seat 2 deals at 3
    assert t.match.dealer == 2
    t.ok(ev.Deal(seed=11))
    hand = t.hand
    assert hand.dealer == 2 and hand.level == 3
    threes = {}
    while hand.next_draw() is not None:
        seat, copy = hand.next_draw()
        t.ok(ev.Draw(seat, copy))
        if copy.card.rank == 3 and copy.card.suit != "J":
            threes.setdefault((seat, copy.card), []).append(copy)
    pair = next(((s, cs) for (s, _), cs in threes.items() if len(cs) == 2 and s != 2), None)
    assert pair is not None, "pick a seed where a non-dealer holds a pair of 3s"
    seat, copies = pair
    t.ok(ev.Declare(seat, tuple(copies)))
    t.close()
    assert hand.dealer == 2 and hand.trump == copies[0].card.suit
