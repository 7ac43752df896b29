"""What each phase but the play waits for from a seat: :meth:`Hand.expect` looks the phase up in
:data:`EXPECTS` (the play, asked at almost every decision, it answers itself)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..phase import Phase
from ..view import Expect
from . import kitty
from .counter import may_counter

if TYPE_CHECKING:
    from .core import Hand

__all__ = ["EXPECTS", "NONE"]

NONE = Expect("none")
"""Nothing is expected from the seat (one instance: an Expect is immutable)."""


def _declare(hand: Hand, seat: int) -> Expect:
    return Expect("declare", 0, hand.declaration_options(seat))


def _bid(hand: Hand, seat: int) -> Expect:
    return Expect("bid", 0, hand.bid_options()) if seat == hand.turn else NONE


def _name_trump(hand: Hand, seat: int) -> Expect:
    return Expect("name_trump", 0, ("S", "H", "C", "D", None)) if seat == hand.dealer else NONE


def _kitty(hand: Hand, seat: int) -> Expect:
    if seat == kitty.holder(hand):
        return Expect("bury", hand.ruleset.kitty_size)
    return _declare(hand, seat) if may_counter(hand, seat) else NONE        # 反牌 (three players)


def _bury(hand: Hand, seat: int) -> Expect:
    return Expect("bury", hand.ruleset.kitty_size) if seat == kitty.holder(hand) else NONE


def _steal(hand: Hand, seat: int) -> Expect:
    return _declare(hand, seat) if seat != kitty.holder(hand) else NONE


def _exchange(hand: Hand, seat: int) -> Expect:
    x = hand.exchange
    return Expect("bury", x.count) if x is not None and seat == x.seat and x.drawn is not None else NONE


def _call_friend(hand: Hand, seat: int) -> Expect:
    return Expect("call_friend", hand.ruleset.friend_calls) if seat == hand.dealer else NONE


# phase -> what it waits for from a seat
EXPECTS: dict = {Phase.DRAWING: _declare, Phase.BIDDING: _bid, Phase.TRUMP: _name_trump, Phase.KITTY: _kitty,
            Phase.BURYING: _bury, Phase.STEAL: _steal, Phase.EXCHANGE: _exchange, Phase.FRIEND: _call_friend}
