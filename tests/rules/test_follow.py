"""Following (R-4.4 – R-4.7): count, suit, pairs, tractors, and the seed's 3- and 4-deck ladders."""
import pytest

from shengji_table.rules.cards import Card, parse_cards
from shengji_table.rules.follow import check_follow, follow_rule, legal_follows
from shengji_table.rules.ladders import FOUR_DECK_LADDERS, THREE_DECK_LADDERS, describe, generic_ladder
from shengji_table.rules.order import TrumpOrder
from shengji_table.rules.ruleset import Ruleset
from shengji_table.rules.shapes import count_groups
from shengji_table.rules.units import decompose, shape_of


def order(preset="classic", level=10, trump="S", **options):
    return TrumpOrder(Ruleset.from_preset(preset, **options), level, trump)


def P(text):
    return tuple(parse_cards(text))


def legal(lead, play, hand, o):
    return check_follow(P(lead), P(play), P(hand), o)


# ---- count and suit ----------------------------------------------------------------------
def test_R4_4_play_exactly_as_many_cards_as_led():
    v = legal("H5 H5", "H9", "H9 H8 C3", order())
    assert not v.ok and v.rule == "R-4.4" and "2" in v.reason


def test_R4_4_follow_the_led_suit_while_you_have_it():
    v = legal("HA", "C3", "H9 C3", order())
    assert not v.ok and v.rule == "R-4.4"
    assert legal("HA", "H9", "H9 C3", order()).ok


def test_R4_4_too_few_of_the_suit_play_them_all_and_fill():
    o = order()
    assert legal("H5 H5 H4 H4", "H9 C3 C4 D7", "H9 C3 C4 D7 D8", o).ok
    v = legal("H5 H5 H4 H4", "C3 C4 D7 D8", "H9 C3 C4 D7 D8", o)
    assert not v.ok and v.rule == "R-4.4" and "all" in v.reason


def test_R4_4_trump_lead_is_followed_with_trumps_including_level_cards_and_jokers():
    o = order(level=10, trump="S")
    assert not legal("S3", "HA", "H10 HA", o).ok          # ♥10 is a trump
    assert legal("S3", "H10", "H10 HA", o).ok


def test_card_not_in_hand_is_rule_hand():
    v = legal("HA", "HK", "H9 C3", order())
    assert not v.ok and v.rule == "hand" and "HK" in v.reason


# ---- pairs and tractors (two decks) -------------------------------------------------------
def test_R4_5_lead_pair_follower_with_a_pair_must_play_it():
    o = order()
    assert not legal("H5 H5", "HK H9", "HK H9 H7 H7", o).ok
    assert legal("H5 H5", "H7 H7", "HK H9 H7 H7", o).ok
    assert legal("H5 H5", "HK H9", "HK H9 H7 H6", o).ok   # no pair: any two hearts


def test_R4_5_pairs_may_be_broken_out_of_a_tractor():
    o = order()
    assert legal("H5 H5", "HK HK", "HK HK HQ HQ H3", o).ok
    assert not legal("H5 H5", "HK H3", "HK HK HQ HQ H3", o).ok


def test_R4_5_lead_tractor_follower_with_a_tractor_must_play_one():
    o = order()
    hand = "HK HK HQ HQ H9 H9 H3 H2"
    assert legal("H5 H5 H4 H4", "HK HK HQ HQ", hand, o).ok
    v = legal("H5 H5 H4 H4", "HK HK H9 H9", hand, o)
    assert not v.ok and v.rule == "R-4.5" and "tractor" in v.reason


def test_R4_5_lead_tractor_no_tractor_then_pairs_then_singles():
    o = order()
    assert legal("H5 H5 H4 H4", "HK HK H8 H8", "HK HK H8 H8 H3 H2", o).ok
    assert not legal("H5 H5 H4 H4", "HK HK H3 H2", "HK HK H8 H8 H3 H2", o).ok
    assert legal("H5 H5 H4 H4", "HK HK H3 H2", "HK HK H8 H6 H3 H2", o).ok
    assert legal("H5 H5 H4 H4", "HK H8 H3 H2", "HK HQ H8 H6 H3 H2", o).ok


def test_R4_5_pairs_up_to_the_leads_number():
    o = order()
    # lead AA K (one pair): a follower with three pairs must play one pair, not more required
    assert legal("HA HA HK", "H9 H9 H3", "H9 H9 H7 H7 H3 H3", o).ok
    assert not legal("HA HA HK", "H9 H7 H3", "H9 H9 H7 H7 H3 H3", o).ok


def test_R4_5_longer_lead_tractor_shorter_tractor_plus_pair():
    o = order()
    hand = "HK HK HQ HQ H8 H8 H6 H3"
    assert legal("H5 H5 H4 H4 H3 H3", "HK HK HQ HQ H8 H8", hand + " H2 H2", o).ok
    assert not legal("H5 H5 H4 H4 H3 H3", "HK HK H8 H8 H2 H2", hand + " H2 H2", o).ok


def test_R4_5_trump_tractor_across_level_cards_must_be_played():
    o = order(level=10, trump="S")
    hand = "LJ LJ S10 S10 S3 S4 H2"
    assert not legal("S6 S6 S5 S5", "LJ LJ S3 S4", hand, o).ok
    assert legal("S6 S6 S5 S5", "LJ LJ S10 S10", hand, o).ok


# ---- the seed's ladders as data -----------------------------------------------
def _spread_hand(components, n, suit="H", extra=2, ranks=(3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14)):
    """A hand of one suit holding exactly ``components`` (spread apart) plus distinct singles.

    Returns (hand, play): the play is the components filled with singles up to ``n`` cards.
    """
    pos = 0
    core = []
    used = set()
    for w, length in components:
        for k in range(length):
            core += [Card(suit, ranks[pos + k])] * w
            used.add(pos + k)
        pos += length + 1
    fillers = [Card(suit, r) for i, r in enumerate(ranks) if i not in used]
    need = n - len(core)
    assert need >= 0 and len(fillers) >= need + extra, "test set-up: not enough ranks"
    play = core + fillers[:need]
    hand = play + fillers[need:need + extra]
    return tuple(hand), tuple(play)


def _ladder_cases():
    for decks, table, rule in ((3, THREE_DECK_LADDERS, "R-4.6"), (4, FOUR_DECK_LADDERS, "R-4.7")):
        for shape, ladder in table.items():
            for i, rung in enumerate(ladder):
                for alt in rung:
                    yield pytest.param(decks, shape, i, alt, rule, id=f"{rule}-{shape}-rung{i}-{alt}")


def _lead_for(shape, o):
    # a lead of that shape in ♣ (the follower holds only ♥ of interest… the lead is in ♥ too)
    cards = []
    pos = 0
    ranks = (3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14)
    for w, length in shape:
        for k in range(length):
            cards += [Card("H", ranks[-1 - pos - k])] * w
        pos += length + 1
    cards = tuple(cards)
    assert shape_of(decompose(cards, o)) == shape
    return cards


@pytest.mark.parametrize("decks, shape, i, alt, rule", list(_ladder_cases()))
def test_R4_6_R4_7_every_rung_of_every_seed_ladder(decks, shape, i, alt, rule):
    """A hand whose best structure is rung i must play it; playing only singles is then illegal."""
    o = order({3: "three-decks", 4: "four-decks"}[decks], level=10, trump="S")
    lead = _lead_for(shape, o)
    fr = follow_rule(lead, o)
    assert fr.rule == rule and fr.ladder == (THREE_DECK_LADDERS if decks == 3 else FOUR_DECK_LADDERS)[shape]
    hand, play = _spread_hand(alt, len(lead))
    # the hand's best rung is i (or an earlier rung that this structure also supplies)
    best = fr.rung_index(count_groups(hand, o), o)
    assert best <= i
    if best < i:
        # only where the structure also supplies an earlier rung: a quad-tractor is two quads
        assert (shape, i, best) == (((4, 1), (4, 1)), 1, 0)
    else:
        v = check_follow(lead, play, hand, o)
        assert v.ok, v
        if alt:
            singles = tuple(dict.fromkeys(hand))[:len(lead)]
            if len(singles) == len(lead):
                bad = check_follow(lead, singles, hand, o)
                assert not bad.ok and bad.rule == rule and describe(alt).split()[-1].rstrip("s") in bad.reason


def test_R4_6_seed_ladders_fit_in_the_lead():
    for table in (THREE_DECK_LADDERS, FOUR_DECK_LADDERS):
        for shape, ladder in table.items():
            n = sum(w * length for w, length in shape)
            assert ladder[-1] == ((),)
            for rung in ladder:
                for alt in rung:
                    assert sum(w * length for w, length in alt) <= n, (shape, alt)


def test_R4_6_three_decks_titanic_lead_tractor_before_two_triples_seed_000():
    # seed 000 order: Titanic; tractor + any two; two triples; … (seed 001 lists two triples first)
    o = order("three-decks", level=10, trump="S")
    lead = "H3 H3 H3 H4 H4 H4"
    hand = "H7 H7 H8 H8 HQ HQ HQ HA HA HA H5"
    assert legal(lead, "H7 H7 H8 H8 HQ H5", hand, o).ok
    v = legal(lead, "HQ HQ HQ HA HA HA", hand, o)
    assert not v.ok and v.rule == "R-4.6" and "tractor" in v.reason


def test_R4_6_three_decks_triple_lead_triple_then_pair_plus_single():
    o = order("three-decks", level=10, trump="S")
    assert not legal("H3 H3 H3", "H9 H9 HK", "H9 H9 HK HQ HQ HQ", o).ok
    assert legal("H3 H3 H3", "HQ HQ HQ", "H9 H9 HK HQ HQ HQ", o).ok
    assert legal("H3 H3 H3", "H9 H9 HK", "H9 H9 HK HQ H4", o).ok
    assert not legal("H3 H3 H3", "H9 HK HQ", "H9 H9 HK HQ H4", o).ok


def test_R4_7_item5_quad_lead_two_pairs_before_triple():
    # seed 000 四副牌 item 5: 4個 → 拖拉機 → 2個對子 → 3個+1個 → 1對+2單 → 4單
    o = order("four-decks", level=10, trump="S")
    hand = "H6 H6 H9 H9 HK HK HK H3"
    assert legal("HA HA HA HA", "H6 H6 H9 H9", hand, o).ok
    v = legal("HA HA HA HA", "HK HK HK H3", hand, o)
    assert not v.ok and v.rule == "R-4.7"


def test_R4_7_item6_two_pair_tractor_lead_quad_or_tractor_by_choice():
    o = order("four-decks", level=10, trump="S")
    hand = "HA HA HA HA H3 H3 H4 H4 H8"
    assert legal("H7 H7 H8 H8", "HA HA HA HA", hand, o).ok
    assert legal("H7 H7 H8 H8", "H3 H3 H4 H4", hand, o).ok
    assert not legal("H7 H7 H8 H8", "H3 H3 HA HA", hand, o).ok


def test_R4_7_item3_six_card_tractor_lead_tractor_or_titanic_by_choice():
    o = order("four-decks", level=10, trump="S")
    hand = "H6 H6 H7 H7 H8 H8 HJ HJ HJ HQ HQ HQ"
    assert legal("H3 H3 H4 H4 H5 H5", "H6 H6 H7 H7 H8 H8", hand, o).ok
    assert legal("H3 H3 H4 H4 H5 H5", "HJ HJ HJ HQ HQ HQ", hand, o).ok
    assert not legal("H3 H3 H4 H4 H5 H5", "H6 H6 H7 H7 HJ HJ", hand, o).ok


def test_R4_7_item4_titanic_lead_titanic_before_six_card_tractor():
    o = order("four-decks", level=10, trump="S")
    hand = "H6 H6 H7 H7 H8 H8 H5 H5 H5 H4 H4 H4"
    assert legal("HJ HJ HJ HQ HQ HQ", "H5 H5 H5 H4 H4 H4", hand, o).ok
    assert not legal("HJ HJ HJ HQ HQ HQ", "H6 H6 H7 H7 H8 H8", hand, o).ok


def test_R4_7_item1_quad_tractor_lead_two_quads_is_an_alternative():
    o = order("four-decks", level=10, trump="S")
    hand = "H3 H3 H3 H3 H9 H9 H9 H9 HA HA"
    assert legal("H5 H5 H5 H5 H6 H6 H6 H6", "H3 H3 H3 H3 H9 H9 H9 H9", hand, o).ok
    assert not legal("H5 H5 H5 H5 H6 H6 H6 H6", "H3 H3 H3 H3 H9 H9 HA HA", hand, o).ok


def test_generic_ladder_two_decks_is_tractor_then_pairs():
    assert generic_ladder(((2, 3),)) == (
        (((2, 3),),), (((2, 2), (2, 1)),), (((2, 2),),), (((2, 1), (2, 1), (2, 1)),),
        (((2, 1), (2, 1)),), (((2, 1),),), ((),),
    )


# ---- legal_follows ------------------------------------------------------------------------
def test_legal_follows_lists_exactly_the_legal_plays():
    o = order()
    lead, hand = P("H5 H5"), P("HK HK HQ HQ H3 C4")
    plays = {tuple(map(str, p)) for p in legal_follows(lead, hand, o)}
    assert plays == {("HK", "HK"), ("HQ", "HQ")}


def test_legal_follows_void_player_may_play_anything():
    o = order()
    plays = list(legal_follows(P("HA"), P("S3 C4 C4"), o))
    assert sorted(tuple(map(str, p)) for p in plays) == [("C4",), ("S3",)]


def test_R2_5_two_colours_follow_the_colour():
    o = order("one-deck-two-colour", level=10, trump="S")
    assert not legal("H7", "SA", "DA SA", o).ok            # ♦ is red: must follow red
    assert legal("H7", "DA", "DA SA", o).ok
    # a same-colour pair must answer a pair lead
    assert not legal("H7 D7", "HK HQ", "HK DK HQ", o).ok
    assert legal("H7 D7", "HK DK", "HK DK HQ", o).ok


@pytest.mark.parametrize("preset", ["classic", "four-decks", "one-deck-two-colour"])
def test_R4_4_one_card_follows_counted_give_the_general_verdicts(preset, monkeypatch):
    """A one-card follow to a one-card lead is checked by counting (the commonest check); its
    verdict — legality, rule id and reason — is the general check's, for random hands, held and
    unheld cards, and hands void in the led suit (R-4.4)."""
    import random

    from shengji_table.rules import follow as F
    from shengji_table.rules.cards import ALL_FACES, SUITS
    from shengji_table.rules.follow import face_counts
    rng = random.Random(preset)
    rs = Ruleset.from_preset(preset)
    seen = set()
    for _ in range(500):
        o = TrumpOrder(rs, rng.randint(2, 14), rng.choice([*SUITS, None]))
        deck = list(ALL_FACES) * rs.decks
        rng.shuffle(deck)
        hand, lead = deck[:rng.randint(1, 30)], (deck[-1],)
        play = (rng.choice(hand),) if rng.random() < 0.9 else (deck[-2],)
        counted = check_follow(lead, play, hand, o), check_follow(lead, play, hand, o, counts=face_counts(hand))
        with monkeypatch.context() as m:
            m.setattr(F, "_NO_SHAPE", object())         # no lead owes "no shape": the general path
            general = check_follow(lead, play, hand, o)
        assert counted[0] == counted[1] == general, (lead, play, hand)
        seen.add((general.ok, general.rule, general.reason.split()[1]))
    assert len(seen) == 4, seen          # refused: not held / must follow suit; legal: all of the suit / followed
