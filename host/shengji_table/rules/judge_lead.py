"""The judge on who leads (R-5.4, R-5.5) and where the level card comes from (R-2.6).

* :func:`match_level` — a situation's level card from the match: the dealer's level in ``levels``
  (R-2.6, 當前莊家的級別就是級牌), every seat at the start level in the first hand (從打2開始); a
  ``level`` given as well must agree, else the situation is refused.
* :func:`check_lead` — a trick situation with ``first_trick`` and ``dealer`` (the dealer leads,
  R-5.5) or ``previous`` (the previous trick's winner leads, R-5.4): a lead by another seat is
  refused.
* :func:`judge_lead`, :func:`judge_level` — the ``lead`` and ``level`` queries (``docs/judge.md``).
"""
from __future__ import annotations

from collections.abc import Mapping

from .cards import level_text
from .judge_read import SituationError, read_int, read_level, read_match_level, read_seat
from .ruleset import Ruleset
from .settle import JOKER_LEVEL

__all__ = ["match_level", "check_lead", "judge_lead", "judge_level", "LEAD_KEYS", "LEVEL_KEYS",
           "read_levels"]

FIRST_LEAD_RULE, NEXT_LEAD_RULE, LEVEL_RULE = "R-5.5", "R-5.4", "R-2.6"

# the trick query's keys that ask about the lead or derive the level (looked at only when present)
LEAD_KEYS = frozenset(("dealer", "first_trick", "previous", "levels"))
LEVEL_KEYS = ("levels", "dealer", "hand", "level")


def _name(level: int) -> str:
    return "the jokers' level" if level == JOKER_LEVEL else level_text(level)


def read_levels(sit: Mapping, ruleset: Ruleset) -> list:
    """``levels``: one per seat, or with fixed sides ``{"declarers": L, "attackers": L}`` (the
    dealer's side first: only the declarers' level names the level card)."""
    raw = sit["levels"]
    n = ruleset.players
    if isinstance(raw, Mapping):
        if ruleset.teams != "fixed" or set(raw) != {"declarers", "attackers"}:
            raise SituationError("'levels' by side is {\"declarers\": L, \"attackers\": L} (fixed sides only; "
                                 "otherwise a list, one level per seat)")
        dec = read_match_level(raw["declarers"], "levels.declarers", ruleset)
        att = read_match_level(raw["attackers"], "levels.attackers", ruleset)
        dealer = read_seat(sit["dealer"], "'dealer'", ruleset) if "dealer" in sit else 0
        return [dec if (s - dealer) % 2 == 0 else att for s in range(n)]
    if not isinstance(raw, list) or len(raw) != n:
        raise SituationError(f"'levels' is a list of {n} levels, one per seat (e.g. [\"5\", \"A\", …]), "
                             "or with fixed sides {\"declarers\": L, \"attackers\": L}")
    return [read_match_level(v, f"levels[{i}]", ruleset) for i, v in enumerate(raw)]


def match_level(sit: Mapping, ruleset: Ruleset) -> tuple | None:
    """``(level, reason)`` of the level card the match gives (R-2.6), or None when the situation
    gives neither ``levels`` nor a first ``hand``.  The first hand is played at the start level
    (2 unless the house option ``start_level`` says otherwise); later, the dealer's level is the
    level card.  A ``level`` given too must be that level; every contradiction is refused."""
    number = read_int(sit, "hand", required=False) if "hand" in sit else None
    if number is not None and number < 1:
        raise SituationError(f"'hand' is the hand's number in the match, from 1, not {number}")
    start = ruleset.start_level
    source = "從打2開始" if start == 2 else "the house option start_level"
    first = (start, f"in the first hand every seat is at {level_text(start)}, where the match starts ({source})")
    if "levels" in sit:
        levels = read_levels(sit, ruleset)
        if number == 1:
            off = [s for s, v in enumerate(levels) if v != start]
            if off:
                raise SituationError(f"levels[{off[0]}] is {_name(levels[off[0]])}, but {first[1]} ({LEVEL_RULE})")
        if "dealer" not in sit:
            if number != 1:
                raise SituationError("'levels' needs 'dealer': the dealer's level is the level card (R-2.6)")
            found = first
        else:
            dealer = read_seat(sit["dealer"], "'dealer'", ruleset)
            found = (levels[dealer], f"the dealer, seat {dealer}, is at {_name(levels[dealer])}, and the dealer's "
                                     "level is the level card (當前莊家的級別就是級牌)")
    elif number == 1:
        found = first
    else:
        return None
    if "level" in sit:
        given = read_level(sit)
        if given != found[0]:
            raise SituationError(f"'level' is {level_text(given)}, but {found[1]}: the level card is "
                                 f"{_name(found[0])} ({LEVEL_RULE})")
    return found[0], found[1][0].upper() + found[1][1:] + "."


def level_card(sit: Mapping, ruleset: Ruleset, *, required: bool = True, default: int = 2) -> int:
    """The level a query plays: from the match (:func:`match_level`) when it gives ``levels`` or a
    first ``hand``, else ``level`` as before.  A jokers' level has no level card to play with."""
    found = match_level(sit, ruleset)
    if found is None:
        return read_level(sit, required=required, default=default)
    if found[0] == JOKER_LEVEL:
        raise SituationError("the dealer is at the jokers' level, played without a level card; give the "
                             "situation's 'level' and 'trump' as played")
    return found[0]


def check_lead(sit: Mapping, ruleset: Ruleset, leader: int, previous_winner) -> dict | None:
    """Who must lead this trick, when the situation tells: ``{"seat", "rule", "reason"}``, or None.
    ``previous_winner()`` rules the ``previous`` trick and returns its winner.  A lead by another
    seat is refused (:class:`SituationError`)."""
    first = sit.get("first_trick", False)
    if not isinstance(first, bool):
        raise SituationError(f"'first_trick' is true or false, not {first!r}")
    if first and "previous" in sit:
        raise SituationError("'first_trick' and 'previous' do not go together: the first trick has none before it")
    if first:
        if "dealer" not in sit:
            raise SituationError("'first_trick' needs 'dealer': the dealer leads the first trick (R-5.5)")
        seat = read_seat(sit["dealer"], "'dealer'", ruleset)
        rule, why = FIRST_LEAD_RULE, f"the dealer, seat {seat}, leads the first trick of the hand."
        wrong = f"seat {leader} leads the first trick, but the dealer, seat {seat}, leads it ({rule})"
    elif "previous" in sit:
        seat = previous_winner()
        rule, why = NEXT_LEAD_RULE, f"seat {seat} won the previous trick and leads this one."
        wrong = f"seat {leader} leads, but seat {seat} won the previous trick and leads this one ({rule})"
    elif "dealer" in sit and "levels" not in sit:
        raise SituationError("'dealer' in a trick goes with 'first_trick' (who leads, R-5.5) or 'levels' "
                             "(the level card, R-2.6)")
    else:
        return None
    if leader != seat:
        raise SituationError(f"trick[0]: {wrong}")
    return {"seat": seat, "rule": rule, "reason": why}


def judge_lead(sit: Mapping, ruleset: Ruleset, rule_previous) -> dict:
    """Who leads: with ``previous`` (the previous trick's plays, lead first) its winner (R-5.4);
    else, the first trick of a hand, the ``dealer`` (R-5.5).  ``rule_previous(sit)`` rules the
    previous trick as the trick query does and returns that ruling."""
    if "previous" in sit:
        if "dealer" in sit and "levels" not in sit:
            raise SituationError("'dealer' goes with 'levels' here (the level card, R-2.6); the previous "
                                 "trick's winner leads the next one (R-5.4)")
        ruling = rule_previous(sit)
        seat = ruling["winner"]
        out = {"leader": seat, "rule": NEXT_LEAD_RULE,
               "reason": f"seat {seat} won the previous trick ({ruling['points']} points) and leads the next one.",
               "previous": {"winner": seat, "points": ruling["points"]}}
        if "unchecked" in ruling or any("unchecked" in p for p in ruling["plays"]):
            out["unchecked"] = ["the hands of the previous trick: its winner counts every play as standing"]
        return out
    if "dealer" not in sit:
        raise SituationError("give 'dealer' (who leads the first trick, R-5.5) or 'previous' (the previous "
                             "trick's plays, lead first: its winner leads, R-5.4)")
    for key in ("level", "trump", "hands", "levels"):
        if key in sit:
            raise SituationError(f"'{key}' is for ruling a 'previous' trick; the first trick's leader is the dealer")
    seat = read_seat(sit["dealer"], "'dealer'", ruleset)
    return {"leader": seat, "rule": FIRST_LEAD_RULE,
            "reason": f"the dealer, seat {seat}, leads the first trick of the hand (莊家具有第一輪的出牌權)."}


def judge_level(sit: Mapping, ruleset: Ruleset) -> dict:
    """The level card of a hand from the match (R-2.6)."""
    found = match_level(sit, ruleset)
    if found is None:
        raise SituationError("give 'levels' (one per seat) and 'dealer' — the dealer's level is the level "
                             "card — or \"hand\": 1 (the match starts at the start level, 2) (R-2.6)")
    level, why = found
    out = {"level": "jokers" if level == JOKER_LEVEL else level_text(level), "rule": LEVEL_RULE, "reason": why}
    if "dealer" in sit:
        out["dealer"] = read_seat(sit["dealer"], "'dealer'", ruleset)
    return out
