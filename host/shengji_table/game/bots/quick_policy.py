"""A cheap card-play policy for rollouts: the heuristic's main ideas at a fraction of its cost.

The strong bot plays thousands of rollout moves per decision, so the players inside a rollout use
this instead of :mod:`.play_policy` (whose candidate scoring costs ~0.3 ms a move):

* **lead**: the top single (or pair) of a plain suit when no card still out can beat it; else a
  low pointless single of the shortest plain suit; trumps last;
* **follow**: the partner winning and this seat last → the richest legal cards (feed points);
  an opponent winning a trick worth points → the cheapest play that wins it (in suit, or a ruff
  when void), else the cheapest legal play.

Every play is legal: follows come from ``sampling.cheapest_follow`` (the rules' ladder), or are
checked to win by ``winning_index`` and are made of led-suit cards or a full ruff.
"""
from __future__ import annotations

from collections.abc import Sequence

from ...rules.cards import Card
from ...rules.trick import Play, TrickShape, trick_points, winning_index
from .play_policy import card_values
from .sampling import cheapest_follow

__all__ = ["quick_lead", "quick_follow"]

_POINT_KEEP = 3.0      # a point card's extra cost when not feeding
_POINT_FEED = 4.0      # how much a point card is preferred when feeding


def quick_lead(hand: Sequence[Card], out: dict, order) -> tuple:
    """A lead from ``hand``; ``out``: ``{effective suit: highest rank still out}`` (cards not
    played and not in this hand)."""
    values = card_values(order)
    by_suit: dict = {}
    for c in hand:
        by_suit.setdefault(order.suit_of(c), []).append(c)
    for suit, cards in by_suit.items():
        if suit == "T":
            continue
        top = max(cards, key=values.__getitem__)
        if order.rank_of(top) > out.get(suit, -1):
            pair = [c for c in cards if c == top]
            return tuple(pair[:2]) if len(pair) >= 2 else (top,)
    plain = [cs for s, cs in by_suit.items() if s != "T"]
    pool = min(plain, key=len) if plain else by_suit["T"]
    return (min(pool, key=lambda c: values[c] + _POINT_KEEP * c.points),)


def quick_follow(plays: list, hand: Sequence[Card], order, seat: int, players: int) -> tuple:
    """A legal follow to the trick ``plays`` (lead first) from ``hand``."""
    values = card_values(order)
    lead = plays[0].cards
    shape = TrickShape(lead, order)
    best = winning_index(plays, order, shape)
    partner = (plays[best].seat - seat) % 2 == 0
    last = len(plays) == players - 1
    if partner:
        if last:
            return cheapest_follow(lead, hand, order, lambda c: values[c] - _POINT_FEED * c.points)
        return cheapest_follow(lead, hand, order, lambda c: values[c] + _POINT_KEEP * c.points)
    keep = cheapest_follow(lead, hand, order, lambda c: values[c] + _POINT_KEEP * c.points)
    if trick_points(plays) + sum(c.points for c in keep) < 5 and not last:
        return keep
    win = _cheapest_win(plays, hand, order, shape, values)
    return win if win is not None else keep


def _cheapest_win(plays: list, hand: Sequence[Card], order, shape, values) -> tuple | None:
    """The cheapest single in suit, or the cheapest full ruff of a void plain suit, that wins."""
    lead = plays[0].cards
    n = len(lead)
    suit = order.suit_of(lead[0])
    suit_cards = [c for c in hand if order.suit_of(c) == suit]
    options: list[tuple]
    if n == 1 and suit_cards:
        options = [(c,) for c in sorted(suit_cards, key=values.__getitem__)]
    elif not suit_cards and suit != "T":
        trumps = sorted((c for c in hand if order.suit_of(c) == "T"), key=values.__getitem__)
        options = [tuple(trumps[:n])] if len(trumps) >= n else []
        if n == 1:
            options = [(c,) for c in trumps]
    else:
        return None
    for cards in options:
        me = Play(-1, cards)
        if winning_index(plays + [me], order, shape) == len(plays):
            return cards
    return None
