"""Trump membership and card order (R-2), including permanent twos, NT and two colours."""
import pytest

from shengji_table.rules.cards import ALL_FACES, parse_card, parse_cards
from shengji_table.rules.order import OrderError, TrumpOrder
from shengji_table.rules.ruleset import Ruleset


def order(preset="classic", level=10, trump="S", **options):
    return TrumpOrder(Ruleset.from_preset(preset, **options), level, trump)


def ladder(o, text):
    """Assert that the cards of ``text`` (high → low, '=' joins equal ranks) rank in that order."""
    tiers = [parse_cards(t.replace("=", " ")) for t in text.split()]
    ranks = [{o.rank_of(c) for c in tier} for tier in tiers]
    for tier_ranks in ranks:
        assert len(tier_ranks) == 1, f"cards of one tier must rank equal: {tiers}"
    flat = [next(iter(r)) for r in ranks]
    assert flat == sorted(flat, reverse=True), flat
    # adjacent in the list → adjacent positions (difference 1): taking ranks out joins their neighbours
    assert all(a - b == 1 for a, b in zip(flat, flat[1:])), flat


def test_R2_1_trumps_are_jokers_level_cards_and_trump_suit():
    o = order(level=10, trump="S")
    trumps = {str(c) for c in ALL_FACES if o.is_trump(c)}
    spades = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    assert trumps == {"BJ", "LJ", "H10", "C10", "D10"} | {f"S{r}" for r in spades}
    assert all(o.suit_of(parse_card(t)) == "T" for t in trumps)
    assert o.suit_of(parse_card("HA")) == "H" and not o.is_trump(parse_card("HA"))


def test_R2_1_permanent_twos_are_trumps_only_with_the_option():
    off = order(level=10, trump="S")
    on = order(level=10, trump="S", permanent_twos=True)
    assert not off.is_trump(parse_card("H2"))
    assert on.is_trump(parse_card("H2")) and on.suit_of(parse_card("D2")) == "T"


def test_R2_2_trump_order_seed_level_10_without_permanent_twos():
    # seed 000: 大王, 小王, 主10, 副10, A, K, Q, J, 9, 8, 7, 6, 5, 4, 3, 2
    ladder(order(level=10, trump="S"), "BJ LJ S10 H10=C10=D10 SA SK SQ SJ S9 S8 S7 S6 S5 S4 S3 S2")


def test_R2_2_trump_order_seed_level_10_with_permanent_twos():
    # seed 000: 大王, 小王, 主10, 副10, 主2, 副2, A, K, Q, J, 9 … 3
    ladder(order(level=10, trump="S", permanent_twos=True),
           "BJ LJ S10 H10=C10=D10 S2 H2=C2=D2 SA SK SQ SJ S9 S8 S7 S6 S5 S4 S3")


def test_R2_2_four_decks_level_3_quads_order_seed_item_8():
    # seed 000 四副牌 item 8 (打3): 大王 > 小王 > 主3 > 副3 > 主2 > 副2 > 主A … 主4
    ladder(order("four-decks", level=3, trump="S"),
           "BJ LJ S3 H3=C3=D3 S2 H2=C2=D2 SA SK SQ SJ S10 S9 S8 S7 S6 S5 S4")


def test_R2_2_no_trump_all_level_cards_equal_below_small_joker():
    o = order(level=10, trump=None)
    ladder(o, "BJ LJ S10=H10=C10=D10")
    assert not o.is_trump(parse_card("SA"))
    assert o.suit_of(parse_card("SA")) == "S"
    assert TrumpOrder(Ruleset.from_preset("classic"), 10, "NT").suit_of(parse_card("S10")) == "T"


def test_R2_2_no_trump_with_permanent_twos():
    ladder(order(level=10, trump=None, permanent_twos=True), "BJ LJ S10=H10=C10=D10 S2=H2=C2=D2")


def test_R2_2_level_two_with_permanent_twos_is_just_the_level():
    ladder(order(level=2, trump="H", permanent_twos=True), "BJ LJ H2 S2=C2=D2 HA HK")


def test_R2_3_plain_suits_skip_the_level_and_permanent_twos():
    ladder(order(level=10), "HA HK HQ HJ H9 H8 H7 H6 H5 H4 H3 H2")
    ladder(order(level=10, permanent_twos=True), "HA HK HQ HJ H9 H8 H7 H6 H5 H4 H3")
    ladder(order(level=14), "HK HQ HJ H10 H9")


def test_R2_4_equal_cards_compare_equal():
    o = order(level=10, trump="S")
    assert o.compare(parse_card("H10"), parse_card("C10")) == 0
    assert o.compare(parse_card("S10"), parse_card("H10")) > 0


def test_R2_5_two_colours_suits_and_pairs():
    o = order("one-deck-two-colour", level=10, trump="H")
    hk, dk, sk, ck = parse_cards("HK DK SK CK")
    assert o.suit_of(hk) == o.suit_of(dk) == "T"          # red is trump
    assert o.suit_of(sk) == o.suit_of(ck) == "S"          # black is one suit
    assert o.group_of(hk) == o.group_of(dk)              # ♥K♦K is a pair
    assert o.group_of(sk) == o.group_of(ck)              # ♣K♠K is a pair
    assert o.group_of(hk) != o.group_of(sk)              # ♥K♠K is not
    ladder(o, "BJ LJ H10=D10 S10=C10 HA=DA HK=DK")


def test_sort_key_displays_trumps_first_high_to_low():
    o = order(level=10, trump="S")
    shown = [str(c) for c in o.sorted(parse_cards("H3 S4 BJ C10 HA S10 LJ"))]
    assert shown == ["BJ", "LJ", "S10", "C10", "S4", "HA", "H3"]


def test_bad_level_or_trump_is_a_clear_error():
    rs = Ruleset.from_preset("classic")
    with pytest.raises(OrderError, match="level"):
        TrumpOrder(rs, 15, "S")
    with pytest.raises(OrderError, match="trump"):
        TrumpOrder(rs, 10, "X")


def test_order_is_immutable():
    o = order()
    with pytest.raises(AttributeError):
        o.level = 3
