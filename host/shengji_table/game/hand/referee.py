"""Referee actions on a hand (R-10), each with a reason that goes into the record.

* :func:`award_penalty` — points against a seat's side (R-10.1): added to the attackers' points when
  a declarer is at fault, taken off them when an attacker is (the sign follows the sides as they
  stand at the settlement, so a find-a-friend penalty lands on the right side).
* :func:`end_hand` — end the hand by ruling under R-10.2 (revoke) or R-10.3 (wrong count) against
  the side of the seat at fault (``rules.penalties.revoke`` / ``wrong_count``).
* :func:`adjust_result` — an adjusted result (R-10.5): the hand ends with the attackers' points the
  referee assigns (0 to the deck's total), settled by R-8; only once the dealer is known and before
  the hand is over.
* :func:`undo_last_play` — only with the ruleset option ``referee_undo`` (R-10.4): the last committed
  play, and any cards entered after it, are undone by rebuilding the hand from its own accepted
  events up to where that play's entry began (:meth:`Hand.rebuild`); penalties awarded since are
  kept; the undone play is listed in ``hand.undone`` with the reason.  The record keeps both the
  play and the undo.

Each function takes the hand and the event and returns the effects (a refusal changes nothing).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...rules.cards import format_cards
from ...rules.penalties import undo_policy
from .. import events as ev
from ..effects import Announce, ring
from ..phase import Phase
from .settle import adjusted, end_by_ruling

if TYPE_CHECKING:
    from .core import Hand

__all__ = ["award_penalty", "end_hand", "adjust_result", "undo_last_play"]


def award_penalty(hand: Hand, e: ev.RefereePenalty) -> list:
    if not 0 <= e.at_fault < hand.players:
        return hand.refuse(None, e, "table.seat", f"there is no seat {e.at_fault}")
    if e.points <= 0:
        return hand.refuse(None, e, "R-10.1", "a penalty is a positive number of points")
    if hand.phase == Phase.DEAL:
        return hand.refuse(None, e, "table.phase", "the hand has not started")
    hand.penalties.append((e.at_fault, e.points, e.reason))
    return [Announce("referee", f"Referee: {e.points} points against seat {e.at_fault}'s side. {e.reason}", "R-10.1")]


def end_hand(hand: Hand, e: ev.RefereeEndHand) -> list:
    if not 0 <= e.at_fault < hand.players:
        return hand.refuse(None, e, "table.seat", f"there is no seat {e.at_fault}")
    if hand.phase == Phase.DEAL:
        return hand.refuse(None, e, "table.phase", "the hand has not started")
    if e.rule not in ("R-10.2", "R-10.3"):
        return hand.refuse(None, e, "R-10", "a hand is ended by ruling under R-10.2 (revoke) or R-10.3 (wrong count)")
    return end_by_ruling(hand, e.at_fault, e.rule, f"Referee: {e.reason or 'hand ended by ruling'}")


def adjust_result(hand: Hand, e: ev.RefereeAdjust) -> list:
    total = hand.ruleset.total_points
    if hand.phase == Phase.DEAL or hand.dealer is None or (hand.ruleset.bidding and hand.bid is None):
        return hand.refuse(None, e, "R-10.5", "no dealer yet: there is no result to adjust (the hand can be redealt)")
    if hand.phase == Phase.OVER:
        return hand.refuse(None, e, "R-10.5", "the hand is over already")
    if not 0 <= e.attackers_points <= total:
        return hand.refuse(None, e, "R-10.5", f"the attackers' points are 0 to {total}, not {e.attackers_points}")
    if not e.reason.strip():
        return hand.refuse(None, e, "R-10.5", "an adjusted result needs its reason")
    return adjusted(hand, e.attackers_points, e.reason.strip())


def undo_last_play(hand: Hand, e: ev.RefereeUndo) -> list:
    policy = undo_policy(hand.ruleset)
    if not policy.ok:
        return hand.refuse(None, e, policy.rule, policy.reason)
    if hand.phase != Phase.PLAYING or hand.play_start is None:
        return hand.refuse(None, e, "R-10.4", "there is no play to undo")
    seat, cards = hand.trick[-1] if hand.trick else hand.tricks[-1].plays[-1]
    events = hand.events
    keep = events[:hand.play_start] + tuple(x for x in events[hand.play_start:] if isinstance(x, ev.RefereePenalty))
    undone = hand.undone + [(seat, tuple(cards), e.reason)]
    hand.rebuild(keep)
    hand.undone = undone
    return [Announce("undo", f"Referee undid seat {seat}'s play of {format_cards(cards)}: {e.reason}", "R-10.4"),
            ring(hand.seat_on_turn(), "turn")]
