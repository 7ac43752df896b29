"""The heuristic dealer's burial (R-7.2): what to put back in the kitty.

The kitty's points go to the attackers, multiplied, if they win the last trick (R-7.3), so the
dealer buries cards that are cheap to lose: no trumps, no point cards, no aces, no pair members —
and preferably all of a short side suit, which leaves a void to ruff in.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ...rules.cards import Card
from .play_policy import card_values

__all__ = ["choose_burial", "keep_value"]

TRUMP_KEEP = 30.0   # a trump is worth far more in hand than anything it could save
POINT_KEEP = 1.5    # per point: points in the kitty are at risk of being dug (扣底)
PAIR_KEEP = 8.0     # a pair is a unit that wins tricks and meets follow obligations
SUIT_LENGTH = 1.0   # per card of the suit: short suits go first, towards a void


def keep_value(card: Card, hand_counts: Counter, suit_lengths: Counter, order, values: dict) -> float:
    """How much the dealer wants to keep ``card`` (low = bury it)."""
    suit = order.suit_of(card)
    v = values[card] + POINT_KEEP * card.points + SUIT_LENGTH * suit_lengths[suit]
    if suit == "T":
        v += TRUMP_KEEP
    if hand_counts[order.group_of(card)] >= 2:
        v += PAIR_KEEP
    return v


def choose_burial(hand: Sequence[Card], count: int, order) -> tuple:
    """``count`` cards of ``hand`` (the dealer's hand with the kitty) to bury, lowest keep value
    first."""
    if count > len(hand):
        raise ValueError(f"cannot bury {count} cards from a hand of {len(hand)}")
    values = card_values(order)
    hand_counts = Counter(order.group_of(c) for c in hand)
    suit_lengths = Counter(order.suit_of(c) for c in hand)
    ranked = sorted(hand, key=lambda c: (keep_value(c, hand_counts, suit_lengths, order, values), c.index))
    return tuple(ranked[:count])
