"""Declarations and overcalls (R-6) for every ladder, and the trump when nobody declared (R-6.4)."""
import pytest

from shengji_table.rules.cards import parse_cards
from shengji_table.rules.declare import (
    Declaration, check_declaration, declaration_strength, default_trump, first_dealer, run_declarations,
)
from shengji_table.rules.ruleset import Ruleset

CLASSIC = Ruleset.from_preset("classic")
THREE = Ruleset.from_preset("three-decks")
FOUR = Ruleset.from_preset("four-decks")
ONE = Ruleset.from_preset("one-deck")
TWO_COLOUR = Ruleset.from_preset("one-deck-two-colour")


def run(ruleset, level, *calls):
    results, standing = run_declarations(ruleset, level, [Declaration(s, c.split()) for s, c in calls])
    return [r.valid for r in results], results, standing


# ---- two decks ----------------------------------------------------------------------------

def test_r6_1_seed_first_shown_level_card_sets_trump():
    """R-6.1 (seed 000 亮牌規則): the suit of the first level card shown becomes trump."""
    valid, results, standing = run(CLASSIC, 10, (1, "H10"))
    assert valid == [True]
    assert (standing.seat, standing.trump) == (1, "H")
    assert results[0].kind == "declare" and results[0].rule == "R-6.1"


@pytest.mark.parametrize("weaker,stronger", [
    ("H10", "S10 S10"),          # single < pair
    ("S10 S10", "LJ LJ"),        # pair < small-joker pair (NT)
    ("LJ LJ", "BJ BJ"),          # small-joker pair < big-joker pair
    ("H10", "BJ BJ"),
])
def test_r6_1_two_deck_ladder_each_rung_overcalls_the_lower(weaker, stronger):
    """R-6.1: single level card < pair of level cards < pair of small jokers < pair of big jokers."""
    valid, _, standing = run(CLASSIC, 10, (1, weaker), (2, stronger))
    assert valid == [True, True]
    assert standing.seat == 2
    valid, _, standing = run(CLASSIC, 10, (1, stronger), (2, weaker))
    assert valid == [True, False]
    assert standing.seat == 1


@pytest.mark.parametrize("first,second", [("H10", "S10"), ("H10 H10", "C10 C10"), ("LJ LJ", "LJ LJ")])
def test_r6_1_equal_strength_first_call_stands(first, second):
    """R-6.1 (seed 000 以先出現者為準): an equal call does not overcall."""
    valid, results, standing = run(CLASSIC, 10, (1, first), (2, second))
    assert valid == [True, False]
    assert standing.seat == 1
    assert "first call stands" in results[1].reason


@pytest.mark.parametrize("cards,why", [
    ("H9", "level"), ("H10 S10", "one suit"), ("H10 H10 H10", "one or two"), ("LJ", "pair of jokers"),
    ("LJ BJ", "identical jokers"), ("LJ H10", "on their own"),
])
def test_r6_1_what_is_not_a_declaration(cards, why):
    """R-6.1: only level cards of one suit, or a pair of identical jokers, declare (two decks)."""
    valid, results, standing = run(CLASSIC, 10, (1, cards))
    assert valid == [False] and standing is None
    assert why in results[0].reason


# ---- overcalls -----------------------------------------------------------------------------

def test_r6_2_fanzhu_another_seat_stronger_suit():
    """R-6.2 反主: another seat overcalls with a stronger call in a suit."""
    _, results, standing = run(CLASSIC, 10, (0, "D10"), (1, "C10 C10"))
    assert results[1].kind == "overcall" and standing.trump == "C"


def test_r6_2_fan_wuzhu_joker_pair_gives_no_trump():
    """R-6.2 反无主: a joker pair overcalls into no trump."""
    _, results, standing = run(CLASSIC, 10, (0, "D10 D10"), (3, "LJ LJ"))
    assert results[1].kind == "overcall-nt" and standing.trump is None and standing.seat == 3


def test_r6_2_zibao_declarer_reinforces_same_suit():
    """R-6.2 自保: the declarer shows a second level card of the same suit; nobody can then overcall
    with a pair of another suit (equal strength)."""
    valid, results, standing = run(CLASSIC, 10, (2, "S10"), (2, "S10 S10"), (1, "H10 H10"))
    assert valid == [True, True, False]
    assert results[1].kind == "reinforce"
    assert (standing.seat, standing.trump, len(standing.cards)) == (2, "S", 2)


def test_r6_2_zibao_allowed_even_without_self_overcall():
    """R-6.2: 自保 is not 自反, so it stays allowed when self_overcall is off."""
    rs = CLASSIC.replace(self_overcall=False)
    valid, _, _ = run(rs, 10, (2, "S10"), (2, "S10 S10"))
    assert valid == [True, True]


def test_r6_2_zifan_allowed_by_default():
    """R-6.2 自反 (default allowed): the declarer overcalls their own call in another suit."""
    valid, results, standing = run(CLASSIC, 10, (2, "S10"), (2, "H10 H10"))
    assert valid == [True, True] and results[1].kind == "self-overcall" and standing.trump == "H"


def test_r6_2_zifan_refused_with_option_off():
    """R-6.2 自反 with self_overcall=False is not allowed; the first call stands."""
    rs = CLASSIC.replace(self_overcall=False)
    valid, results, standing = run(rs, 10, (2, "S10"), (2, "H10 H10"))
    assert valid == [True, False] and standing.trump == "S"
    assert "自反" in results[1].reason and results[1].rule == "R-6.2"


def test_r6_2_zifan_into_no_trump_is_a_self_overcall():
    """R-6.2: the declarer's own joker pair over their suit call is 自反 too."""
    valid, results, _ = run(CLASSIC, 10, (2, "S10"), (2, "LJ LJ"))
    assert valid == [True, True] and results[1].kind == "self-overcall"
    valid, _, _ = run(CLASSIC.replace(self_overcall=False), 10, (2, "S10"), (2, "LJ LJ"))
    assert valid == [True, False]


def test_r6_2_declaration_sequence_from_issue_example():
    """R-6.1/R-6.2: the judge example — ♥10 by seat 1, then ♠10♠10 by seat 2 overcalls."""
    valid, _, standing = run(CLASSIC, 10, (1, "H10"), (2, "S10 S10"))
    assert valid == [True, True] and (standing.seat, standing.trump) == (2, "S")


# ---- three decks -----------------------------------------------------------------------------

THREE_LADDER = ["H10", "H10 H10", "LJ LJ", "H10 H10 H10", "LJ LJ LJ"]


@pytest.mark.parametrize("low", range(len(THREE_LADDER)))
def test_r6_3_three_deck_ladder_every_pair_of_rungs(low):
    """R-6.3 (seed 000 三副牌亮主規則): 1 < 2 < two jokers < 3 level cards < three jokers; a call
    on the same rung or below does not overcall (同級別或該級別以下)."""
    for high in range(len(THREE_LADDER)):
        valid, _, _ = run(THREE, 10, (0, THREE_LADDER[low]), (1, THREE_LADDER[high].replace("H", "S")))
        assert valid[1] == (high > low), (THREE_LADDER[low], THREE_LADDER[high])


def test_r6_3_three_decks_small_and_big_jokers_same_rung():
    """R-6.3: the seed lists "兩張王" as one rung: BJ BJ does not overcall LJ LJ without the option."""
    valid, _, _ = run(THREE, 10, (0, "LJ LJ"), (1, "BJ BJ"))
    assert valid == [True, False]


def test_r6_3_seed_002_three_level_cards_overcall_any_two():
    """R-6.3 (seed 002 反底规则): 三張級牌可以反任意兩張級牌 — even two jokers."""
    for two in ("S10 S10", "D10 D10", "BJ BJ"):
        valid, _, _ = run(THREE, 10, (0, two), (1, "D10 D10 D10"))
        assert valid == [True, True], two


@pytest.mark.parametrize("count", [1, 2, 3])
def test_r6_3_suit_order_option_equal_count(count):
    """R-6.3 option (seed 002): at equal count ♦ < ♣ < ♥ < ♠ < small jokers < big jokers."""
    rs = THREE.replace(suit_order_overcall=True)
    order = ["D", "C", "H", "S"] + (["LJ", "BJ"] if count >= 2 else [])

    def cards(x):
        return " ".join([x if x in ("LJ", "BJ") else x + "10"] * count)
    for i, low in enumerate(order):
        for j, high in enumerate(order):
            valid, _, _ = run(rs, 10, (0, cards(low)), (1, cards(high)))
            assert valid[1] == (j > i), (low, high)


def test_r6_3_without_suit_order_equal_count_never_overcalls():
    """R-6.3: without the option ♠10×3 does not overcall ♦10×3 (first stands)."""
    valid, _, _ = run(THREE, 10, (0, "D10 D10 D10"), (1, "S10 S10 S10"))
    assert valid == [True, False]


def test_r6_3_no_four_of_a_kind_with_three_decks():
    """R-6.3: three decks hold three copies; four level cards are not a call."""
    with pytest.raises(ValueError):
        declaration_strength(THREE, 10, parse_cards("S10 S10 S10 S10"))


# ---- four decks ------------------------------------------------------------------------------

def test_r6_5_four_decks_one_more_card_overturns():
    """R-6.5 (seed 000 四副牌 比對方叫牌多1張牌): a call with one more card overturns, equal does not."""
    valid, results, standing = run(FOUR, 5, (0, "H5"), (1, "S5 S5"), (2, "D5 D5"), (3, "C5 C5 C5"), (0, "H5 H5 H5 H5"))
    assert valid == [True, True, False, True, True]
    assert standing.trump == "H" and standing.seat == 0
    assert results[1].rule == "R-6.5"
    assert "one more card" in results[2].reason


def test_r6_5_four_decks_no_self_overcall():
    """R-6.5 / R-6.2 (seed 000 四副牌升級不能自反主): no 自反 with four decks, 自保 still allowed."""
    valid, _, _ = run(FOUR, 5, (0, "H5"), (0, "S5 S5"))
    assert valid == [True, False]
    valid, results, _ = run(FOUR, 5, (0, "H5"), (0, "H5 H5"))
    assert valid == [True, True] and results[1].kind == "reinforce"


def test_r6_5_four_decks_jokers_do_not_declare():
    """R-6.5: the four-deck seed names suits only; jokers are not a call there."""
    valid, results, _ = run(FOUR, 5, (0, "BJ BJ"))
    assert valid == [False] and "suits only" in results[0].reason


# ---- one deck -------------------------------------------------------------------------------------

def test_r6_1_one_deck_single_card_only_first_stands():
    """R-6.1 with one deck: a single level card declares; another single cannot overcall."""
    valid, _, standing = run(ONE, 7, (0, "C7"), (1, "S7"))
    assert valid == [True, False] and standing.trump == "C"
    valid, results, _ = run(ONE, 7, (0, "LJ"))
    assert valid == [False] and "joker" in results[0].reason


def test_r2_5_r6_1_two_colour_pair_overcalls_and_declares_a_colour():
    """R-2.5 + R-6.1: with two colours ♥7♦7 is a pair and overcalls a single; ♦ declares red (H)."""
    valid, _, standing = run(TWO_COLOUR, 7, (0, "C7"), (1, "D7 H7"))
    assert valid == [True, True] and standing.trump == "H"
    valid, _, standing = run(TWO_COLOUR, 7, (0, "D7"))
    assert standing.trump == "H"
    valid, results, _ = run(TWO_COLOUR, 7, (0, "S7 H7"))
    assert valid == [False] and "one suit" in results[0].reason


# ---- R-6.6 ---------------------------------------------------------------------------------

def test_r6_4_nobody_declared_default_no_trump():
    """R-6.4: nobody declared → no trump (NT) by default."""
    assert default_trump(CLASSIC, parse_cards("S3 H4 C5 D6 S7 H8 C9 DJ"), 10) is None


def test_r6_4_kitty_card_option_fourth_card():
    """R-6.4 option (seed 000 翻第4張): the suit of the 4th card turned from the kitty."""
    rs = CLASSIC.replace(no_declaration="kitty-card")
    assert default_trump(rs, parse_cards("S3 H4 C5 D6 S7 H8 C9 DJ"), 10) == "D"
    # a joker names no suit: turning goes on
    assert default_trump(rs, parse_cards("S3 H4 C5 BJ LJ H8 C9 DJ"), 10) == "H"
    assert default_trump(rs, parse_cards("S3 H4 C5 BJ LJ"), 10) is None


def test_r6_4_four_decks_spades():
    """R-6.4 (seed 000 四副牌 若發牌結束仍無人亮牌，則以黑桃花色作為主牌花色)."""
    assert default_trump(FOUR, (), 2) == "S"


def test_r6_6_first_declarer_becomes_dealer():
    """R-6.6: in the first hand the standing caller is the dealer."""
    _, _, standing = run(CLASSIC, 2, (3, "H2"), (1, "S2 S2"))
    assert first_dealer(standing) == 1
    assert first_dealer(None) is None


def test_r6_invalid_call_leaves_standing_unchanged():
    """R-6.1: an invalid call in the middle of a sequence changes nothing."""
    _, _, before = run(CLASSIC, 10, (0, "H10"))
    r = check_declaration(CLASSIC, 10, before, Declaration(1, ["S9"]))
    assert not r.valid and r.standing is before


def test_R6_is_call_is_what_declaration_strength_accepts():
    """``is_call`` (remembered) answers as ``declaration_strength`` does: a call at this level or
    not, for every one-, two- and three-card show of level cards and jokers, in every preset."""
    import itertools

    from shengji_table.rules.cards import BIG_JOKER, SMALL_JOKER, SUITS, Card
    from shengji_table.rules.declare import declaration_strength, is_call
    from shengji_table.rules.ruleset import PRESETS
    both = set()
    for preset in PRESETS:
        rs = Ruleset.from_preset(preset)
        faces = [Card(s, 7) for s in SUITS] + [SMALL_JOKER, BIG_JOKER, Card("S", 8)]
        for n in (1, 2, 3):
            for cards in itertools.combinations_with_replacement(faces, n):
                try:
                    declaration_strength(rs, 7, cards)
                    want = True
                except ValueError:
                    want = False
                assert is_call(rs, 7, cards) is want and is_call(rs, 7, cards) is want, (preset, cards)
                both.add(want)
    assert both == {True, False}
