"""The event vocabulary: everything a table (or a bot driver, or a referee) can report.

Every event is a frozen dataclass with a ``type`` tag and ``to_json()`` / :func:`event_from_json`.
Physical cards travel as copies (``"SA#2"``), faces as ``"SA"``.  The hand and the match are pure
functions of the list of events (``hand.py``, ``match.py``); randomness enters only as the explicit
``seed`` of a :class:`Deal`.

Malformed JSON raises :class:`EventError` with a sentence saying what is wrong.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar
from collections.abc import Mapping

from ..rules.cards import Card, CardCopy, CardError, parse_card, parse_copy

__all__ = [
    "EventError", "Event", "event_from_json", "EVENT_TYPES",
    "Deal", "Draw", "Declare", "CloseDeclarations", "Bid", "NameTrump", "TakeKitty", "BuryCard",
    "CallFriend", "Tap", "TakeBack", "Confirm", "Challenge", "RevealKitty",
    "RefereeUndo", "RefereePenalty", "RefereeEndHand", "RefereeAdjust", "RefereeReverse", "REFEREE_ACTS",
    "PassLevels", "RefuseLevels", "CounterDraw",
]


class EventError(ValueError):
    """An event that cannot be decoded (unknown type, missing field, bad card or seat)."""


EVENT_TYPES: dict = {}


def _event(tag: str):
    def wrap(cls):
        cls.type = tag
        EVENT_TYPES[tag] = cls
        return cls
    return wrap


# How each field kind is written to and read from JSON.
def _enc(value):
    if isinstance(value, (Card, CardCopy)):
        return str(value)
    if isinstance(value, tuple):
        return [_enc(v) for v in value]
    return value




def _copies(name: str, value):
    if value is None and name in ("order", "copies"):
        return None
    if not isinstance(value, list):
        raise EventError(f"field {name!r} is a list of cards like \"SA#1\", not {value!r}")
    return tuple(parse_copy(v) for v in value)


def _calls(name: str, value) -> tuple:
    if not isinstance(value, list):
        raise EventError("field 'calls' is a list of [card, nth] pairs")
    out = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], int)):
            raise EventError(f"a friend call is [card, nth], e.g. [\"HA\", 2], not {item!r}")
        out.append((parse_card(item[0]), item[1]))
    return tuple(out)


def _transfers(name: str, value) -> tuple:
    if not isinstance(value, list) or not value:
        raise EventError("field 'to' is a non-empty list of [seat, levels] pairs")
    out = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in item)):
            raise EventError(f"a level transfer is [seat, levels], e.g. [2, 1], not {item!r}")
        out.append((item[0], item[1]))
    return tuple(out)


# the fields decoded from JSON by their name: physical copies, faces, friend calls, level transfers
_DECODERS = {"copy": lambda name, value: parse_copy(value), "copies": _copies, "cards": _copies,
             "order": _copies, "card": lambda name, value: parse_card(value), "calls": _calls,
             "to": _transfers}


def _dec(name: str, value):
    decode = _DECODERS.get(name)
    if decode is None:
        return value
    try:
        return decode(name, value)
    except CardError as exc:
        raise EventError(f"field {name!r}: {exc}") from None


class Event:
    """Base of every event; ``to_json`` gives ``{"type": …, fields…}``."""

    type = "event"
    __slots__ = ()
    # Every concrete event is a dataclass; declaring the field table says so to the type checker
    # (``dataclasses.fields`` below).  An annotation only: no attribute is created here.
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def to_json(self) -> dict:
        out = {"type": self.type}
        for f in dataclasses.fields(self):
            out[f.name] = _enc(getattr(self, f.name))
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        return event_from_json(data)


def event_from_json(data: Mapping[str, Any]) -> Event:
    """Decode one event; :class:`EventError` for anything malformed."""
    if not isinstance(data, Mapping):
        raise EventError(f"an event is a JSON object, not {type(data).__name__}")
    tag = data.get("type")
    cls = EVENT_TYPES.get(tag)
    if cls is None:
        raise EventError(f"unknown event type {tag!r}; known types: {', '.join(EVENT_TYPES)}")
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name in data:
            kwargs[f.name] = _dec(f.name, data[f.name])
        elif f.default is dataclasses.MISSING:
            raise EventError(f"event {tag!r} needs field {f.name!r}")
    extra = set(data) - {"type"} - {f.name for f in dataclasses.fields(cls)}
    if extra:
        raise EventError(f"event {tag!r} has unknown field(s): {', '.join(sorted(extra))}")
    for key in ("reason", "rule"):
        if key in kwargs and not isinstance(kwargs[key], str):
            raise EventError(f"event {tag!r}: field {key!r} is text, not {kwargs[key]!r}")
    for key in ("seat", "at_fault", "nth", "points", "seed", "giver", "ruling", "attackers_points"):
        v = kwargs.get(key)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            raise EventError(f"event {tag!r}: field {key!r} is a whole number, not {v!r}")
    return cls(**kwargs)


# ---- the deal and the draw ----------------------------------------------------------------------

@_event("deal")
@dataclass(frozen=True)
class Deal(Event):
    """A new hand begins: the stack is shuffled.

    ``seed`` (simulation): the stack is ``random.Random(seed)``'s shuffle of every copy in a fixed
    order; ``order`` (a physical table that knows its stack, or a test): the explicit stack, top
    first.  With neither, the stack is unknown (an open-play table): draws are not scanned.
    """

    seed: int | None = None
    order: tuple | None = None


@_event("draw")
@dataclass(frozen=True)
class Draw(Event):
    """A card reached a seat during the draw (scanned hands: the seat tapped it)."""

    seat: int
    copy: CardCopy


@_event("declare")
@dataclass(frozen=True)
class Declare(Event):
    """A seat shows level cards / jokers to declare or overcall trump (R-6)."""

    seat: int
    cards: tuple


@_event("close_declarations")
@dataclass(frozen=True)
class CloseDeclarations(Event):
    """The draw is over and the declaring window is closed (the dealer's button)."""


@_event("bid")
@dataclass(frozen=True)
class Bid(Event):
    """Three-player bidding: a points target, or ``None`` for a pass (§9)."""

    seat: int
    points: int | None = None


@_event("name_trump")
@dataclass(frozen=True)
class NameTrump(Event):
    """The bidding winner names trump: 'S','H','C','D', or None for no-trump (§9)."""

    seat: int
    suit: str | None = None


# ---- the kitty -----------------------------------------------------------------------------------

@_event("take_kitty")
@dataclass(frozen=True)
class TakeKitty(Event):
    """The dealer picks up the kitty (R-7.2)."""

    seat: int


@_event("bury")
@dataclass(frozen=True)
class BuryCard(Event):
    """The dealer lays one card into the new kitty; tapping it again takes it back (R-7.2)."""

    seat: int
    copy: CardCopy


@_event("counter_draw")
@dataclass(frozen=True)
class CounterDraw(Event):
    """Three players (§9, seed 000 三人打法 反牌): the counter-declarer takes 6 cards at random from
    the kitty.  ``copies``: the cards drawn, as a table that scans them reports; ``seed``
    (simulation): ``random.Random(seed)`` picks them from the kitty; neither: open play (unknown).
    The counter-declarer then lays 6 cards back (``tap`` each, ``confirm``)."""

    seat: int
    seed: int | None = None
    copies: tuple | None = None


@_event("reveal_kitty")
@dataclass(frozen=True)
class RevealKitty(Event):
    """Open play: the buried kitty is turned over and scanned at the end of the hand (R-7.3, R-10.3)."""

    cards: tuple


@_event("call_friend")
@dataclass(frozen=True)
class CallFriend(Event):
    """Find-a-friend: the dealer names cards and which copy, e.g. ``[["HA", 2]]`` = the second ♥A."""

    seat: int
    calls: tuple


# ---- card entry during the tricks --------------------------------------------------------------

@_event("tap")
@dataclass(frozen=True)
class Tap(Event):
    """A physical card tapped on a seat's reader.  Tapping a pending card again takes it back."""

    seat: int
    copy: CardCopy


@_event("take_back")
@dataclass(frozen=True)
class TakeBack(Event):
    """Take a pending (not yet committed) card back into the hand."""

    seat: int
    copy: CardCopy


@_event("confirm")
@dataclass(frozen=True)
class Confirm(Event):
    """The seat's button: commits a lead, or finishes the burial."""

    seat: int


@_event("challenge")
@dataclass(frozen=True)
class Challenge(Event):
    """Open play: an opponent shows a unit that beats part of the throw just led (R-4.3)."""

    seat: int
    cards: tuple


# ---- the referee ---------------------------------------------------------------------------------

@_event("referee_undo")
@dataclass(frozen=True)
class RefereeUndo(Event):
    """Undo the last committed play (R-10.4 option); the record keeps both the play and the undo."""

    reason: str = ""


@_event("referee_penalty")
@dataclass(frozen=True)
class RefereePenalty(Event):
    """Award ``points`` to the side opposing ``at_fault`` (added to / subtracted from the attackers)."""

    at_fault: int
    points: int
    reason: str = ""


@_event("referee_end_hand")
@dataclass(frozen=True)
class RefereeEndHand(Event):
    """End the hand by ruling against the side of ``at_fault`` (R-10.2 / R-10.3)."""

    at_fault: int
    rule: str = "R-10.2"
    reason: str = ""


@_event("referee_adjust")
@dataclass(frozen=True)
class RefereeAdjust(Event):
    """An adjusted result (R-10.5): the hand ends with the attackers' points the referee assigns,
    settled by R-8 as if they had been captured (when a hand cannot be played out)."""

    attackers_points: int
    reason: str = ""


@_event("referee_reverse")
@dataclass(frozen=True)
class RefereeReverse(Event):
    """Reverse the hand's ruling number ``ruling`` (1 for its first referee act): the hand stands
    as if that act had never been made, provided everything accepted since still stands.  The
    record keeps the act and its reversal (R-10)."""

    ruling: int
    reason: str = ""


# the referee's acts: each one accepted is a numbered ruling of its hand (``hand/referee.py``)
REFEREE_ACTS = (RefereeUndo, RefereePenalty, RefereeEndHand, RefereeAdjust, RefereeReverse)


# ---- the match, between hands --------------------------------------------------------------------

@_event("pass_levels")
@dataclass(frozen=True)
class PassLevels(Event):
    """级数不浪费 (seed 000 變異打法): a player whom a must-play level stopped passes the levels left
    over — ``to`` lists ``(seat, levels)``: team-mates go up, opponents go down.  Between the
    settlement and the next deal."""

    seat: int
    to: tuple


@_event("refuse_levels")
@dataclass(frozen=True)
class RefuseLevels(Event):
    """A player on the winning side refuses the levels ``giver`` passed to them (seed 000 變異打法:
    有權拒絕被升級或被降級); a player on the losing side may not refuse."""

    seat: int
    giver: int
