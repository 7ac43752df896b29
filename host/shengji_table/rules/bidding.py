"""Three players' bidding and the counter-declarer's swap (§9, seed 000 三人打法).

After the draw the seats bid a points target in turn, from the first bidder on in playing order;
each bid is a multiple of 5 from 5 and lower than the last; a pass is final; when only the lowest
bidder is left, that seat deals (and names trump).  The last seat still bidding must bid when
nobody has.  A counter-declaration (反牌) then swaps :data:`COUNTER_SWAP` cards with the kitty,
drawn at random (隨機換6張).  Pure: the game layer's bidding phase applies :func:`bid_step`.
"""
from __future__ import annotations

from dataclasses import dataclass

from .cards import JOKER, SMALL_JOKER_RANK, Card
from .declare import Standing, declaration_strength
from .ruleset import Ruleset

__all__ = ["BIDDING_RULE", "COUNTER_SWAP", "BidState", "bid_options", "bid_step", "deal_sizes", "named_standing"]

BIDDING_RULE = "R-9 bidding"
COUNTER_SWAP = 6          # 反牌者只能從底牌中隨機換6張 (seed 000 l.274)


@dataclass(frozen=True)
class BidState:
    """The bidding so far: ``bidders`` still in (playing order), ``bids`` ``(seat, points | None)``
    in time order, the lowest ``bid`` so far, whose ``turn`` it is and the ``dealer`` once decided."""

    bidders: tuple
    bids: tuple = ()
    bid: int | None = None
    turn: int = 0
    dealer: int | None = None

    @classmethod
    def start(cls, ruleset: Ruleset, first_seat: int = 0) -> BidState:
        n = ruleset.players
        return cls(tuple((first_seat + k) % n for k in range(n)), turn=first_seat)


def bid_options(ruleset: Ruleset, low: int | None) -> tuple:
    """The bids allowed below the lowest so far (``None``: nobody has bid): 5, 10, … below it."""
    top = low if low is not None else ruleset.total_points + 5
    return tuple(range(5, top, 5))


def bid_step(ruleset: Ruleset, state: BidState, seat: int, points: int | None) -> tuple:
    """Seat ``seat`` bids ``points`` (``None``: passes).  Returns ``(state after, None)`` or
    ``(state, (rule, reason))`` when the bid is refused (the state is then unchanged)."""
    if state.dealer is not None:
        return state, (BIDDING_RULE, f"the bidding is over: seat {state.dealer} deals")
    if seat != state.turn:
        return state, ("table.out-of-turn", f"it is seat {state.turn}'s turn to bid")
    bidders, bid = list(state.bidders), state.bid
    if points is None:
        if bid is None and len(bidders) == 1:
            return state, (BIDDING_RULE, "nobody has bid yet: the last bidder must bid")
        bidders.remove(seat)
    else:
        if points not in bid_options(ruleset, bid):
            low = bid if bid is not None else ruleset.total_points + 5
            return state, (BIDDING_RULE, f"a bid is a multiple of 5 from 5 and lower than {low}, not {points}")
        bid = points
    bids = state.bids + ((seat, points),)
    if bid is not None:
        winner = [s for s, p in bids if p == bid][-1]
        if bidders == [winner]:
            return BidState(tuple(bidders), bids, bid, winner, winner), None
    n = ruleset.players
    turn = next((seat + k) % n for k in range(1, n + 1) if (seat + k) % n in bidders)
    return BidState(tuple(bidders), bids, bid, turn, None), None


def named_standing(ruleset: Ruleset, level: int, dealer: int, suit: str | None) -> Standing:
    """The dealer's named trump as a call a counter-declaration (反牌) must overcall: the weakest call
    of it on the classic ladder, a single level card of the suit, or (no trump) a small-joker pair."""
    named = (Card(JOKER, SMALL_JOKER_RANK),) * 2 if suit is None else (Card(suit, level),)
    return Standing(dealer, suit, (), declaration_strength(ruleset, level, named)[1])


def deal_sizes(ruleset: Ruleset) -> dict:
    """Cards in play, hand and kitty sizes of a ruleset (R-1.1, R-7.1)."""
    return {"players": ruleset.players, "decks": ruleset.decks, "cards": 54 * ruleset.decks,
            "hand_size": ruleset.hand_size, "kitty_size": ruleset.kitty_size}
