"""The match: dealer rotation (R-8.5), level changes and their announcements (R-8.1), match end
(R-8.4), bidding for the deal with three players (§9)."""
from shengji_table.game import events as ev
from shengji_table.game.bots import make_bot
from shengji_table.game.driver import Driver, run_match
from shengji_table.game.effects import Announce, Refusal
from shengji_table.game.match import Match
from shengji_table.rules.ruleset import Ruleset


def first_hand(table, preset="classic", dealer_card="H2", **opts):
    t = table(preset, {0: dealer_card}, **opts)
    t.draw(1)
    t.declare(0, dealer_card)
    t.draw()
    t.close()
    return t


def announcements(out, kind):
    return [e.text for e in out if isinstance(e, Announce) and e.kind == kind]


def test_match_declarers_keep_deal_partner_deals_r8_5(table):
    t = first_hand(table)
    out = t.ok(ev.RefereeEndHand(1, "R-10.2", "attacker revoked"))
    assert "Declarers go up one level: 2 → 3" in announcements(out, "level")
    assert t.match.dealer == 2 and t.match.levels == [3, 2, 3, 2]
    # the next hand is played at the new dealer's level
    t.ok(ev.Deal(seed=5))
    assert t.hand.dealer == 2 and t.hand.level == 3


def test_match_takeover_passes_deal_to_next_seat_r8_5(table):
    t = first_hand(table)
    out = t.ok(ev.RefereeEndHand(0, "R-10.2", "declarer revoked"))
    assert "The attackers take over the deal." in announcements(out, "level")
    assert t.match.dealer == 1 and t.match.levels == [2, 2, 2, 2]


def test_match_ends_when_a_side_reaches_a_r8_4(table):
    t = first_hand(table, dealer_card="HK", start_level="K")
    out = t.ok(ev.RefereeEndHand(3, "R-10.3", "wrong count"))
    assert t.match.over and t.match.winners == (0, 2)
    assert announcements(out, "match")
    out = t.send(ev.Deal(seed=1))
    assert isinstance(out[0], Refusal) and out[0].rule == "R-8.4"


def test_match_deal_refused_while_hand_in_progress(table):
    t = first_hand(table)
    out = t.send(ev.Deal(seed=3))
    assert isinstance(out[0], Refusal)


def test_match_levels_follow_settlements_over_several_hands():
    """Every hand's level change equals its settlement (fixed teams: both partners move together)."""
    rs = Ruleset.from_preset("classic")
    m = Match(rs)
    run_match(m, [make_bot("heuristic", i) for i in range(4)], range(6))
    levels = [2, 2, 2, 2]
    for s in m.summaries:
        r = s["result"]
        assert s["levels_before"] == levels
        for seat in range(4):
            k = r["declarers_levels"] if seat in r["declarers"] else r["attackers_levels"]
            assert s["levels_after"][seat] == min(14, levels[seat] + k)
        assert s["levels_after"][0] == s["levels_after"][2] and s["levels_after"][1] == s["levels_after"][3]
        levels = s["levels_after"]
    assert m.levels == levels


def test_match_three_player_bidding(table):
    """§9: bids of a points target in turn, lowest bid deals and names trump, kitty of 9."""
    t = table("three-players")
    t.draw()
    out = t.send(ev.Declare(0, tuple(t.hand.hand_copies(0)[:1])))
    assert isinstance(out[0], Refusal)                           # nobody declares with bidding
    t.close()
    assert t.hand.phase == "bidding" and t.hand.turn == 0
    assert isinstance(t.send(ev.Bid(1, 150))[0], Refusal)        # out of turn
    t.ok(ev.Bid(0, 150))
    assert isinstance(t.send(ev.Bid(1, 155))[0], Refusal)        # must be lower
    t.ok(ev.Bid(1, 120))
    t.ok(ev.Bid(2, None))
    t.ok(ev.Bid(0, 115))
    out = t.ok(ev.Bid(1, None))
    assert t.hand.phase == "trump" and t.hand.dealer == 0 and t.hand.bid == 115
    t.ok(ev.NameTrump(0, "D"))
    assert t.hand.trump == "D" and t.hand.phase == "kitty"
    Driver(t.match, [make_bot("random", i) for i in range(3)]).finish_hand()
    r = t.match.summaries[-1]["result"]
    assert r["bid"] == 115 and r["declarers"] == [0] and sorted(r["attackers"]) == [1, 2]


def test_match_must_defend_level_stops_a_side_r8_4():
    """R-8.4 必打: a side never skips past a must-defend level (here 4), and moves on from it only
    by winning as declarers."""
    rs = Ruleset.from_preset("classic", start_level=3, must_defend=["4"])
    stopped = 0
    for k in (7, 8):             # seeds whose first hands give a side +2 from level 3
        m = Match(rs)
        run_match(m, [make_bot("random", 10 * k + i) for i in range(4)], range(100 * k, 100 * k + 2))
        for s in m.summaries:
            r = s["result"]
            for seat_text, (before, after, steps, _why) in s["changes"].items():
                seat = int(seat_text)
                declarer = seat in r["declarers"]
                if before < 4 < before + steps:
                    assert after == 4
                    stopped += 1
                if before == 4 and not declarer:
                    assert after == 4
        if stopped:
            break
    assert stopped, "no hand crossed the must-defend level; pick other seeds"
