"""The kitty bonus (R-7.3) under both multiplier conventions, and kitty sizes (R-7.1)."""
import pytest

from shengji_table.rules.cards import parse_cards
from shengji_table.rules.kitty import kitty_bonus, kitty_multiplier, kitty_points, rule_kitty
from shengji_table.rules.order import TrumpOrder
from shengji_table.rules.ruleset import Ruleset, RulesetError

THREE = Ruleset.from_preset("three-decks")
LINEAR = THREE.replace(kitty_multiplier="linear")


def mult(rs, cards, level=2, trump="S"):
    return kitty_multiplier(rs, parse_cards(cards), TrumpOrder(rs, level, trump))


@pytest.mark.parametrize("cards,want", [
    ("H4 H4 H4 H5 H5 H5", 64),     # 閒家用 444555 摳底，翻 2^6 = 64 倍
    ("H4 H4 H5 H5 H6 H6", 64),     # 445566 → 64
    ("H4 H4 H5 H5", 16),           # 4455 → 16
    ("H5 H5 H5", 8),               # 555 → 8
    ("H4 H4", 4),                  # 對子 44 → 2² = 4
    ("HA HK HQ HJ H10 H9 H8 H7 H7", 4),   # 甩牌 AKQJ 10 9 8 77: by the pair 77 → 4
    ("HA HK HQ HJ", 2),            # AKQJ 甩牌: singles → 2
    ("HA HA HJ HJ", 4),            # A A J J 甩牌: two pairs, no tractor → 4
])
def test_r7_3_power_seed_examples(cards, want):
    """R-7.3 default (seeds 000/002 扣底規則): 2^n for the largest unit of the winning play."""
    assert mult(THREE, cards) == want


def test_r7_3_power_cap_64():
    """R-7.3: the power multiplier is capped at 64 (最大 64 倍): a 4-pair tractor gives 64, not 256."""
    assert mult(THREE, "H3 H3 H4 H4 H5 H5 H6 H6") == 64
    rs = THREE.replace(kitty_multiplier_cap=32)
    assert mult(rs, "H4 H4 H4 H5 H5 H5") == 32


def test_r7_3_power_trump_ruff_tractor_across_level_cards():
    """R-7.3 + R-3.3: a trump tractor LJ LJ ♠10 ♠10 at level 10 is a 4-card unit → 16."""
    rs = Ruleset.from_preset("classic")
    assert mult(rs, "LJ LJ S10 S10", level=10) == 16


@pytest.mark.parametrize("cards,want", [
    ("H4", 2),                          # 什么都没有 → 2
    ("H4 H4", 4),                       # 两对 (pair) → 4
    ("H4 H4 H4", 6),                    # 三对 (triple) → 6
    ("H4 H4 H5 H5", 8),                 # tractor len 2 → 2·2^2
    ("H4 H4 H5 H5 H6 H6", 16),          # tractor len 3 → 2·2^3
    ("H4 H4 H4 H5 H5 H5", 18),          # Titanic len 2 → 2·3^2
    ("H4 H4 H4 H5 H5 H5 H6 H6 H6", 54),  # Titanic len 3 → 2·3^3
])
def test_r7_3_linear_seed_003(cards, want):
    """R-7.3 option (seed 003): single 2, pair 4, triple 6, tractor 2·2^len, Titanic 2·3^len."""
    assert mult(LINEAR, cards) == want


def test_r7_3_linear_first_kind_in_seed_order_decides():
    """R-7.3 option (seed 003 且不再計算其他牌型): a throw with a triple and a tractor counts the
    triple (6), checked before tractors; the power convention takes the 4-card tractor (16)."""
    throw = "HA HA HA H8 H8 H7 H7"
    assert mult(LINEAR, throw) == 6
    assert mult(THREE, throw) == 16


def test_r7_3_linear_has_no_cap():
    """R-7.3 option: seed 003 names no cap: a six-pair tractor counts 2·2^6 = 128."""
    assert mult(LINEAR, "H3 H3 H4 H4 H5 H5 H6 H6 H7 H7 H8 H8") == 128


def test_r7_3_bonus_is_kitty_points_times_multiplier():
    """R-7.3 (issue example): kitty with 10 points, last trick won with a pair → 10 × 4 = 40."""
    rs = Ruleset.from_preset("classic")
    order = TrumpOrder(rs, 10, "S")
    kitty = parse_cards("HK C3 C4 D6 D7 H8 C9 DJ")
    assert kitty_points(kitty) == 10
    assert kitty_bonus(rs, kitty, parse_cards("S9 S9"), order) == 40
    ruling = rule_kitty(rs, kitty, parse_cards("S9 S9"), order)
    assert (ruling.multiplier, ruling.bonus, ruling.rule) == (4, 40, "R-7.3")
    assert "pair" in ruling.reason


@pytest.mark.parametrize("preset,size,hand", [
    ("one-deck", 6, 12), ("classic", 8, 25), ("three-decks", 6, 39), ("four-decks", 0, 54),
    ("three-players", 9, 33),
])
def test_r7_1_kitty_sizes(preset, size, hand):
    """R-7.1 (seeds 002/003 底牌; §9 three players 33 each + 9): kitty and hand sizes per preset."""
    rs = Ruleset.from_preset(preset)
    assert (rs.kitty_size, rs.hand_size) == (size, hand)


@pytest.mark.parametrize("size, message", [(-4, "kitty_size must be 0 or more"),
                                           (108, "less than the 108 cards"),
                                           (7, "do not deal evenly")])
def test_kitty_size_option_is_checked_with_a_clear_reason_R7_1(size, message):
    """R-7.1: the kitty is what is left after an even deal; a negative or whole-deck kitty is named
    as such, not reported as an uneven deal."""
    with pytest.raises(RulesetError, match=message):
        Ruleset.from_preset("classic", kitty_size=size)
