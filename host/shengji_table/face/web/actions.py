"""The referee's actions: a JSON body checked field by field, then one call on the service.

==============  ================================================  ===================================
action          body                                              becomes
==============  ================================================  ===================================
``undo``        ``{"reason": "…"}``                               ``referee_undo`` (ruleset option
                                                                  ``referee_undo``, R-10.4)
``penalty``     ``{"at_fault": seat, "points": n, "reason": …}``  ``referee_penalty`` (R-10.1)
``end-hand``    ``{"at_fault": seat, "rule": "R-10.2"|"R-10.3",   ``referee_end_hand``
                "reason": "…"}``
``adjust``      ``{"attackers_points": n, "reason": "…"}``        ``referee_adjust`` (R-10.5)
``reverse``     ``{"ruling": n, "reason": "…"}``                  ``referee_reverse``: the hand's
                                                                  ruling ``n`` reversed (R-10)
``pause``       ``{"reason": "…"}``                               the service stops taking taps
``resume``      ``{}``                                            it takes them again
==============  ================================================  ===================================

A body that is not an object, a missing or mistyped field, a field no action has, or an unknown
action is an :class:`ActionError` (HTTP 400): nothing is sent to the game.
"""
from __future__ import annotations

from collections.abc import Callable

from ...game import events as ev

__all__ = ["ActionError", "parse_action", "ACTIONS"]

MAX_REASON = 300

# action -> {field: (type, required)}
ACTIONS: dict = {
    "undo": {"reason": (str, True)},
    "penalty": {"at_fault": (int, True), "points": (int, True), "reason": (str, True)},
    "end-hand": {"at_fault": (int, True), "rule": (str, True), "reason": (str, True)},
    "adjust": {"attackers_points": (int, True), "reason": (str, True)},
    "reverse": {"ruling": (int, True), "reason": (str, True)},
    "pause": {"reason": (str, True)},
    "resume": {"reason": (str, False)},
}


class ActionError(ValueError):
    """A malformed action (HTTP 400)."""


def _fields(action: str, body) -> dict:
    spec = ACTIONS.get(action)
    if spec is None:
        raise ActionError(f"unknown action {action!r}: the actions are {', '.join(ACTIONS)}")
    if not isinstance(body, dict):
        raise ActionError(f"the body of {action} is a JSON object, not {type(body).__name__}")
    extra = sorted(set(body) - set(spec))
    if extra:
        raise ActionError(f"{action} takes {', '.join(spec) or 'no fields'}, not {', '.join(extra)}")
    out = {}
    for name, (typ, required) in spec.items():
        if name not in body:
            if required:
                raise ActionError(f"{action} needs {name!r}")
            continue
        value = body[name]
        if not isinstance(value, typ) or isinstance(value, bool):
            raise ActionError(f"{action}: {name!r} is a{'n integer' if typ is int else ' string'}, not {value!r}")
        if typ is str:
            value = value.strip()
            if required and not value:
                raise ActionError(f"{action}: {name!r} may not be empty")
            if len(value) > MAX_REASON:
                raise ActionError(f"{action}: {name!r} is longer than {MAX_REASON} characters")
        out[name] = value
    return out


def parse_action(action: str, body, service) -> Callable:
    """``call(by) -> Outcome`` for a well-formed action; :class:`ActionError` otherwise."""
    f = _fields(action, body)
    if action == "undo":
        return lambda by: service.referee(ev.RefereeUndo(reason=f["reason"]), by=by)
    if action == "reverse":
        return lambda by: service.referee(ev.RefereeReverse(f["ruling"], f["reason"]), by=by)
    if action == "penalty":
        return lambda by: service.referee(ev.RefereePenalty(f["at_fault"], f["points"], f["reason"]), by=by)
    if action == "end-hand":
        if f["rule"] not in ("R-10.2", "R-10.3"):
            raise ActionError("end-hand: 'rule' is R-10.2 (revoke) or R-10.3 (wrong count)")
        return lambda by: service.referee(ev.RefereeEndHand(f["at_fault"], f["rule"], f["reason"]), by=by)
    if action == "adjust":
        return lambda by: service.referee(ev.RefereeAdjust(f["attackers_points"], f["reason"]), by=by)
    if action == "pause":
        return lambda by: service.pause(f["reason"], by=by)
    return lambda by: service.resume(by=by)
