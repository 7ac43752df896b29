"""The judge's ruling on a trick: is every play legal, who wins, how many points (docs/judge.md).

:func:`rule_trick` returns the ruling as plain JSON-ready data::

    {"legal": true, "rule": "R-4.5", "reason": "…", "units": [{"kind", "width", "length", "cards"}],
     "throw": {"ok": …, "forced": […], "beaten_by": {"seat", "cards"} | null},   # multi-unit leads
     "plays": [{"seat", "legal", "rule", "reason", "unchecked"?}, …],           # every play, in order
     "winner": 2, "points": 25, "unchecked": ["…"]}                              # when hands are missing

The top-level ``legal``, ``rule``, ``reason``, ``units`` and ``unchecked`` are those of the last
play (``plays[-1]``); ``plays`` rules on each play in playing order.  A lead is checked for one
suit (R-4.1) and, when it is a throw, against the other hands (R-4.2, R-4.3); a failed throw
stands as its forced unit, and the follows are judged against what stands.  Without ``hands`` it
rules on everything the plays decide by themselves (one suit in a lead, card counts, shapes, the
winner, points) and lists in ``unchecked`` what it could not check.  An illegal follow does not
win the trick: the winner and the points are those of the plays that stand.
"""
from __future__ import annotations

from .cards import multiset_key
from .follow import face_counts, follow_rule, follow_verdict, missing_in_counts
from .order import TrumpOrder
from .ruleset import level_from_text
from .throw import check_lead, check_throw
from .trick import Play, TrickShape, trick_points, winning_index
from .units import decompose

__all__ = ["rule_trick", "rule_counted_trick"]


def _as_play(p) -> Play:
    if isinstance(p, Play):
        return p
    seat, cards = p
    return Play(seat, tuple(cards))


def _illegal(out: dict, rule: str, reason: str) -> None:
    out["legal"], out["rule"], out["reason"] = False, rule, reason


def _unchecked(out: dict, what: str) -> None:
    out.setdefault("unchecked", []).append(what)


def _check_hand(out: dict, play: Play, counts: dict, missing: dict | None = None) -> None:
    """The play's cards are in the seat's hand (else rule 'hand'); noted when the hand is not given.
    ``counts``: :func:`.follow.face_counts` of the hands of the seats that play; ``missing``: the
    cards of each such seat's play its hand lacks, when the caller has worked them out."""
    seat = play.seat
    held = counts.get(seat)
    if held is None:
        _unchecked(out, _NO_HAND[seat] if seat < len(_NO_HAND) else f"the hand of seat {seat}")
        return
    lacking = missing[seat] if missing is not None else missing_in_counts(play.cards, held)
    if lacking:
        _illegal(out, "hand", f"seat {seat} does not hold {' '.join(map(str, lacking))}")


_NO_HAND = tuple(f"the hand of seat {seat}" for seat in range(16))


def _lead_facts(cards: tuple, order) -> tuple:
    """``(units, lead verdict, follow rule, trick shape)`` of a lead (or of what stands of it):
    worked out once per order and multiset of cards, since every follow and the winner use them."""
    key = ("lead facts", multiset_key(cards))
    facts = order.derived.get(key)
    if facts is None:
        units = decompose(cards, order)
        facts = (units, check_lead(cards, order, units),
                 follow_rule(cards, order, units) if cards else None, TrickShape(cards, order, units))
        order.memo(key, lambda: facts)
    return facts


def _rule_lead(out: dict, throw_out: dict, ruleset, order, lead: Play, units, verdict, hands: dict) -> tuple:
    """A lead: one suit (R-4.1) and, for a throw, the other hands (R-4.2, R-4.3).  Returns the cards
    that stand as the lead: the forced unit of a failed throw, else the lead itself."""
    if out["legal"]:
        out["rule"], out["reason"] = verdict.rule, verdict.reason
        if not verdict.ok:
            out["legal"] = False
    if not verdict.ok or len(units) <= 1:
        return lead.cards
    others = {s: cards for s, cards in hands.items() if s != lead.seat}
    seats_missing = [s for s in range(ruleset.players) if s != lead.seat and s not in others]
    if not others:
        throw_out.update(ok=None, forced=[], beaten_by=None)
        _unchecked(out, "the throw (the other hands are not given)")
        if out["legal"]:
            out["reason"] = f"a throw of {len(units)} units; without the other hands it cannot be checked"
        return lead.cards
    return _rule_throw(out, throw_out, order, lead, units, others, seats_missing)


def _rule_throw(out: dict, throw_out: dict, order, lead: Play, units, others: dict, seats_missing: list) -> tuple:
    """A throw checked against the other hands given (R-4.2, R-4.3); returns the cards that stand."""
    tc = _throw_check(lead, others, order, units)
    throw_out.update(ok=tc.ok, forced=[c.text for c in tc.forced],
                     beaten_by=None if tc.beaten_by is None else
                     {"seat": tc.beaten_by[0], "cards": [c.text for c in tc.beaten_by[1]]})
    if not tc.ok:
        if out["legal"]:
            _illegal(out, tc.rule, tc.reason)
        return tc.forced or lead.cards
    if seats_missing:
        throw_out["ok"] = None
        _unchecked(out, "the throw against seat(s) " + ", ".join(map(str, seats_missing)))
        if out["legal"]:
            out["reason"] = "nobody among the given hands can beat the throw; the others were not given"
    elif out["legal"]:
        out["rule"], out["reason"] = tc.rule, tc.reason
    return lead.cards


def _throw_check(lead: Play, others: dict, order, units: tuple):
    """``check_throw`` of a lead of one suit, remembered per order for the same lead and the same
    cards of its suit in the other hands (all it depends on): a referee asks about a trick again
    as it grows, play by play, against the same hands."""
    suit, suit_of = units[0].suit, order.face_suit
    held = {s: tuple([c for c in cards if suit_of[c.index] == suit]) for s, cards in others.items()}
    key = ("throw", lead.seat, tuple([c.index for c in lead.cards]),
           tuple([(s, tuple([c.index for c in cards])) for s, cards in held.items()]))
    tc = order.derived.get(key)
    if tc is None:
        tc = order.memo(key, lambda: check_throw(lead.cards, held, order, leader=lead.seat, units=units))
    return tc


def _count_reason(lead: tuple, played: int, thrown: int) -> str:
    """Why a follow of ``played`` cards has the wrong count; ``thrown``: the cards of a failed
    throw's attempt, when only its forced part ``lead`` stands (R-4.3)."""
    n = len(lead)
    need = f"{n} card" if n == 1 else f"{n} cards"
    if thrown:
        return (f"the throw of {thrown} cards failed and only {' '.join(map(str, lead))} stands as the lead, "
                f"so play exactly {need}, not {played}")
    return f"{need} {'was' if n == 1 else 'were'} led, so play exactly {n}, not {played}"


def _rule_follow(out: dict, order, lead: tuple, play: Play, hand, rule, counts, thrown: int = 0) -> None:
    """A follow: the lead's count (R-4.4) and, with the hand, suit and shape (R-4.4–4.7).
    ``thrown``: the cards the leader tried to throw when ``lead`` is a failed throw's forced part."""
    if len(play.cards) != len(lead):
        if out["legal"]:
            _illegal(out, "R-4.4", _count_reason(lead, len(play.cards), thrown))
    elif out["legal"]:
        if hand is not None:
            # the count is right and _check_hand found the cards in the hand
            v = follow_verdict(play.cards, counts, order, rule)
            out["legal"], out["rule"], out["reason"] = v.ok, v.rule, v.reason
        else:
            out["rule"] = "R-4.4"
            out["reason"] = (f"the count is right ({len(lead)} cards); suit and shape obligations "
                             f"need the hand of seat {play.seat}")


def rule_trick(ruleset, level, trump, plays, hands: dict | None = None) -> dict:
    """Rule on every play of ``plays`` (lead first).  ``hands``: ``{seat: cards held before the trick}``.

    ``level`` is a rank number or text (``"10"``, ``"J"``); ``trump`` a suit letter, ``"NT"`` or None.
    """
    if isinstance(level, str):
        level = level_from_text(level)
    order = TrumpOrder.of(ruleset, level, trump)
    plays = [_as_play(p) for p in plays]
    if not plays:
        raise ValueError("a trick has at least one play")
    hands = hands or {}
    counts = {p.seat: face_counts(hands[p.seat]) for p in plays if p.seat in hands}
    return rule_counted_trick(ruleset, order, plays, hands, counts)


def rule_counted_trick(ruleset, order, plays: list, hands: dict, counts: dict, missing: dict | None = None) -> dict:
    """:func:`rule_trick` for a caller that has the order, the :class:`Play` values and the
    :func:`.follow.face_counts` of the hands of the seats that play (the judge counts them once);
    ``missing``: ``{seat: the cards of its play its hand lacks}`` for those seats, if known."""
    lead = plays[0]
    entry: dict = {"seat": lead.seat, "legal": True, "rule": "", "reason": ""}
    _check_hand(entry, lead, counts, missing)
    throw: dict = {}
    lead_units, verdict, rule, shape = _lead_facts(lead.cards, order)
    standing = _rule_lead(entry, throw, ruleset, order, lead, lead_units, verdict, hands)
    entries = [entry]
    counted = [standing]            # the plays that stand, for the winner and the points
    seats = [lead.seat]
    thrown = 0
    if standing is not lead.cards:
        _units, _verdict, rule, shape = _lead_facts(standing, order)
        thrown = len(lead.cards)
    for play in plays[1:]:
        entry = {"seat": play.seat, "legal": True, "rule": "", "reason": ""}
        _check_hand(entry, play, counts, missing)
        _rule_follow(entry, order, standing, play, hands.get(play.seat), rule, counts.get(play.seat), thrown)
        entries.append(entry)
        if entry["legal"]:
            counted.append(play.cards)
            seats.append(play.seat)
    last = entries[-1]
    units = lead_units if len(plays) == 1 else decompose(plays[-1].cards, order)
    out: dict = {"legal": last["legal"], "rule": last["rule"], "reason": last["reason"],
                 "units": [u.as_json() for u in units]}
    if throw:
        out["throw"] = throw
    out["plays"] = entries
    out["winner"] = seats[winning_index(counted, order, shape)] if len(counted) > 1 else seats[0]
    out["points"] = trick_points(counted)
    if "unchecked" in last:
        out["unchecked"] = list(last["unchecked"])
    return out
