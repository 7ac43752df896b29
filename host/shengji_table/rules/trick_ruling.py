"""The judge's ruling on a trick: is its last play legal, who wins, how many points (docs/judge.md).

:func:`rule_trick` returns the ruling as plain JSON-ready data::

    {"legal": true, "rule": "R-4.5", "reason": "…", "units": [{"kind", "width", "length", "cards"}],
     "throw": {"ok": …, "forced": […], "beaten_by": {"seat", "cards"} | null},   # multi-unit leads
     "winner": 2, "points": 25, "unchecked": ["…"]}                              # when hands are missing

Without ``hands`` it rules on everything the plays decide by themselves (one suit in a lead, card
counts, shapes, the winner, points) and lists in ``unchecked`` what it could not check.
"""
from __future__ import annotations

from .follow import check_follow, missing_from_hand
from .order import TrumpOrder
from .ruleset import level_from_text
from .throw import check_lead, check_throw
from .trick import Play, TrickShape, trick_points, winning_index
from .units import decompose

__all__ = ["rule_trick"]


def _as_play(p) -> Play:
    if isinstance(p, Play):
        return p
    seat, cards = p
    return Play(seat, tuple(cards))


def _illegal(out: dict, rule: str, reason: str) -> None:
    out["legal"], out["rule"], out["reason"] = False, rule, reason


def _rule_lead(out: dict, unchecked: list, ruleset, order, last: Play, units, hands: dict) -> list | None:
    """A lead: one suit (R-4.1) and, for a throw, the other hands (R-4.2, R-4.3).  Returns the plays
    that count for the winner when a failed throw stands as its forced unit, else None."""
    verdict = check_lead(last.cards, order)
    if out["legal"]:
        out["rule"], out["reason"] = verdict.rule, verdict.reason
        if not verdict.ok:
            out["legal"] = False
    if not verdict.ok or len(units) <= 1:
        return None
    others = {s: cards for s, cards in hands.items() if s != last.seat}
    seats_missing = [s for s in range(ruleset.players) if s != last.seat and s not in others]
    if not others:
        out["throw"] = {"ok": None, "forced": [], "beaten_by": None}
        unchecked.append("the throw (the other hands are not given)")
        if out["legal"]:
            out["reason"] = f"a throw of {len(units)} units; without the other hands it cannot be checked"
        return None
    tc = check_throw(last.cards, others, order)
    out["throw"] = {
        "ok": tc.ok, "forced": [str(c) for c in tc.forced],
        "beaten_by": None if tc.beaten_by is None else
        {"seat": tc.beaten_by[0], "cards": [str(c) for c in tc.beaten_by[1]]},
    }
    if not tc.ok:
        if out["legal"]:
            _illegal(out, tc.rule, tc.reason)
        return [Play(last.seat, tc.forced)] if tc.forced else None
    if seats_missing:
        out["throw"]["ok"] = None
        unchecked.append("the throw against seat(s) " + ", ".join(map(str, seats_missing)))
        if out["legal"]:
            out["reason"] = "nobody among the given hands can beat the throw; the others were not given"
    elif out["legal"]:
        out["rule"], out["reason"] = tc.rule, tc.reason
    return None


def _rule_follow(out: dict, order, plays: list, hand) -> bool:
    """A follow: the lead's count (R-4.4) and, with the hand, suit and shape (R-4.4–4.7).  Returns
    whether the play stands."""
    lead, last = plays[0].cards, plays[-1]
    if len(last.cards) != len(lead):
        if out["legal"]:
            _illegal(out, "R-4.4", f"{len(lead)} cards were led, so play exactly {len(lead)}, not {len(last.cards)}")
    elif out["legal"]:
        if hand is not None:
            v = check_follow(lead, last.cards, hand, order)
            out["legal"], out["rule"], out["reason"] = v.ok, v.rule, v.reason
        else:
            out["rule"] = "R-4.4"
            out["reason"] = (f"the count is right ({len(lead)} cards); suit and shape obligations "
                             f"need the hand of seat {last.seat}")
    return out["legal"]


def rule_trick(ruleset, level, trump, plays, hands: dict | None = None) -> dict:
    """Rule on the last play of ``plays`` (lead first).  ``hands``: ``{seat: cards held before the trick}``.

    ``level`` is a rank number or text (``"10"``, ``"J"``); ``trump`` a suit letter, ``"NT"`` or None.
    """
    if isinstance(level, str):
        level = level_from_text(level)
    order = TrumpOrder.of(ruleset, level, trump)
    plays = [_as_play(p) for p in plays]
    if not plays:
        raise ValueError("a trick has at least one play")
    last = plays[-1]
    hands = hands or {}
    units = decompose(last.cards, order)
    out: dict = {"legal": True, "rule": "", "reason": "", "units": [u.as_json() for u in units]}
    unchecked: list = []
    counted = list(plays)          # the plays that stand for the winner and the points

    hand = hands.get(last.seat)
    if hand is not None:
        missing = missing_from_hand(last.cards, hand)
        if missing:
            _illegal(out, "hand", f"seat {last.seat} does not hold {' '.join(map(str, missing))}")
    else:
        unchecked.append(f"the hand of seat {last.seat}")
    if len(plays) == 1:
        counted = _rule_lead(out, unchecked, ruleset, order, last, units, hands) or counted
    elif not _rule_follow(out, order, plays, hand):
        counted = plays[:-1]

    shape = TrickShape(counted[0].cards, order)
    idx = winning_index([p.cards for p in counted], order, shape)
    out["winner"] = counted[idx].seat
    out["points"] = trick_points(counted)
    if unchecked:
        out["unchecked"] = unchecked
    return out
