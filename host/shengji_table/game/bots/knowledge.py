"""What a seat can know about the cards it cannot see: card counting for the heuristic bot.

A bot sees its own hand, the cards already played in this hand and (as dealer) the kitty it
buried.  Every other copy is *unseen*: it is in some other hand or in the kitty.  The heuristic
treats the unseen cards as if one opponent held them all, which is pessimistic (a pair split over
two hands counts as a pair) and therefore safe for deciding that a lead cannot be beaten.  It also
remembers which seats have shown a void in a suit (:func:`known_voids`): they may ruff it.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ...rules.cards import Card, full_deck

__all__ = ["unseen_cards", "face_counts", "known_voids"]


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


def known_voids(plays_by_trick, order) -> dict:
    """``{seat: {effective suits}}`` each seat has shown it no longer holds: a follower who played
    fewer cards of the led suit than were led has none left of it (R-4.4).

    ``plays_by_trick``: the tricks of this hand so far (finished ones and the current one), each a
    sequence of ``Play`` with the lead first.
    """
    voids: dict = {}
    suit_of = order.suit_of
    for plays in plays_by_trick:
        if not plays:
            continue
        lead = plays[0].cards
        suit = suit_of(lead[0])
        for p in plays[1:]:
            if sum(1 for c in p.cards if suit_of(c) == suit) < len(lead):
                voids.setdefault(p.seat, set()).add(suit)
    return voids
