"""Determinisation for the strong bot: deal the cards a seat cannot see into one possible world.

A *world* gives every other seat a hand and fills the kitty, consistent with everything the seat
knows and nothing else: its own hand, every card played so far, the kitty when it buried it, how
many cards each seat still holds, and the voids the others have shown (a seat that followed short
of a suit holds none of it, R-4.4).  :func:`knowledge_of` reads that knowledge from a
:class:`~shengji_table.game.view.SeatView` — the only input — and :func:`sample_world` draws one
world from it with the bot's own generator.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from ..phase import Phase
from ..view import SeatView
from .heuristic import seen_cards
from .knowledge import known_voids, unseen_cards

__all__ = ["Knowledge", "World", "knowledge_of", "sample_world", "WorldError"]


class WorldError(ValueError):
    """The view's card counts do not add up (a variant this sampler does not model)."""


@dataclass(frozen=True)
class Knowledge:
    """What seat ``seat`` knows about the hidden cards.

    ``pool``: every copy it cannot see; ``sizes``: how many of them each other seat holds;
    ``kitty_size``: how many are in the kitty (0 when the seat buried it and so knows it);
    ``kitty``: the kitty's cards when known; ``voids``: ``{seat: effective suits}`` shown void.
    """

    seat: int
    pool: tuple
    sizes: dict
    kitty_size: int
    kitty: tuple | None
    voids: dict


@dataclass(frozen=True)
class World:
    """One determinisation: ``hands[seat]`` for every seat (this seat's own hand included) and
    the kitty."""

    hands: tuple
    kitty: tuple


def knowledge_of(view: SeatView) -> Knowledge:
    """The hidden-card knowledge of the view's seat, from the view alone."""
    if view.order is None or view.phase != Phase.PLAYING:
        raise WorldError("worlds are sampled during card play only")
    rs = view.ruleset
    played = [0] * view.players
    for t in view.tricks:
        for p in t.plays:
            played[p.seat] += len(p.cards)
    for p in view.trick:
        played[p.seat] += len(p.cards)
    sizes = {s: rs.hand_size - played[s] for s in range(view.players) if s != view.seat}
    kitty = tuple(view.kitty) if view.kitty is not None else None
    pool = tuple(unseen_cards(rs.decks, view.hand, seen_cards(view)))
    kitty_size = len(pool) - sum(sizes.values())
    if kitty_size != (0 if kitty is not None else rs.kitty_size) or min(sizes.values(), default=0) < 0:
        raise WorldError(f"the card counts do not add up: {len(pool)} unseen, hands {sizes}")
    voids = known_voids([t.plays for t in view.tricks] + [view.trick], view.order)
    return Knowledge(view.seat, pool, sizes, kitty_size, kitty, {s: frozenset(v) for s, v in voids.items()})


def sample_world(view: SeatView, know: Knowledge, rng: random.Random, tries: int = 20) -> World:
    """One world consistent with ``know``: the most constrained cards are placed first, each with a
    holder drawn in proportion to the room left among the holders that may hold it.  After
    ``tries`` dead ends the voids are ignored (a rare squeeze the simple draw cannot solve)."""
    order = view.order
    assert order is not None
    suit_of = order.suit_of
    kitty_slot = -1
    for attempt in range(tries + 1):
        strict = attempt < tries
        room = dict(know.sizes)
        room[kitty_slot] = know.kitty_size
        cards = list(know.pool)
        rng.shuffle(cards)
        eligible = {}
        for c in cards:
            s = suit_of(c)
            eligible[c] = [h for h in room if h == kitty_slot or not strict or s not in know.voids.get(h, ())]
        cards.sort(key=lambda c: len(eligible[c]))
        dealt: dict = {h: [] for h in room}
        for c in cards:
            holders = [h for h in eligible[c] if room[h] > 0]
            if not holders:
                break
            h = rng.choices(holders, weights=[room[x] for x in holders])[0]
            dealt[h].append(c)
            room[h] -= 1
        else:
            hands = tuple(tuple(view.hand) if s == view.seat else tuple(dealt[s]) for s in range(view.players))
            kitty = know.kitty if know.kitty is not None else tuple(dealt[kitty_slot])
            return World(hands, kitty)
    raise WorldError("no world fits the card counts")   # pragma: no cover - the last try ignores voids
