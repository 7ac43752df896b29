"""Three players: the counter-declaration (反牌, seed 000 三人打法) and the swap with the kitty.

反牌規則同經典升級 — an overcall of the classic ladder by a player other than the dealer, before the
dealer takes the kitty; trump changes, the dealer and the bid stay; the counter-declarer then
draws 6 cards at random from the kitty (:class:`~..events.CounterDraw`), taps 6 cards back and
confirms.  As in the classic rules the dealer may overcall a counter in turn; the whole kitty is
theirs anyway, so there is no swap.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...rules.cards import format_cards
from ...rules.declare import Declaration, check_declaration
from ...rules.order import TrumpOrder
from .. import events as ev
from ..effects import Announce, ring
from ..phase import Phase
from .shown import refuse_shown
from ...rules.cards import suit_word

if TYPE_CHECKING:
    from .core import Hand

__all__ = ["Exchange", "COUNTER_RULE", "may_counter", "counter", "counter_draw", "exchange_tap",
           "exchange_confirm"]

COUNTER_RULE = "§9 反牌"


@dataclass(slots=True)
class Exchange:
    """A counter-declarer's swap with the kitty, while it is under way.

    ``drawn`` is None until the cards are drawn from the kitty (then the copies, known only with
    scanned hands); ``count`` how many go back; ``laid`` the copies tapped back so far.
    """

    seat: int
    drawn: tuple | None = None
    count: int = 0
    laid: list = field(default_factory=list)


def may_counter(hand: Hand, seat: int) -> bool:
    """Whether ``seat`` may counter-declare now (trump named, kitty not yet taken).  The dealer
    only answers another seat's counter (the naming was their own call)."""
    return (hand.ruleset.bidding and hand.phase == Phase.KITTY and hand.dealer is not None
            and hand.standing is not None
            and (seat != hand.dealer or hand.standing.seat != hand.dealer))


def counter(hand: Hand, e: ev.Declare) -> list:
    if not may_counter(hand, e.seat):
        return hand.refuse(e.seat, e, COUNTER_RULE, "the dealer named trump; a counter-declaration (反牌) "
                                                    "is the other players' (the dealer may only answer one)")
    bad = refuse_shown(hand, e, "does not hold")
    if bad:
        return bad
    faces = tuple(c.card for c in e.cards)
    res = check_declaration(hand.ruleset, hand.level, hand.standing, Declaration(e.seat, faces))
    if not res.valid:
        return hand.refuse(e.seat, e, res.rule, res.reason)
    standing = res.standing
    assert standing is not None                  # a valid declaration always stands
    hand.declarations.append((Declaration(e.seat, faces), e.cards))
    hand.standing = standing
    hand.trump = standing.trump
    hand.order = TrumpOrder.of(hand.ruleset, hand.level, hand.trump)   # shared: built once per (level, trump)
    if e.seat == hand.dealer:
        return [Announce("declare", f"The dealer, seat {e.seat}, answers with {format_cards(faces)}: trump is "
                                    f"{suit_word(hand.trump)}. {res.reason}", COUNTER_RULE, msg="declare.answer",
                         args={"seat": e.seat, "cards": format_cards(faces), "trump": suit_word(hand.trump),
                               "reason": res.reason}),
                ring(e.seat, "declarer")]
    hand.phase = Phase.EXCHANGE
    hand.turn = e.seat
    hand.exchange = Exchange(e.seat)
    swap = hand.knowledge.swap_count(hand)
    return [Announce("declare", f"Seat {e.seat} counter-declares with {format_cards(faces)}: trump is "
                                f"{suit_word(hand.trump)}. {res.reason} Seat {e.seat} now swaps {swap} "
                                f"cards drawn at random from the kitty.", COUNTER_RULE, msg="declare.counter",
                     args={"seat": e.seat, "cards": format_cards(faces), "trump": suit_word(hand.trump),
                           "reason": res.reason, "count": swap}),
            ring(e.seat, "declarer")]


def counter_draw(hand: Hand, e: ev.CounterDraw) -> list:
    x = hand.exchange
    if x is None or x.drawn is not None:
        return hand.refuse(e.seat, e, "table.phase", "cards are drawn from the kitty right after a counter-declaration")
    if e.seat != x.seat:
        return hand.refuse(e.seat, e, COUNTER_RULE, f"the counter-declarer (seat {x.seat}) draws from the kitty")
    got = hand.knowledge.draw_from_kitty(hand, e)
    if isinstance(got, list):                     # refused
        return got
    drawn, k = got
    for c in drawn:
        hand.kitty.remove(c)
        hand.hands[e.seat][c] = None
    hand.counts[e.seat] += k
    x.drawn = drawn
    x.count = k
    return [Announce("kitty", f"Seat {e.seat} draws {k} cards from the kitty at random and lays {k} back.",
                     COUNTER_RULE, msg="kitty.swap", args={"seat": e.seat, "count": k}), ring(e.seat, "turn")]


def _drawn(hand: Hand, e) -> tuple[Exchange | None, list]:
    """The swap under way once its cards are drawn, else the refusal."""
    x = hand.exchange
    if x is None or x.drawn is None:
        return None, hand.refuse(e.seat, e, "table.phase", "the counter-declarer draws from the kitty first")
    if e.seat != x.seat:
        return None, hand.refuse(e.seat, e, COUNTER_RULE, f"the counter-declarer (seat {x.seat}) lays cards back")
    return x, []


def exchange_tap(hand: Hand, e) -> list:
    """A card laid back in the kitty (a :class:`Tap`), or taken back (tapped again, or :class:`TakeBack`)."""
    x, refused = _drawn(hand, e)
    if x is None:
        return refused
    if e.copy in x.laid:                          # tapped again: take it back
        x.laid.remove(e.copy)
        return [ring(e.seat, "pending", len(x.laid))]
    if isinstance(e, ev.TakeBack):
        return hand.refuse(e.seat, e, "table.take-back", f"{e.copy} is not among the cards laid back")
    if hand.knowledge.missing(hand, e.seat, (e.copy,)) is not None:
        return hand.refuse(e.seat, e, "table.not-in-hand", f"{e.copy} is not in seat {e.seat}'s hand")
    if len(x.laid) >= x.count:
        return hand.refuse(e.seat, e, COUNTER_RULE, f"{x.count} cards go back to the kitty")
    x.laid.append(e.copy)
    return [ring(e.seat, "pending", len(x.laid))]


def exchange_confirm(hand: Hand, e: ev.Confirm) -> list:
    x, refused = _drawn(hand, e)
    if x is None:
        return refused
    if len(x.laid) != x.count:
        return hand.refuse(e.seat, e, COUNTER_RULE, f"lay back exactly {x.count} cards; {len(x.laid)} are laid")
    for c in x.laid:
        hand.hands[e.seat].pop(c, None)
    hand.knowledge.lay_back(hand, x.laid)
    hand.counts[e.seat] -= x.count
    hand.exchanges.append((e.seat, x.drawn, tuple(x.laid)))
    hand.exchange = None
    hand.phase = Phase.KITTY
    hand.turn = hand.dealer
    return [Announce("kitty", f"Seat {e.seat} has laid {x.count} cards back in the kitty.", COUNTER_RULE,
                     msg="kitty.laid-back", args={"seat": e.seat, "count": x.count}),
            ring(hand.dealer_seat(), "turn")]
