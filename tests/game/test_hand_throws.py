"""Throws with scanned hands (R-4.2, R-4.3, R-10.1): checked at once against the other hands; a
failed throw is replaced by the forced unit, the rest goes back to the hand, the penalty option
applies; a throw nobody can beat stands; with the three-player preset throws are refused."""
from shengji_table.game import events as ev
from shengji_table.game.effects import Announce, Refusal


def ready(table, preset="classic", hands=None, **opts):
    hands = hands or {0: "H2 SA SQ", 1: "SK"}
    t = table(preset, hands, **opts)
    t.draw(1)
    t.declare(0, "H2")
    t.draw()
    t.close()
    t.bury()
    return t


def test_hand_failed_throw_plays_forced_unit_r4_3(table):
    t = ready(table, throw_penalty="per-card")
    out = t.play(0, "SA SQ")                      # seat 1 holds ♠K: the ♠Q can be beaten
    lead = [str(c.card) for c in t.hand.trick[0][1]]
    assert lead == ["SQ"]
    assert any(c.card.rank == 14 and c.card.suit == "S" for c in t.hand.hands[0])   # ♠A back in hand
    assert any(isinstance(e, Announce) and e.kind == "throw" and e.rule == "R-4.3" for e in out)
    assert t.hand.penalties == [(0, 10, t.hand.penalties[0][2])]                    # one card withdrawn
    assert t.hand.lead_count() == 1


def test_hand_throw_that_nobody_beats_stands_r4_2(table):
    t = ready(table, hands={0: "H2 SA SA SK SK"})  # both ♠A and both ♠K: nothing beats either pair
    t.play(0, "SA SA SK SK")
    assert len(t.hand.trick[0][1]) == 4 and not t.hand.penalties


def test_hand_three_players_refuse_throws(table):
    t = table("three-players", {0: "SA SK"})
    t.draw()
    t.close()
    t.ok(ev.Bid(0, 100))
    t.ok(ev.Bid(1, None))
    t.ok(ev.Bid(2, None))
    t.ok(ev.NameTrump(0, "H"))
    t.bury()
    for c in t.copies(0, "SA SK"):
        t.ok(ev.Tap(0, c))
    out = t.send(ev.Confirm(0))
    assert isinstance(out[0], Refusal) and "throws are not allowed" in out[0].reason
