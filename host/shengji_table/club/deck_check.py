"""Stacking a board at the table: the deck is tapped on the centre reader in the board's order,
and a wrong card is refused with its position ("card 17: expected ♥9, got ♠9"), as a bridge
dealing machine checks a deal.  Pure: the command (``cli/club_boards.py``) brings the taps.

Either copy of a face will do (two decks: ``♥9#1`` or ``♥9#2``): the hand dealt is the same; the
stack the table then deals is the copies actually laid (:meth:`StackCheck.stack`).  The same
physical card laid twice is refused.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..rules.cards import CardCopy

__all__ = ["StackCheck", "StackVerdict"]


@dataclass(frozen=True)
class StackVerdict:
    """One tap's answer: ``ok`` and the line to show (``position`` is 1-based)."""

    ok: bool
    position: int
    text: str


class StackCheck:
    """Checks taps against ``order`` (the board's stack, top first) one position at a time."""

    def __init__(self, order: Sequence[CardCopy], board: int | None = None):
        if not order:
            raise ValueError("a board's order holds the whole deck, not nothing")
        self.order = tuple(order)
        self.board = board
        self.laid: list[CardCopy] = []
        self._where: dict[CardCopy, int] = {}        # copy -> position laid (1-based)

    @property
    def position(self) -> int:
        """The next position to fill, 1-based."""
        return len(self.laid) + 1

    @property
    def done(self) -> bool:
        return len(self.laid) == len(self.order)

    def expected(self) -> CardCopy | None:
        return None if self.done else self.order[len(self.laid)]

    def tap(self, copy: CardCopy) -> StackVerdict:
        n = self.position
        want = self.expected()
        if want is None:
            return StackVerdict(False, n - 1, f"the stack is complete ({len(self.order)} cards); "
                                              f"{copy.card.unicode()} is one too many")
        if copy in self._where:
            return StackVerdict(False, n, f"card {n}: {copy} was already laid as card {self._where[copy]}")
        if copy.card is not want.card:
            return StackVerdict(False, n, f"card {n}: expected {want.card.unicode()}, got {copy.card.unicode()}")
        self.laid.append(copy)
        self._where[copy] = n
        return StackVerdict(True, n, f"card {n}/{len(self.order)}: {copy.card.unicode()}")

    def undo(self) -> CardCopy | None:
        """Take the last card laid back off the stack (``u`` at the keyboard); ``None`` if none."""
        if not self.laid:
            return None
        copy = self.laid.pop()
        del self._where[copy]
        return copy

    def refuse(self, reason: str) -> StackVerdict:
        """A tap that is not a card of this deck (an unknown or foreign tag)."""
        return StackVerdict(False, self.position, f"card {self.position}: {reason}")

    def stack(self) -> tuple:
        """The copies as laid, top first: the order the table deals (a whole deck once done)."""
        return tuple(self.laid)

    def summary(self) -> str:
        name = f"board {self.board}" if self.board is not None else "the board"
        if self.done:
            return f"{name} stacked: {len(self.order)} cards in order"
        return f"{name} not stacked: {len(self.laid)} of {len(self.order)} cards in order; next is card " \
               f"{self.position}, {self.order[len(self.laid)].card.unicode()}"
