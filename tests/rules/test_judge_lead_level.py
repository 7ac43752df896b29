"""The judge on who leads (R-5.4, R-5.5) and where the level card comes from (R-2.6): the lead and
level queries, the lead checked in a trick, the level derived in trick/declare/settle/match, and
every contradiction refused as a malformed situation."""
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shengji_table.rules.cards import ALL_FACES, level_text
from shengji_table.rules.judge import SituationError, judge

sys.path.insert(0, str(Path(__file__).parent))
from judgekit import example, refused  # noqa: E402

FACES = [str(c) for c in ALL_FACES]
LEVEL_NAMES = [level_text(n) for n in range(2, 15)]


PREVIOUS = [{"seat": 0, "cards": ["HA"]}, {"seat": 1, "cards": ["S3"]},
            {"seat": 2, "cards": ["H4"]}, {"seat": 3, "cards": ["H5"]}]


# ---- who leads the first trick (R-5.5) ---------------------------------------------------------

def test_r5_5_lead_query_the_dealer_leads_the_first_trick():
    r = judge({"query": "lead", "dealer": 2})
    assert (r["leader"], r["rule"]) == (2, "R-5.5") and "seat 2" in r["reason"]


def test_r5_5_lead_query_six_players_and_find_a_friend_the_dealer_leads():
    for preset, dealer in (("six-players", 5), ("find-friend-5", 3), ("three-players", 1)):
        assert judge({"query": "lead", "preset": preset, "dealer": dealer})["leader"] == dealer


def test_r5_5_trick_first_trick_led_by_the_dealer_stands():
    r = judge({"level": "10", "trump": "S", "first_trick": True, "dealer": 2,
               "trick": [{"seat": 2, "cards": ["HK"]}, {"seat": 3, "cards": ["H3"]}]})
    assert r["lead"] == {"seat": 2, "rule": "R-5.5", "reason": "the dealer, seat 2, leads the first trick of the hand."}
    assert r["winner"] == 2


@pytest.mark.parametrize("leader", [0, 1, 3])
def test_r5_5_first_trick_led_by_another_seat_is_refused(leader):
    """Another seat, the dealer's partner (seat 0, 莊家方) included, may not lead the first trick."""
    refused({"level": "10", "trump": "S", "first_trick": True, "dealer": 2,
             "trick": [{"seat": leader, "cards": ["HK"]}]},
            f"seat {leader} leads the first trick", "the dealer, seat 2", "R-5.5")


def test_r5_5_first_trick_false_checks_nothing():
    r = judge({"level": "10", "trump": "S", "first_trick": False, "trick": [{"seat": 1, "cards": ["HK"]}]})
    assert "lead" not in r and r["winner"] == 1


@pytest.mark.parametrize("extra,words", [
    ({"first_trick": True}, ["'first_trick' needs 'dealer'"]),
    ({"first_trick": "yes", "dealer": 0}, ["'first_trick' is true or false"]),
    ({"dealer": 0}, ["'dealer' in a trick goes with 'first_trick'"]),
    ({"first_trick": True, "dealer": 0, "previous": PREVIOUS}, ["do not go together"]),
    ({"first_trick": True, "dealer": 7}, ["no seat 7"]),
])
def test_r5_5_trick_lead_keys_malformed(extra, words):
    refused({"level": "10", "trump": "S", "trick": [{"seat": 0, "cards": ["HK"]}], **extra}, *words)


# ---- the next trick: the previous trick's winner leads (R-5.4) ----------------------------------

def test_r5_4_example_lead_the_ruff_wins_and_leads_next():
    """examples/judge/lead.json: ♠3 ruffs ♥A (spades trump) — seat 1 leads the next trick."""
    r = judge(example("lead"))
    assert (r["leader"], r["rule"], r["previous"]) == (1, "R-5.4", {"winner": 1, "points": 5})
    assert r["unchecked"]


def test_r5_4_lead_query_with_hands_an_illegal_follow_does_not_win():
    """Seat 1 holds a heart and ruffs: the revoke is taken back (R-4.4), so seat 0's ♥A wins and
    seat 0 leads."""
    sit = {**example("lead"), "hands": {"1": ["S3", "H2"]}}
    r = judge(sit)
    assert r["leader"] == 0 and r["previous"]["winner"] == 0


def test_r5_4_lead_query_level_from_levels_and_dealer():
    """At level 5 (the dealer's, R-2.6) ♥5 is a trump and wins the previous trick."""
    sit = {"query": "lead", "trump": "S", "levels": ["5", "9", "5", "9"], "dealer": 0, "previous": PREVIOUS}
    assert judge(sit)["leader"] == 3
    sit["levels"] = ["10", "9", "10", "9"]
    assert judge(sit)["leader"] == 1


def test_r5_4_trick_led_by_the_previous_winner_stands():
    r = judge({"level": "10", "trump": "S", "previous": PREVIOUS, "trick": [{"seat": 1, "cards": ["HK"]}]})
    assert r["lead"]["seat"] == 1 and r["lead"]["rule"] == "R-5.4"


@pytest.mark.parametrize("leader", [0, 2, 3])
def test_r5_4_trick_led_by_another_seat_is_refused(leader):
    refused({"level": "10", "trump": "S", "previous": PREVIOUS, "trick": [{"seat": leader, "cards": ["HK"]}]},
            "trick[0]", f"seat {leader} leads", "seat 1 won the previous trick", "R-5.4")


@pytest.mark.parametrize("previous,words", [
    (PREVIOUS[:3], ["whole previous trick", "4 plays"]),
    ("HA", ["whole previous trick"]),
    ([PREVIOUS[0], PREVIOUS[2], PREVIOUS[1], PREVIOUS[3]], ["previous:", "out of turn"]),
    ([*PREVIOUS[:3], {"seat": 3, "cards": ["XX"]}], ["previous:"]),
    ([{"seat": 0, "cards": ["HK"]}, {"seat": 1, "cards": ["HK"]}, {"seat": 2, "cards": ["H4"]},
      {"seat": 3, "cards": ["H5"]}], ["HK appears 3 times", "the previous trick and this one"]),
])
def test_r5_4_previous_malformed(previous, words):
    refused({"level": "10", "trump": "S", "previous": previous, "trick": [{"seat": 1, "cards": ["HK"]}]}, *words)


def test_r5_4_lead_query_needs_dealer_or_previous():
    refused({"query": "lead"}, "'dealer'", "'previous'")
    refused({"query": "lead", "dealer": 0, "level": "5"}, "'level' is for ruling a 'previous' trick")
    refused({"query": "lead", "trump": "S", "previous": PREVIOUS}, "'level' is missing")


@st.composite
def whole_tricks(draw):
    """A whole four-player trick of singles (distinct faces, so no face is over two decks), any
    leader, any level and trump, and a fifth card to lead the next trick with."""
    cards = draw(st.lists(st.sampled_from(FACES), min_size=5, max_size=5, unique=True))
    leader = draw(st.integers(0, 3))
    plays = [{"seat": (leader + i) % 4, "cards": [cards[i]]} for i in range(4)]
    return (draw(st.sampled_from(LEVEL_NAMES)), draw(st.sampled_from(["S", "H", "C", "D", "NT"])), plays, cards[4])


@given(whole_tricks())
def test_r5_4_property_the_next_leader_is_always_the_previous_winner(case):
    """For every whole trick: the lead query names its winner (as the trick query rules it), a trick
    led by that seat after it stands, and one led by any other seat is refused."""
    level, trump, plays, card = case
    winner = judge({"level": level, "trump": trump, "trick": plays})["winner"]
    base = {"level": level, "trump": trump, "previous": plays}
    assert judge({"query": "lead", **base})["leader"] == winner
    for seat in range(4):
        sit = {**base, "trick": [{"seat": seat, "cards": [card]}]}
        if seat == winner:
            assert judge(sit)["lead"]["seat"] == winner
        else:
            with pytest.raises(SituationError, match="R-5.4"):
                judge(sit)


# ---- the level card from the match (R-2.6) ------------------------------------------------------

def test_r2_6_example_level_is_the_dealers_level():
    r = judge(example("level"))
    assert (r["level"], r["rule"], r["dealer"]) == ("J", "R-2.6", 3) and "當前莊家的級別就是級牌" in r["reason"]


def test_r2_6_level_query_first_hand_starts_at_2_or_the_house_start():
    assert judge({"query": "level", "hand": 1})["level"] == "2"
    assert judge({"query": "level", "hand": 1, "levels": ["2"] * 4})["level"] == "2"
    assert judge({"query": "level", "hand": 1, "options": {"start_level": "5"}})["level"] == "5"


def test_r2_6_level_query_by_side_and_the_jokers_level():
    assert judge({"query": "level", "levels": {"declarers": "9", "attackers": "4"}, "dealer": 1})["level"] == "9"
    r = judge({"query": "level", "options": {"match_end": "beyond-a"}, "levels": ["jokers", "7", "5", "7"],
               "dealer": 0})
    assert r["level"] == "jokers"


@pytest.mark.parametrize("sit,words", [
    ({"query": "level", "levels": ["5", "7", "5", "7"], "dealer": 1, "level": "5"},
     ["'level' is 5", "seat 1, is at 7", "the level card is 7 (R-2.6)"]),
    ({"query": "level", "hand": 1, "levels": ["5", "2", "2", "2"]}, ["levels[0] is 5", "starts (從打2開始)", "R-2.6"]),
    ({"query": "level", "hand": 1, "level": "3"}, ["'level' is 3", "every seat is at 2", "R-2.6"]),
    ({"query": "level", "levels": ["5", "7", "5", "7"]}, ["needs 'dealer'"]),
    ({"query": "level"}, ["give 'levels'"]),
    ({"query": "level", "hand": 0}, ["from 1"]),
    ({"query": "level", "levels": ["5", "7", "5"], "dealer": 0}, ["a list of 4 levels"]),
    ({"query": "level", "levels": ["5", "1", "5", "7"], "dealer": 0}, ["levels[1]"]),
    ({"query": "level", "preset": "find-friend-5", "levels": {"declarers": "9", "attackers": "4"}, "dealer": 0},
     ["fixed sides only"]),
])
def test_r2_6_level_query_contradictions_and_malformed_refused(sit, words):
    refused(sit, *words)


def test_r2_6_trick_plays_the_dealers_level():
    """♥5 over ♥A: a trump at level 5 (seat 1 wins), a plain heart at level 10 (seat 0 wins)."""
    sit = {"trump": "S", "dealer": 0, "trick": [{"seat": 0, "cards": ["HA"]}, {"seat": 1, "cards": ["H5"]}]}
    assert judge({**sit, "levels": ["5", "9", "5", "9"]})["winner"] == 1
    assert judge({**sit, "levels": ["10", "9", "10", "9"]})["winner"] == 0
    assert judge({**sit, "levels": ["5", "9", "5", "9"], "level": "5"})["winner"] == 1


@pytest.mark.parametrize("query_keys", [
    {"trump": "S", "trick": [{"seat": 0, "cards": ["HA"]}]},
    {"query": "declare", "declarations": [{"seat": 1, "cards": ["H6"]}], "hand": 2},
    {"query": "settle", "attackers_points": 40, "kitty": []},
])
def test_r2_6_a_level_that_contradicts_the_match_is_refused_in_every_query(query_keys):
    refused({**query_keys, "levels": ["5", "9", "5", "9"], "dealer": 0, "level": "6"},
            "'level' is 6", "seat 0, is at 5", "R-2.6")


def test_r2_6_declare_first_hand_plays_at_the_start_level():
    r = judge({"query": "declare", "hand": 1, "declarations": [{"seat": 1, "cards": ["H2"]}]})
    assert r["standing"]["trump"] == "H"
    refused({"query": "declare", "hand": 1, "level": "10", "declarations": []}, "'level' is 10", "R-2.6")


def test_r2_6_settle_finds_tractors_at_the_dealers_level():
    """♠5♠5♠6♠6 is no tractor at level 5 (the 5s are level cards): a pair wins the last trick, ×4."""
    sit = {"query": "settle", "trump": "S", "dealer": 0, "attackers_points": 40, "kitty": ["HK", "C3", "C4", "D6",
           "D7", "H8", "C9", "DJ"], "last_trick": {"seat": 1, "cards": ["S7", "S7", "S6", "S6"]}}
    assert judge({**sit, "levels": ["5", "9", "5", "9"]})["kitty_multiplier"] == 16
    assert judge({**sit, "levels": ["6", "9", "6", "9"]})["kitty_multiplier"] == 4
    assert "notes" not in judge({**sit, "levels": ["6", "9", "6", "9"]})


def test_r2_6_match_gives_the_level_card_and_the_next_one():
    r = judge(example("match"))
    assert (r["level"], r["next_level"], r["next_dealer"]) == ("Q", "K", 2)
    r = judge({"query": "match", "levels": ["Q", "5", "Q", "5"], "dealer": 0, "attackers_points": 85})
    assert (r["next_dealer"], r["next_level"]) == (1, "5")
    r = judge({"query": "match", "levels": ["A", "5", "A", "5"], "dealer": 0, "attackers_points": 0})
    assert r["over"] and r["next_level"] is None


@given(st.lists(st.sampled_from(LEVEL_NAMES), min_size=5, max_size=5), st.integers(0, 4),
       st.sampled_from(LEVEL_NAMES))
def test_r2_6_property_the_level_card_is_the_dealers_level(levels, dealer, other):
    """For any levels and dealer: the level query answers the dealer's level, a situation giving
    that level stands, and any other level is refused."""
    sit = {"query": "level", "preset": "find-friend-5", "levels": levels, "dealer": dealer}
    assert judge(sit)["level"] == levels[dealer]
    assert judge({**sit, "level": levels[dealer]})["level"] == levels[dealer]
    if other != levels[dealer]:
        with pytest.raises(SituationError, match="R-2.6"):
            judge({**sit, "level": other})


def test_r2_6_match_next_level_counts_the_levels_passed_on():
    """Find a friend: the attackers take over (next dealer seat 1) and go up 2; seat 3, stopped at
    J, passes its leftover level to seat 1 — the next level card is seat 1's after it: 8."""
    sit = {"query": "match", "preset": "find-friend-5", "options": {"must_defend": ["J"]},
           "levels": ["6", "5", "6", "10", "4"], "dealer": 0, "declarers": [0, 2], "attackers_points": 160}
    r = judge(sit)
    assert (r["next_dealer"], r["next_level"], r["leftovers"]) == (1, "7", {"3": 1})
    r = judge({**sit, "transfers": [{"seat": 3, "to": [{"seat": 1, "levels": 1}]}]})
    assert r["transfers"]["results"][0]["valid"] is True
    assert r["next_level"] == "8" and r["level"] == "6"
