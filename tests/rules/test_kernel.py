"""The rules kernel: one decision for a one-card follow, one way to the trick's winner.

* R-4.4: ``single_follow_is_legal`` — a held card follows a one-card lead when it is of the led suit
  or the hand holds none of it — is what ``check_follow`` rules for every such follow, and what the
  game lets a seat lay at once;
* R-5.1, R-5.2, R-2.4: ``single_winner`` (the first of the highest ``single_strengths``) is the
  winner the lead's shape gives (``winning_index`` with the lead's ``TrickShape``), for every
  one-card trick, mismatched plays included.
"""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from shengji_table.rules.cards import ALL_FACES, SUITS
from shengji_table.rules.follow import check_follow, face_counts, follow_rule, single_follow_is_legal
from shengji_table.rules.order import TrumpOrder
from shengji_table.rules.ruleset import Ruleset
from shengji_table.rules.trick import TrickShape, single_winner, winning_index

PRESETS = ["classic", "one-deck", "one-deck-two-colour", "three-decks", "four-decks", "tournament"]
TRUMPS = list(SUITS) + [None]


def _order(preset: str, level: int, trump) -> TrumpOrder:
    return TrumpOrder.of(Ruleset.from_preset(preset), level, trump)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PRESETS), st.integers(2, 14), st.sampled_from(TRUMPS), st.integers(0, 2**32 - 1))
def test_R4_4_a_one_card_follow_is_legal_exactly_when_check_follow_says_so(preset, level, trump, seed):
    order = _order(preset, level, trump)
    rng = random.Random(seed)
    deck = list(ALL_FACES) * order.decks
    rng.shuffle(deck)
    lead, hand = deck[0], deck[1:1 + rng.randint(1, 30)]
    rule = follow_rule((lead,), order)
    counts = face_counts(hand)
    suit = order.face_suit[lead.index]
    for card in set(hand):
        verdict = check_follow((lead,), (card,), hand, order, rule)
        assert single_follow_is_legal(card, suit, counts, order) == verdict.ok, (lead, card, hand, verdict)
        assert verdict.ok == (order.face_suit[card.index] == suit
                              or all(order.face_suit[c.index] != suit for c in hand))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PRESETS), st.integers(2, 14), st.sampled_from(TRUMPS), st.integers(0, 2**32 - 1))
def test_R5_1_R5_2_a_one_card_tricks_winner_is_the_lead_shapes_winner(preset, level, trump, seed):
    order = _order(preset, level, trump)
    rng = random.Random(seed)
    deck = list(ALL_FACES) * order.decks
    rng.shuffle(deck)
    plays = [(deck.pop(),)]
    for _ in range(rng.randint(1, 5)):
        plays.append(tuple(deck.pop() for _ in range(rng.choice((1, 1, 1, 2)))))   # a mismatch never wins
    by_shape = winning_index(plays, order, TrickShape(plays[0], order))
    assert single_winner(plays, order) == by_shape == winning_index(plays, order), plays
