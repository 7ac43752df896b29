"""The judge on levels after a hand: passing leftover levels on and refusing them (级数不浪费), and
each seat's level after a dug kitty's drop (陪降) — seed 000 變異打法, ``docs/judge.md``.

* :func:`judge_transfers` — a ``match`` situation's ``transfers``: each pass (``check_transfer``) and
  refusal (``check_refusal``) ruled in order over the window the hand's settlement opens, as the
  match applies them.
* :func:`settle_levels` — a ``settle`` situation's ``levels``: every seat's level after the
  settlement (R-8.4) and, find a friend, after the drop of a kitty dug at J or A (:func:`.transfer.knock_on`),
  with ``drop_to``, the attackers the giver names for what is left, ruled and applied.
"""
from __future__ import annotations

from dataclasses import replace
from collections.abc import Mapping

from .cards import level_text
from .judge_lead import read_levels
from .judge_read import SituationError, read_int, read_object, read_seat
from .levels import LevelStep, apply_settlement
from .ruleset import Ruleset
from .settle import JOKER_LEVEL, dig_drop
from .transfer import (TRANSFER_RULE, KnockOn, LevelGift, TransferWindow, check_refusal, check_transfer,
                       digger_drops, knock_on, levels_in_words)
from .units import decompose

__all__ = ["judge_transfers", "settle_levels"]


def _out(level: int) -> str:
    return "jokers" if level == JOKER_LEVEL else level_text(level)


def _targets(raw, where: str, ruleset: Ruleset) -> tuple:
    """``[{"seat": t, "levels": k}, …]`` → ``((t, k), …)``; the seats and numbers checked here, the
    rules (how many, to whom) by ``check_transfer``."""
    if not isinstance(raw, list) or not raw:
        raise SituationError(f"{where} is a non-empty list of {{\"seat\": n, \"levels\": k}}")
    out = []
    for i, t in enumerate(raw):
        d = read_object(t, f"{where}[{i}]")
        if set(d) != {"seat", "levels"}:
            raise SituationError(f"{where}[{i}] is {{\"seat\": n, \"levels\": k}}")
        out.append((read_seat(d["seat"], f"{where}[{i}].seat", ruleset), read_int(d, "levels")))
    return tuple(out)


def _verdict(seat: int, verdict) -> dict:
    return {"seat": seat, "valid": bool(verdict), "rule": verdict.rule, "reason": verdict.reason}


def _give(ruleset: Ruleset, window: TransferWindow, giver: int, to: tuple, up: bool) -> TransferWindow:
    """``window`` with the gifts of one pass recorded and each target's level recomputed."""
    for t, k in to:
        lv = window.level_of(t)
        window = replace(window, gifts=window.gifts + (LevelGift(giver, t, k, up, lv, lv),)).replayed(ruleset, t)
    return window


def _moved(before: TransferWindow, after: TransferWindow, seats) -> dict:
    return {str(t): {"from": _out(before.level_of(t)), "to": _out(after.level_of(t))} for t in seats}


def judge_transfers(sit: Mapping, ruleset: Ruleset, step: LevelStep, declarers, attackers, winners) -> dict:
    """``transfers``: ``{"seat": s, "to": [{"seat": t, "levels": k}, …]}`` (s passes leftover levels:
    team-mates up or opponents down) and ``{"seat": s, "refuses": g}`` (s refuses g's levels: only the
    winning side may), in order.  A refused action changes nothing."""
    raw = sit["transfers"]
    if not isinstance(raw, list):
        raise SituationError("'transfers' is a list, in order, of {\"seat\": s, \"to\": [{\"seat\": t, \"levels\": k}]}"
                             " (a pass) and {\"seat\": s, \"refuses\": g} (a refusal)")
    window = TransferWindow(tuple(declarers), tuple(attackers), tuple(winners), tuple(step.levels))
    leftovers = dict(step.leftovers)
    results = []
    for i, act in enumerate(raw):
        d = read_object(act, f"transfers[{i}]")
        if set(d) not in ({"seat", "to"}, {"seat", "refuses"}):
            raise SituationError(f"transfers[{i}] is {{\"seat\": s, \"to\": [{{\"seat\": t, \"levels\": k}}]}} "
                                 "or {\"seat\": s, \"refuses\": g}")
        seat = read_seat(d["seat"], f"transfers[{i}].seat", ruleset)
        if "to" in d:
            to = _targets(d["to"], f"transfers[{i}].to", ruleset)
            verdict = check_transfer(ruleset, window, seat, to, leftovers=leftovers)
            entry = {**_verdict(seat, verdict), "kind": "pass"}
            if verdict:
                leftovers[seat] -= sum(k for _, k in to)
                before = window
                window = _give(ruleset, window, seat, to, to[0][0] in window.team_of(seat))
                entry["levels"] = _moved(before, window, [t for t, _ in to])
            results.append(entry)
            continue
        giver = read_seat(d["refuses"], f"transfers[{i}].refuses", ruleset)
        verdict = check_refusal(window, seat, giver)
        entry = {**_verdict(seat, verdict), "kind": "refuse"}
        if verdict:
            gift = window.standing_gift(giver, seat)
            assert gift is not None                   # check_refusal refuses otherwise
            leftovers[giver] = leftovers.get(giver, 0) + gift.levels     # not wasted: the giver may name another
            before = window
            window = window.refusing(gift).replayed(ruleset, seat)
            entry["levels"] = _moved(before, window, [seat])
        results.append(entry)
    return {"results": results, "levels_after": [_out(window.level_of(s)) for s in range(ruleset.players)],
            "leftovers": {str(k): v for k, v in sorted(leftovers.items()) if v}, "rule": TRANSFER_RULE}


def settle_levels(sit: Mapping, ruleset: Ruleset, s, declarers, attackers, last, level: int, total: int,
                  order) -> dict:
    """``levels`` (each seat's level before the hand) → each seat's level after the settlement
    (R-8.4), then after a dug kitty's drop (陪降) and the ``drop_to`` naming."""
    if "levels" not in sit:
        raise SituationError("'drop_to' goes with 'levels': each seat's level before the hand")
    levels = read_levels(sit, ruleset)
    try:
        step = apply_settlement(ruleset, levels, s, declarers, attackers,
                                last_trick_seat=last[0] if last else None)
    except ValueError as exc:
        raise SituationError(str(exc)) from None
    out: dict = {
        "levels_before": [_out(v) for v in levels],
        "changes": {str(seat): {"from": _out(a), "to": _out(b), "steps": k, "reason": why}
                    for seat, (a, b, k, why) in sorted(step.changes.items())},
    }
    if step.leftovers:
        out["leftovers"] = {str(k): v for k, v in sorted(step.leftovers.items())}
    after = step.levels
    drop = None
    if ruleset.teams == "find-friend" and last is not None and last[0] in attackers:
        drop = dig_drop(ruleset, level, total, decompose(last[1], order), has_friend=len(declarers) > 1)
    if drop is None:
        if "drop_to" in sit:
            raise SituationError("'drop_to' names attackers to drop with the declarers after a kitty dug at J or "
                                 "A (陪降); in this hand nothing is left to drop")
    else:
        k = knock_on(after, drop, declarers, last[0], at_j=level == 11)
        named = None
        if "drop_to" in sit:
            k, named = _name_drop(sit, ruleset, k, attackers)
        out["dig_levels"] = _dig_out(k, drop)
        if named is not None:
            out["dig_levels"]["drop_to"] = named
        after = k.levels
    out["levels_after"] = [_out(v) for v in after]
    return out


def _dig_out(k: KnockOn, drop) -> dict:
    dig = k.dig
    out: dict = {"drops": {str(seat): {"from": _out(a), "to": _out(b)} for seat, (a, b) in sorted(k.changes.items())},
                 "rule": drop.rule,
                 "reason": "the dealer drops first; what would take the dealer below 2 the first friend drops "
                           "(由朋友陪降); no level goes below 2."}
    if dig.digger in k.changes and dig.at_j:
        out["digger"] = {"seat": dig.digger, "reason": f"every other attacker is at 2: seat {dig.digger}, who dug "
                                                       "the kitty, drops the rest (直至降到2為止)."}
    if k.rest:
        who = "an attacker other than the digger" if dig.at_j else "any attacker"
        out["rest"] = {"levels": k.rest, "named_by": dig.giver,
                       "reason": f"seat {dig.giver} names {who} to drop the {levels_in_words(k.rest)} left (陪降)."}
    return out


def _name_drop(sit: Mapping, ruleset: Ruleset, k: KnockOn, attackers) -> tuple:
    """The giver's naming in ``drop_to``, ruled (``check_transfer`` with the dug kitty) and applied."""
    to = _targets(sit["drop_to"], "drop_to", ruleset)
    dig = k.dig
    if not k.rest:
        return k, {"seat": dig.giver, "valid": False, "rule": TRANSFER_RULE,
                   "reason": "nothing is left to drop: the declarers dropped it all (or the digger did)."}
    window = TransferWindow(dig.declarers, tuple(attackers), tuple(attackers), k.levels)
    verdict = check_transfer(ruleset, window, dig.giver, to, leftovers={dig.giver: k.rest}, dig=dig)
    if not verdict:
        return k, _verdict(dig.giver, verdict)
    after = list(k.levels)
    changes = dict(k.changes)
    for t, n in to:
        changes[t] = (changes.get(t, (after[t],))[0], after[t] - n)
        after[t] -= n
    k = digger_drops(KnockOn(tuple(after), changes, k.rest - sum(n for _, n in to), dig))
    return k, {**_verdict(dig.giver, verdict), "reason": f"seat {dig.giver} names "
               + ", ".join(f"seat {t} to drop {levels_in_words(n)}" for t, n in to) + " (陪降)."}
