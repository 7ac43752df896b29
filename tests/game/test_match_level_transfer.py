"""级数不浪费 (seed 000 變異打法, principle and example 4): a player whom a must-play level (必打: J, A)
stops may pass the levels left over to team-mates (who go up, but not past a must-play level) or
make opponents go down (not below 2).  A recipient on the winning side may refuse; one on the losing
side may not.  Events ``pass_levels`` / ``refuse_levels``, between the settlement and the next deal.
"""
from shengji_table.game import events as ev
from shengji_table.game import record
from shengji_table.game.bots import make_bot
from shengji_table.game.driver import Driver
from shengji_table.game.effects import Announce, Refusal
from shengji_table.game.export import export_text
from shengji_table.game.match import Match
from shengji_table.game.stack import stack_for
from shengji_table.rules.cards import parse_card, parse_cards
from shengji_table.rules.ruleset import Ruleset


class Arranged:
    """A find-a-friend match already under way (levels per seat), first hand from an arranged stack."""

    def __init__(self, levels, hands, preset="find-friend-5", **opts):
        self.rs = Ruleset.from_preset(preset, **opts)
        self.match = Match(self.rs)
        self.match.levels = list(levels)          # the match so far (the events of earlier hands left out)
        self.ok(ev.Deal(order=stack_for(self.rs, hands)))

    @property
    def hand(self):
        return self.match.hand

    def send(self, event):
        return self.match.apply(event)

    def ok(self, event):
        out = self.send(event)
        assert not (out and isinstance(out[0], Refusal)), f"refused: {out[0]}"
        return out

    def copies(self, seat, text):
        out = []
        for f in parse_cards(text):
            out.append(next(c for c in self.hand.hand_copies(seat) if c.card is f and c not in out))
        return out

    def draw_declare_bury(self, seat, card, calls):
        self.ok(ev.Draw(*self.hand.next_draw()))
        self.ok(ev.Declare(seat, tuple(self.copies(seat, card))))
        while self.hand.next_draw() is not None:
            self.ok(ev.Draw(*self.hand.next_draw()))
        self.ok(ev.CloseDeclarations())
        self.ok(ev.TakeKitty(seat))
        for c in list(self.hand.kitty):
            self.ok(ev.BuryCard(seat, c))
        self.ok(ev.Confirm(seat))
        self.ok(ev.CallFriend(seat, calls))

    def play(self, seat, text):
        for c in self.copies(seat, text):
            out = self.send(ev.Tap(seat, c))
        if len(self.hand.trick) == 0 and self.hand.pending:
            out = self.send(ev.Confirm(seat))
        return out


def refused(out, rule=None):
    return bool(out) and isinstance(out[0], Refusal) and (rule is None or out[0].rule == rule)


def dealer_alone_stopped_at_j(levels):
    """Seat 0 deals at 10 and finds no friend (1 v 4: four level rights); an attacker revokes, so
    the dealer goes up 4 (seed 000 變異打法 2: 莊家沒找到朋友時…莊家方升4級) — and stops at J."""
    t = Arranged(levels, {0: "H10"}, must_defend=["J", "A"])
    t.draw_declare_bury(0, "H10", ((parse_card("SA"), 2),))
    t.ok(ev.RefereeEndHand(1, "R-10.2", "seat 1 revoked"))
    return t


def test_level_transfer_opponents_go_down_and_may_not_refuse():
    t = dealer_alone_stopped_at_j([10, 5, 3, 8, 9])
    assert t.match.levels[0] == 11 and t.match.leftovers == {0: 3}
    # no more than the levels left over
    out = t.send(ev.PassLevels(0, ((1, 5),)))
    assert refused(out, "§9 级数不浪费") and "three levels left over" in out[0].reason
    out = t.ok(ev.PassLevels(0, ((1, 2),)))
    assert t.match.levels[1] == 3
    assert any(isinstance(e, Announce) and "go down two levels: 5 → 3" in e.text for e in out)
    # seat 1 is on the losing side: 只能乖乖的被升級或被降級
    out = t.send(ev.RefuseLevels(1, 0))
    assert refused(out, "§9 级数不浪费") and "losing side" in out[0].reason
    assert t.match.levels[1] == 3
    # 退至2後，無須再退: seat 2 at 3 goes down 1 only, and the level is spent
    t.ok(ev.PassLevels(0, ((2, 1),)))
    assert t.match.levels[2] == 2 and t.match.leftovers[0] == 0
    assert refused(t.send(ev.PassLevels(0, ((3, 1),))))          # nothing left
    s = t.match.summaries[-1]
    assert s["levels_after"] == [11, 3, 2, 8, 9]
    assert [g[:3] for g in s["transfers"]] == [[0, 1, 2], [0, 2, 1]]


def test_level_transfer_several_opponents_at_once_not_below_2():
    """例 4: 指定對方的任意一個或多個玩家須退相應級數（退至2後，無須再退）."""
    t = dealer_alone_stopped_at_j([10, 2, 4, 6, 9])
    t.ok(ev.PassLevels(0, ((1, 1), (2, 1), (4, 1))))
    assert t.match.levels == [11, 2, 3, 6, 8]


def test_level_transfer_refusals_of_bad_choices():
    t = dealer_alone_stopped_at_j([10, 5, 5, 5, 5])
    assert refused(t.send(ev.PassLevels(1, ((2, 1),))))               # seat 1 was not stopped
    assert refused(t.send(ev.PassLevels(0, ((0, 1),))))               # not to oneself
    assert refused(t.send(ev.PassLevels(0, ((1, 1), (1, 1)))))        # each player once
    assert refused(t.send(ev.PassLevels(0, ((7, 1),))), "table.seat")
    assert refused(t.send(ev.PassLevels(0, ((1, 0),))))
    before = t.match.snapshot()
    assert refused(t.send(ev.RefuseLevels(2, 0)))                    # nothing was passed to seat 2
    assert t.match.snapshot() == before
    # the next deal closes the window: unused levels are the player's loss
    t.ok(ev.Deal(seed=3))
    out = t.send(ev.PassLevels(0, ((1, 1),)))
    assert refused(out, "table.phase")


def test_level_transfer_not_with_fixed_partners(table):
    t = table("classic", {0: "H2"}, start_level="10", must_defend=["J"])
    t.draw(1)
    t.draw()
    t.close()
    t.ok(ev.RefereeEndHand(1, "R-10.2", "attacker revoked"))
    out = t.send(ev.PassLevels(0, ((1, 1),)))
    assert refused(out, "§9 级数不浪费") and "share" in out[0].reason


def friend_found_hand(levels):
    """Seat 0 deals at 10 and calls the first ♠A; seat 2 plays it in trick 1 (2 v 3: the dealer
    holds 2 level rights, the friend 1); an attacker then revokes: declarers go up 1 per right."""
    t = Arranged(levels, {0: "H10 S3", 1: "S4", 2: "SA", 3: "S5", 4: "S6"}, must_defend=["J", "A"])
    t.draw_declare_bury(0, "H10", ((parse_card("SA"), 1),))
    t.play(0, "S3")
    t.play(1, "S4")
    t.play(2, "SA")
    t.play(3, "S5")
    t.play(4, "S6")
    assert t.hand.friends == [2]
    t.ok(ev.RefereeEndHand(3, "R-10.2", "seat 3 revoked"))
    return t


def test_level_transfer_team_mate_goes_up_and_may_refuse():
    t = friend_found_hand([10, 4, 6, 4, 4])
    assert t.match.levels[:3] == [11, 4, 7] and t.match.leftovers == {0: 1}
    # a team-mate and an opponent at once: refused (或)
    assert refused(t.send(ev.PassLevels(0, ((2, 1), (1, 1)))))
    out = t.ok(ev.PassLevels(0, ((2, 1),)))
    assert t.match.levels[2] == 8 and any("may refuse" in e.text for e in out if isinstance(e, Announce))
    # the friend is on the winning side: 有權拒絕被升級
    t.ok(ev.RefuseLevels(2, 0))
    assert t.match.levels[2] == 7 and t.match.leftovers[0] == 1
    assert t.match.summaries[-1]["transfers"][0][-1] is True        # marked refused
    # the level is not wasted: the dealer now makes an opponent go down instead
    t.ok(ev.PassLevels(0, ((4, 1),)))
    assert t.match.levels == [11, 4, 7, 4, 3]
    assert t.match.summaries[-1]["levels_after"] == [11, 4, 7, 4, 3]


def test_level_transfer_up_stops_at_a_must_play_level():
    """例 4: 升到必打的點數不能再升 — a team-mate already at J does not move."""
    t = friend_found_hand([10, 4, 10, 4, 4])
    assert t.match.levels[2] == 11 and t.match.leftovers == {0: 1}
    out = t.ok(ev.PassLevels(0, ((2, 1),)))
    assert t.match.levels[2] == 11
    assert any("stopped at a must-play level" in e.text for e in out if isinstance(e, Announce))


def test_level_transfer_replays_from_the_record():
    t = friend_found_hand([10, 4, 6, 4, 4])
    t.ok(ev.PassLevels(0, ((2, 1),)))
    t.ok(ev.RefuseLevels(2, 0))
    t.ok(ev.PassLevels(0, ((1, 1),)))
    rec = record.to_record(t.match)
    # the record's first hand starts from the arranged levels: replay onto the same start
    m = Match(t.rs)
    m.levels = [10, 4, 6, 4, 4]
    for raw in rec["events"]:
        assert not refused(m.apply(ev.event_from_json(raw)))
    assert m.snapshot() == t.match.snapshot()
    assert [e["type"] for e in rec["events"][-3:]] == ["pass_levels", "refuse_levels", "pass_levels"]
    text = export_text(t.match)
    assert '[Transfer "0 -> 2: up 1, 7 -> 7 (refused)"]' in text and '[Transfer "0 -> 1: down 1, 4 -> 3"]' in text


def dug_at_j(levels, seeds=range(600)):
    """A find-a-friend hand (random bots) where seat 0 deals at J and the attackers dig the kitty
    with J (seed 000 變異打法 5) so that levels are left once the declarers reach 2."""
    rs = Ruleset.from_preset("find-friend-5")
    for seed in seeds:
        m = Match(rs)
        m.levels = list(levels)
        Driver(m, [make_bot("random", seed * 7 + i) for i in range(5)]).play_hand(seed)
        if m._dig is not None:
            return m
    raise AssertionError("no hand dug the kitty with J in the seeds tried; widen the range")


def test_dig_drop_leftover_named_attackers_drop_with_them():
    """變異打法 5: 如果朋友也陪降到2，則由莊家指定對方除摳底玩家外的任何玩家陪降相應級數 — and 陪降 is not
    refused."""
    m2 = dug_at_j([11, 3, 3, 3, 3])
    r = m2.summaries[-1]["result"]
    dealer, friend = r["declarers"]
    digger = r["last_winner"]
    assert dealer == 0 and m2.levels[friend] == 2 and m2.leftovers[0] >= 1
    out = m2.apply(ev.PassLevels(0, ((digger, 1),)))
    assert refused(out, "§9 级数不浪费") and "dug the kitty" in out[0].reason
    assert refused(m2.apply(ev.PassLevels(0, ((friend, 1),))))     # declarers do not take them
    other = next(a for a in r["attackers"] if a != digger and m2.levels[a] > 2)
    before = m2.levels[other]
    m2.apply(ev.PassLevels(0, ((other, 1),)))
    assert m2.levels[other] == before - 1
    out = m2.apply(ev.RefuseLevels(other, 0))                       # winners, yet 陪降 stands
    assert refused(out) and "陪降" in out[0].reason and m2.levels[other] == before - 1
    assert m2.summaries[-1]["changes"]["0"][1] < 11                  # the dealer dropped from J


def test_dig_drop_digger_drops_what_nobody_else_can():
    """變異打法 5: 如果所有可指定的玩家都降到2，則由摳底的人降剩下的級數，直至降到2為止."""
    for start in range(0, 3000, 600):
        m = dug_at_j([11, 2, 2, 2, 2], seeds=range(start, start + 600))
        s = m.summaries[-1]
        digger = s["result"]["last_winner"]
        others = [a for a in s["result"]["attackers"] if a != digger]
        if all(m.levels[a] == 2 for a in others):
            break
    else:
        raise AssertionError("no dig where every other attacker stayed at 2")
    assert m.leftovers.get(0, 0) == 0
    before, after, steps, why = s["changes"][str(digger)]
    assert steps < 0 and "digger" in why and m.levels[digger] == after


def test_dig_drop_naming_past_2_is_refused_and_changes_nothing():
    """變異打法 5: the levels a dug kitty leaves are carried on until nobody can drop them, so the
    dealer may not name an attacker for more than takes it to 2 (§9 级数不浪费, rules.transfer)."""
    for start in range(0, 3000, 600):
        m = dug_at_j([11, 2, 3, 2, 4], seeds=range(start, start + 600))
        r = m.summaries[-1]["result"]
        left = m.leftovers.get(0, 0)
        low = [a for a in r["attackers"] if a != r["last_winner"] and m.levels[a] - 2 < left]
        if low:
            break
    else:
        raise AssertionError("no dig left an attacker with less room than the levels to name")
    other = low[0]
    before = list(m.levels)
    out = m.apply(ev.PassLevels(0, ((other, m.levels[other] - 1),)))
    assert refused(out, "§9 级数不浪费") and "no level goes below 2" in out[0].reason
    assert m.levels == before and m.leftovers[0] == left


def test_dig_drop_the_judge_gives_the_match_levels():
    """The judge's settle query (``levels``, 陪降) gives each seat the level the match gives it after
    a hand dug at J, and leaves the dealer the same levels to name."""
    from shengji_table.rules.cards import level_text
    from shengji_table.rules.judge import judge
    for levels in ([11, 3, 3, 3, 3], [11, 2, 2, 2, 2], [11, 7, 4, 2, 9]):
        m = dug_at_j(levels)
        s = m.summaries[-1]
        r = s["result"]
        sit = {"query": "settle", "preset": "find-friend-5", "dealer": s["dealer"], "declarers": r["declarers"],
               "levels": [level_text(v) for v in s["levels_before"]], "trump": s["trump"] or "NT",
               "attackers_points": r["captured"], "kitty": [], "penalty": r["bonus"] + r["penalty"],
               "last_trick": {"seat": r["last_winner"], "cards": r["last_cards"]}}
        ruled = judge(sit)
        assert ruled["levels_after"] == [level_text(v) for v in m.levels]
        assert ruled["dig_levels"].get("rest", {}).get("levels", 0) == m.leftovers.get(0, 0)
