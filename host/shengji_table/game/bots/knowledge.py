"""What a seat can know about the cards it cannot see: card counting for the heuristic bot.

A bot sees its own hand, the cards already played in this hand and (as dealer) the kitty it
buried.  Every other copy is *unseen*: it is in some other hand or in the kitty.  The heuristic
treats the unseen cards as if one opponent held them all, which is pessimistic (a pair split over
two hands counts as a pair) and therefore safe for deciding that a lead cannot be beaten.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable

from ...rules.cards import Card, full_deck

__all__ = ["unseen_cards", "face_counts"]


def face_counts(cards: Iterable[Card]) -> Counter:
    """How many copies of each face a list of cards holds."""
    return Counter(cards)


def unseen_cards(decks: int, hand: Iterable[Card], seen: Iterable[Card]) -> list[Card]:
    """Every copy not in ``hand`` and not in ``seen`` (played cards, a buried kitty), as a list.

    The result is what the other seats (and an unknown kitty) hold between them.
    """
    remaining = Counter({card: decks for card in full_deck()})
    remaining.subtract(hand)
    remaining.subtract(seen)
    return [card for card, n in remaining.items() if n > 0 for _ in range(n)]
