"""Leads and throws (R-4.1 – R-4.3), checked against the other hands."""
from shengji_table.rules.cards import parse_cards
from shengji_table.rules.order import TrumpOrder
from shengji_table.rules.ruleset import Ruleset
from shengji_table.rules.throw import check_lead, check_throw, is_throw


def order(preset="classic", level=10, trump="S", **options):
    return TrumpOrder(Ruleset.from_preset(preset, **options), level, trump)


def P(text):
    return tuple(parse_cards(text))


def names(cards):
    return [str(c) for c in cards]


def test_R4_1_a_lead_is_one_unit_or_a_throw_of_one_suit():
    o = order()
    assert check_lead(P("HK HK HQ HQ"), o).ok
    assert check_lead(P("HA HK"), o).ok and is_throw(P("HA HK"), o)
    v = check_lead(P("HA SA"), o)
    assert not v.ok and v.rule == "R-4.1" and "mixes" in v.reason
    assert not is_throw(P("HA SA"), o) and not is_throw(P("HA"), o)


def test_R4_1_level_cards_and_trump_suit_are_one_suit_for_a_throw():
    o = order(level=10, trump="S")
    assert check_lead(P("BJ H10 SA"), o).ok


def test_R4_1_three_players_may_not_throw():
    o = order("three-players")
    assert not check_lead(P("HA HK"), o).ok
    tc = check_throw(P("HA HK"), {1: [], 2: []}, o)
    assert not tc.ok and tc.rule == "R-4.1" and names(tc.forced) == ["HK"]


def test_R4_2_seed_throws_stand_when_nobody_beats_them():
    # seed 000: A A K, A K K, A Q Q J J, 9 8 8 4 4 (nobody beats 9, 88 or 44)
    o = order(level=10, trump="S")
    others = {1: P("H7 H6 C3"), 2: P("H3 H2 D4"), 3: P("H5 D9")}
    for lead in ["HA HA HK", "HA HK HK", "HA HQ HQ HJ HJ"]:
        assert check_throw(P(lead), others, o).ok, lead
    tc = check_throw(P("H9 H8 H8 H4 H4"), {1: P("H7 H6"), 2: P("H3 H2"), 3: P("H5 HK")}, o)
    assert not tc.ok  # HK beats the 9
    assert check_throw(P("H9 H8 H8 H4 H4"), {1: P("H7 H6"), 2: P("H3 H2"), 3: P("H5 C5")}, o).ok


def test_R4_3_someone_holds_J_so_play_the_9():
    o = order(level=10, trump="S")
    tc = check_throw(P("H9 H8 H8 H4 H4"), {1: P("C3"), 2: P("HJ H2"), 3: P("D4")}, o)
    assert not tc.ok and tc.rule == "R-4.3"
    assert names(tc.forced) == ["H9"]
    assert sorted(names(tc.withdrawn)) == ["H4", "H4", "H8", "H8"]
    assert tc.beaten_by == (2, P("HJ"))


def test_R4_3_someone_holds_QQ_or_55_so_play_44():
    o = order(level=10, trump="S")
    for beater in ["HQ HQ", "H5 H5"]:
        tc = check_throw(P("H9 H8 H8 H4 H4"), {1: P("C3"), 2: P("D4"), 3: P(beater + " H2")}, o)
        assert not tc.ok and names(tc.forced) == ["H4", "H4"], beater
        assert tc.beaten_by[0] == 3 and names(tc.beaten_by[1]) == beater.split()


def test_R4_3_several_units_beatable_the_lowest_is_played():
    # seed 000: QQ beats the 9, the 88 and the 44, and the seed says play 44 (最小牌)
    o = order(level=10, trump="S")
    tc = check_throw(P("H9 H8 H8 H4 H4"), {1: P("HJ"), 2: P("HQ HQ")}, o)
    assert names(tc.forced) == ["H4", "H4"] and tc.beaten_by == (2, P("HQ HQ"))
    # equal rank (off-suit level cards): fewer cards first
    tc = check_throw(P("C10 C10 H10"), {1: P("S10 S10")}, o)
    assert names(tc.forced) == ["H10"] and tc.beaten_by == (1, P("S10"))


def test_R4_2_tractor_in_a_throw_beaten_only_by_a_higher_tractor_of_the_same_length():
    o = order(level=10, trump="S")
    lead = P("H8 H8 H7 H7 HA")
    assert check_throw(lead, {1: P("HK HK HQ"), 2: P("H6 H6 H5 H5")}, o).ok
    tc = check_throw(lead, {1: P("HK HK HQ HQ")}, o)
    assert not tc.ok and names(tc.forced) == ["H8", "H8", "H7", "H7"]


def test_R4_2_trumps_do_not_beat_a_plain_suit_throw():
    o = order(level=10, trump="S")
    assert check_throw(P("HA HK"), {1: P("BJ BJ SA")}, o).ok


def test_R4_2_triple_in_a_throw_three_decks_beaten_by_a_higher_triple():
    o = order("three-decks", level=10, trump="S")
    lead = P("H9 H9 H9 HA")
    assert check_throw(lead, {1: P("HK HK H3")}, o).ok
    assert not check_throw(lead, {1: P("HK HK HK")}, o).ok


def test_four_decks_seed_no_throw_when_nobody_else_holds_the_suit():
    # seed 000 四副牌: 當其他三方沒有自己所拿花色情況下，不能進行甩牌
    o = order("four-decks", level=10, trump="S")
    tc = check_throw(P("HA HK"), {1: P("C3"), 2: P("D4"), 3: P("S5")}, o)
    assert not tc.ok and names(tc.forced) == ["HK"] and tc.beaten_by is None
    assert check_throw(P("HA HK"), {1: P("H3"), 2: P("D4"), 3: P("S5")}, o).ok


def test_single_unit_lead_is_always_ok():
    assert check_throw(P("H3 H3"), {1: P("HA HA")}, order()).ok
