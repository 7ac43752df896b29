"""Who may see what: the one place that decides what the public, the seat concerned and the
referee are told of a refusal or an announcement.

A hand's cards and the kitty are hidden.  The game's refusals explain themselves to the seat that
made the mistake ("you hold 3 ♦ and must play 1 ♦"); said on the shared screen or by the voice,
that would tell every opponent what is in the hand.  :func:`public_refusal` gives the sentence the
whole table may hear ("Seat 2: refused — must follow ♦ (R-4.4)"); the full reason is the
seat's and the referee's (:func:`seat_refusal`, the log's ruling rows).

Announcements (:class:`~.effects.Announce`) are public by construction — they name only cards
on the table, shown, or revealed at the end — and pass through :func:`public_announcement`.

    >>> from shengji_table.game.effects import Refusal
    >>> public_refusal(Refusal(2, "tap", "R-4.4", "you hold 3 ♦ and must play 1 ♦"), lead_suit="D")
    'Seat 2: refused — must follow ♦ (R-4.4)'
"""
from __future__ import annotations

import enum

from ..rules.cards import suit_symbol
from .effects import Announce, Refusal

__all__ = ["Audience", "public_refusal", "public_reason", "seat_refusal", "public_announcement",
           "NEUTRAL_REASONS", "lead_suit_of"]


class Audience(enum.StrEnum):
    PUBLIC = "public"        # the shared screen, the voice, spectators, the club's stream
    SEAT = "seat"            # the seat the message concerns (its own ring, a private display)
    REFEREE = "referee"      # the referee's console and the table's log


# Refusals whose reason would tell what a hand, the stack or the kitty holds: the public hears why
# in general.  Every other refusal speaks only of turns, phases, counts and cards on the table or
# shown, and is told as it is (tests/game/test_disclosure.py plays whole hands to keep it so).
NEUTRAL_REASONS = {
    "R-4.4": "must follow the lead's suit",
    "R-4.5": "must follow the lead's pairs",
    "R-4.6": "must follow the lead's tractors",
    "R-4.7": "must follow the lead's shape",
    "hand": "that card cannot be played from this seat",
    "table.not-in-hand": "that card cannot be played from this seat",
    "table.wrong-seat": "that card cannot be played from this seat",
    "table.kitty": "that card cannot be played from this seat",
    "table.draw-card": "that is not the next card of the stack",
}


def _who(seat: int | None, names: dict | None = None) -> str:
    if seat is None:
        return "Table"
    name = (names or {}).get(seat)
    return f"Seat {seat} ({name})" if name else f"Seat {seat}"


def public_reason(refusal: Refusal, lead_suit: str | None = None) -> str:
    """The part of a refusal's reason that everybody may hear.  ``lead_suit``: the effective suit
    of the trick's lead (``"T"`` for trumps), when a trick is being laid."""
    rule = refusal.rule
    if rule not in NEUTRAL_REASONS:
        return refusal.reason            # turns, phases, counts, cards on the table or shown
    if rule == "R-4.4" and lead_suit is not None:
        return "must follow trumps" if lead_suit == "T" else f"must follow {suit_symbol(lead_suit)}"
    return NEUTRAL_REASONS[rule]


def public_refusal(refusal: Refusal, *, lead_suit: str | None = None, names: dict | None = None,
                   where: str | None = None) -> str:
    """The sentence the shared screen and the voice give for ``refusal`` (``where`` names the
    reader when no seat is concerned, e.g. ``"Centre"``)."""
    who = where if refusal.seat is None and where else _who(refusal.seat, names)
    return f"{who}: refused — {public_reason(refusal, lead_suit)} ({refusal.rule})"


def seat_refusal(refusal: Refusal, *, names: dict | None = None) -> str:
    """The whole sentence, for the seat concerned and the referee."""
    return f"{_who(refusal.seat, names)}: refused — {refusal.reason} ({refusal.rule})"


def public_announcement(announce: Announce) -> str:
    """An announcement's text for the public (announcements name no hidden card)."""
    return announce.text


def lead_suit_of(hand) -> str | None:
    """The effective suit of the trick being laid (``"T"``: trumps), or None — public: the lead is
    on the table."""
    if hand is None or not hand.trick or hand.order is None:
        return None
    return hand.order.suit_of(hand.trick[0].cards[0].card)
