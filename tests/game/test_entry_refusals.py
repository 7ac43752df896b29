"""Card entry at a physical seat (ARCHITECTURE: card by card; follower commits at the lead's count,
leader on confirm; a pending card tapped again is taken back) and its refusals: out of turn, wrong
seat, twice, a copy already played, an illegal play.  A refused event leaves the state unchanged."""
import pytest

from shengji_table.game import events as ev
from shengji_table.game.effects import Refusal, Ring


@pytest.fixture
def t(table):
    tb = table("classic", {0: "H2 SA SK DA", 1: "S3 S4", 2: "S5", 3: "S6 CA"})
    tb.draw(1)
    tb.declare(0, "H2")
    tb.draw()
    tb.close()
    tb.bury()
    assert tb.hand.phase == "playing" and tb.hand.turn == 0
    return tb


def refused_with(t, event, rule):
    before = t.match.snapshot()
    out = t.send(event)
    assert out and isinstance(out[0], Refusal), out
    assert out[0].rule == rule, out[0]
    assert out[0].reason
    assert t.match.snapshot() == before, "a refused event changed the state"
    return out[0]


def test_entry_out_of_turn_refused(t):
    r = refused_with(t, ev.Tap(1, t.copies(1, "S3")[0]), "table.out-of-turn")
    assert "seat 0" in r.reason


def test_entry_wrong_seat_refused(t):
    c = t.copies(1, "S4")[0]
    r = refused_with(t, ev.Tap(0, c), "table.wrong-seat")
    assert "seat 1" in r.reason


def test_entry_leader_commits_on_confirm_and_tap_again_takes_back(t):
    sa = t.copies(0, "SA")[0]
    out = t.ok(ev.Tap(0, sa))
    assert Ring(0, "pending", 1) in out
    t.ok(ev.Tap(0, sa))                          # tapped again: taken back
    assert t.hand.pending == []
    t.ok(ev.Tap(0, sa))
    assert t.hand.trick == []                    # a lead waits for the button
    t.ok(ev.Confirm(0))
    assert t.hand.trick == [(0, (sa,))] and t.hand.turn == 1


def test_entry_follower_commits_at_required_count(t):
    t.play(0, "SA SK")                           # a throw (the other hands cannot beat SA, SK? maybe)
    need = len(t.hand.trick[0][1])
    spades = [c for c in t.hand.hand_copies(1) if c.card.suit == "S" and c.card.rank != 2][:need]
    for c in spades[:-1]:
        t.ok(ev.Tap(1, c))
        assert len(t.hand.trick) == 1            # not yet
    t.ok(ev.Tap(1, spades[-1]))
    assert len(t.hand.trick) == 2 and t.hand.turn == 2


def test_entry_confirm_by_follower_refused(t):
    t.play(0, "SA")
    refused_with(t, ev.Confirm(1), "R-4.4")


def test_entry_card_twice_in_trick_refused(t):
    sa = t.copies(0, "SA")[0]
    t.ok(ev.Tap(0, sa))
    t.ok(ev.Confirm(0))
    refused_with(t, ev.Tap(1, sa), "table.twice")


def test_entry_copy_already_played_refused(t):
    t.play(0, "SA")
    first = t.hand.trick[0][1][0]
    for seat in (1, 2, 3):
        c = next(c for c in t.hand.hand_copies(seat) if c.card.suit == "S" and c.card.rank != 2)
        t.ok(ev.Tap(seat, c))
    assert len(t.hand.tricks) == 1
    w = t.hand.turn
    r = refused_with(t, ev.Tap(w, first), "table.already-played")
    assert "earlier trick" in r.reason


def test_entry_illegal_follow_refused_with_rule_r4_4(t):
    t.play(0, "SA")
    t.play(1, "S3")
    t.play(2, "S5")
    ca = t.copies(3, "CA")[0]
    r = refused_with(t, ev.Tap(3, ca), "R-4.4")
    assert "spade" in r.reason.lower() or "♠" in r.reason
    t.ok(ev.Tap(3, t.copies(3, "S6")[0]))
    assert len(t.hand.tricks) == 1


def test_entry_lead_mixing_suits_refused_r4_1(t):
    for c in t.copies(0, "SA DA"):
        t.ok(ev.Tap(0, c))
    refused_with(t, ev.Confirm(0), "R-4.1")
    assert len(t.hand.pending) == 2              # the cards stay pending: take one back and confirm


def test_entry_take_back_of_committed_card_refused_table_take_back(t):
    """Table entry: a TakeBack names only a *pending* card; one already committed to the trick is
    refused under the table-entry rule ``table.take-back``.  (R-10.4 itself — the referee's undo,
    refused unless the option allows it, and logged when it does — is checked in
    tests/game/test_referee_actions.py.)"""
    t.play(0, "SA")
    refused_with(t, ev.TakeBack(0, t.hand.trick[0][1][0]), "table.take-back")


def test_entry_card_in_kitty_refused(table):
    tb = table("classic", {0: "H2"})
    tb.draw(1)
    tb.declare(0, "H2")
    tb.draw()
    tb.close()
    tb.bury()
    buried = tb.hand.buried[0]
    out = tb.send(ev.Tap(0, buried))
    assert isinstance(out[0], Refusal) and out[0].rule == "table.kitty"


def test_entry_burial_wrong_size_refused_r7_2(table):
    tb = table("classic", {0: "H2"})
    tb.draw(1)
    tb.declare(0, "H2")
    tb.draw()
    tb.close()
    tb.ok(ev.TakeKitty(0))
    for c in list(tb.hand.kitty)[:7]:
        tb.ok(ev.BuryCard(0, c))
    out = tb.send(ev.Confirm(0))
    assert isinstance(out[0], Refusal) and out[0].rule == "R-7.2" and "exactly 8" in out[0].reason
    out = tb.send(ev.TakeKitty(1))
    assert isinstance(out[0], Refusal)
