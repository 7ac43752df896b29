"""The effect vocabulary: what the table shows after an event.  Every effect is serialisable.

* :class:`Ring` — the state of one seat's LED ring (an idempotent state, not a delta): ``turn``,
  ``pending`` (``cards`` = pixels lit, one per card entered), ``accepted``, ``refused``, ``won``
  (trick won), ``idle``, ``declarer``.
* :class:`Announce` — a sentence for the dashboard / voice, with a ``kind`` (``declare``, ``trump``,
  ``kitty``, ``throw``, ``trick``, ``friend``, ``revoke``, ``settle``, ``level``, ``match``,
  ``referee``, ``bid``, ``undo``) and the rule id when one applies; ``msg`` and ``args``: the
  message it says, as data — a catalog id (``face/locale/*.po``) and its parameters (seats as
  numbers, cards as their codes, suits as the English words) — from which each language renders
  it (``face/messages.py``; the English catalog renders ``text`` exactly).
* :class:`Refusal` — an event the game did not accept: who, the rule id (``R-…`` or ``table.…``
  for card-entry mistakes) and a sentence.  A refusal never changes the state.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

__all__ = ["Effect", "Ring", "ring", "seat_rings", "Announce", "Refusal", "Line", "effect_from_json", "RING_STATES"]

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
    # the message as data; not part of the effect's JSON (the records keep their form): message()
    msg: str | None = field(default=None, compare=False)
    args: dict | None = field(default=None, compare=False)

    def to_json(self) -> dict:
        return {"type": "announce", "kind": self.kind, "text": self.text, "rule": self.rule}

    def message(self) -> dict:
        """``{"msg", "args"}`` (empty when the sentence has no catalog id)."""
        return {} if self.msg is None else {"msg": self.msg, "args": dict(self.args or {})}

    def __init__(self, kind: str, text: str, rule: str | None = None, msg: str | None = None,
                 args: dict | None = None) -> None:
        object.__setattr__(self, "__dict__", {"kind": kind, "text": text, "rule": rule, "msg": msg, "args": args})


Announce.type = "announce"


class Line(str):
    """A public sentence as the table says it in English (a ``str``: every reader of the text keeps
    working), carrying the message it says as data: ``kind``, ``msg`` (catalog id, None: none) and
    ``args`` — so a screen or a voice renders it in its own language, with the players' names."""

    kind: str | None
    msg: str | None
    args: dict

    def __new__(cls, text: str, msg: str | None = None, args: dict | None = None, kind: str | None = None):
        self = super().__new__(cls, text)
        self.kind, self.msg, self.args = kind, msg, dict(args or {})
        return self

    @classmethod
    def of(cls, eff: Announce, text: str | None = None) -> Line:
        """The line of an announcement (``text``: its English as shown, e.g. with names)."""
        return cls(eff.text if text is None else text, eff.msg, eff.args, eff.kind)


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
