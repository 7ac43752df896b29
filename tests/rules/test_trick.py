"""Winning a trick, ruffs, over-ruffs, throw-shaped ruffs, equal cards, points (R-5, R-3.6)."""
from shengji_table.rules.cards import parse_cards
from shengji_table.rules.order import TrumpOrder
from shengji_table.rules.ruleset import Ruleset
from shengji_table.rules.trick import Play, lead_candidates, trick_points, winning_index


def order(preset="classic", level=10, trump="S", **options):
    return TrumpOrder(Ruleset.from_preset(preset, **options), level, trump)


def win(o, *plays):
    return winning_index([tuple(parse_cards(p)) for p in plays], o)


def test_R5_1_higher_play_of_the_same_shape_in_the_led_suit_wins():
    o = order()
    assert win(o, "H5 H5", "H9 H9", "HK HQ", "H7 H7") == 1
    assert win(o, "H5", "H9", "C3", "HA") == 3


def test_R5_1_wrong_shape_cannot_win():
    o = order()
    assert win(o, "H5 H5 H4 H4", "HA HA HK HQ") == 0
    assert win(o, "H5 H5 H4 H4", "HA HA H8 H8") == 0     # two pairs are not a tractor


def test_R2_4_equal_cards_the_earlier_play_wins():
    o = order(level=10, trump="S")
    assert win(o, "H10", "C10", "D10") == 0              # off-suit level cards rank equal
    assert win(o, "HA HA", "HA HA") == 0


def test_R5_2_ruff_with_trumps_beats_the_led_suit():
    o = order(level=10, trump="S")
    assert win(o, "HA", "S3") == 1
    assert win(o, "HA", "H10") == 1                      # a level card is a trump


def test_R5_2_seed_99_88_7_2_ruffs_AK_55_44_but_not_AA_55_44():
    o = order(level=10, trump="S")
    assert win(o, "HA HK H5 H5 H4 H4", "S9 S9 S8 S8 S7 S2") == 1
    assert win(o, "HA HA H5 H5 H4 H4", "S9 S9 S8 S8 S7 S2") == 0


def test_R5_2_seed_9_77_ruffs_5_44_and_88_4_over_ruffs():
    o = order(level=10, trump="S")
    assert win(o, "H5 H4 H4", "S9 S7 S7") == 1
    assert win(o, "H5 H4 H4", "S9 S7 S7", "S8 S8 S4") == 2


def test_R5_3_seed_lead_5_6_7_ruff_9_77_then_88_4_does_not_over_ruff():
    o = order(level=10, trump="S")
    assert win(o, "H5 H6 H7", "S9 S7 S7", "S8 S8 S4") == 1


def test_R5_2_ruff_without_the_pair_is_a_discard():
    o = order(level=10, trump="S")
    assert win(o, "H5 H5", "S9 S8") == 0
    assert win(o, "H5 H5", "S9 S8", "S3 S3") == 2


def test_R5_2_mixed_trump_and_plain_cards_cannot_win():
    o = order(level=10, trump="S")
    assert win(o, "H5 H4", "SA C3") == 0


def test_R5_2_trump_lead_followed_by_higher_trumps():
    o = order(level=10, trump="S")
    assert win(o, "S3 S3", "BJ BJ", "LJ LJ") == 1
    assert win(o, "S10 S10 H10 H10", "BJ BJ LJ LJ") == 1


def test_R3_6_four_decks_quad_takes_a_two_pair_tractor():
    o = order("four-decks", level=10, trump="S")
    assert win(o, "HA HA HK HK", "H3 H3 H3 H3") == 1
    assert win(o, "H3 H3 H3 H3", "HA HA HK HK") == 0     # not the other way round


def test_R3_6_four_decks_wider_run_of_the_same_cards_beats_a_pair_run():
    o = order("four-decks", level=10, trump="S")
    assert win(o, "HA HA HK HK HQ HQ", "H3 H3 H3 H4 H4 H4") == 1
    assert win(o, "HA HA HK HK HQ HQ HJ HJ", "H3 H3 H3 H3 H4 H4 H4 H4") == 1
    # three decks: a Titanic is not the shape of a six-card pair tractor
    o3 = order("three-decks", level=10, trump="S")
    assert win(o3, "HA HA HK HK HQ HQ", "H3 H3 H3 H4 H4 H4") == 0


def test_R5_4_points_of_the_trick():
    plays = [Play(0, tuple(parse_cards("H5 HK"))), Play(1, tuple(parse_cards("H10 H3")))]
    assert trick_points(plays) == 25
    assert trick_points([tuple(parse_cards("LJ BJ S2"))]) == 0


def test_lead_candidates_lists_every_single_unit():
    o = order(level=10, trump="S")
    got = {" ".join(map(str, c)) for c in lead_candidates(tuple(parse_cards("H9 H9 HJ HJ H3")), o)}
    assert got == {"H9", "HJ", "H3", "H9 H9", "HJ HJ", "HJ HJ H9 H9"}


def test_R3_6_four_decks_quad_run_beats_triple_run_of_the_same_cards():
    # seed 000 四副牌: 同樣張數的4張拖拉機大過同樣張數的3張拖拉機
    o = order("four-decks", level=10, trump="S")
    assert win(o, "HA HA HA HK HK HK HQ HQ HQ HJ HJ HJ", "H3 H3 H3 H3 H4 H4 H4 H4 H5 H5 H5 H5") == 1


def test_R2_5_two_colours_follow_and_ruff_by_colour():
    o = order("one-deck-two-colour", level=10, trump="S")   # black is trump
    assert win(o, "H7", "DA") == 1                            # ♦ follows red and beats ♥7
    assert win(o, "H7", "C3") == 1                            # ♣ is black: a trump ruff


def test_lead_candidates_two_colour_tractor_from_one_deck():
    # ♠3♣3♠2♣2 is a tractor in one deck with two colours (trump ♠ = black, level 10)
    o = order("one-deck-two-colour", level=10, trump="S")
    got = {" ".join(map(str, c)) for c in lead_candidates(tuple(parse_cards("S2 S3 C2 C3")), o)}
    assert "S3 C3 S2 C2" in got


def test_R5_2_one_card_tricks_ruff_over_ruff_and_equal_ranks():
    """One-card tricks go by rank alone (a quicker path than the shape analysis): the led suit's
    highest card, a ruff over it, a higher trump over the ruff; a later equal trump stays behind."""
    o = order(level=10, trump="S")
    assert win(o, "H5", "S3", "S9", "HA") == 2           # ruffed, over-ruffed; the ace comes too late
    assert win(o, "H5", "S9", "S3", "HA") == 1           # a lower trump does not over-ruff
    assert win(o, "H5", "H10", "C10") == 1               # equal level cards: the earlier stays
    assert win(o, "S4", "HA", "S5", "CA") == 2           # a trump lead: only higher trumps win
    assert win(o, "H5", "C3", "DA") == 0                 # off-suit discards never win


def test_R5_one_card_tricks_agree_with_the_shape_analysis():
    """Every random one-card trick, in every preset: the rank-only winner, and the first of the
    highest ``single_strengths``, equal the general shape comparison's (``TrickShape``) over the
    same plays (R-5.1, R-5.2)."""
    import random

    from shengji_table.rules.cards import ALL_FACES, SUITS
    from shengji_table.rules.ruleset import PRESETS
    from shengji_table.rules.trick import Play, TrickShape, single_strengths, single_winner
    rng = random.Random(20261201)
    for preset in PRESETS:
        rs = Ruleset.from_preset(preset)
        for _ in range(300):
            o = TrumpOrder(rs, rng.randint(2, 14), rng.choice([*SUITS, None]))
            plays = [(rng.choice(ALL_FACES),) for _ in range(rs.players)]
            general = winning_index(plays, o, TrickShape(plays[0], o))
            assert winning_index(plays, o) == general, (preset, plays)
            as_plays = tuple(Play(seat, cards) for seat, cards in enumerate(plays))   # the game's kept plays
            assert winning_index(as_plays, o) == single_winner(as_plays, o) == general, (preset, plays)
            # the game's table of strengths: the first of the highest is the same winner
            table = single_strengths(o, o.suit_of(plays[0][0]))
            strengths = [table[p[0].index] for p in plays]
            assert strengths.index(max(strengths)) == general, (preset, plays, strengths)
