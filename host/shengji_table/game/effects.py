"""The effect vocabulary: what the table shows after an event.  Every effect is serialisable.

* :class:`Ring` — the state of one seat's LED ring (an idempotent state, not a delta): ``turn``,
  ``pending`` (``cards`` = pixels lit, one per card entered), ``accepted``, ``refused``, ``won``
  (trick won), ``idle``, ``declarer``.
* :class:`Announce` — a sentence for the dashboard / voice, with a ``kind`` (``declare``, ``trump``,
  ``kitty``, ``throw``, ``trick``, ``friend``, ``revoke``, ``settle``, ``level``, ``match``,
  ``referee``, ``bid``, ``undo``) and the rule id when one applies.
* :class:`Refusal` — an event the game did not accept: who, the rule id (``R-…`` or ``table.…``
  for card-entry mistakes) and a sentence.  A refusal never changes the state.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

__all__ = ["Effect", "Ring", "ring", "seat_rings", "Announce", "Refusal", "effect_from_json", "RING_STATES"]

RING_STATES = ("idle", "turn", "pending", "accepted", "refused", "won", "declarer")


class Effect:
    type = "effect"
    __slots__ = ()
    # Every concrete effect is a dataclass; declaring the field table says so to the type checker
    # (``dataclasses.asdict`` below).  An annotation only: no attribute is created here.
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def to_json(self) -> dict:
        out = {"type": self.type}
        out.update(dataclasses.asdict(self))
        return out


@dataclass(frozen=True)
class Ring(Effect):
    """Seat ``seat``'s ring shows ``state`` with ``cards`` pixels lit."""

    seat: int
    state: str
    cards: int = 0


Ring.type = "ring"

@cache
def ring(seat: int, state: str, cards: int = 0) -> Ring:
    """``Ring(seat, state, cards)``, one shared instance per value: a ring is immutable and every
    event makes one or two, and a frozen dataclass costs several times a look-up to build."""
    return Ring(seat, state, cards)


def seat_rings(state: str, cards: int = 0) -> tuple:
    """``ring(seat, state, cards)`` for every seat a table can have (3–6 players), by seat: the
    rings a hand shows at almost every event, read by index instead of a call."""
    return tuple(ring(seat, state, cards) for seat in range(6))


@dataclass(frozen=True, init=False)
class Announce(Effect):
    """A sentence everybody may hear (never hidden information): ``Announce(kind, text, rule)``,
    its fields filled in one call (one a trick at least)."""

    kind: str
    text: str
    rule: str | None = None

    def __init__(self, kind: str, text: str, rule: str | None = None) -> None:
        object.__setattr__(self, "__dict__", {"kind": kind, "text": text, "rule": rule})


Announce.type = "announce"


@dataclass(frozen=True)
class Refusal(Effect):
    """An event refused: the state did not change.  ``event`` is the refused event's type."""

    seat: int | None
    event: str
    rule: str
    reason: str


Refusal.type = "refusal"

_TYPES = {"ring": Ring, "announce": Announce, "refusal": Refusal}


def effect_from_json(data: dict) -> Effect:
    """Inverse of ``to_json`` (``ValueError`` for an unknown type or fields)."""
    if not isinstance(data, dict) or data.get("type") not in _TYPES:
        raise ValueError(f"not an effect: {data!r}")
    body = {k: v for k, v in data.items() if k != "type"}
    return _TYPES[data["type"]](**body)
