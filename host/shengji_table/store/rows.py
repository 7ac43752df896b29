"""The rows of the event log: their kinds, their canonical form, the hash chain that links them
and the format row that names a log (``log.py`` writes and reads them; the club checks them).
"""
from __future__ import annotations

import enum
import hashlib
import json
from dataclasses import dataclass
from typing import Any

__all__ = ["RowKind", "KINDS", "Entry", "canonical", "GENESIS", "FORMAT", "FORMAT_MATCH", "format_of", "identity",
           "row_hash", "Verification"]


class RowKind(enum.StrEnum):
    """What a row of the log holds; the club's wire carries the same kinds (``club/wire.py``)."""

    META = "meta"             # the match's description, the link's news, the controller's state, the referee's acts
    PHYSICAL = "physical"     # a frame from the Pico: a tap, a button
    GAME = "game"             # a game event the rules accepted
    RULING = "ruling"         # a refusal or the play clock, with its rule and reason
    EFFECT = "effect"         # what the table showed: an announcement, a ring


KINDS = tuple(RowKind)


@dataclass(frozen=True)
class Entry:
    id: int
    match: str
    kind: str
    payload: Any
    at: float
    boot: int | None = None
    seq: int | None = None


def canonical(payload) -> str:
    return json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


GENESIS = "0" * 64          # the "previous hash" of the first row
FORMAT = 2                  # the log format this build writes: a format row first, every row chained
FORMAT_MATCH = "(log)"      # the format row's match name: no table's match (matches() leaves it out)


def format_of(kind, match, payload_text) -> dict | None:
    """``{"format": n, "id": "…"}`` when a row is a log's format row, else None."""
    if kind != "meta" or match != FORMAT_MATCH:
        return None
    try:
        info = json.loads(payload_text).get("log")
    except (ValueError, AttributeError):
        return None
    if (isinstance(info, dict) and isinstance(info.get("format"), int) and isinstance(info.get("id"), str)
            and 8 <= len(info["id"]) <= 64):
        return info
    return None


def identity(first_row) -> tuple[int, str | None]:
    """``(format, log id)`` from a log's row 1 ``(kind, match, payload text, hash)`` (None: an empty
    log).  Format 2: the id its format row names; format 1 (chained, before the format row): the
    first 32 hex digits of row 1's hash, unique to that log; format 0: unchained, no identity."""
    if first_row is None:
        return FORMAT, None
    kind, match, text, digest = first_row
    info = format_of(kind, match, text)
    if info is not None:
        return info["format"], info["id"]
    return (1, digest[:32]) if digest else (0, None)


def row_hash(previous: str, id: int, match: str, kind: str, boot, seq, payload_text: str, at: float) -> str:
    """The chained hash of one row: SHA-256 (hex) of the previous row's hash and the row's fields
    as one canonical JSON array (the payload as stored, the time as its exact float)."""
    body = json.dumps([previous, id, match, kind, boot, seq, payload_text, at], ensure_ascii=False,
                      separators=(",", ":"))
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Verification:
    """What :meth:`EventLog.verify` found: ``ok``, the rows checked, the head hash, and the first
    row that breaks the chain (``bad_id``, with ``reason``)."""
    ok: bool
    rows: int
    head: str
    bad_id: int | None = None
    reason: str = ""
    unchained: bool = False       # rows written by a build before the chain: nothing to check them by
