"""Three players (§9, seed 000 三人打法): after the draw the seats bid a points target in turn, from
the first drawer on; a pass is final; the lowest bid deals and names trump."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...rules.cards import JOKER, SMALL_JOKER_RANK, Card
from ...rules.declare import Standing, declaration_strength
from .. import events as ev
from ..effects import Announce
from ..phase import Phase
from .kitty import start_kitty

if TYPE_CHECKING:
    from .core import Hand

__all__ = ["bid_options", "bid", "name_trump"]


def bid_options(hand: Hand) -> tuple:
    low = hand.bid if hand.bid is not None else hand.ruleset.total_points + 5
    return tuple(range(5, low, 5))


def bid(hand: Hand, e: ev.Bid) -> list:
    if e.seat != hand.turn:
        return hand.refuse(e.seat, e, "table.out-of-turn", f"it is seat {hand.turn}'s turn to bid")
    if e.points is None:
        if hand.bid is None and len(hand.bidders) == 1:
            return hand.refuse(e.seat, e, "R-9 bidding", "nobody has bid yet: the last bidder must bid")
        hand.bidders.remove(e.seat)
        hand.bids.append((e.seat, None))
        out = [Announce("bid", f"Seat {e.seat} passes.")]
    else:
        if e.points not in bid_options(hand):
            low = hand.bid if hand.bid is not None else hand.ruleset.total_points + 5
            return hand.refuse(e.seat, e, "R-9 bidding",
                               f"a bid is a multiple of 5 from 5 and lower than {low}, not {e.points}")
        hand.bid = e.points
        hand.bids.append((e.seat, e.points))
        out = [Announce("bid", f"Seat {e.seat} bids {e.points}.")]
    if hand.bid is not None:
        winner = [s for s, p in hand.bids if p == hand.bid][-1]
        if hand.bidders == [winner]:
            hand.dealer = winner
            hand.level = hand.levels[winner]
            hand.phase = Phase.TRUMP
            hand.turn = winner
            return out + [Announce("bid", f"Seat {winner} wins the bidding at {hand.bid} and deals.", "R-9 bidding")]
    # next: the first seat after this one, in playing order, still bidding
    hand.turn = next((e.seat + k) % hand.players for k in range(1, hand.players + 1)
                     if (e.seat + k) % hand.players in hand.bidders)
    return out


def name_trump(hand: Hand, e: ev.NameTrump) -> list:
    if e.seat != hand.dealer:
        return hand.refuse(e.seat, e, "R-9 bidding", f"the dealer (seat {hand.dealer}) names trump")
    if e.suit not in ("S", "H", "C", "D", None):
        return hand.refuse(e.seat, e, "R-9 bidding", f"trump is S, H, C, D or none, not {e.suit!r}")
    hand.trump = e.suit
    # A counter-declaration overcalls the named trump as if the dealer had made the weakest call of
    # it on the classic ladder: a single level card of the suit, or (no trump) a small-joker pair.
    named = (Card(JOKER, SMALL_JOKER_RANK),) * 2 if e.suit is None else (Card(e.suit, hand.level),)
    hand.standing = Standing(e.seat, e.suit, (), declaration_strength(hand.ruleset, hand.level, named)[1])
    return start_kitty(hand)
