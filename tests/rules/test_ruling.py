"""rule_trick: the judge's ruling on a trick (the contract of docs/judge.md), with and without hands."""
from shengji_table.rules.cards import parse_cards
from shengji_table.rules.ruleset import Ruleset
from shengji_table.rules.trick_ruling import rule_trick
from shengji_table.rules.trick import Play

RS = Ruleset.from_preset("classic")


def P(seat, text):
    return Play(seat, tuple(parse_cards(text)))


def H(**seats):
    return {int(k[1:]): list(parse_cards(v)) for k, v in seats.items()}


def test_ruling_keys_and_a_legal_follow_R4_5():
    r = rule_trick(RS, "10", "S", [P(0, "H5 H5 H4 H4"), P(1, "HK HK HQ HQ")],
                   H(s1="HK HK HQ HQ H3 C3"))
    assert r["legal"] is True and r["rule"] == "R-4.5"
    assert r["units"] == [{"kind": "tractor", "width": 2, "length": 2, "cards": ["HK", "HK", "HQ", "HQ"]}]
    assert r["winner"] == 1 and r["points"] == 30
    assert "throw" not in r and "unchecked" not in r


def test_ruling_card_not_in_hand_is_rule_hand():
    r = rule_trick(RS, "10", "S", [P(0, "HA"), P(1, "HK")], H(s1="H3 C3"))
    assert r["legal"] is False and r["rule"] == "hand" and "HK" in r["reason"]
    assert r["winner"] == 0                                # an illegal play does not win


def test_ruling_lead_mixing_suits_is_illegal_R4_1():
    r = rule_trick(RS, "10", "S", [P(0, "HA CA")])
    assert r["legal"] is False and r["rule"] == "R-4.1"


def test_ruling_failed_throw_R4_3_forced_and_beaten_by():
    r = rule_trick(RS, "10", "S", [P(0, "H9 H8 H8 H4 H4")],
                   H(s0="H9 H8 H8 H4 H4 C3", s1="C4", s2="H5 H5", s3="D3"))
    assert r["legal"] is False and r["rule"] == "R-4.3"
    assert r["throw"] == {"ok": False, "forced": ["H4", "H4"], "beaten_by": {"seat": 2, "cards": ["H5", "H5"]}}
    assert r["points"] == 0 and r["winner"] == 0


def test_ruling_throw_that_stands_R4_2():
    r = rule_trick(RS, "10", "S", [P(0, "HA HA HK")], H(s0="HA HA HK", s1="H3", s2="H4 H4", s3="C3"))
    assert r["legal"] is True and r["throw"] == {"ok": True, "forced": [], "beaten_by": None}
    assert r["points"] == 10


def test_ruling_throw_without_hands_is_unchecked():
    r = rule_trick(RS, "10", "S", [P(0, "HA HA HK")])
    assert r["throw"]["ok"] is None and any("throw" in u for u in r["unchecked"])


def test_ruling_throw_with_some_hands_missing_is_ok_null():
    r = rule_trick(RS, "10", "S", [P(0, "HA HA HK")], H(s1="H3"))
    assert r["throw"]["ok"] is None and any("3" in u for u in r["unchecked"])


def test_ruling_without_hands_still_rules_count_winner_points_R5_2():
    r = rule_trick(RS, "10", "S", [P(0, "H5 H4 H4"), P(1, "S9 S7 S7"), P(2, "S8 S8 S4")])
    assert r["legal"] is True and r["winner"] == 2 and r["points"] == 5
    assert r["unchecked"] == ["the hand of seat 2"]
    r = rule_trick(RS, "10", "S", [P(0, "H5 H4 H4"), P(1, "S9 S7")])
    assert r["legal"] is False and r["rule"] == "R-4.4" and r["winner"] == 0


def test_ruling_revoke_R4_4():
    r = rule_trick(RS, "10", "S", [P(0, "HA"), P(1, "S3")], H(s1="S3 H2"))
    assert r["legal"] is False and r["rule"] == "R-4.4" and r["winner"] == 0


def test_ruling_no_trump_and_level_text():
    r = rule_trick(RS, "J", "NT", [P(0, "HA"), P(1, "SJ")], H(s1="SJ C3"))
    assert r["legal"] is True and r["winner"] == 1       # a level card is a trump in NT
