"""The random bot's lead units (``bots.sampling.lead_units``) worked out on demand for a hand without
a tractor are ``rules.trick.lead_candidates`` (R-3: singles, tuples, tractors) entry for entry, and a
seeded pick from them is the pick from the rules' list."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from shengji_table.game.bots.sampling import lead_units
from shengji_table.rules.cards import all_copies
from shengji_table.rules.order import TrumpOrder
from shengji_table.rules.ruleset import PRESETS, Ruleset
from shengji_table.rules.trick import lead_candidates

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from hands import random_orders_and_hands  # noqa: E402


@pytest.mark.parametrize("preset", PRESETS)
def test_lead_units_are_the_lead_candidates_R3(preset):
    rs = Ruleset.from_preset(preset)
    rng = random.Random(preset)
    shortcut = 0
    for order, hand in random_orders_and_hands(rs, rng, 200):
        want = lead_candidates(hand, order)
        got = lead_units(hand, order)
        shortcut += type(got) is not list
        assert len(got) == len(want)
        assert [got[k] for k in range(len(got))] == want
        seed = rng.random()
        assert random.Random(seed).choice(got) == random.Random(seed).choice(want)
    assert rs.two_colour or shortcut > 50          # the on-demand units are what is tested, mostly


def test_lead_units_of_a_hand_with_a_tractor_are_the_rules_list_R3_3():
    rs = Ruleset.from_preset("classic")
    order = TrumpOrder(rs, 2, "S")
    hand = [c.card for c in all_copies(2) if c.card.suit == "H" and c.card.rank in (6, 7)] + \
        [c.card for c in all_copies(1) if c.card.suit == "D"]
    units = lead_units(hand, order)
    assert units == lead_candidates(hand, order)
    assert max(len(u) for u in units) == 4          # ♥7♥7♥6♥6
