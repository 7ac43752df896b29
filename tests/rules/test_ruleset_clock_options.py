"""The clock options (``play_clock``, ``bury_clock``, docs/house-rules.md) and the tournament preset
(docs/rules.md, rulings): off by default, left out of ``to_json`` while off so records of rulesets
without them are unchanged, and every ruleset round-trips."""
import pytest

from shengji_table.rules.ruleset import PRESETS, Ruleset, RulesetError


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("clock", [{}, {"play_clock": 0}, {"play_clock": 15, "bury_clock": 0}, {"bury_clock": 45}])
def test_every_ruleset_round_trips_through_its_json(preset, clock):
    rs = Ruleset.from_preset(preset, **clock)
    assert Ruleset.from_json(rs.to_json()) == rs


def test_the_clock_is_off_and_out_of_the_json_in_every_preset_but_tournament():
    for name in PRESETS:
        rs = Ruleset.from_preset(name)
        if name == "tournament":
            assert (rs.play_clock, rs.bury_clock) == (15, 60)
            assert rs.to_json()["play_clock"] == 15 and rs.to_json()["bury_clock"] == 60
        else:
            assert (rs.play_clock, rs.bury_clock) == (0, 0)
            assert "play_clock" not in rs.to_json() and "bury_clock" not in rs.to_json()


def test_a_record_written_before_the_clock_options_loads_without_a_clock():
    old = Ruleset.from_preset("classic").to_json()
    assert Ruleset.from_json(old).play_clock == 0
    assert Ruleset.from_json({"preset": "tournament", "options": {"play_clock": 0}}).play_clock == 0


def test_the_tournament_preset_is_classic_with_the_r10_points():
    t, c = Ruleset.from_preset("tournament"), Ruleset.from_preset("classic")
    changed = {k for k, v in t.to_json().items() if c.to_json().get(k) != v}
    assert changed == {"preset", "throw_penalty", "referee_undo", "play_clock", "bury_clock"}
    assert (t.throw_penalty, t.throw_penalty_points, t.referee_undo) == ("per-card", 10, True)


@pytest.mark.parametrize("name, value, words", [
    ("play_clock", -1, "play_clock is seconds"), ("bury_clock", "60", "bury_clock is a whole number"),
    ("play_clock", True, "play_clock is a whole number"),
])
def test_a_bad_clock_is_refused(name, value, words):
    with pytest.raises(RulesetError, match=words):
        Ruleset.from_preset("classic", **{name: value})
