"""The phases of a hand, in order, as one small vocabulary.

``Phase`` is a ``StrEnum``: a phase compares equal to its name and serialises as it, so records and
snapshots keep the plain strings (``"drawing"``, ``"playing"`` …) while code names them exactly::

    >>> Phase.PLAYING == "playing"
    True

    deal → drawing → [bidding → trump] → kitty [⇄ exchange] → burying [⇄ steal] → [friend] → playing → over
"""
from __future__ import annotations

import enum

__all__ = ["Phase", "DECIDING", "Mode", "SCANNED", "OPEN"]


class Phase(enum.StrEnum):
    DEAL = "deal"            # waiting for the deal
    DRAWING = "drawing"      # cards reach the seats; declarations
    BIDDING = "bidding"      # three players: bids of a points target (§9)
    TRUMP = "trump"          # three players: the bidding winner names trump
    KITTY = "kitty"          # the dealer is to take the kitty (three players: 反牌 window)
    EXCHANGE = "exchange"    # three players: a counter-declarer swaps cards with the kitty
    BURYING = "burying"      # the dealer (炒地皮: the seat that took the kitty) buries it
    STEAL = "steal"          # four players, 炒地皮: after a burial, a stronger call takes the kitty
    FRIEND = "friend"        # find a friend: the dealer calls
    PLAYING = "playing"      # tricks
    OVER = "over"            # settled, ended by ruling, or (open play) waiting for the kitty


# The phases in which one seat enters a decision with taps and presses (bid, trump, friend call).
DECIDING = frozenset({Phase.BIDDING, Phase.TRUMP, Phase.FRIEND})

class Mode(enum.StrEnum):
    """The two ways to know the hands (``Match.mode``, ``game.hand.MODES``): every card scanned as
    it is drawn, or open play (the hands are not scanned)."""

    SCANNED = "scanned"
    OPEN = "open"


SCANNED, OPEN = Mode.SCANNED, Mode.OPEN
