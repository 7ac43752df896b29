"""R-8.6: a house settlement table is bounded — a hand moves a side up 0 to 4 levels, ``from`` is
0 to 1000 points, at most 32 rows — so a rules file (or a table's claimed ruleset) cannot award a
side 12 levels for one hand.  Out of bounds: a RulesetError naming the row."""
import pytest
from hypothesis import given, settings, strategies as st

from shengji_table.rules.ruleset import (MAX_TABLE_FROM, MAX_TABLE_LEVELS, MAX_TABLE_ROWS, Ruleset, RulesetError,
                                         option_from_text)
from shengji_table.rules.settle import settle


def test_r_8_6_twelve_levels_a_hand_is_refused_with_the_row():
    with pytest.raises(RulesetError, match=r"row 1: declarers go up 0 to 4 levels in a hand, not 12"):
        Ruleset.from_preset("classic", settlement_table=[{"from": 0, "declarers": 12}])
    with pytest.raises(RulesetError, match=r"row 2 \(from 80\)|row 2: attackers go up 0 to 4 levels"):
        Ruleset.from_json({"preset": "classic", "settlement_table": [{"from": 0, "declarers": 1},
                                                                     {"from": 80, "attackers": 5}]})
    with pytest.raises(RulesetError, match="0 to 4 levels"):          # given as a tuple, as replace() does
        Ruleset.from_preset("classic", settlement_table=((0, "declarers", 9),))
    with pytest.raises(RulesetError, match="0 to 4 levels"):
        Ruleset.from_preset("classic", **dict([option_from_text("settlement_table", "0:d2,80:a7")]))


def test_r_8_6_from_and_the_number_of_rows_are_bounded():
    with pytest.raises(RulesetError, match="from is 0 to 1000 points, not 5000"):
        Ruleset.from_preset("classic", settlement_table=[{"from": 0, "declarers": 1}, {"from": 5000, "attackers": 1}])
    rows = [{"from": 0, "declarers": 1}] + [{"from": 10 * i, "attackers": 0} for i in range(1, MAX_TABLE_ROWS + 1)]
    with pytest.raises(RulesetError, match=f"{MAX_TABLE_ROWS + 1} rows; at most {MAX_TABLE_ROWS}"):
        Ruleset.from_preset("classic", settlement_table=rows)


@settings(max_examples=60, deadline=None)
@given(st.integers(-50, 60), st.integers(-50, 1100), st.sampled_from(["declarers", "attackers"]))
def test_r_8_6_a_row_is_taken_exactly_when_it_is_in_bounds(levels, start, side):
    """For every row: within bounds it is taken and settles to those levels; outside, refused."""
    rows = [{"from": 0, "declarers": 0}] + ([{"from": start, side: levels}] if start > 0 else [])
    ok = 0 <= levels <= MAX_TABLE_LEVELS and 0 < start <= MAX_TABLE_FROM and not (side == "declarers" and levels > 0)
    if start <= 0:
        rows = [{"from": 0, side: levels}]
        ok = 0 <= levels <= MAX_TABLE_LEVELS
    try:
        rs = Ruleset.from_preset("classic", settlement_table=rows)
    except RulesetError:
        assert not ok
        return
    assert ok
    s = settle(rs, max(start, 0) + 1 if start > 0 else 0)
    assert max(s.declarers_levels, s.attackers_levels) <= MAX_TABLE_LEVELS
