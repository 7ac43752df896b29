"""R-4.8 house option ``follow_protection``: which longer units a follower need not break.

Checked two ways: hand-picked cases per policy, and ``legal_follows`` against a brute-force search
with ``check_follow`` over every play of small hands (the two must agree under every policy)."""
import itertools
import json
import subprocess
import sys

import pytest

from shengji_table.rules.cards import parse_cards
from shengji_table.rules.follow import check_follow, legal_follows
from shengji_table.rules.order import TrumpOrder
from shengji_table.rules.ruleset import Ruleset, RulesetError, option_from_text

POLICIES = ("none", "longer-tuples", "tractors", "longer-tuples-and-tractors", "suit-only")


def order(preset="three-decks", policy="none", level=10, trump="S"):
    return TrumpOrder(Ruleset.from_preset(preset, follow_protection=policy), level, trump)


def P(text):
    return tuple(parse_cards(text))


def check(lead, play, hand, o):
    return check_follow(P(lead), P(play), P(hand), o)


def test_R4_8_default_none_a_pair_lead_draws_a_pair_out_of_a_triple():
    # as the texts say it: pairs may be cut out of triples
    o = order(policy="none")
    v = check("H3 H3", "H9 HK", "H9 H9 H9 HK H4", o)
    assert not v.ok and v.rule == "R-4.5"
    assert check("H3 H3", "H9 H9", "H9 H9 H9 HK H4", o).ok


def test_R4_8_longer_tuples_a_triple_is_not_broken_for_a_pair_lead():
    o = order(policy="longer-tuples")
    v = check("H3 H3", "HK H4", "H9 H9 H9 HK H4", o)
    assert v.ok and v.rule == "R-4.8"
    assert check("H3 H3", "H9 H9", "H9 H9 H9 HK H4", o).ok        # breaking it is still allowed


def test_R4_8_longer_tuples_a_genuine_pair_must_be_played_not_a_cut_triple():
    o = order(policy="longer-tuples")
    hand = "H9 H9 H9 HQ HQ HK"
    assert check("H3 H3", "HQ HQ", hand, o).ok
    v = check("H3 H3", "H9 H9", hand, o)          # 99 cut from 999 is no pair under protection
    assert not v.ok and v.rule == "R-4.8" and "cut from a longer unit" in v.reason
    v = check("H3 H3", "H9 HK", hand, o)          # no pair at all: the shape duty of itself
    assert not v.ok and v.rule == "R-4.5"


def test_R4_8_longer_tuples_a_quad_is_not_cut_for_a_triple_lead_four_decks():
    o = order("four-decks", policy="longer-tuples")
    hand = "H9 H9 H9 H9 HK HQ H5"
    assert check("H3 H3 H3", "HK HQ H5", hand, o).ok
    assert not check("H3 H3 H3", "HK HQ H5", hand, order("four-decks")).ok


def test_R4_8_longer_tuples_changes_nothing_with_two_decks():
    # two decks hold no triple: every verdict is the default one
    for policy in ("none", "longer-tuples"):
        o = order("classic", policy=policy)
        assert not check("H3 H3", "H9 HK", "H9 H9 HK H4", o).ok
        assert check("H3 H3 H4 H4", "H9 H9 HK H4", "H9 H9 HK H4 HA", o).ok


def test_R4_8_tractors_a_quad_lead_does_not_draw_a_tractor_four_decks():
    # after a quad, a tractor comes before two pairs; with `tractors` the tractor is not owed
    hand = "H7 H7 H8 H8 HQ HQ HK H5"
    lead = "H3 H3 H3 H3"
    v = check(lead, "HQ HQ H7 H7", hand, order("four-decks"))
    assert not v.ok and v.rule == "R-4.7"
    v = check(lead, "HQ HQ H7 H7", hand, order("four-decks", policy="tractors"))
    assert v.ok and v.rule == "R-4.8"
    assert not check(lead, "HQ HK H7 H5", hand, order("four-decks", policy="tractors")).ok   # pairs still owed


def test_R4_8_tractors_a_tractor_lead_still_draws_a_tractor():
    o = order("classic", policy="tractors")
    assert not check("H3 H3 H4 H4", "H9 H9 HQ HQ", "H7 H7 H8 H8 H9 H9 HQ HQ", o).ok


def test_R4_8_suit_only_owes_the_suit_and_no_shape():
    o = order("classic", policy="suit-only")
    v = check("H3 H3 H4 H4", "H9 HK H4 HA", "H7 H7 H8 H8 H9 HK H4 HA", o)
    assert v.ok and v.rule == "R-4.8"
    v = check("H3 H3", "H9 S4", "H9 H9 S4", o)
    assert not v.ok and v.rule == "R-4.4"          # the suit is still owed


HANDS = [
    ("three-decks", "H3 H3", "H9 H9 H9 HQ HQ HK H4"),
    ("three-decks", "H3 H3 H3", "H9 H9 H9 HQ HQ HK HK H4"),
    ("three-decks", "H3 H3 H4 H4", "H7 H7 H7 H8 H8 H8 HQ HQ"),
    ("three-decks", "H3 H3 H3 H4 H4 H4", "H7 H7 H7 H8 H8 H9 H9 HQ"),
    ("four-decks", "H3 H3 H3 H3", "H7 H7 H8 H8 H8 HQ HQ HQ HQ"),
    ("classic", "H3 H3 H4 H4", "H7 H7 H8 H8 H9 HQ HQ"),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("preset,lead,hand", HANDS)
def test_R4_8_legal_follows_is_check_follow_enumerated(preset, lead, hand, policy):
    o = order(preset, policy=policy)
    lead_c, hand_c = P(lead), P(hand)
    brute = {tuple(sorted(c.index for c in play))
             for play in itertools.combinations(hand_c, len(lead_c))
             if check_follow(lead_c, play, hand_c, o).ok}
    built = [tuple(sorted(c.index for c in play)) for play in legal_follows(lead_c, hand_c, o)]
    assert len(built) == len(set(built))
    assert set(built) == brute and brute


def test_R4_8_option_is_typed_listed_and_round_trips():
    assert Ruleset().follow_protection == "none"
    assert "follow_protection" not in Ruleset().to_json()          # old records stay as they were
    rs = Ruleset.from_preset("three-decks", follow_protection="longer-tuples")
    assert Ruleset.from_json(rs.to_json()) == rs
    assert option_from_text("follow_protection", "suit-only") == ("follow_protection", "suit-only")
    with pytest.raises(RulesetError, match="longer-tuples"):
        Ruleset.from_preset("classic", follow_protection="protect")


def test_R4_8_the_judge_honours_the_option():
    rulings = []
    for options in ({"follow_protection": "longer-tuples"}, {}):
        situation = {"preset": "three-decks", "options": options, "level": "10", "trump": "S",
                     "hands": {"1": ["H9", "H9", "H9", "HK", "H4"]},
                     "trick": [{"seat": 0, "cards": ["H3", "H3"]}, {"seat": 1, "cards": ["HK", "H4"]}]}
        out = subprocess.run([sys.executable, "-m", "shengji_table", "judge"], input=json.dumps(situation),
                             capture_output=True, text=True, check=False)
        assert out.returncode == 0, out.stderr
        rulings.append(json.loads(out.stdout))
    assert rulings[0]["legal"] is True and rulings[0]["rule"] == "R-4.8"
    assert rulings[1]["legal"] is False and rulings[1]["rule"] == "R-4.5"
