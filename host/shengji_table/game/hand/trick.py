"""The physical cards of a trick: who laid which copies, and each finished trick's winner and points.

Both are named tuples, so ``seat, cards = play`` and ``plays, winner, points = trick`` read as
before; the face-level rules (who wins, how many points) are ``rules.trick``'s :class:`Trick`.
"""
from __future__ import annotations

from typing import NamedTuple

from ...rules.cards import CardCopy
from ...rules.trick import Play, Trick

__all__ = ["SeatPlay", "TrickTaken", "faces_of"]


class SeatPlay(NamedTuple):
    """The copies one seat committed to a trick."""

    seat: int
    cards: tuple[CardCopy, ...]


class TrickTaken(NamedTuple):
    """A finished trick: its plays in order, the seat that won it and the points in it."""

    plays: tuple[SeatPlay, ...]
    winner: int
    points: int


def faces_of(plays) -> Trick:
    """The face-level trick of these seat plays (for the rules)."""
    return Trick(tuple(Play(s, tuple(c.card for c in cards)) for s, cards in plays))
