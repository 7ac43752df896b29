"""Three players (§9, seed 000 三人打法): after the draw the seats bid a points target in turn, from
the first drawer on; a pass is final; the lowest bid deals and names trump."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...rules.bidding import BidState, bid_step, named_standing
from ...rules.bidding import bid_options as rules_bid_options
from .. import events as ev
from ..effects import Announce
from ..phase import Phase
from .kitty import start_kitty

if TYPE_CHECKING:
    from .core import Hand

__all__ = ["bid_options", "bid", "name_trump"]


def bid_options(hand: Hand) -> tuple:
    return rules_bid_options(hand.ruleset, hand.bid)


def bid(hand: Hand, e: ev.Bid) -> list:
    state = BidState(tuple(hand.bidders), tuple(hand.bids), hand.bid, hand.seat_on_turn())
    new, refused = bid_step(hand.ruleset, state, e.seat, e.points)
    if refused is not None:
        return hand.refuse(e.seat, e, *refused)
    hand.bidders[:] = new.bidders
    hand.bids.append((e.seat, e.points))
    hand.bid = new.bid
    out = [Announce("bid", f"Seat {e.seat} passes." if e.points is None else f"Seat {e.seat} bids {e.points}.",
                    msg="bid.pass" if e.points is None else "bid.bid", args={"seat": e.seat, "points": e.points})]
    if new.dealer is not None:
        winner = hand.dealer = new.dealer
        hand.level = hand.levels[winner]
        hand.phase = Phase.TRUMP
        hand.turn = winner
        return out + [Announce("bid", f"Seat {winner} wins the bidding at {hand.bid} and deals.", "R-9 bidding",
                               msg="bid.won", args={"seat": winner, "points": hand.bid})]
    hand.turn = new.turn           # the first seat after this one, in playing order, still bidding
    return out


def name_trump(hand: Hand, e: ev.NameTrump) -> list:
    if e.seat != hand.dealer:
        return hand.refuse(e.seat, e, "R-9 bidding", f"the dealer (seat {hand.dealer}) names trump")
    if e.suit not in ("S", "H", "C", "D", None):
        return hand.refuse(e.seat, e, "R-9 bidding", f"trump is S, H, C, D or none, not {e.suit!r}")
    hand.trump = e.suit
    # A counter-declaration overcalls the named trump as the weakest call of it (rules.bidding).
    hand.standing = named_standing(hand.ruleset, hand.level, e.seat, e.suit)
    return start_kitty(hand)
