"""Referee actions (R-10): undo the last play (R-10.4, logged), award a penalty (R-10.1), end a hand
by ruling (R-10.2 / R-10.3) — each with a reason, each in the record."""
from shengji_table.game import events as ev
from shengji_table.game.bots import make_bot
from shengji_table.game.driver import Driver
from shengji_table.game.effects import Announce, Refusal
from shengji_table.game.record import replay, to_record


def ready(table, hands=None, **opts):
    """Seat 0 declares with H2, the kitty is buried, seat 0 is to lead."""
    t = table("classic", hands or {0: "H2 SA SK", 1: "S3 S4", 2: "S5", 3: "S6"}, **opts)
    t.draw(1)
    t.declare(0, "H2")
    t.draw()
    t.close()
    t.bury()
    return t


def test_referee_undo_not_allowed_by_default_r10_4(table):
    t = ready(table)
    t.play(0, "SA")
    out = t.send(ev.RefereeUndo("misplay"))
    assert isinstance(out[0], Refusal) and out[0].rule == "R-10.4"


def test_referee_undo_last_play_is_logged_and_restores_state(table):
    t = ready(table, referee_undo=True)
    t.play(0, "SA")
    t.play(1, "S3")
    before = t.match.snapshot()
    t.play(2, "S5")
    out = t.ok(ev.RefereeUndo("seat 2 tapped the wrong card"))
    assert any(isinstance(e, Announce) and e.kind == "undo" and "wrong card" in e.text for e in out)
    after = t.match.snapshot()
    assert after["hand"]["undone"] == [[2, ["S5#1"], "seat 2 tapped the wrong card"]]
    after["hand"]["undone"] = []
    assert after == before                       # exactly as before the undone play
    t.play(2, "S5")                              # the seat plays again
    assert len(t.hand.trick) == 3
    # the record keeps the play AND the undo; replaying gives the same state
    rec = to_record(t.match)
    assert [e["type"] for e in rec["events"]].count("referee_undo") == 1
    assert replay(rec).snapshot() == t.match.snapshot()


def test_referee_undo_across_a_finished_trick(table):
    t = ready(table, referee_undo=True)
    t.play(0, "SA")
    t.play(1, "S3")
    t.play(2, "S5")
    t.play(3, "S6")
    assert len(t.hand.tricks) == 1
    t.ok(ev.RefereeUndo("last card of the trick was a mistake"))
    assert len(t.hand.tricks) == 0 and len(t.hand.trick) == 3 and t.hand.turn == 3


def test_referee_penalty_counts_in_settlement_r10_1(table):
    t = ready(table)
    t.ok(ev.RefereePenalty(1, 20, "seat 1 exposed a card"))      # an attacker: −20 for the attackers
    t.ok(ev.RefereePenalty(2, 10, "seat 2 talked about the cards"))  # a declarer: +10
    Driver(t.match, [make_bot("random", i) for i in range(4)]).finish_hand()
    r = t.match.summaries[-1]["result"]
    assert r["penalty"] == -10
    assert r["attackers_points"] == r["captured"] + r["bonus"] - 10


def test_referee_end_hand_by_ruling_r10_2(table):
    t = ready(table)
    t.play(0, "SA")
    out = t.ok(ev.RefereeEndHand(2, "R-10.2", "seat 2 revoked in trick 1"))
    r = t.hand.result
    assert r.ruling == "R-10.2" and r.at_fault == 2
    assert r.settlement.takeover and r.settlement.attackers_levels == 0   # declarers at fault
    assert "seat 2 revoked" in r.settlement.reason
    assert t.match.dealer == 1                                         # after a take-over
    out = t.send(ev.RefereeEndHand(2, "R-9", "no such ruling"))
    assert isinstance(out[0], Refusal)


def test_referee_end_hand_against_attacker_r10_3(table):
    t = ready(table)
    t.ok(ev.RefereeEndHand(3, "R-10.3", "seat 3 holds 26 cards"))
    s = t.hand.result.settlement
    assert s.declarers_levels == 1 and not s.takeover
    assert t.match.levels == [3, 2, 3, 2] and t.match.dealer == 2      # the dealer's partner


def test_referee_adjusted_result_settles_by_r8_r10_5(table):
    """R-10.5: the referee assigns the attackers' points; R-8 settles from them (60 with two decks:
    the attackers come in short of the take-over, the declarers go up 1), penalties still count."""
    t = ready(table)
    t.play(0, "SA")
    t.ok(ev.RefereePenalty(1, 20, "seat 1 exposed a card"))          # an attacker: −20
    out = t.ok(ev.RefereeAdjust(100, "cards spilled in trick 1"))
    r = t.hand.result
    assert r.ruling == "R-10.5" and r.penalty == -20
    assert r.settlement.attackers_points == 80
    from shengji_table.rules.settle import settle
    expected = settle(t.match.ruleset, 80)
    assert (r.settlement.declarers_levels, r.settlement.attackers_levels, r.settlement.takeover) == \
        (expected.declarers_levels, expected.attackers_levels, expected.takeover)
    assert any(isinstance(e, Announce) and "adjusted result" in e.text and "cards spilled" in e.text for e in out)
    rec = to_record(t.match)
    assert rec["events"][-1]["type"] == "referee_adjust" or any(
        e["type"] == "referee_adjust" for e in rec["events"])
    assert replay(rec).snapshot() == t.match.snapshot()


def test_referee_adjusted_result_refusals_change_nothing_r10_5(table):
    t = table("classic", {0: "H2 SA SK", 1: "S3 S4", 2: "S5", 3: "S6"})
    t.draw(1)
    before = t.match.snapshot()
    out = t.send(ev.RefereeAdjust(40, "too early"))                 # no dealer yet in the first hand
    assert isinstance(out[0], Refusal) and out[0].rule == "R-10.5" and "dealer" in out[0].reason
    assert t.match.snapshot() == before
    t.declare(0, "H2")
    t.draw()
    t.close()
    t.bury()
    for points, words in ((-5, "0 to 200"), (205, "0 to 200")):
        before = t.match.snapshot()
        out = t.send(ev.RefereeAdjust(points, "x"))
        assert isinstance(out[0], Refusal) and words in out[0].reason
        assert t.match.snapshot() == before
    out = t.send(ev.RefereeAdjust(40, "  "))
    assert isinstance(out[0], Refusal) and "reason" in out[0].reason


def long_ready(table, **opts):
    """Four tricks of spades to play: seat 0 leads SA, SK, SQ, SJ; the others follow low."""
    return ready(table, {0: "H2 SA SK SQ SJ", 1: "S3 S4 S5 S6", 2: "S7 S8 S9 S10", 3: "S3 S4 S5 S6"}, **opts)


def play(t, seat, card):
    t.play(seat, card)
    assert not isinstance(t.log[-1][1][0], Refusal), t.log[-1]


def trick(t, lead, *follows):
    play(t, 0, lead)
    for seat, card in zip((1, 2, 3), follows):
        play(t, seat, card)


def test_R10_4_second_undo_takes_back_exactly_the_last_play(table):
    """The referee undoes, play goes on, and a second undo a few tricks later takes back only the
    play before it — the tricks in between stay (the table used to go back to the first undo)."""
    t = long_ready(table, referee_undo=True)
    trick(t, "SA", "S3", "S7", "S3")
    play(t, 0, "SK")
    play(t, 1, "S4")
    t.ok(ev.RefereeUndo("seat 1 tapped the wrong card"))
    play(t, 1, "S4")
    play(t, 2, "S8")
    play(t, 3, "S4")
    trick(t, "SQ", "S5", "S9", "S5")
    play(t, 0, "SJ")
    before = t.match.snapshot()
    play(t, 1, "S6")
    out = t.ok(ev.RefereeUndo("seat 1 again"))
    assert any(isinstance(e, Announce) and "undid seat 1's play of S6#1: seat 1 again" in e.text for e in out)
    after = t.match.snapshot()
    assert len(t.hand.tricks) == 3 and t.hand.turn == 1
    assert [u[0] for u in t.hand.undone] == [1, 1]
    for snap in (before, after):
        snap["hand"].pop("undone")
    assert after == before
    assert replay(to_record(t.match)).snapshot() == t.match.snapshot()


def test_R10_4_undos_in_a_row_go_back_play_by_play_across_tricks(table):
    t = long_ready(table, referee_undo=True)
    states = []
    for seat, card in ((0, "SA"), (1, "S3"), (2, "S7"), (3, "S3"), (0, "SK")):
        states.append(t.match.snapshot())
        play(t, seat, card)
    for expected in reversed(states):
        t.ok(ev.RefereeUndo(""))
        now = t.match.snapshot()
        now["hand"]["undone"] = expected["hand"]["undone"]
        assert now == expected
    out = t.send(ev.RefereeUndo("nothing left"))
    assert isinstance(out[0], Refusal) and out[0].reason == "there is no play to undo"
    assert [u[0] for u in t.hand.undone] == [0, 3, 2, 1, 0]


def test_R10_reversing_a_penalty_takes_it_out_of_the_settlement(table):
    t = ready(table)
    t.ok(ev.RefereePenalty(1, 20, "seat 1 exposed a card"))         # ruling 1
    t.ok(ev.RefereePenalty(2, 10, "seat 2 talked"))                 # ruling 2
    out = t.ok(ev.RefereeReverse(1, "it was seat 3"))
    assert any(isinstance(e, Announce) and "reversed ruling 1" in e.text and "it was seat 3" in e.text for e in out)
    assert t.hand.penalties == [(2, 10, "seat 2 talked")]
    assert [r.number for r in t.hand.rulings] == [1, 2, 3] and t.hand.voided == {1}
    Driver(t.match, [make_bot("random", i) for i in range(4)]).finish_hand()
    assert t.match.summaries[-1]["result"]["penalty"] == 10
    assert replay(to_record(t.match)).snapshot() == t.match.snapshot()


def test_R10_reversal_refusals_change_nothing(table):
    t = ready(table, referee_undo=True)
    before = t.match.snapshot()
    for e, words in ((ev.RefereeReverse(1, ""), "no ruling in this hand"),):
        out = t.send(e)
        assert isinstance(out[0], Refusal) and words in out[0].reason and t.match.snapshot() == before
    t.ok(ev.RefereePenalty(1, 20, "x"))
    t.ok(ev.RefereeReverse(1, ""))
    before = t.match.snapshot()
    for e, words in ((ev.RefereeReverse(1, ""), "reversed already (ruling 2)"),
                     (ev.RefereeReverse(2, ""), "a reversal itself"),
                     (ev.RefereeReverse(7, ""), "no ruling 7 in this hand: its rulings are 1 to 2"),
                     (ev.RefereeReverse(0, ""), "no ruling 0")):
        out = t.send(e)
        assert isinstance(out[0], Refusal) and words in out[0].reason, out
        assert t.match.snapshot() == before and len(t.hand.rulings) == 2


def test_R10_4_reversing_an_undo_puts_the_play_back_unless_played_again(table):
    t = long_ready(table, referee_undo=True)
    play(t, 0, "SA")
    play(t, 1, "S3")
    played = t.match.snapshot()
    t.ok(ev.RefereeUndo("looked wrong"))                         # ruling 1
    t.ok(ev.RefereeReverse(1, "it was right"))                    # ruling 2: S3 is back
    assert t.match.snapshot()["hand"] == {**played["hand"], "undone": []}
    t.ok(ev.RefereeUndo("looked wrong again"))                   # ruling 3
    play(t, 1, "S3")                                               # played again
    out = t.send(ev.RefereeReverse(3, ""))
    assert isinstance(out[0], Refusal) and "cannot be reversed" in out[0].reason and "seat 1" in out[0].reason


def test_R10_reversing_an_end_by_ruling_takes_the_settlement_back(table):
    t = ready(table)
    play(t, 0, "SA")
    levels, dealer = list(t.match.levels), t.match.dealer
    t.ok(ev.RefereeEndHand(1, "R-10.2", "seat 1 revoked"))           # an attacker: the declarers go up
    assert t.hand.phase == "over" and len(t.match.summaries) == 1 and t.match.levels == [3, 2, 3, 2]
    out = t.ok(ev.RefereeReverse(1, "no revoke after all"))
    assert any(isinstance(e, Announce) and "settlement is withdrawn" in e.text for e in out)
    assert t.hand.phase == "playing" and t.hand.result is None and t.match.summaries == []
    assert t.match.levels == levels and t.match.dealer == dealer
    play(t, 1, "S3")                                               # play goes on
    assert replay(to_record(t.match)).snapshot() == t.match.snapshot()


def test_R10_5_reversing_an_adjusted_result_reopens_the_hand(table):
    t = ready(table)
    t.ok(ev.RefereeAdjust(0, "cards spilled"))
    assert t.hand.result is not None
    out = t.ok(ev.RefereeReverse(1, "wrong table"))
    assert t.hand.result is None and not t.match.over and t.match.summaries == []
    assert isinstance(out[0], Announce)


def test_R10_1_a_penalty_is_at_most_the_decks_points(table):
    t = ready(table)
    before = t.match.snapshot()
    out = t.send(ev.RefereePenalty(1, 10_000, "typo"))
    assert isinstance(out[0], Refusal) and out[0].rule == "R-10.1" and "at most the deck's 200 points" in out[0].reason
    assert t.match.snapshot() == before and t.hand.rulings == ()
    t.ok(ev.RefereePenalty(1, 200, "the whole deck"))


def test_R10_4_no_undo_once_the_hand_is_over(table):
    t = ready(table, referee_undo=True)
    t.ok(ev.RefereeEndHand(1, "R-10.2", "revoke"))
    out = t.send(ev.RefereeUndo("too late"))
    assert isinstance(out[0], Refusal) and "the hand is over" in out[0].reason
