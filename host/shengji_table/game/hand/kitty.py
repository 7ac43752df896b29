"""The kitty (R-7.2): trump fixed, the dealer takes the kitty and buries as many cards, tapped one
by one (a card tapped again is taken back) and confirmed with the button."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...rules.cards import level_text, suit_word
from ...rules.order import TrumpOrder
from .. import events as ev
from ..effects import Announce, Ring
from ..phase import Phase
from .friend_call import after_burial

if TYPE_CHECKING:
    from .core import Hand

__all__ = ["start_kitty", "take_kitty", "bury", "bury_tap", "take_back_buried", "confirm_burial"]


def start_kitty(hand: Hand) -> list:
    """Trump is fixed: the order is set and the dealer is to take the kitty (if there is one)."""
    hand.order = TrumpOrder(hand.ruleset, hand.level, hand.trump)
    out = [Announce("trump", f"Trump: {suit_word(hand.trump)}, level {level_text(hand.level)}; "
                             f"seat {hand.dealer} deals.")]
    if hand.ruleset.kitty_size:
        hand.phase = Phase.KITTY
        hand.turn = hand.dealer
    else:
        out += after_burial(hand)
    return out


def take_kitty(hand: Hand, e: ev.TakeKitty) -> list:
    if e.seat != hand.dealer:
        return hand.refuse(e.seat, e, "R-7.2", f"only the dealer (seat {hand.dealer}) takes the kitty")
    for c in hand.kitty:
        hand.hands[e.seat][c] = None
    hand.counts[e.seat] += hand.ruleset.kitty_size
    hand.phase = Phase.BURYING
    return [Announce("kitty", f"Seat {e.seat} takes the kitty and buries {hand.ruleset.kitty_size} cards.", "R-7.2"),
            Ring(e.seat, "turn")]


def bury(hand: Hand, e: ev.BuryCard) -> list:
    if e.seat != hand.dealer:
        return hand.refuse(e.seat, e, "R-7.2", f"only the dealer (seat {hand.dealer}) buries")
    if e.copy in hand.buried:                     # tapped again: take it back
        hand.buried.remove(e.copy)
        return [Ring(e.seat, "pending", len(hand.buried))]
    if hand.knowledge.missing(hand, e.seat, (e.copy,)) is not None:
        return hand.refuse(e.seat, e, "table.not-in-hand", f"{e.copy} is not in the dealer's hand")
    if len(hand.buried) >= hand.ruleset.kitty_size:
        return hand.refuse(e.seat, e, "R-7.2", f"the kitty already holds {hand.ruleset.kitty_size} cards")
    hand.buried.append(e.copy)
    return [Ring(e.seat, "pending", len(hand.buried))]


def bury_tap(hand: Hand, e: ev.Tap) -> list:
    """A card tapped at the dealer's seat while burying is a card buried (or taken back)."""
    return bury(hand, ev.BuryCard(e.seat, e.copy))


def take_back_buried(hand: Hand, e: ev.TakeBack) -> list:
    if e.copy not in hand.buried:
        return hand.refuse(e.seat, e, "table.take-back", f"{e.copy} is not among the buried cards")
    return bury(hand, ev.BuryCard(e.seat, e.copy))


def confirm_burial(hand: Hand, e: ev.Confirm) -> list:
    if e.seat != hand.dealer:
        return hand.refuse(e.seat, e, "R-7.2", f"only the dealer (seat {hand.dealer}) buries")
    k = hand.ruleset.kitty_size
    if not hand.knowledge.burial_complete(hand):
        return hand.refuse(e.seat, e, "R-7.2", f"bury exactly {k} cards; {len(hand.buried)} are buried")
    for c in hand.buried:
        hand.hands[e.seat].pop(c, None)
    hand.counts[e.seat] -= k
    return [Announce("kitty", f"Seat {e.seat} has buried the kitty.", "R-7.2")] + after_burial(hand)
