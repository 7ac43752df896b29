"""The judge rules on everything a referee asks (docs/judge.md): every play of a trick, the match,
the deal and bidding, find a friend, the hand number and first dealer, the failed throw's beater."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji_table.rules.judge import SituationError, judge


def trick(*plays, hands=None, **extra):
    sit = {"preset": "classic", "level": "10", "trump": "S",
           "trick": [{"seat": s, "cards": c.split()} for s, c in plays], **extra}
    if hands is not None:
        sit["hands"] = {str(k): v.split() for k, v in hands.items()}
    return sit


# ---- every play of a trick ----------------------------------------------------------------------

def test_R4_4_revoke_by_seat_1_in_a_four_play_trick_shows_illegal():
    """Seat 1 holds a heart but ruffs the heart lead: its entry is illegal (R-4.4), the last play's is legal."""
    r = judge(trick((0, "HA"), (1, "S3"), (2, "H4"), (3, "H5"),
                    hands={1: "S3 H2", 2: "H4 C3", 3: "H5 D3"}))
    assert [p["seat"] for p in r["plays"]] == [0, 1, 2, 3]
    assert r["plays"][1]["legal"] is False and r["plays"][1]["rule"] == "R-4.4"
    assert r["plays"][2]["legal"] is True and r["plays"][3]["legal"] is True
    assert (r["legal"], r["rule"]) == (True, r["plays"][3]["rule"])      # the top level is the last play
    assert r["winner"] == 0                                              # the revoke does not win


def test_R4_1_lead_entry_and_unchecked_hands_per_play():
    r = judge(trick((0, "HA HA"), (1, "H3 H4")))
    assert r["plays"][0]["rule"] == "R-4.1" and r["plays"][0]["unchecked"] == ["the hand of seat 0"]
    assert r["unchecked"] == ["the hand of seat 1"]


def test_R4_3_failed_throw_names_first_beater_in_playing_order_from_leader():
    """Seat 2 throws ♥A Q; seats 0 and 3 both hold ♥K, which beats the Q: the seat named is the first
    after seat 2 in playing order, seat 3, not the lowest number, seat 0."""
    r = judge({"preset": "classic", "level": "2", "trump": "S",
               "hands": {"2": ["HA", "HQ"], "0": ["HK", "C3"], "1": ["C4"], "3": ["HK", "D3"]},
               "trick": [{"seat": 2, "cards": ["HA", "HQ"]}]})
    assert r["throw"]["ok"] is False and r["throw"]["forced"] == ["HQ"]
    assert r["throw"]["beaten_by"]["seat"] == 3


def test_R4_3_failed_throw_followers_answer_the_forced_unit():
    r = judge({"preset": "classic", "level": "2", "trump": "S",
               "hands": {"0": ["HA", "HQ"], "1": ["HK", "C3"]},
               "trick": [{"seat": 0, "cards": ["HA", "HQ"]}, {"seat": 1, "cards": ["HK"]}]})
    assert r["plays"][0]["legal"] is False and r["plays"][0]["rule"] == "R-4.3"
    assert r["plays"][1]["legal"] is True and r["winner"] == 1 and r["points"] == 10



def test_R4_3_R4_4_follower_answering_the_whole_failed_throw_is_told_what_stands():
    """Seat 0 tries ♥A Q and seat 1's ♥K beats the Q: only the Q stands, so two cards from seat 1
    break R-4.4, and the reason says the throw failed rather than "2 cards were led"."""
    r = judge({"preset": "classic", "level": "2", "trump": "S",
               "hands": {"0": ["HA", "HQ"], "1": ["HK", "H3"]},
               "trick": [{"seat": 0, "cards": ["HA", "HQ"]}, {"seat": 1, "cards": ["HK", "H3"]}]})
    follow = r["plays"][1]
    assert (follow["legal"], follow["rule"]) == (False, "R-4.4")
    assert follow["reason"] == ("the throw of 2 cards failed and only HQ stands as the lead, "
                                "so play exactly 1 card, not 2")


def test_R4_4_wrong_count_reason_counts_in_words():
    """One card led and two played: "1 card was led", not "1 cards were led"."""
    r = judge(trick((0, "HA"), (1, "H3 H4")))
    assert r["reason"] == "1 card was led, so play exactly 1, not 2"
    r = judge(trick((0, "HA HA"), (1, "H3")))
    assert r["reason"] == "2 cards were led, so play exactly 2, not 1"

# ---- the match ----------------------------------------------------------------------------------

def match(**sit):
    return judge({"query": "match", "dealer": 0, **sit})


def test_R8_1_R8_5_declarers_up_two_partner_deals_next():
    r = match(levels=["5", "3", "5", "3"], attackers_points=30)
    assert r["levels_after"] == ["7", "3", "7", "3"] and r["next_dealer"] == 2 and not r["over"]


def test_R8_5_takeover_passes_the_deal_to_the_next_seat():
    r = match(levels={"declarers": "5", "attackers": "3"}, attackers_points=125)
    assert r["levels_after"] == ["5", "4", "5", "4"] and r["next_dealer"] == 1
    assert r["settlement"]["takeover"] is True


def test_R8_4_reaching_A_first_wins_the_match():
    r = match(levels=["Q", "3", "Q", "3"], attackers_points=0)
    assert r["over"] and r["winners"] == [0, 2] and r["next_dealer"] is None


def test_R8_4_must_defend_stops_the_side_and_A_is_won_as_declarers():
    r = match(levels=["Q", "A", "Q", "A"], attackers_points=0, options={"must_defend": ["K"], "match_end": "defend-a"})
    assert r["levels_after"][0] == "K" and "must be defended" in r["changes"]["0"]["reason"]
    r = match(levels=["A", "3", "A", "3"], settlement={"declarers_levels": 1, "attackers_levels": 0,
                                                      "takeover": False}, options={"match_end": "defend-a"})
    assert r["over"] and r["winners"] == [0, 2]


def test_R8_4_beyond_A_comes_the_jokers_level():
    r = match(levels=["K", "3", "K", "3"], attackers_points=0, options={"match_end": "beyond-a"})
    assert r["levels_after"][0] == "jokers" and not r["over"]
    r = match(levels=["jokers", "3", "jokers", "3"], attackers_points=0, options={"match_end": "beyond-a"})
    assert r["over"]


def test_R9_spare_levels_passed_on_find_a_friend():
    """级数不浪费: a must-defend K stops the dealer with 2 levels to spare, reported as leftovers."""
    r = match(preset="find-friend-4", levels=["Q", "3", "5", "3"], declarers=[0, 2], attackers_points=0,
              options={"must_defend": ["K"]})
    assert r["levels_after"][0] == "K" and r["leftovers"] == {"0": 2}


def test_R9_bidding_settles_against_the_bid_and_moves_the_first_bidder():
    r = match(preset="three-players", levels=["2", "2", "2"], attackers_points=0, bid=80, first_seat=1)
    assert r["declarers"] == [0] and r["levels_after"][0] == "8"
    assert r["next_dealer"] is None and r["next_first_bidder"] == 2


@pytest.mark.parametrize("bad,words", [
    ({"levels": ["5", "3", "5"]}, "4 levels"),
    ({"levels": ["5", "3", "5", "X"]}, r"levels\[3\]: not a level"),
    ({"levels": ["5", "3", "5", "3"]}, "result"),
    ({"levels": ["5", "3", "5", "3"], "attackers_points": 10, "settlement": {}}, "result"),
    ({"levels": ["5", "3", "5", "3"], "attackers_points": 10, "bid": 80}, "no bidding"),
    ({"levels": ["5", "3", "5", "3"], "attackers_points": 10, "declarers": [0]}, "find a friend"),
    ({"levels": ["5", "3", "5", "3"], "settlement": {"declarers_levels": 1, "attackers_levels": 1,
                                                      "takeover": False}}, "one side"),
])
def test_match_bad_input_is_a_clear_error(bad, words):
    with pytest.raises(SituationError, match=words):
        match(**bad)


# ---- deal and bidding ---------------------------------------------------------------------------

@pytest.mark.parametrize("preset,hand,kitty", [("classic", 25, 8), ("three-players", 33, 9),
                                               ("find-friend-5-three-decks", 31, 7), ("four-decks", 54, 0)])
def test_R7_1_hand_and_kitty_sizes_per_preset(preset, hand, kitty):
    r = judge({"query": "deal", "preset": preset})
    assert (r["hand_size"], r["kitty_size"], r["rule"]) == (hand, kitty, "R-7.1")
    assert r["hand_size"] * r["players"] + r["kitty_size"] == r["cards"]


def bidding(bids, **extra):
    return judge({"query": "bidding", "preset": "three-players",
                  "bids": [{"seat": s, "bid": b} for s, b in bids], **extra})


def test_R9_bidding_lowest_bid_deals_passes_are_final():
    r = bidding([(0, 120), (1, 100), (2, None), (0, None)])
    assert r["dealer"] == 1 and r["bid"] == 100 and r["over"]
    assert [x["valid"] for x in r["results"]] == [True] * 4


def test_R9_bidding_refuses_a_higher_bid_out_of_turn_and_the_last_must_bid():
    r = bidding([(0, 100), (1, 105), (2, 95), (1, None), (2, None)])
    assert [x["valid"] for x in r["results"]] == [True, False, False, True, True]
    assert r["results"][2]["rule"] == "table.out-of-turn" and r["dealer"] == 0
    r = bidding([(0, None), (1, None), (2, None)])
    assert r["results"][2]["valid"] is False and "must bid" in r["results"][2]["reason"]


def test_R9_counter_declaration_swaps_six_kitty_cards():
    """反牌: an overcall of the dealer's named trump swaps six kitty cards drawn at random."""
    r = bidding([(0, 120), (1, 100), (2, None), (0, None)], level="2", trump="H",
                counters=[{"seat": 2, "cards": ["S2"]}, {"seat": 0, "cards": ["C2", "C2"]}])
    assert [c["valid"] for c in r["counters"]] == [False, True]
    assert r["counters"][1]["swap"]["cards"] == 6 and r["counters"][1]["trump"] == "C"


def test_bidding_needs_a_bidding_preset():
    with pytest.raises(SituationError, match="no bidding"):
        judge({"query": "bidding", "bids": []})


# ---- find a friend ------------------------------------------------------------------------------

def friend(tricks, calls=(("HA", 2),), preset="find-friend-4"):
    return judge({"query": "friend", "preset": preset, "dealer": 0,
                  "calls": [{"card": c, "copy": n} for c, n in calls],
                  "tricks": [[{"seat": s, "cards": c.split()} for s, c in t] for t in tricks]})


def test_R9_find_a_friend_the_trick_that_reveals_the_friend_and_the_teams():
    r = friend([[(0, "C3"), (1, "C4"), (2, "C5"), (3, "C6")],
                [(1, "HA"), (2, "H3"), (3, "HA"), (0, "H4")]])
    assert r["answers"][0]["trick"] == 1 and r["answers"][0]["seat"] == 3 and r["answers"][0]["copy"] == 2
    assert r["declarers"] == [0, 3] and r["attackers"] == [1, 2] and r["teams_known"]


def test_R9_the_dealer_playing_the_called_copy_finds_nobody():
    r = friend([[(3, "HA"), (0, "HA"), (1, "H3"), (2, "H4")]])
    assert r["answers"][0]["found"] is False and r["declarers"] == [0]


def test_R9_a_copy_not_yet_played_leaves_the_call_open():
    r = friend([[(1, "HA"), (2, "H3"), (3, "H4"), (0, "H5")]])
    assert r["open_calls"] == [{"card": "HA", "copy": 2}] and not r["teams_known"]


def test_friend_bad_calls_are_clear_errors():
    with pytest.raises(SituationError, match="copy called is 1 to 2"):
        friend([], calls=(("HA", 3),))
    with pytest.raises(SituationError, match="does not find a friend"):
        friend([], preset="classic")
    with pytest.raises(SituationError, match="plays once"):
        friend([[(1, "HA"), (1, "H3")]])
    with pytest.raises(SituationError, match="appears 3 times"):
        friend([[(1, "HA"), (2, "HA"), (3, "HA")]])


# ---- hand number and first dealer ---------------------------------------------------------------

def declare(**extra):
    return judge({"query": "declare", "preset": "four-decks", "level": "2",
                  "declarations": [{"seat": 1, "cards": ["H2"]}, {"seat": 3, "cards": ["S2", "S2"]}], **extra})


def test_R6_6_first_hand_the_standing_caller_deals():
    r = declare(hand=1)
    assert r["deal"]["dealer"] == 3 and r["deal"]["first_hand"] and r["deal"]["rule"] == "R-6.6"
    assert r["deal"]["overturn"]["rule"] == "R-6.5"        # 第一盤反底反樁 asked in the first hand


def test_R8_5_later_hands_the_match_names_the_dealer():
    r = declare(hand=3, dealer=2)
    assert r["deal"]["dealer"] == 2 and r["deal"]["first_hand"] is False and r["deal"]["rule"] == "R-8.5"
    with pytest.raises(SituationError, match="give 'dealer'"):
        declare(hand=2)
    with pytest.raises(SituationError, match="later hands"):
        declare(hand=1, dealer=2)


def test_R6_6_nobody_declared_the_first_drawer_deals():
    r = judge({"query": "declare", "level": "2", "declarations": [], "hand": 1, "first_seat": 2})
    assert r["deal"]["dealer"] == 2


# ---- robustness of the new queries --------------------------------------------------------------

_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 130) | st.sampled_from(["HA", "S2", "C2", "10", "A", "jokers", "x"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["seat", "cards", "bid", "card", "copy", "declarers", "attackers", "declarers_levels",
                         "attackers_levels", "takeover"]), inner, max_size=4),
    max_leaves=16)


@given(st.sampled_from(["match", "deal", "bidding", "friend", "declare"]),
       st.sampled_from(["classic", "three-players", "find-friend-4", "four-decks"]),
       st.dictionaries(st.sampled_from(["levels", "dealer", "declarers", "attackers_points", "bid", "settlement",
                                        "last_trick_seat", "first_seat", "bids", "level", "trump", "counters",
                                        "calls", "tricks", "hand", "declarations"]), _values, max_size=6))
@settings(max_examples=300, deadline=None)
def test_new_queries_rule_or_refuse_cleanly(query, preset, fields):
    """Whatever the fields, a ruling (JSON-ready) or a SituationError with a message — never a crash."""
    try:
        out = judge({"query": query, "preset": preset, **fields})
    except SituationError as exc:
        assert str(exc)
    else:
        json.dumps(out)
