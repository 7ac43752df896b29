"""Units and the canonical split (R-3): singles, pairs, triples, quads, tractors, Titanic."""
import pytest

from shengji_table.rules.cards import parse_cards
from shengji_table.rules.order import TrumpOrder
from shengji_table.rules.ruleset import Ruleset
from shengji_table.rules.units import decompose, is_single_unit, shape_of


def order(preset="classic", level=10, trump="S", **options):
    return TrumpOrder(Ruleset.from_preset(preset, **options), level, trump)


def split(text, o):
    return [(u.kind, u.width, u.length, " ".join(map(str, u.cards))) for u in decompose(parse_cards(text), o)]


def test_R3_1_single_pair_triple_quad():
    assert split("HA", order()) == [("single", 1, 1, "HA")]
    assert split("HA HA", order()) == [("pair", 2, 1, "HA HA")]
    assert split("HA HA HA", order("three-decks")) == [("triple", 3, 1, "HA HA HA")]
    assert split("HA HA HA HA", order("four-decks")) == [("quad", 4, 1, "HA HA HA HA")]


def test_R3_1_one_deck_has_no_pairs_except_two_colours():
    assert split("HK DK", order("one-deck")) == [("single", 1, 1, "HK"), ("single", 1, 1, "DK")]
    assert split("HK DK", order("one-deck-two-colour"))[0][:3] == ("pair", 2, 1)


@pytest.mark.parametrize("text", ["HK HK HQ HQ", "HJ HJ H9 H9", "H5 H5 H4 H4 H3 H3"])
def test_R3_2_tractors_seed_examples(text):
    # seed 000: K K Q Q, J J 9 9 (taking out level 10 joins J and 9), 5 5 4 4 3 3
    units = decompose(parse_cards(text), order(level=10, trump="S"))
    assert len(units) == 1 and units[0].kind == "tractor" and units[0].width == 2
    assert units[0].length == len(text.split()) // 2


@pytest.mark.parametrize("text, length", [
    ("BJ BJ LJ LJ", 2), ("LJ LJ S10 S10", 2), ("S10 S10 H10 H10", 2), ("H10 H10 SA SA", 2),
    ("S10 S10 H10 H10 SA SA", 3),
])
def test_R3_3_trump_tractors_across_level_cards_and_jokers(text, length):
    units = decompose(parse_cards(text), order(level=10, trump="S"))
    assert [(u.kind, u.length) for u in units] == [("tractor", length)]
    assert units[0].suit == "T"


def test_R3_3_permanent_twos_chain_continues():
    o = order(level=10, trump="S", permanent_twos=True)
    units = decompose(parse_cards("S10 S10 H10 H10 S2 S2 D2 D2 SA SA"), o)
    assert [(u.kind, u.length) for u in units] == [("tractor", 5)]


@pytest.mark.parametrize("text", ["H5 H5 H4", "H5 H4 H4", "H5 H5 H3 H3", "HJ HJ HQ",
                                  "H10 H10 C10 C10", "HJ HJ H10 H10", "HA HA H2 H2"])
def test_R3_4_not_tractors_seed_examples(text):
    # seed 000: 5 5 4, 5 4 4, 5 5 3 3, J J Q, two pairs of off-suit 10s, J J 10 10, A A 2 2
    units = decompose(parse_cards(text), order(level=10, trump="S"))
    assert all(u.kind != "tractor" for u in units), units


@pytest.mark.parametrize("text", ["H3 H3 H3 H4 H4 H4", "H4 H4 H4 H6 H6 H6", "H5 H5 H5 S5 S5 S5",
                                  "BJ BJ BJ LJ LJ LJ", "SA SA SA H5 H5 H5", "S5 S5 S5 LJ LJ LJ"])
def test_R3_5_titanic_seed_examples_level_5(text):
    # seed 000 三副牌: 333 444, 444 666, off-5 + trump-5, BJ LJ, AAA off-5, trump-5 LJ (trump ♠)
    units = decompose(parse_cards(text), order("three-decks", level=5, trump="S"))
    assert [(u.kind, u.width, u.length) for u in units] == [("tractor", 3, 2)]


def test_R3_5_not_titanic_seed_examples():
    assert all(u.kind == "triple" for u in decompose(parse_cards("H5 H5 H5 H6 H6 H6"),
                                                     order("three-decks", level=5, trump="S")))
    # in NT two triples of different off-suit 5s are equal in rank, not adjacent
    assert all(u.kind == "triple" for u in decompose(parse_cards("H5 H5 H5 S5 S5 S5"),
                                                     order("three-decks", level=5, trump=None)))


def test_R3_6_quad_runs_are_tractors_with_four_decks():
    units = decompose(parse_cards("H4 H4 H4 H4 H5 H5 H5 H5"), order("four-decks", level=3, trump="S"))
    assert [(u.kind, u.width, u.length) for u in units] == [("tractor", 4, 2)]


def test_R3_3_chain_at_level_3_with_permanent_twos_four_decks():
    # R-3.3 / seed 000 四副牌 item 8 order: 主3 > 副3 > 主2 > 副2 > 主A: each neighbour pair is adjacent
    o = order("four-decks", level=3, trump="S")
    for text in ["S3 S3 H3 H3", "H3 H3 S2 S2", "S2 S2 H2 H2", "H2 H2 SA SA"]:
        assert [u.kind for u in decompose(parse_cards(text), o)] == ["tractor"], text
    # off-suit 3s and off-suit 2s are not adjacent (主2 lies between), nor are two off-suit 2s
    assert [u.kind for u in decompose(parse_cards("H3 H3 H2 H2"), o)] == ["pair", "pair"]
    assert [u.kind for u in decompose(parse_cards("H2 H2 D2 D2"), o)] == ["pair", "pair"]
    whole = decompose(parse_cards("S3 S3 H3 H3 S2 S2 H2 H2 SA SA"), o)
    assert [(u.kind, u.length) for u in whole] == [("tractor", 5)]


def test_canonical_split_widest_first_then_longest():
    o = order("three-decks", level=10, trump="S")
    assert split("H5 H5 H5 H6 H6 H7 H7", o) == [("tractor", 2, 2, "H7 H7 H6 H6"), ("triple", 3, 1, "H5 H5 H5")]
    assert shape_of(decompose(parse_cards("H9 H8 H8 H4 H4"), order())) == ((2, 1), (2, 1), (1, 1))


def test_unit_cards_are_high_to_low_and_json():
    u = decompose(parse_cards("H9 H9 HJ HJ"), order())[0]
    assert u.as_json() == {"kind": "tractor", "width": 2, "length": 2, "cards": ["HJ", "HJ", "H9", "H9"]}


def test_is_single_unit():
    o = order()
    assert is_single_unit(parse_cards("HK HK HQ HQ"), o)
    assert not is_single_unit(parse_cards("HA HK"), o)
    assert not is_single_unit([], o)


def test_mixed_suit_play_is_split_suit_by_suit():
    units = decompose(parse_cards("H3 S3 S3"), order(level=10, trump="S"))
    assert [(u.suit, u.kind) for u in units] == [("T", "pair"), ("H", "single")]


def test_R2_5_two_colours_seed_tractor_D7_H7_D8_H8():
    # seed 000 兩色規則: ♦7♥7♦8♥8 是拖拉機
    units = decompose(parse_cards("D7 H7 D8 H8"), order("one-deck-two-colour", level=10, trump="S"))
    assert [(u.kind, u.width, u.length) for u in units] == [("tractor", 2, 2)]
    assert units[0].suit == "H"      # red
