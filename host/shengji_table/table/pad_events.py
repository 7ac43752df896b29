"""The link's events of the two gestures on a reader's pad beyond a tap (``session.py`` delivers
them like every event): the take-back, and two cards on one reader (docs/protocol.md)."""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LinkTakeBack", "LinkStack"]


@dataclass(frozen=True)
class LinkTakeBack:
    """The take-back gesture: seat ``reader``'s button held long with this card on its reader."""
    boot_id: int
    seq: int
    reader: int
    uid: bytes
    code: bytes | None


@dataclass(frozen=True)
class LinkStack:
    """Two cards on ``reader`` (``cards`` 2), or the stack cleared (``cards`` 0 or 1 left)."""
    boot_id: int
    seq: int
    reader: int
    cards: int
