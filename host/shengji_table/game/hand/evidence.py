"""Open play: what the engine learns from what it sees — a revoke proven by later plays (R-10.2),
a throw challenged by an opponent showing a unit that beats it (R-4.3), and the kitty turned over
after the last trick (R-7.3).  With scanned hands none of this is needed: each is refused."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...rules.cards import format_cards
from ...rules.follow import check_follow
from ...rules.penalties import check_kitty_size
from ...rules.throw import check_throw
from .. import events as ev
from ..effects import Announce
from ..phase import Phase
from .play import pick, throw_failed
from .settle import end_by_ruling, settle
from .trick import SeatPlay

if TYPE_CHECKING:
    from .core import Hand

__all__ = ["check_revoke", "challenge", "challengers", "reveal_kitty"]


def check_revoke(hand: Hand, seat: int) -> list:
    """R-10.2 in open play: a follow proven illegal by the cards the seat has played since."""
    order = hand.trump_order()
    plays = hand.seat_plays[seat]
    # Every play of the seat re-checks its earlier follows, so only the play just made is new
    # evidence — and a follow's verdict depends only on the led suit's cards in the hand.
    suit_of = order.suit_of
    new_suits = {suit_of(f) for f in plays[-1]} if plays else set()
    for trick_no, lead, faces, idx in hand.follows[seat]:
        if idx == len(plays) - 1 and trick_no == len(hand.tricks):
            continue  # the play just made is checked by later evidence only
        if suit_of(lead[0]) not in new_suits:
            continue  # nothing new about the led suit: the last verdict stands
        known = [f for p in plays[idx:] for f in p]
        v = check_follow(list(lead), list(faces), known, order)
        if not v.ok:
            later = [f for p in plays[idx + 1:] for f in p]
            why = (f"seat {seat} revoked in trick {trick_no + 1}: later plays ({format_cards(later)}) "
                   f"prove it could have followed. {v.reason}")
            return end_by_ruling(hand, seat, "R-10.2", why)
    return []


def _throw_open(hand: Hand) -> bool:
    return (not hand.knowledge.scanned and hand.phase == Phase.PLAYING and hand.throw_window
            and len(hand.trick) == 1)


def challenge(hand: Hand, e: ev.Challenge) -> list:
    if hand.knowledge.scanned:
        return hand.refuse(e.seat, e, "R-4.3", "with scanned hands every throw is checked at once")
    if not _throw_open(hand):
        return hand.refuse(e.seat, e, "R-4.3", "there is no throw open to challenge now")
    leader, lead_cards = hand.trick[0]
    if e.seat == leader or same_side(hand, e.seat, leader):
        return hand.refuse(e.seat, e, "R-4.3", "only an opponent of the thrower challenges")
    if any(c in hand.played for c in e.cards):
        return hand.refuse(e.seat, e, "table.already-played", "a card shown has already been played")
    lead = [c.card for c in lead_cards]
    chk = check_throw(lead, {e.seat: [c.card for c in e.cards]}, hand.trump_order())
    if chk.ok:
        return hand.refuse(e.seat, e, "R-4.2", "the cards shown beat no unit of the throw")
    forced = pick(lead_cards, chk.forced)
    for c in lead_cards:
        if c not in forced:
            hand.played.discard(c)
    hand.trick = [SeatPlay(leader, forced)]
    hand.seat_plays[leader][-1] = tuple(c.card for c in forced)
    hand.played_count[leader] -= len(lead_cards) - len(forced)
    if hand.deferred_friend is not None:
        hand.deferred_friend = (leader, forced)
    hand.pending = []
    hand.throw_window = False
    out = throw_failed(hand, leader, chk, len(lead_cards) - len(forced))
    out.append(Announce("throw", f"Seat {e.seat} challenged with {format_cards(c.card for c in e.cards)}.", "R-4.3",
                        msg="throw.challenge", args={"seat": e.seat, "cards": format_cards(c.card for c in e.cards)}))
    return out


def challengers(hand: Hand) -> tuple:
    """The seats that may challenge the throw just led now (R-4.3), in playing order after the
    thrower; empty when no throw is open to challenge."""
    if not _throw_open(hand):
        return ()
    leader = hand.trick[0].seat
    seats = ((leader + k) % hand.players for k in range(1, hand.players))
    return tuple(s for s in seats if not same_side(hand, s, leader))


def same_side(hand: Hand, a: int, b: int) -> bool:
    if hand.ruleset.teams == "fixed":
        return (a - b) % 2 == 0
    dec = set(hand.declarers())
    return a in dec and b in dec


def reveal_kitty(hand: Hand, e: ev.RevealKitty) -> list:
    if hand.knowledge.scanned:
        return hand.refuse(None, e, "table.phase", "with scanned hands the kitty is known")
    if hand.phase != Phase.OVER or hand.result is not None:
        return hand.refuse(None, e, "table.phase", "the kitty is revealed once, after the last trick")
    hand.kitty_revealed = tuple(e.cards)
    size = check_kitty_size(hand.ruleset, len(e.cards))
    if not size.ok:
        return end_by_ruling(hand, hand.dealer_seat(), size.rule, size.reason)
    return settle(hand)
