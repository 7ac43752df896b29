"""The end of a hand: the settlement after the last trick (R-7.3 kitty, R-8 levels, R-10.1
penalties), an end by ruling against the side at fault (R-10.2 revoke, R-10.3 wrong count), or an
adjusted result the referee assigns (R-10.5)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...rules.kitty import kitty_bonus, kitty_multiplier
from ...rules.penalties import revoke, wrong_count
from ...rules.settle import Settlement, settle as settle_points
from ..effects import Announce
from ..phase import Phase
from .result import HandResult

if TYPE_CHECKING:
    from .core import Hand

__all__ = ["settle", "end_by_ruling", "adjusted"]


def settle(hand: Hand) -> list:
    dec, att = hand.declarers(), hand.attackers()
    captured = hand.attackers_points()
    plays, winner, _ = hand.tricks[-1]
    win_play = next(cards for s, cards in plays if s == winner)
    win_faces = [c.card for c in win_play]
    kitty_cards = [c.card for c in hand.knowledge.final_kitty(hand)]
    kitty_points = sum(c.points for c in kitty_cards)
    mult, bonus = 0, 0
    if winner in att:
        mult = kitty_multiplier(hand.ruleset, win_faces, hand.trump_order())
        bonus = kitty_bonus(hand.ruleset, kitty_cards, win_faces, hand.trump_order())
    penalty = sum(p if s in dec else -p for s, p, _ in hand.penalties)
    p = captured + bonus + penalty
    s = settle_points(hand.ruleset, p, bid=hand.bid) if hand.ruleset.bidding else settle_points(hand.ruleset, p)
    hand.result = HandResult(settlement=s, declarers=dec, attackers=att, captured=captured,
                             kitty_points=kitty_points, multiplier=mult, bonus=bonus, penalty=penalty,
                             last_winner=winner, last_cards=tuple(win_faces), ruling=None, at_fault=None,
                             bid=hand.bid)
    hand.phase = Phase.OVER
    text = (f"Attackers captured {captured}" + (f", kitty {kitty_points} × {mult} = {bonus}" if bonus else "")
            + (f", penalties {penalty:+d}" if penalty else "") + f": {p} points. {s.reason}")
    return [Announce("settle", text, s.rule, msg=settle_msg(s),
                     args={"detail": text[:text.index(":")], "points": p, "reason": s.reason,
                           "levels": s.declarers_levels or s.attackers_levels})]


def settle_msg(s) -> str:
    """The message id of a settlement's outcome: who goes up, and whether the deal passes."""
    if s.takeover:
        return "settle.takeover-up" if s.attackers_levels else "settle.takeover"
    return "settle.declarers-up" if s.declarers_levels else "settle.attackers-up" if s.attackers_levels \
        else "settle.nobody-up"


def end_by_ruling(hand: Hand, at_fault: int, rule: str, reason: str) -> list:
    """End the hand against the side of ``at_fault`` (R-10.2 revoke / R-10.3 wrong count)."""
    if hand.dealer is None:
        hand.dealer = hand.first_seat
    dec, att = hand.declarers(), hand.attackers()
    by_declarers = at_fault in dec
    base = revoke(hand.ruleset, by_declarers=by_declarers) if rule == "R-10.2" else \
        wrong_count(hand.ruleset, by_declarers=by_declarers)
    s = Settlement(base.attackers_points, base.declarers_levels, base.attackers_levels, base.takeover,
                   base.rule, f"{reason} — {base.reason}")
    hand.result = HandResult(settlement=s, declarers=dec, attackers=att, captured=hand.attackers_points(),
                             kitty_points=None, multiplier=0, bonus=0, penalty=0, last_winner=None,
                             last_cards=(), ruling=rule, at_fault=at_fault, bid=hand.bid)
    hand.phase = Phase.OVER
    hand.pending = []
    return [Announce("revoke" if rule == "R-10.2" else "referee", s.reason, rule,
                     msg=("revoke." if rule == "R-10.2" else "count.") + ("declarers" if by_declarers else "attackers"),
                     args={"reason": s.reason, "seat": at_fault})]


def adjusted(hand: Hand, points: int, reason: str) -> list:
    """End the hand with ``points`` assigned to the attackers (R-10.5), settled by R-8 like
    captured points; penalties already awarded in the hand still count (R-10.1)."""
    dec, att = hand.declarers(), hand.attackers()
    penalty = sum(p if s in dec else -p for s, p, _ in hand.penalties)
    p = points + penalty
    s = settle_points(hand.ruleset, p, bid=hand.bid) if hand.ruleset.bidding else settle_points(hand.ruleset, p)
    text = (f"Referee: adjusted result, attackers {points}" + (f", penalties {penalty:+d}" if penalty else "")
            + f": {p} points — {reason}. {s.reason}")
    hand.result = HandResult(settlement=s, declarers=dec, attackers=att, captured=hand.attackers_points(),
                             kitty_points=None, multiplier=0, bonus=0, penalty=penalty, last_winner=None,
                             last_cards=(), ruling="R-10.5", at_fault=None, bid=hand.bid)
    hand.phase = Phase.OVER
    hand.pending = []
    return [Announce("referee", text, "R-10.5", msg="referee.adjusted",
                     args={"detail": text, "assigned": points, "points": p, "reason": reason})]
