"""R-6.7 house option ``mixed_joker_nt``: with three decks a small and a big joker together
(小王 + 大王) call no trump on the 兩張王 rung of R-6.3 (seed 000 l.76, seed 001 l.68 say only 兩張王)."""
import json
import subprocess
import sys

import pytest

from shengji_table.rules.declare import Declaration, check_declaration, declaration_strength, run_declarations
from shengji_table.rules.cards import parse_cards
from shengji_table.rules.ruleset import Ruleset, RulesetError, option_from_text


def rs(**options):
    return Ruleset.from_preset("three-decks", **options)


def test_R6_7_off_by_default_a_mixed_pair_is_no_call():
    with pytest.raises(ValueError, match="identical jokers"):
        declaration_strength(rs(), 10, parse_cards("LJ BJ"))


def test_R6_7_a_mixed_pair_ranks_with_two_identical_jokers():
    on = rs(mixed_joker_nt=True)
    mixed = declaration_strength(on, 10, parse_cards("LJ BJ"))
    assert mixed == (None, declaration_strength(on, 10, parse_cards("BJ BJ"))[1])
    assert mixed == (None, declaration_strength(on, 10, parse_cards("LJ LJ"))[1])


def test_R6_7_overcalls_two_level_cards_and_falls_to_three():
    results, standing = run_declarations(rs(mixed_joker_nt=True), 10, [
        Declaration(0, ["S10", "S10"]), Declaration(1, ["LJ", "BJ"]), Declaration(2, ["BJ", "BJ"]),
        Declaration(3, ["H10", "H10", "H10"])])
    assert [r.valid for r in results] == [True, True, False, True]
    assert results[1].kind == "overcall-nt" and results[1].standing.trump is None
    assert "first call stands" in results[2].reason
    assert standing.seat == 3 and standing.trump == "H"


def test_R6_7_three_jokers_must_still_be_identical():
    with pytest.raises(ValueError, match="identical"):
        declaration_strength(rs(mixed_joker_nt=True), 10, parse_cards("LJ BJ BJ"))


def test_R6_7_with_the_suit_order_a_mixed_pair_ranks_as_its_small_joker():
    on = rs(mixed_joker_nt=True, suit_order_overcall=True)
    first = check_declaration(on, 10, None, Declaration(0, ["LJ", "BJ"])).standing
    assert not check_declaration(on, 10, first, Declaration(1, ["LJ", "LJ"])).valid
    assert check_declaration(on, 10, first, Declaration(1, ["BJ", "BJ"])).valid


def test_R6_7_is_a_three_deck_option():
    with pytest.raises(RulesetError, match="three-deck"):
        Ruleset.from_preset("classic", mixed_joker_nt=True)
    assert option_from_text("mixed_joker_nt", "yes") == ("mixed_joker_nt", True)
    assert "mixed_joker_nt" not in rs().to_json()
    assert Ruleset.from_json(rs(mixed_joker_nt=True).to_json()) == rs(mixed_joker_nt=True)


def test_R6_7_the_judge_rules_a_mixed_pair_by_the_option():
    out = []
    for options in ({"mixed_joker_nt": True}, {}):
        q = {"query": "declare", "preset": "three-decks", "options": options, "level": "10",
             "declarations": [{"seat": 0, "cards": ["S10", "S10"]}, {"seat": 1, "cards": ["LJ", "BJ"]}]}
        r = subprocess.run([sys.executable, "-m", "shengji_table", "judge"], input=json.dumps(q),
                           capture_output=True, text=True, check=False)
        assert r.returncode == 0, r.stderr
        out.append(json.loads(r.stdout))
    assert out[0]["standing"]["trump"] in (None, "NT") and out[0]["standing"]["seat"] == 1
    assert out[1]["standing"]["seat"] == 0
