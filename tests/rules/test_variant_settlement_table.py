"""R-8.6 house option ``settlement_table``: the rules file's own thresholds of the attackers' points
P → level changes, instead of a built-in ``scoring`` name; checked to be monotone and to cover every P."""
import pathlib
import subprocess
import sys

import pytest

from shengji_table.rules.ruleset import Ruleset, RulesetError, option_from_text
from shengji_table.rules.settle import settle

REPO = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "rules" / "house-settlement.toml"
# R-8.1's classic two-deck table written as data (up to 200 + kitty: the last row holds beyond)
CLASSIC_ROWS = [{"from": 0, "declarers": 3}, {"from": 5, "declarers": 2}, {"from": 40, "declarers": 1},
                {"from": 80, "attackers": 0}, {"from": 120, "attackers": 1}, {"from": 160, "attackers": 2},
                {"from": 200, "attackers": 3}, {"from": 240, "attackers": 4}]


def table(rows, preset="classic"):
    return Ruleset.from_preset(preset, settlement_table=rows)


@pytest.mark.parametrize("p", range(-20, 260, 5))
def test_R8_6_the_classic_table_as_data_settles_as_R8_1(p):
    built_in, custom = settle(Ruleset(), p), settle(table(CLASSIC_ROWS), p)
    assert (custom.declarers_levels, custom.attackers_levels, custom.takeover) == \
        (built_in.declarers_levels, built_in.attackers_levels, built_in.takeover)
    assert custom.rule == "R-8.6" and built_in.rule == "R-8.1"


def test_R8_6_rows_hold_from_their_mark_up_to_the_next():
    rs = table([{"from": 0, "declarers": 2}, {"from": 40, "declarers": 1}, {"from": 100, "attackers": 0},
                {"from": 140, "attackers": 1}])
    got = {p: (s.declarers_levels, s.attackers_levels, s.takeover)
           for p in (-10, 0, 35, 40, 95, 100, 135, 140, 400) for s in [settle(rs, p)]}
    assert got == {-10: (2, 0, False), 0: (2, 0, False), 35: (2, 0, False), 40: (1, 0, False),
                   95: (1, 0, False), 100: (0, 0, True), 135: (0, 0, True), 140: (0, 1, True),
                   400: (0, 1, True)}
    assert "100 to 139" in settle(rs, 120).reason and "take over" in settle(rs, 120).reason


@pytest.mark.parametrize("rows,message", [
    ([{"from": 5, "declarers": 3}], "start at from = 0"),
    ([{"from": 0, "declarers": 1}, {"from": 40, "declarers": 2}], "more levels"),
    ([{"from": 0, "declarers": 1}, {"from": 80, "attackers": 2}, {"from": 120, "attackers": 1}], "fewer levels"),
    ([{"from": 0, "declarers": 1}, {"from": 80, "attackers": 0}, {"from": 120, "declarers": 1}], "cannot gain"),
    ([{"from": 0, "declarers": 1}, {"from": 0, "attackers": 0}], "must rise"),
    ([{"from": 0, "declarers": 1, "attackers": 1}], "exactly one"),
    ([{"from": 0, "dealer": 1}], "unknown key 'dealer'"),
    ([{"from": 0, "declarers": -1}], "0 to 4 levels"),
    ([{"from": "0", "declarers": 1}], "whole number"),
    ([3], "is a table"),
    ("0:d3", "list of rows"),
])
def test_R8_6_a_bad_table_is_refused_with_a_clear_reason(rows, message):
    with pytest.raises(RulesetError, match=message):
        table(rows)


def test_R8_6_not_with_bidding():
    with pytest.raises(RulesetError, match="bid"):
        table([{"from": 0, "declarers": 1}], preset="three-players")


def test_R8_6_round_trips_and_stays_out_of_records_when_unset():
    rs = table(CLASSIC_ROWS)
    assert Ruleset.from_json(rs.to_json()) == rs
    assert rs.to_json()["settlement_table"] == CLASSIC_ROWS
    assert "settlement_table" not in Ruleset().to_json()


def test_R8_6_command_line_text():
    name, value = option_from_text("settlement_table", "0:d3, 5:d2, 40:d1, 80:a0, 120:a1")
    assert value == table(CLASSIC_ROWS[:5]).settlement_table
    with pytest.raises(RulesetError, match="FROM:dN"):
        option_from_text("settlement_table", "0:x3")


def _play(*args):
    return subprocess.run([sys.executable, "-m", "shengji_table", "play", "--seed", "3", "--hands", "1", *args],
                          capture_output=True, text=True, check=False, cwd=REPO)


def test_R8_6_the_rules_file_and_option_are_accepted_by_play(tmp_path):
    out = _play("--rules", str(EXAMPLE))
    assert out.returncode == 0, out.stderr
    assert "R-8.6" in out.stdout or "house table" in out.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text('[options]\nsettlement_table = [{ from = 0, declarers = 1 }, { from = 40, declarers = 2 }]\n')
    out = _play("--rules", str(bad))
    assert out.returncode == 2 and "more levels" in out.stderr and out.stdout == ""
    out = _play("--option", "settlement_table=5:d1")
    assert out.returncode == 2 and "from = 0" in out.stderr


def test_R8_6_the_judge_settles_by_the_table():
    from shengji_table.rules.judge import SituationError, judge
    sit = {"query": "settle", "preset": "classic", "dealer": 0, "attackers_points": 105,
           "kitty": ["C3", "C4", "D6", "D7", "H8", "C9", "DJ", "DQ"], "last_trick": {"seat": 0, "cards": ["S9"]},
           "options": {"settlement_table": [{"from": 0, "declarers": 2}, {"from": 100, "attackers": 0}]}}
    r = judge(sit)
    assert r["rule"] == "R-8.6" and r["takeover"] is True and r["attackers_levels"] == 0
    low = {**sit, "attackers_points": 70}
    assert judge(low)["declarers_levels"] == 2                                     # the table's 0–99 row
    assert judge({**low, "options": {}})["declarers_levels"] == 1                  # 40 ≤ 70 < 80
    with pytest.raises(SituationError, match="from = 0"):
        judge({**sit, "options": {"settlement_table": [{"from": 40, "declarers": 2}]}})
