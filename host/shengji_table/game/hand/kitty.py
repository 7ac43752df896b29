"""The kitty (R-7.2): trump fixed, the dealer takes the kitty and buries as many cards, tapped one
by one (a card tapped again is taken back) and confirmed with the button.

炒地皮 (R-7.4, four players, the house option ``kitty_stealing``): after each burial the hand waits
in :attr:`Phase.STEAL`; a seat other than the one that buried may declare a stronger call — trump
changes, that seat takes the buried cards and buries anew — until ``close_declarations`` says
nobody counters.  The dealer and the sides stay (as with three players' 反牌, ``counter.py``)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...rules.cards import format_cards, level_text, suit_word
from ...rules.declare import STEAL_RULE, Declaration, check_steal
from ...rules.order import TrumpOrder
from .. import events as ev
from ..effects import Announce, ring
from ..phase import Phase
from .friend_call import after_burial
from .shown import refuse_shown

if TYPE_CHECKING:
    from .core import Hand

__all__ = ["start_kitty", "take_kitty", "bury", "bury_tap", "take_back_buried", "confirm_burial", "holder",
           "steal", "close_steals"]


def holder(hand: Hand) -> int:
    """The seat that holds (buries) the kitty: the dealer, or after 炒地皮 the last seat to steal it
    (from the kitty phase on, when the dealer is known)."""
    return hand.dealer_seat() if hand.kitty_holder is None else hand.kitty_holder


def start_kitty(hand: Hand) -> list:
    """Trump is fixed: the order is set and the dealer is to take the kitty (if there is one)."""
    hand.order = TrumpOrder.of(hand.ruleset, hand.level, hand.trump)   # shared: built once per (level, trump)
    out = [Announce("trump", f"Trump: {suit_word(hand.trump)}, level {level_text(hand.level)}; "
                             f"seat {hand.dealer} deals.", msg="trump.fixed",
                    args={"trump": suit_word(hand.trump), "level": level_text(hand.level), "seat": hand.dealer})]
    if hand.ruleset.kitty_size:
        hand.phase = Phase.KITTY
        hand.turn = hand.dealer
    else:
        out += after_burial(hand)
    return out


def take_kitty(hand: Hand, e: ev.TakeKitty) -> list:
    if e.seat != hand.dealer:
        return hand.refuse(e.seat, e, "R-7.2", f"only the dealer (seat {hand.dealer}) takes the kitty")
    held = hand.hands[e.seat]
    for c in hand.kitty:            # held by nobody (scanned: the stack's rest; open play: unknown, empty)
        held.add_new(c)
    hand.counts[e.seat] += hand.ruleset.kitty_size
    hand.phase = Phase.BURYING
    return [Announce("kitty", f"Seat {e.seat} takes the kitty and buries {hand.ruleset.kitty_size} cards.", "R-7.2",
                     msg="kitty.take", args={"seat": e.seat, "count": hand.ruleset.kitty_size}),
            ring(e.seat, "turn")]


def _not_burier(hand: Hand, e) -> list | None:
    who = holder(hand)
    if e.seat == who:
        return None
    if who != hand.dealer:
        return hand.refuse(e.seat, e, STEAL_RULE, f"seat {who} took the kitty (炒地皮) and buries it")
    return hand.refuse(e.seat, e, "R-7.2", f"only the dealer (seat {hand.dealer}) buries")


def bury(hand: Hand, e: ev.BuryCard) -> list:
    bad = _not_burier(hand, e)
    if bad is not None:
        return bad
    if e.copy in hand.buried:                     # tapped again: take it back
        hand.buried.remove(e.copy)
        return [ring(e.seat, "pending", len(hand.buried))]
    if hand.knowledge.missing(hand, e.seat, (e.copy,)) is not None:
        return hand.refuse(e.seat, e, "table.not-in-hand", f"{e.copy} is not in seat {e.seat}'s hand")
    if len(hand.buried) >= hand.ruleset.kitty_size:
        return hand.refuse(e.seat, e, "R-7.2", f"the kitty already holds {hand.ruleset.kitty_size} cards")
    hand.buried.append(e.copy)
    return [ring(e.seat, "pending", len(hand.buried))]


def bury_tap(hand: Hand, e: ev.Tap) -> list:
    """A card tapped at the dealer's seat while burying is a card buried (or taken back): the
    :class:`~..events.BuryCard` it stands for (its refusals name that event), built only when the
    tap is not the usual one — a held card of the burier's, not buried yet, the kitty not full."""
    c, buried = e.copy, hand.buried
    if (e.seat == holder(hand) and hand.knowledge.scanned and c in hand.hands[e.seat]
            and len(buried) < hand.ruleset.kitty_size and c not in buried):
        buried.append(c)
        return [ring(e.seat, "pending", len(buried))]
    return bury(hand, ev.BuryCard(e.seat, c))


def take_back_buried(hand: Hand, e: ev.TakeBack) -> list:
    if e.copy not in hand.buried:
        return hand.refuse(e.seat, e, "table.take-back", f"{e.copy} is not among the buried cards")
    return bury(hand, ev.BuryCard(e.seat, e.copy))


def confirm_burial(hand: Hand, e: ev.Confirm) -> list:
    bad = _not_burier(hand, e)
    if bad is not None:
        return bad
    k = hand.ruleset.kitty_size
    if not hand.knowledge.burial_complete(hand):
        return hand.refuse(e.seat, e, "R-7.2", f"bury exactly {k} cards; {len(hand.buried)} are buried")
    for c in hand.buried:
        hand.hands[e.seat].pop(c, None)
    hand.counts[e.seat] -= k
    done = Announce("kitty", f"Seat {e.seat} has buried the kitty.", "R-7.2", msg="kitty.buried", args={"seat": e.seat})
    if hand.ruleset.kitty_stealing:
        hand.phase = Phase.STEAL
        hand.turn = None
        return [done, Announce("kitty", "炒地皮: a stronger call takes the kitty; press when nobody counters.",
                               STEAL_RULE, msg="kitty.steal", args={})]
    return [done] + after_burial(hand)


def steal(hand: Hand, e: ev.Declare) -> list:
    """炒地皮: a stronger call by another seat takes the kitty (R-7.4)."""
    bad = refuse_shown(hand, e, "does not hold")
    if bad:
        return bad
    faces = tuple(c.card for c in e.cards)
    res = check_steal(hand.ruleset, hand.level, hand.standing, holder(hand), Declaration(e.seat, faces))
    if not res.valid:
        return hand.refuse(e.seat, e, res.rule, res.reason)
    assert res.standing is not None             # a valid call always stands
    hand.declarations.append((Declaration(e.seat, faces), e.cards))
    hand.standing = res.standing
    hand.trump = res.standing.trump
    hand.order = TrumpOrder.of(hand.ruleset, hand.level, hand.trump)   # shared: built once per (level, trump)
    hand.kitty_holder = e.seat
    for c in hand.buried:                       # the buried cards go to the new holder's hand
        hand.hands[e.seat][c] = None
    hand.counts[e.seat] += hand.ruleset.kitty_size
    hand.buried = []
    hand.phase = Phase.BURYING
    hand.turn = e.seat
    return [Announce("declare", f"Seat {e.seat} counters with {format_cards(faces)} (炒地皮): trump is "
                                f"{suit_word(hand.trump)}; seat {e.seat} takes the kitty and buries anew.",
                     STEAL_RULE, msg="declare.counter-steal",
                     args={"seat": e.seat, "cards": format_cards(faces), "trump": suit_word(hand.trump)}),
            ring(e.seat, "turn")]


def close_steals(hand: Hand, e: ev.CloseDeclarations) -> list:
    """Nobody counters: the kitty stays buried and the hand goes on (R-7.4)."""
    return [Announce("kitty", f"Nobody counters: seat {holder(hand)}'s kitty stands; trump is "
                              f"{suit_word(hand.trump)}.", STEAL_RULE, msg="kitty.stands",
                     args={"seat": holder(hand), "trump": suit_word(hand.trump)})] + after_burial(hand)
