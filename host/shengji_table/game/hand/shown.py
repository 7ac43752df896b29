"""Cards shown at a seat for a declaration or a counter-declaration (R-6, §9 反牌)."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .core import Hand

__all__ = ["refuse_shown"]


def refuse_shown(hand: Hand, e, missing: str):
    """The refusal of cards shown for a (counter-)declaration: one physical card twice, or
    (scanned hands) a card the seat does not hold (``missing`` says how); ``None`` when fine."""
    if len(set(e.cards)) != len(e.cards):
        return hand.refuse(e.seat, e, "table.twice", "the same physical card is shown twice")
    c = hand.knowledge.missing(hand, e.seat, e.cards)
    if c is not None:
        return hand.refuse(e.seat, e, "table.not-in-hand", f"seat {e.seat} {missing} {c}")
    return None
