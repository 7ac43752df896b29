"""The JSON match record: the ruleset, the mode and every event in order — and nothing that is not
derived from them except a summary that replay recomputes and checks.

    {
      "format": "shengji-table/match-record",
      "version": 1,
      "ruleset": {... Ruleset.to_json() ...},
      "mode": "scanned",
      "seats": ["bot:random", ...],          # who sat where (free text)
      "events": [{"type": "deal", "seed": 7, "order": null}, {"type": "draw", ...}, ...],
      "summary": {"hands": [...], "levels": [...], "over": false, "winners": []},
      "start": {"levels": [5, 5, 5, 5], "dealer": 2}   # only for a match begun elsewhere than R-6.6
    }

:func:`replay` rebuilds the match from the events; :func:`to_record` of the replayed match gives the
same record, and :func:`dumps` writes it in one canonical text, so a record survives a round trip
bit for bit.  A record that is not valid raises :class:`RecordError` saying what is wrong.
"""
from __future__ import annotations

import json
from typing import Any
from collections.abc import Mapping

from ..rules.ruleset import Ruleset, RulesetError
from .effects import Refusal
from .events import EventError, event_from_json
from .match import Match

__all__ = ["RecordError", "to_record", "from_record", "replay", "dumps", "loads", "FORMAT", "VERSION"]

FORMAT = "shengji-table/match-record"
VERSION = 1


class RecordError(ValueError):
    """A match record that cannot be read or does not replay."""


def to_record(match: Match, seats=None) -> dict:
    """The record of ``match``: ruleset, mode, seats, every accepted event, summary; and ``start``
    (the levels and dealer) for a match that did not begin at R-6.6's first hand (a duplicate board)."""
    record = {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": match.ruleset.to_json(),
        "mode": match.mode,
        "seats": list(seats) if seats is not None else [f"seat {i}" for i in range(match.players)],
        "events": [e.to_json() for e in match.events],
        "summary": _summary(match),
    }
    if match.start is not None:
        record["start"] = dict(match.start)
    return record


def _summary(match: Match) -> dict:
    return {"hands": [dict(s) for s in match.summaries], "levels": list(match.levels),
            "over": match.over, "winners": list(match.winners)}


def from_record(data: Any):
    """``(match, seats)`` rebuilt from a record (a dict); :class:`RecordError` when it is not valid."""
    if not isinstance(data, Mapping):
        raise RecordError(f"a match record is a JSON object, not {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a match record: 'format' must be {FORMAT!r}")
    if data.get("version") != VERSION:
        raise RecordError(f"unsupported record version {data.get('version')!r} (this build reads {VERSION})")
    try:
        ruleset = Ruleset.from_json(data.get("ruleset"))
    except (RulesetError, TypeError) as exc:
        raise RecordError(f"bad ruleset: {exc}") from None
    mode = data.get("mode", "scanned")
    start = data.get("start", {})
    if not isinstance(start, Mapping) or not set(start) <= {"levels", "dealer"}:
        raise RecordError("'start' is an object with 'levels' and 'dealer'")
    try:
        match = Match(ruleset, mode, levels=start.get("levels"), dealer=start.get("dealer"))
    except (ValueError, TypeError) as exc:
        raise RecordError(f"bad start: {exc}" if start else str(exc)) from None
    events = data.get("events")
    if not isinstance(events, list):
        raise RecordError("'events' must be a list of events")
    for i, raw in enumerate(events):
        try:
            event = event_from_json(raw)
        except EventError as exc:
            raise RecordError(f"event {i}: {exc}") from None
        effects = match.apply(event)
        if effects and isinstance(effects[0], Refusal):
            r = effects[0]
            raise RecordError(f"event {i} ({event.type}) does not replay: refused, {r.rule}: {r.reason}")
    seats = data.get("seats") or [f"seat {i}" for i in range(match.players)]
    summary = data.get("summary")
    if summary is not None and summary != json.loads(json.dumps(_summary(match))):
        raise RecordError("the record's summary does not match its events (edited or from another build)")
    return match, seats


def replay(data: Any) -> Match:
    """The match a record describes (its events applied in order)."""
    return from_record(data)[0]


def dumps(record: Mapping) -> str:
    """The canonical text of a record (sorted keys, one event per line)."""
    head = {k: v for k, v in record.items() if k != "events"}
    events = ",\n    ".join(json.dumps(e, sort_keys=True, ensure_ascii=False) for e in record["events"])
    text = json.dumps(head, sort_keys=True, ensure_ascii=False, indent=1)
    return text[:-2] + ',\n "events": [\n    ' + events + "\n ]\n}\n"


def loads(text: str) -> dict:
    """Parse record text; :class:`RecordError` for text that is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc}") from None
