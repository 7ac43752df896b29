"""Referee actions on a hand (R-10), each with a reason that goes into the record.

* :func:`award_penalty` — points against a seat's side (R-10.1): added to the attackers' points when
  a declarer is at fault, taken off them when an attacker is (the sign follows the sides as they
  stand at the settlement, so a find-a-friend penalty lands on the right side).
* :func:`end_hand` — end the hand by ruling under R-10.2 (revoke) or R-10.3 (wrong count) against
  the side of the seat at fault (``rules.penalties.revoke`` / ``wrong_count``).
* :func:`undo_last_play` — only with the ruleset option ``referee_undo`` (R-10.4): the last committed
  play, and any cards entered after it, are undone by rebuilding the hand from its own accepted
  events up to where that play's entry began; penalties awarded since are kept; the undone play is
  listed in ``hand.undone`` with the reason.  The record keeps both the play and the undo.

Each function takes the hand and the event and returns the effects (a refusal changes nothing).
"""
from __future__ import annotations

from ..rules.cards import format_cards
from ..rules.penalties import undo_policy
from . import events as ev
from .effects import Announce, Ring

__all__ = ["award_penalty", "end_hand", "undo_last_play"]


def award_penalty(hand, e: ev.RefereePenalty) -> list:
    if not 0 <= e.at_fault < hand.players:
        return hand._refuse(None, e, "table.seat", f"there is no seat {e.at_fault}")
    if e.points <= 0:
        return hand._refuse(None, e, "R-10.1", "a penalty is a positive number of points")
    if hand.phase in ("deal",):
        return hand._refuse(None, e, "table.phase", "the hand has not started")
    hand.penalties.append((e.at_fault, e.points, e.reason))
    return [Announce("referee", f"Referee: {e.points} points against seat {e.at_fault}'s side. {e.reason}", "R-10.1")]


def end_hand(hand, e: ev.RefereeEndHand) -> list:
    if not 0 <= e.at_fault < hand.players:
        return hand._refuse(None, e, "table.seat", f"there is no seat {e.at_fault}")
    if hand.phase in ("deal",):
        return hand._refuse(None, e, "table.phase", "the hand has not started")
    if e.rule not in ("R-10.2", "R-10.3"):
        return hand._refuse(None, e, "R-10", "a hand is ended by ruling under R-10.2 (revoke) or R-10.3 (wrong count)")
    return hand._end_by_ruling(e.at_fault, e.rule, f"Referee: {e.reason or 'hand ended by ruling'}")


def undo_last_play(hand, e: ev.RefereeUndo) -> list:
    policy = undo_policy(hand.ruleset)
    if not policy.ok:
        return hand._refuse(None, e, policy.rule, policy.reason)
    if hand.phase != "playing" or hand._play_start is None:
        return hand._refuse(None, e, "R-10.4", "there is no play to undo")
    seat, cards = _last_play(hand)
    keep = hand._log[:hand._play_start]
    keep += [x for x in hand._log[hand._play_start:] if isinstance(x, ev.RefereePenalty)]
    fresh = type(hand)(hand.ruleset, mode=hand.mode, dealer=hand._init_dealer, levels=hand.levels,
                       first_seat=hand._init_first, number=hand.number)
    for x in keep:
        fresh.apply(x)
    fresh.undone = hand.undone + [(seat, tuple(cards), e.reason)]
    hand.__dict__.update(fresh.__dict__)
    return [Announce("undo", f"Referee undid seat {seat}'s play of {format_cards(cards)}: {e.reason}", "R-10.4"),
            Ring(hand.turn, "turn")]


def _last_play(hand):
    if hand.trick:
        return hand.trick[-1]
    plays, _, _ = hand.tricks[-1]
    return plays[-1]
