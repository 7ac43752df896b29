"""``rules.trick.lead_candidates`` reads a hand by face numbers where every face is its own group;
that list is the general one built by identity groups (R-3: singles, tuples, tractors), in the same
order, so a seeded random bot leads the same."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from shengji_table.rules.cards import all_copies
from shengji_table.rules.order import TrumpOrder
from shengji_table.rules.ruleset import PRESETS, Ruleset
from shengji_table.rules.trick import _candidates_by_face, _candidates_by_group, lead_candidates

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from hands import random_orders_and_hands  # noqa: E402

ONE_GROUP_A_FACE = [p for p in PRESETS if not Ruleset.from_preset(p).two_colour]


@pytest.mark.parametrize("preset", ONE_GROUP_A_FACE)
def test_lead_candidates_by_face_are_the_general_list_R3(preset):
    rs = Ruleset.from_preset(preset)
    rng = random.Random(preset)
    for order, hand in random_orders_and_hands(rs, rng, 150):
        assert lead_candidates(hand, order) == _candidates_by_face(hand, order) == _candidates_by_group(hand, order)


def test_lead_candidates_of_a_hand_full_of_tractors_R3():
    rs = Ruleset.from_preset("four-decks")
    order = TrumpOrder(rs, 5, "S")
    hand = [c.card for c in all_copies(4) if c.card.suit == "H" and c.card.rank in (6, 7, 8, 9)]
    units = lead_candidates(hand, order)
    assert units == _candidates_by_group(hand, order)
    assert max(len(u) for u in units) == 16        # four quads in a row: one tractor of 16 cards
