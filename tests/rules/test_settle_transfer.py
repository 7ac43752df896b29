"""级数不浪费 (§9, seed 000 變異打法) as pure values: LevelGift, TransferWindow, DugKitty, and the
rulings check_transfer / check_refusal give (the match only applies them)."""
import json

import pytest

from shengji_table.rules.ruleset import Ruleset
from shengji_table.rules.transfer import (TRANSFER_RULE, DugKitty, LevelGift, TransferWindow, check_refusal,
                                          check_transfer, gift_level, levels_in_words)
from shengji_table.rules.verdict import Verdict

FF = Ruleset.from_preset("find-friend-5", must_defend=["J", "A"])
FIXED = Ruleset.from_preset("classic", must_defend=["J"])
# dealer 0 and friend 2 won; seat 0 was stopped at J with levels left over
WINDOW = TransferWindow(declarers=(0, 2), attackers=(1, 3, 4), winners=(0, 2), base=(11, 4, 7, 4, 4))


def check(to, seat=0, window=WINDOW, leftovers=None, dig=None, ruleset=FF):
    return check_transfer(ruleset, window, seat, to, leftovers={0: 2} if leftovers is None else leftovers, dig=dig)


def test_s9_transfer_level_gift_round_trips_to_the_summary_list():
    g = LevelGift(0, 2, 1, True, 7, 8)
    assert g.to_json() == [0, 2, 1, True, 7, 8, False]           # the hand summary's "transfers" rows
    assert json.dumps(g.to_json()) == "[0, 2, 1, true, 7, 8, false]"
    assert LevelGift.from_json(json.loads(json.dumps(g.to_json()))) == g
    refused = LevelGift.from_json([0, 2, 1, True, 7, 7, True])
    assert refused.refused and refused.to_json()[-1] is True


def test_s9_transfer_window_replays_gifts_up_and_down():
    w = TransferWindow((0, 2), (1, 3, 4), (0, 2), (11, 4, 7, 4, 4),
                       (LevelGift(0, 2, 1, True, 0, 0), LevelGift(0, 4, 3, False, 0, 0)))
    w = w.replayed(FF, 2).replayed(FF, 4)
    assert [g.to_json() for g in w.gifts] == [[0, 2, 1, True, 7, 8, False], [0, 4, 3, False, 4, 2, False]]
    assert w.level_of(2) == 8 and w.level_of(4) == 2 and w.level_of(1) == 4
    assert w.team_of(2) == (0, 2) and w.team_of(3) == (1, 3, 4)
    assert w.choice_of(0) == {True, False} and w.choice_of(1) == set()


def test_s9_transfer_refused_gift_frees_the_choice_and_the_level():
    w = TransferWindow((0, 2), (1, 3, 4), (0, 2), (11, 4, 7, 4, 4), (LevelGift(0, 2, 1, True, 7, 8),))
    gift = w.standing_gift(0, 2)
    assert gift is not None and w.standing_gift(0, 1) is None
    w = w.refusing(gift).replayed(FF, 2)
    assert w.gifts == (LevelGift(0, 2, 1, True, 7, 7, True),)
    assert w.level_of(2) == 7 and w.choice_of(0) == set() and w.standing_gift(0, 2) is None


def test_s9_transfer_gift_level_stops_at_a_must_play_level_and_at_2():
    assert gift_level(FF, 10, 2, up=True) == 11                  # 升到必打的點數不能再升
    assert gift_level(FF, 11, 1, up=True) == 11
    assert gift_level(FF, 5, 2, up=True) == 7
    assert gift_level(FF, 3, 3, up=False) == 2                   # 退至2後，無須再退
    assert gift_level(Ruleset.from_preset("find-friend-5"), 13, 3, up=True) == 13   # no match won by a gift


def test_s9_transfer_dug_kitty_excludes_the_digger_only_at_j():
    assert DugKitty(giver=0, digger=3, at_j=True, declarers=(0, 2)).excluded == 3
    assert DugKitty(giver=2, digger=3, at_j=False, declarers=(0, 2)).excluded is None


def test_s9_transfer_check_accepts_team_mates_up_or_opponents_down():
    up = check(((2, 1),))
    assert isinstance(up, Verdict) and up.ok and up.rule == TRANSFER_RULE
    assert check(((1, 1), (3, 1))).ok


@pytest.mark.parametrize("to, rule, words", [
    (((2, 1), (1, 1)), TRANSFER_RULE, "not both at once"),                 # 或
    (((1, 3),), TRANSFER_RULE, "two levels left over, not 3"),
    (((1, 1), (1, 1)), TRANSFER_RULE, "each player is named once"),
    (((0, 1),), TRANSFER_RULE, "passed to other players"),
    (((1, 0),), TRANSFER_RULE, "pass 1 level or more, not 0"),
    (((5, 1),), "table.seat", "there is no seat 5 at a table of 5"),
    (((-1, 1),), "table.seat", "there is no seat -1"),
])
def test_s9_transfer_check_refuses_bad_choices(to, rule, words):
    v = check(to)
    assert not v and v.rule == rule and words in v.reason


def test_s9_transfer_check_refuses_outside_the_window_and_with_fixed_partners():
    assert check(((2, 1),), ruleset=FIXED).reason.endswith("partners here share theirs")
    v = check(((2, 1),), window=None)
    assert not v and v.rule == "table.phase"
    v = check(((2, 1),), seat=7)
    assert not v and v.rule == "table.seat"
    v = check(((2, 1),), seat=1)
    assert not v and "seat 1 has no levels left over" in v.reason


def test_s9_transfer_check_keeps_the_way_already_chosen():
    w = TransferWindow((0, 2), (1, 3, 4), (0, 2), (11, 4, 7, 4, 4), (LevelGift(0, 1, 1, False, 4, 3),))
    v = check(((2, 1),), window=w)
    assert not v and v.reason == "seat 0 already chose to make opponents go down"
    assert check(((3, 1),), window=w).ok
    w = w.refusing(w.gifts[0])                                   # (a refusal frees the choice)
    assert check(((2, 1),), window=w).ok


def test_s9_transfer_check_dug_kitty_levels_go_to_attackers_not_the_digger():
    dig = DugKitty(giver=0, digger=3, at_j=True, declarers=(0, 2))
    v = check(((2, 1),), dig=dig)
    assert not v and "go to attackers (陪降)" in v.reason
    v = check(((3, 1),), dig=dig)
    assert not v and v.reason == "seat 3 dug the kitty: it drops only when nobody else can"
    assert check(((1, 1),), dig=dig).ok
    assert check(((3, 1),), dig=DugKitty(giver=0, digger=3, at_j=False, declarers=(0, 2))).ok


def test_s9_transfer_check_refusal_only_by_winners_and_not_after_a_dig():
    w = TransferWindow((0, 2), (1, 3, 4), (0, 2), (11, 4, 7, 4, 4),
                       (LevelGift(0, 2, 1, True, 7, 8), LevelGift(0, 1, 1, False, 4, 3)))
    assert check_refusal(w, 2, 0).ok
    v = check_refusal(w, 1, 0)
    assert not v and "losing side" in v.reason and v.rule == TRANSFER_RULE
    v = check_refusal(w, 3, 0)
    assert not v and v.reason == "seat 0 has passed no levels to seat 3"
    assert check_refusal(None, 2, 0).rule == "table.phase"
    v = check_refusal(w, 2, 0, dig=DugKitty(giver=0, digger=3, at_j=True, declarers=(0, 2)))
    assert not v and "陪降" in v.reason


def test_s9_transfer_levels_in_words():
    assert [levels_in_words(n) for n in (1, 2, 6, 7)] == ["one level", "two levels", "six levels", "7 levels"]
