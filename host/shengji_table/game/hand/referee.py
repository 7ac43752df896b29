"""The referee's acts on a hand (R-10).  Each act the hand accepts is a numbered *ruling* of the
hand (1 for its first), kept in ``hand.rulings`` with its reason; the record keeps every act.

* :func:`award_penalty` — points against a seat's side (R-10.1): added to the attackers' points when
  a declarer is at fault, taken off them when an attacker is (the sign follows the sides as they
  stand at the settlement, so a find-a-friend penalty lands on the right side).
* :func:`end_hand` — end the hand by ruling under R-10.2 (revoke) or R-10.3 (wrong count) against
  the side of the seat at fault (``rules.penalties.revoke`` / ``wrong_count``).
* :func:`adjust_result` — an adjusted result (R-10.5): the hand ends with the attackers' points the
  referee assigns (0 to the deck's total), settled by R-8; only once the dealer is known and before
  the hand is over.
* :func:`undo_last_play` — only with the ruleset option ``referee_undo`` (R-10.4): takes back the
  last committed play that stands and the entry under way after it, any number of times in a row
  and across tricks.  Penalties and other rulings since stay.
* :func:`reverse_ruling` — reverses one earlier ruling of the hand: the hand stands as if that act
  had never been made, provided everything accepted since still stands (else it is refused and
  says what depends on it).  A reversal is itself a ruling; it is not reversed in turn (the referee
  makes the act again).

The hand's state is a function of its log of accepted events.  Undo and reversal rewrite what the
log means, never the log: the hand is rebuilt (:func:`refold`) from its deal by every logged event
but those *masked* — the plays each standing undo took back — with the *voided* rulings (those
reversed) counted but without effect.  A rebuild meets the earlier undos and reversals again and
finds their effect in place already (``hand.masked``, ``hand.voided``), so it never rebuilds twice.

Each function takes the hand and the event and returns the effects (a refusal changes nothing).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...rules.cards import format_cards
from ...rules.penalties import undo_policy
from .. import events as ev
from ..effects import Announce, Refusal, ring
from ..phase import Phase
from .settle import adjusted, end_by_ruling

if TYPE_CHECKING:
    from .core import Hand

__all__ = ["Ruling", "award_penalty", "end_hand", "adjust_result", "undo_last_play", "reverse_ruling",
           "refold", "describe", "standing_events", "undone"]

_ACTS = frozenset(ev.REFEREE_ACTS)
_REWRITES = frozenset({ev.RefereeUndo, ev.RefereeReverse})      # acts that change what the log means


@dataclass(frozen=True)
class Ruling:
    """One referee act the hand accepted: its number in the hand, the event, and for an undo the
    log positions of the events it took back (``mask``) and the play it took back (``undone``)."""

    number: int
    event: ev.Event
    mask: frozenset = frozenset()
    undone: tuple | None = None          # (seat, copies)

    def to_json(self, voided: frozenset = frozenset()) -> dict:
        text = describe(self.event) if self.undone is None else \
            f"undo of seat {self.undone[0]}'s play of {format_cards(self.undone[1])}"
        out = {"number": self.number, "type": self.event.type, "text": text,
               "reason": getattr(self.event, "reason", ""), "reversed": self.number in voided}
        if self.undone is not None:
            out["undone"] = [self.undone[0], [str(c) for c in self.undone[1]]]
        return out


def describe(e: ev.Event) -> str:
    """A referee act in a few words (the console's list of rulings, a reversal's announcement)."""
    if isinstance(e, ev.RefereePenalty):
        return f"{e.points} points against seat {e.at_fault}'s side"
    if isinstance(e, ev.RefereeEndHand):
        return f"hand ended against seat {e.at_fault}'s side ({e.rule})"
    if isinstance(e, ev.RefereeAdjust):
        return f"adjusted result: attackers {e.attackers_points}"
    if isinstance(e, ev.RefereeUndo):
        return "undo of the last play"
    if isinstance(e, ev.RefereeReverse):
        return f"reversal of ruling {e.ruling}"
    return e.type


def _ruling(act):
    """An act as a ruling: numbered; without effect when a later reversal voids it (a rebuild meets
    it again); registered once accepted (an undo registers itself, with what it took back)."""
    def run(hand: Hand, e) -> list:
        n = len(hand.rulings) + 1
        if n in hand.voided:
            hand.rulings += (Ruling(n, e),)
            return []
        out = act(hand, e)
        if not (out and type(out[0]) is Refusal) and len(hand.rulings) < n:
            hand.rulings += (Ruling(n, e),)
        return out
    run.__name__, run.__doc__ = act.__name__, act.__doc__
    return run


@_ruling
def award_penalty(hand: Hand, e: ev.RefereePenalty) -> list:
    if not 0 <= e.at_fault < hand.players:
        return hand.refuse(None, e, "table.seat", f"there is no seat {e.at_fault}")
    if e.points <= 0:
        return hand.refuse(None, e, "R-10.1", "a penalty is a positive number of points")
    if e.points > hand.ruleset.total_points:
        return hand.refuse(None, e, "R-10.1", f"a penalty is at most the deck's {hand.ruleset.total_points} points, "
                                              f"not {e.points}")
    if hand.phase == Phase.DEAL:
        return hand.refuse(None, e, "table.phase", "the hand has not started")
    hand.penalties.append((e.at_fault, e.points, e.reason))
    return [Announce("referee", f"Referee: {e.points} points against seat {e.at_fault}'s side. {e.reason}", "R-10.1",
                     msg="referee.penalty", args={"points": e.points, "seat": e.at_fault, "reason": e.reason})]


@_ruling
def end_hand(hand: Hand, e: ev.RefereeEndHand) -> list:
    if not 0 <= e.at_fault < hand.players:
        return hand.refuse(None, e, "table.seat", f"there is no seat {e.at_fault}")
    if hand.phase == Phase.DEAL:
        return hand.refuse(None, e, "table.phase", "the hand has not started")
    if e.rule not in ("R-10.2", "R-10.3"):
        return hand.refuse(None, e, "R-10", "a hand is ended by ruling under R-10.2 (revoke) or R-10.3 (wrong count)")
    return end_by_ruling(hand, e.at_fault, e.rule, f"Referee: {e.reason or 'hand ended by ruling'}")


@_ruling
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


def _undo_text(undone: tuple, reason: str) -> str:
    seat, cards = undone
    return f"Referee undid seat {seat}'s play of {format_cards(cards)}" + (f": {reason}" if reason else ".")


@_ruling
def undo_last_play(hand: Hand, e: ev.RefereeUndo) -> list:
    policy = undo_policy(hand.ruleset)
    if not policy.ok:
        return hand.refuse(None, e, policy.rule, policy.reason)
    n = len(hand.rulings) + 1
    prior = hand.replaying.get(n)
    if prior is not None and prior.event is e:
        # a rebuild meets this undo again: the plays it took back are masked already
        hand.rulings += (prior,)
        return []
    if hand.phase == Phase.OVER:
        return hand.refuse(None, e, "R-10.4", "the hand is over: its plays are no longer undone "
                                              "(reverse the ruling that ended it, if one did)")
    if hand.phase != Phase.PLAYING or not hand.play_starts:
        return hand.refuse(None, e, "R-10.4", "there is no play to undo")
    undone = hand.last_play()
    log, masked = hand.log, hand.masked
    mask = frozenset(i for i in range(hand.play_starts[-1], len(log))
                     if i not in masked and type(log[i]) not in _ACTS)
    rulings = hand.rulings
    fresh, bad = refold(hand, masked | mask, hand.voided)
    if fresh is None:                    # a referee act after the play that needs it (none does today)
        return hand.refuse(None, e, "R-10.4", f"the play cannot be undone: {bad}")
    hand.adopt(fresh)
    hand.rulings = rulings + (Ruling(n, e, mask, undone),)
    return [Announce("undo", _undo_text(undone, e.reason), "R-10.4", msg="undo.play" + (".reason" if e.reason else ""),
                     args={"seat": undone[0], "cards": format_cards(undone[1]), "reason": e.reason}),
            ring(hand.seat_on_turn(), "turn")]


def reverse_ruling(hand: Hand, e: ev.RefereeReverse) -> list:
    rulings = hand.rulings
    n = len(rulings) + 1
    prior = hand.replaying.get(n)
    if prior is not None and prior.event is e:
        hand.rulings += (prior,)         # a rebuild meets it again: its target is voided already
        return []
    if not rulings:
        return hand.refuse(None, e, "R-10", "there is no ruling in this hand to reverse")
    if not 1 <= e.ruling <= len(rulings):
        return hand.refuse(None, e, "R-10", f"there is no ruling {e.ruling} in this hand: "
                                            f"its rulings are 1 to {len(rulings)}")
    target = rulings[e.ruling - 1]
    if type(target.event) is ev.RefereeReverse:
        return hand.refuse(None, e, "R-10", f"ruling {e.ruling} is a reversal itself: "
                                            "make the ruling it reversed again")
    if target.number in hand.voided:
        by = next(r.number for r in rulings if type(r.event) is ev.RefereeReverse and r.event.ruling == target.number)
        return hand.refuse(None, e, "R-10", f"ruling {e.ruling} was reversed already (ruling {by})")
    fresh, bad = refold(hand, hand.masked - target.mask, hand.voided | {target.number})
    if fresh is None:
        return hand.refuse(None, e, "R-10", f"ruling {e.ruling} ({describe(target.event)}) cannot be reversed: "
                                            f"{bad} since then depends on it")
    hand.adopt(fresh)
    hand.rulings = fresh.rulings + (Ruling(n, e),)
    text = f"Referee reversed ruling {e.ruling} ({describe(target.event)})" + (f": {e.reason}" if e.reason else ".")
    out: list = [Announce("referee", text, "R-10", msg="referee.reversed", args={"detail": text, "ruling": e.ruling})]
    if hand.phase == Phase.PLAYING:
        out.append(ring(hand.seat_on_turn(), "turn"))
    return out


def standing_events(hand: Hand) -> list:
    """The events ``hand`` stands on now: its log less the plays undone, the rulings reversed and
    the undos and reversals themselves."""
    out, number, masked, voided = [], 0, hand.masked, hand.voided
    for i, e in enumerate(hand.log):
        if type(e) in _ACTS:
            number += 1
            if number in voided or type(e) in _REWRITES:
                continue
        elif i in masked:
            continue
        out.append(e)
    return out


def undone(hand: Hand) -> list:
    """``(seat, copies, reason)`` of every play the referee undid and did not reverse, in order."""
    return [(r.undone[0], r.undone[1], r.event.reason) for r in hand.rulings
            if r.undone is not None and r.number not in hand.voided]


def refold(hand: Hand, masked: frozenset, voided: frozenset) -> tuple:
    """``hand`` rebuilt from its deal by its logged events but those at the ``masked`` positions,
    with the rulings numbered in ``voided`` without effect: ``(the new hand, None)``, or
    ``(None, what)`` naming the first logged event the rebuilt hand refuses."""
    fresh = hand.fresh()
    fresh.masked, fresh.voided = masked, voided
    fresh.replaying = {r.number: r for r in hand.rulings}
    log = fresh.log
    for i, e in enumerate(hand.log):
        if i in masked:
            log.append(e)                # kept in the log, so later positions stay where they were
            continue
        out = fresh.apply(e)
        if out and type(out[0]) is Refusal:
            who = f"seat {out[0].seat}'s " if out[0].seat is not None else "the "
            return None, f"{who}{e.type.replace('_', ' ')} (event {i + 1} of the hand: {out[0].reason})"
    fresh.replaying = {}
    return fresh, None
