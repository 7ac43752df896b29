"""Which rules handle which event in which phase: the hand's event loop reads this table.

``PHASE_RULES[phase][event type]`` is the handler while the hand is in that phase; ``ANY_PHASE``
holds the events whose own rules say when they apply (the referee's, open play's challenge and
kitty reveal); ``OUT_OF_PHASE`` answers an event that comes in a phase that has no rule for it —
a refusal saying when it belongs, or (a take-back) the play rule's own refusal.  A handler takes
``(hand, event)`` and returns the effects; a refusal changes nothing.
"""
from __future__ import annotations

from collections.abc import Callable

from ..events import EVENT_TYPES
from ..phase import Phase
from . import bidding, counter, draw, evidence, friend_call, kitty, play, referee

__all__ = ["PHASE_RULES", "PHASE_CLASSES", "SEATED_RULES", "ANY_PHASE", "OUT_OF_PHASE", "handler_for"]

Handler = Callable[..., list]


def _declare_in_kitty(hand, e) -> list:
    # three players: a declaration after trump is named is a counter-declaration (反牌)
    return counter.counter(hand, e) if hand.ruleset.bidding else _refusal(
        "R-6.1", "trump is declared only while the cards are drawn")(hand, e)


PHASE_RULES: dict[Phase, dict[str, Handler]] = {
    Phase.DEAL: {"deal": draw.deal},
    Phase.DRAWING: {"draw": draw.draw, "declare": draw.declare, "close_declarations": draw.close_declarations},
    Phase.BIDDING: {"bid": bidding.bid},
    Phase.TRUMP: {"name_trump": bidding.name_trump},
    Phase.KITTY: {"take_kitty": kitty.take_kitty, "declare": _declare_in_kitty},
    Phase.EXCHANGE: {"counter_draw": counter.counter_draw, "tap": counter.exchange_tap,
                     "take_back": counter.exchange_tap, "confirm": counter.exchange_confirm},
    Phase.BURYING: {"bury": kitty.bury, "tap": kitty.bury_tap, "take_back": kitty.take_back_buried,
                    "confirm": kitty.confirm_burial},
    Phase.STEAL: {"declare": kitty.steal, "close_declarations": kitty.close_steals},
    Phase.FRIEND: {"call_friend": friend_call.call_friend},
    Phase.PLAYING: {"tap": play.tap, "take_back": play.take_back, "confirm": play.confirm},
    Phase.OVER: {},
}

# PHASE_RULES by the event's class, with whether it names a seat: ``Hand.apply``'s look-up for
# every event of its phase (a class is found without reading the event's ``type``, a class
# attribute, and without asking whether it has a seat)
PHASE_CLASSES: dict[Phase, dict[type, tuple[Handler, bool]]] = {
    phase: {EVENT_TYPES[t]: (h, "seat" in EVENT_TYPES[t].__dataclass_fields__) for t, h in rules.items()}
    for phase, rules in PHASE_RULES.items()}

# The seated events of PHASE_CLASSES (all but a deal and closing a draw or a steal): the match's
# own first look-up for every event of the hand in play (``Match.apply``)
SEATED_RULES: dict[Phase, dict[type, Handler]] = {
    phase: {cls: h for cls, (h, seated) in rules.items() if seated} for phase, rules in PHASE_CLASSES.items()}

ANY_PHASE: dict[str, Handler] = {
    "challenge": evidence.challenge,
    "reveal_kitty": evidence.reveal_kitty,
    "referee_penalty": referee.award_penalty,
    "referee_end_hand": referee.end_hand,
    "referee_adjust": referee.adjust_result,
    "referee_undo": referee.undo_last_play,
    "referee_reverse": referee.reverse_ruling,
}


def _refusal(rule: str, reason: str, seat: bool = True) -> Handler:
    def refuse(hand, e) -> list:
        return hand.refuse(e.seat if seat else None, e, rule, reason)
    return refuse


def _not_played_now(hand, e) -> list:
    return hand.refuse(e.seat, e, "table.phase", f"cards are not played now (phase: {hand.phase})")


OUT_OF_PHASE: dict[str, Handler] = {
    "deal": _refusal("table.phase", "this hand has already been dealt", seat=False),
    "draw": _refusal("table.phase", "the draw is over"),
    "declare": _refusal("R-6.1", "trump is declared only while the cards are drawn"),
    "close_declarations": _refusal("table.phase", "there is no draw to close", seat=False),
    "bid": _refusal("table.phase", "there is no bidding now"),
    "name_trump": _refusal("table.phase", "trump is not named now"),
    "counter_draw": _refusal("table.phase", "cards are drawn from the kitty right after a counter-declaration"),
    "take_kitty": _refusal("table.phase", "the kitty is not to be taken now"),
    "bury": _refusal("table.phase", "cards are buried only after taking the kitty"),
    "call_friend": _refusal("table.phase", "friends are called after the burial"),
    "tap": _not_played_now,
    "take_back": play.take_back,       # refused there: not a pending card of the seat
    "confirm": _refusal("table.phase", "nothing to confirm now"),
}


def handler_for(phase: Phase, event_type: str) -> Handler | None:
    """The handler of an event of ``event_type`` in ``phase``; None for an event no hand takes."""
    return PHASE_RULES[phase].get(event_type) or ANY_PHASE.get(event_type) or OUT_OF_PHASE.get(event_type)
