"""The judge on levels after a hand (seed 000 變異打法): leftover levels passed on and refused in a
``match`` situation's ``transfers`` (§9 级数不浪费, ``check_transfer`` / ``check_refusal``), and each
seat's level after a kitty dug at J or A in a ``settle`` situation (§9 find-a-friend, 陪降)."""
import json
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shengji_table.rules.judge import SituationError, judge
from shengji_table.rules.ruleset import Ruleset
from shengji_table.rules.settle import DigDrop
from shengji_table.rules.transfer import TransferWindow, check_transfer, knock_on

sys.path.insert(0, str(Path(__file__).parent))
from judgekit import example, refused  # noqa: E402


# ---- passing levels on and refusing them (§9 级数不浪费) -----------------------------------------

MATCH = {"query": "match", "preset": "find-friend-5", "options": {"must_defend": ["J"]},
         "levels": ["10", "4", "6", "4", "4"], "dealer": 0, "declarers": [0, 2], "attackers_points": 0}


def test_s9_transfer_example_winner_refuses_loser_may_not():
    """examples/judge/transfer.json: the dealer, stopped at J with 5 levels, gives the friend 1
    (9 → 10), the friend (winning side) refuses it (back to 9, the level back to the dealer), the
    dealer makes seat 1 go down 1 (4 → 3), and seat 1 (losing side) may not refuse."""
    t = judge(example("transfer"))["transfers"]
    assert [(r["seat"], r["kind"], r["valid"]) for r in t["results"]] == [
        (0, "pass", True), (2, "refuse", True), (0, "pass", True), (1, "refuse", False)]
    assert {r["rule"] for r in t["results"]} == {"§9 级数不浪费"}
    assert t["results"][0]["levels"] == {"2": {"from": "9", "to": "10"}}
    assert t["results"][1]["levels"] == {"2": {"from": "10", "to": "9"}}
    assert "losing side" in t["results"][3]["reason"] and "levels" not in t["results"][3]
    assert t["levels_after"] == ["J", "3", "9", "4", "4"] and t["leftovers"] == {"0": 4}


def test_s9_transfer_refusal_by_the_losing_side_changes_nothing():
    t = judge({**MATCH, "transfers": [{"seat": 0, "to": [{"seat": 3, "levels": 2}]}, {"seat": 3, "refuses": 0}]})
    assert [r["valid"] for r in t["transfers"]["results"]] == [True, False]
    assert t["transfers"]["levels_after"][3] == "2" and t["transfers"]["leftovers"] == {"0": 3}


@pytest.mark.parametrize("transfers,reason", [
    ([{"seat": 1, "to": [{"seat": 3, "levels": 1}]}], "no levels left over"),
    ([{"seat": 0, "to": [{"seat": 2, "levels": 6}]}], "five levels left over, not 6"),
    ([{"seat": 0, "to": [{"seat": 2, "levels": 1}, {"seat": 1, "levels": 1}]}], "not both at once"),
    ([{"seat": 0, "to": [{"seat": 0, "levels": 1}]}], "to other players"),
    ([{"seat": 0, "to": [{"seat": 2, "levels": 0}]}], "1 level or more"),
    ([{"seat": 0, "to": [{"seat": 2, "levels": 1}]}, {"seat": 0, "to": [{"seat": 1, "levels": 1}]}], "already chose"),
    ([{"seat": 2, "refuses": 0}], "passed no levels to seat 2"),
])
def test_s9_transfer_bad_choices_are_refused_rulings(transfers, reason):
    results = judge({**MATCH, "transfers": transfers})["transfers"]["results"]
    assert results[-1]["valid"] is False and reason in results[-1]["reason"]


def test_s9_transfer_fixed_sides_share_their_level_every_pass_refused():
    r = judge({"query": "match", "levels": ["Q", "5", "Q", "5"], "dealer": 0, "attackers_points": 0,
               "options": {"must_defend": ["K"]}, "transfers": [{"seat": 0, "to": [{"seat": 2, "levels": 1}]}]})
    res = r["transfers"]["results"][0]
    assert res["valid"] is False and "partners here share theirs" in res["reason"]
    assert r["transfers"]["levels_after"] == r["levels_after"]


@pytest.mark.parametrize("transfers,words", [
    ("x", ["'transfers' is a list"]),
    ([{"seat": 0}], ["transfers[0] is"]),
    ([{"seat": 0, "to": []}], ["non-empty list"]),
    ([{"seat": 0, "to": [{"seat": 9, "levels": 1}]}], ["no seat 9"]),
    ([{"seat": 0, "to": [{"seat": 2, "levels": "one"}]}], ["whole number"]),
    ([{"seat": 0, "refuses": -1}], ["transfers[0].refuses"]),
])
def test_s9_transfer_malformed_refused(transfers, words):
    refused({**MATCH, "transfers": transfers}, *words)


# ---- the knock-on drop (陪降) ---------------------------------------------------------------------

KITTY = ["HK", "C3", "C4", "D6", "D7", "H8", "C9", "DJ"]
DUG = {"query": "settle", "preset": "find-friend-5", "trump": "S", "dealer": 0, "declarers": [0, 2],
       "attackers_points": 80, "kitty": KITTY, "last_trick": {"seat": 1, "cards": ["SJ", "SJ"]}}


def test_s9_knock_on_example_friend_carries_the_dealers_rest_then_named_attackers():
    """examples/judge/knock-on.json: a pair of J digs: dealer −8 (J → 3), friend −4 + 0 carried
    (3 → 2, 3 left); the attackers first go up 1 (they took 120); the dealer names seats 3 and 4."""
    r = judge(example("knock-on"))
    d = r["dig_levels"]
    assert d["drops"]["0"] == {"from": "J", "to": "3"} and d["drops"]["2"] == {"from": "3", "to": "2"}
    assert d["drop_to"]["valid"] is True and "rest" not in d
    assert r["levels_before"] == ["J", "3", "3", "3", "4"]
    assert r["levels_after"] == ["3", "4", "2", "2", "4"]


def test_s9_knock_on_dealer_past_2_the_friend_drops_the_rest():
    """莊家降到2後，剩下的級數由朋友陪降: a tractor of J (24: dealer 16, friend 8) takes the dealer
    J → 2 (7 left over); the friend drops 8 + 7 = 15, K → 2, and 4 are left to name."""
    sit = {**DUG, "levels": ["J", "3", "K", "3", "3"], "last_trick": {"seat": 1, "cards": ["SJ", "SJ", "HJ", "HJ"]}}
    r = judge(sit)
    assert r["dig_drop"]["dealer"] == 16 and r["dig_drop"]["friend"] == 8
    assert r["dig_levels"]["drops"]["0"] == {"from": "J", "to": "2"}
    assert r["dig_levels"]["drops"]["2"] == {"from": "K", "to": "2"}          # 11 of the 15
    assert r["dig_levels"]["rest"] == {"levels": 4, "named_by": 0, "reason": r["dig_levels"]["rest"]["reason"]}
    assert "other than the digger" in r["dig_levels"]["rest"]["reason"]


def test_s9_knock_on_a_drop_below_2_is_refused():
    """The dealer may not name an attacker for more levels than take it to 2 (no level goes below 2):
    the naming is refused, nothing moves, and the rest is still to name."""
    r = judge({**DUG, "levels": ["J", "3", "3", "3", "3"], "drop_to": [{"seat": 3, "levels": 3}]})
    named = r["dig_levels"]["drop_to"]
    assert named["valid"] is False
    assert "no level goes below 2" in named["reason"] and "seat 3 is at 4" in named["reason"]
    assert r["dig_levels"]["rest"]["levels"] == 3 and r["levels_after"][3] == "4"


@pytest.mark.parametrize("drop_to,reason", [
    ([{"seat": 1, "levels": 1}], "seat 1 dug the kitty"),
    ([{"seat": 2, "levels": 1}], "go to attackers"),
    ([{"seat": 3, "levels": 2}, {"seat": 4, "levels": 2}], "three levels left over, not 4"),
])
def test_s9_knock_on_bad_namings_are_refused(drop_to, reason):
    r = judge({**DUG, "levels": ["J", "3", "3", "3", "3"], "drop_to": drop_to})
    named = r["dig_levels"]["drop_to"]
    assert named["valid"] is False and reason in named["reason"]


def test_s9_knock_on_the_digger_drops_what_nobody_else_can():
    """如果所有可指定的玩家都降到2，則由摳底的人降剩下的級數: the other attackers reach 2 by the
    naming, and the digger drops the last level at once."""
    r = judge({**DUG, "levels": ["J", "5", "3", "2", "2"],
               "drop_to": [{"seat": 3, "levels": 1}, {"seat": 4, "levels": 1}]})
    assert r["dig_levels"]["drop_to"]["valid"] is True
    assert r["dig_levels"]["drops"]["1"] == {"from": "6", "to": "5"} and "rest" not in r["dig_levels"]
    assert r["dig_levels"]["digger"]["seat"] == 1
    assert r["levels_after"] == ["3", "5", "2", "2", "2"]


def test_s9_knock_on_at_a_the_friend_names_any_attacker():
    sit = {**DUG, "levels": ["A", "3", "3", "5", "5"], "last_trick": {"seat": 1, "cards": ["SA"]}}
    r = judge(sit)
    assert r["dig_levels"]["drops"]["0"] == {"from": "A", "to": "J"}
    assert r["dig_levels"]["rest"]["named_by"] == 2 and r["dig_levels"]["rest"]["levels"] == 2
    r = judge({**sit, "drop_to": [{"seat": 1, "levels": 1}, {"seat": 3, "levels": 1}]})   # the digger too, at A
    assert r["dig_levels"]["drop_to"]["valid"] is True and r["levels_after"] == ["J", "2", "2", "4", "5"]


def test_s9_knock_on_levels_without_a_dig_give_the_settlement_only():
    r = judge({"query": "settle", "levels": ["5", "9", "5", "9"], "dealer": 0, "attackers_points": 0, "kitty": []})
    assert r["levels_after"] == ["8", "9", "8", "9"] and "dig_levels" not in r


@pytest.mark.parametrize("extra,words", [
    ({"drop_to": [{"seat": 3, "levels": 1}]}, ["'drop_to' goes with 'levels'"]),
    ({"levels": ["J", "3", "3", "3", "3"], "attackers_points": 20, "drop_to": [{"seat": 3, "levels": 1}]},
     ["nothing is left to drop"]),
    ({"levels": ["J", "3", "3", "3", "3"], "drop_to": [{"seat": 7, "levels": 1}]}, ["no seat 7"]),
    ({"levels": ["J", "3", "3", "3", "3"], "drop_to": {"seat": 3}}, ["drop_to is a non-empty list"]),
    ({"levels": ["J", "3", "3", "3"]}, ["a list of 5 levels"]),
])
def test_s9_knock_on_malformed_refused(extra, words):
    refused({**DUG, **extra}, *words)


@given(st.integers(2, 14), st.integers(2, 14), st.lists(st.integers(2, 14), min_size=3, max_size=3),
       st.sampled_from([6, 12, 18, 24, 36]), st.booleans())
def test_s9_knock_on_property_never_below_2_and_nothing_lost_while_someone_can_drop(dealer_lv, friend_lv, att,
                                                                                    total, at_j):
    """For any levels and drop: no level goes below 2; the levels dropped plus those left to name
    are the whole drop, unless at J every attacker, the digger included, is at 2."""
    drop = DigDrop(total * 2 // 3, total // 3, "§9 find-a-friend", "") if at_j else DigDrop(3, 3, "", "")
    levels = [14 if not at_j else dealer_lv, att[0], friend_lv, att[1], att[2]]
    k = knock_on(levels, drop, [0, 2], 1, at_j=at_j)
    assert all(lv >= 2 for lv in k.levels)
    dropped = sum(levels[s] - k.levels[s] for s in range(5))
    assert all(levels[s] >= k.levels[s] for s in range(5))
    if dropped + k.rest < drop.dealer + drop.friend:
        assert at_j and all(k.levels[s] == 2 for s in (1, 3, 4))
    else:
        assert dropped + k.rest == drop.dealer + drop.friend


@given(st.lists(st.integers(2, 14), min_size=5, max_size=5), st.integers(3, 4), st.integers(1, 14))
def test_s9_knock_on_property_a_naming_stands_only_down_to_2(levels, seat, n):
    """check_transfer with a dug kitty: naming an attacker (not the digger) for n levels stands
    exactly when it takes that attacker no lower than 2."""
    rs = Ruleset.from_preset("find-friend-5")
    k = knock_on(levels, DigDrop(0, 0, "", ""), [0, 2], 1, at_j=True)
    window = TransferWindow((0, 2), (1, 3, 4), (1, 3, 4), tuple(levels))
    verdict = check_transfer(rs, window, 0, ((seat, n),), leftovers={0: 14}, dig=k.dig)
    assert bool(verdict) == (n <= levels[seat] - 2)


J_UNITS = [["SJ"], ["HJ"], ["SJ", "SJ"], ["HJ", "HJ"], ["SJ", "SJ", "HJ", "HJ"], ["SA"]]
LEVELS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


@given(st.lists(st.sampled_from(LEVELS), min_size=4, max_size=4), st.sampled_from(["J", "A"]),
       st.sampled_from(J_UNITS), st.integers(0, 100).map(lambda n: 5 * n),
       st.lists(st.tuples(st.integers(0, 4), st.integers(-1, 12)), max_size=3, unique_by=lambda t: t[0]))
def test_s9_knock_on_property_through_the_judge_no_level_below_2(others, dealer_level, unit, points, named):
    """For any levels, dug unit, points and naming: every level after the settle query is 2 or
    more; a naming that stands moves each named seat down by exactly its levels."""
    sit = {**DUG, "levels": [dealer_level, *others], "attackers_points": min(points, 190),
           "last_trick": {"seat": 1, "cards": unit}}
    if named:
        sit["drop_to"] = [{"seat": t, "levels": k} for t, k in named]
    try:
        r = judge(sit)
    except SituationError as exc:               # drop_to where nothing was dug; ♥J off-suit at A
        assert "nothing is left to drop" in str(exc) or "all of one suit" in str(exc)
        return
    after = [LEVELS.index(v) + 2 for v in r["levels_after"]]
    assert all(v >= 2 for v in after)
    dig = r.get("dig_levels", {})
    if dig.get("drop_to", {}).get("valid"):
        for t, k in named:
            assert LEVELS.index(dig["drops"][str(t)]["from"]) - LEVELS.index(dig["drops"][str(t)]["to"]) >= k


# ---- any value in a new key: a ruling or a clear SituationError ---------------------------------

ANY = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20) | st.sampled_from(["5", "J", "A", "jokers", "HA", "S", "x"]),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(
        st.sampled_from(["seat", "levels", "to", "refuses", "cards", "declarers", "attackers"]), inner, max_size=3),
    max_leaves=15)
BASES = [
    ({**MATCH, "transfers": [{"seat": 0, "to": [{"seat": 2, "levels": 1}]}]}, ["transfers", "levels", "dealer"]),
    ({**DUG, "levels": ["J", "3", "3", "3", "3"], "drop_to": [{"seat": 3, "levels": 1}]},
     ["levels", "drop_to", "dealer", "level"]),
    ({"query": "lead", "level": "10", "trump": "S", "previous": [{"seat": 0, "cards": ["HA"]},
      {"seat": 1, "cards": ["S3"]}, {"seat": 2, "cards": ["H4"]}, {"seat": 3, "cards": ["H5"]}]},
     ["previous", "dealer", "levels", "hands"]),
    ({"level": "10", "trump": "S", "first_trick": True, "dealer": 0, "trick": [{"seat": 0, "cards": ["HK"]}]},
     ["first_trick", "dealer", "previous", "levels"]),
    ({"query": "level", "levels": ["5", "7", "5", "7"], "dealer": 1}, ["levels", "dealer", "hand", "level"]),
]


@given(st.sampled_from(range(len(BASES))), st.data(), ANY)
def test_s9_r5_r2_6_property_new_keys_any_value_rules_or_refuses_cleanly(i, data, value):
    """R-2.6, R-5.4, R-5.5, §9: any JSON value in any of the new keys gives a ruling or a
    SituationError with a message — never another exception."""
    base, keys = BASES[i]
    sit = {**base, data.draw(st.sampled_from(keys)): value}
    try:
        out = judge(sit)
    except SituationError as exc:
        assert str(exc)
    else:
        json.dumps(out)
