"""R-7.4 炒地皮 in the judge: ``steals`` of a declare situation, and its clear errors."""
import pytest

from shengji_table.rules.judge import SituationError, judge

BASE = {"query": "declare", "preset": "classic", "options": {"kitty_stealing": True}, "level": "2",
        "declarations": [{"seat": 0, "cards": ["S2"]}]}


def test_R7_4_judge_the_holder_moves_with_each_valid_counter():
    r = judge({**BASE, "hand": 2, "dealer": 2, "steals": [{"seat": 0, "cards": ["S2", "S2"]},
                                              {"seat": 0, "cards": ["LJ", "LJ"]}]})
    assert [x["valid"] for x in r["steals"]["results"]] == [True, False]     # seat 0 holds it now
    assert r["steals"]["kitty_holder"] == 0 and r["steals"]["standing"]["trump"] == "S"


@pytest.mark.parametrize("change,message", [
    ({"options": {}}, "kitty_stealing"),
    ({"steals": {"seat": 1}}, "list of"),
    ({"steals": [{"seat": 9, "cards": ["H2", "H2"]}]}, "seat"),
    ({"steals": [{"seat": 1, "cards": ["H2", "XX"]}]}, "XX"),
    ({"declarations": [], "steals": []}, "dealer"),
])
def test_R7_4_judge_bad_steals_are_malformed(change, message):
    sit = {**BASE, "steals": [{"seat": 1, "cards": ["H2", "H2"]}], **change}
    with pytest.raises(SituationError, match=message):
        judge(sit)
