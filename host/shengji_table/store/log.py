"""The event log: an append-only SQLite file (WAL) with one row per physical event, game event,
ruling and effect, written before anything is shown to the players.

Why SQLite: it is a real, crash-safe file format that a referee can open with any tool, and WAL
with ``synchronous=FULL`` makes each committed row durable before :meth:`EventLog.append` returns.
Append-only is enforced by the database itself (triggers refuse UPDATE and DELETE), so no code
path of ours, nor a careless script, can rewrite history.

A restarted host reads the game events back (:meth:`EventLog.game_events`) and replays them to the
same state; the physical events it already handled are recognised by their link identity
(``boot``, ``seq``) through :meth:`EventLog.seen`, so a tap the Pico resends is not counted twice.
"""
from __future__ import annotations

import contextlib
import json
import pathlib
import sqlite3
import time
from dataclasses import dataclass
from typing import Any
from collections.abc import Iterator

from .. import locks

__all__ = ["EventLog", "Entry", "LogError", "KINDS"]

KINDS = ("meta", "physical", "game", "ruling", "effect")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    match   TEXT NOT NULL,
    kind    TEXT NOT NULL CHECK (kind IN ('meta','physical','game','ruling','effect')),
    boot    INTEGER,              -- link identity of a physical event: the Pico's boot id …
    seq     INTEGER,              -- … and the frame's sequence number (NULL for other kinds)
    payload TEXT NOT NULL,        -- canonical JSON
    at      REAL NOT NULL         -- wall-clock seconds, for people; replay never reads it
);
CREATE UNIQUE INDEX IF NOT EXISTS entries_link ON entries (match, boot, seq) WHERE seq IS NOT NULL;
CREATE INDEX IF NOT EXISTS entries_kind ON entries (match, kind, id);
CREATE TRIGGER IF NOT EXISTS entries_no_update BEFORE UPDATE ON entries
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS entries_no_delete BEFORE DELETE ON entries
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
"""


class LogError(RuntimeError):
    """The log file cannot be used (not SQLite, not ours, or a write was refused)."""


@dataclass(frozen=True)
class Entry:
    id: int
    match: str
    kind: str
    payload: Any
    at: float
    boot: int | None = None
    seq: int | None = None


def _canonical(payload) -> str:
    return json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


class EventLog:
    """An open log file.  ``with EventLog(path) as log: log.append("game", {...})``."""

    def __init__(self, path, *, clock=time.time, read_only: bool = False):
        """Open (and with ``read_only=False`` create) the log at ``path``.

        ``read_only=True`` is for readers (``log show``/``export``, a referee's copy): the file must
        already be a log; nothing is created or written, and a read-only file or medium works.
        """
        self.path = str(path)
        self._clock = clock
        self.read_only = read_only
        self._lock: int | None = None
        try:
            if read_only:
                self._db = self._open_existing()
            else:
                self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
                self._hold()
                tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")
                          if not r[0].startswith("sqlite_")}
                if tables and "entries" not in tables:
                    # another program's database: never add our tables to it
                    self._db.close()
                    raise LogError(f"{self.path} is an SQLite file of something else "
                                   f"(tables {', '.join(sorted(tables))}), not a shengji-table event log")
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise LogError(f"{self.path} is not a usable event log: {exc}") from exc

    def _hold(self) -> None:
        """One writer a log: an exclusive lock for as long as this log is open for writing."""
        try:
            self._lock = locks.hold(self.path)
        except locks.Busy as exc:
            self._db.close()
            raise LogError(f"the log {self.path} is in use by "
                           + (f"process {exc.pid}" if exc.pid is not None else "another program")
                           + ": one program writes a table's log at a time (stop it, or use another --log)") from None
        except OSError as exc:
            self._db.close()
            raise LogError(f"cannot open the log {self.path}: {exc.strerror}") from None

    def _open_existing(self):
        p = pathlib.Path(self.path)
        if not p.is_file():
            raise LogError(f"{self.path}: no such log file")
        db = sqlite3.connect(p.resolve().as_uri() + "?mode=ro", uri=True, isolation_level=None,
                             check_same_thread=False)
        try:
            names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.DatabaseError as exc:
            db.close()
            raise LogError(f"{self.path} is not an event log (not an SQLite file: {exc})") from None
        if "entries" not in names:
            db.close()
            raise LogError(f"{self.path} is an SQLite file but not a shengji-table event log (no 'entries' table)")
        return db

    # ---- writing ---------------------------------------------------------------------------
    def append(self, kind: str, payload, *, match: str = "default", boot: int | None = None,
               seq: int | None = None) -> int:
        """Write one row and make it durable; returns its id.

        A physical event carries its link identity (``boot``, ``seq``); appending the same identity
        twice raises :class:`LogError` — use :meth:`seen` first to skip a resent frame.
        """
        if self.read_only:
            raise LogError(f"{self.path} is open read-only")
        if kind not in KINDS:
            raise LogError(f"unknown entry kind {kind!r}; kinds are {', '.join(KINDS)}")
        try:
            cur = self._db.execute(
                "INSERT INTO entries (match, kind, boot, seq, payload, at) VALUES (?,?,?,?,?,?)",
                (match, kind, boot, seq, _canonical(payload), self._clock()))
        except sqlite3.IntegrityError as exc:
            raise LogError(f"physical event boot={boot} seq={seq} is already in the log") from exc
        return cur.lastrowid

    @contextlib.contextmanager
    def transaction(self):
        """All appends inside the ``with`` block are written together or not at all::

            with log.transaction():
                log.append("physical", tap, boot=b, seq=s)
                log.append("game", event)
        """
        if self.read_only:
            raise LogError(f"{self.path} is open read-only")
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def append_many(self, rows, *, match: str = "default") -> list:
        """Append ``(kind, payload)`` or ``(kind, payload, boot, seq)`` rows in one transaction."""
        with self.transaction():
            ids = []
            for row in rows:
                kind, payload = row[0], row[1]
                boot, seq = (row[2], row[3]) if len(row) == 4 else (None, None)
                ids.append(self.append(kind, payload, match=match, boot=boot, seq=seq))
        return ids

    # ---- reading ---------------------------------------------------------------------------
    def seen(self, boot: int, seq: int, *, match: str = "default") -> bool:
        """Was the physical event with this link identity already logged?"""
        row = self._db.execute("SELECT 1 FROM entries WHERE match=? AND boot=? AND seq=?",
                               (match, boot, seq)).fetchone()
        return row is not None

    def entries(self, *, match: str | None = None, kind: str | None = None, after: int = 0) -> Iterator[Entry]:
        """Rows in order of writing, optionally of one match and/or kind, with id > ``after``."""
        sql = "SELECT id, match, kind, payload, at, boot, seq FROM entries WHERE id > ?"
        args: list = [after]
        if match is not None:
            sql += " AND match = ?"
            args.append(match)
        if kind is not None:
            sql += " AND kind = ?"
            args.append(kind)
        for row in self._db.execute(sql + " ORDER BY id", args):
            yield Entry(row[0], row[1], row[2], json.loads(row[3]), row[4], row[5], row[6])

    def game_events(self, match: str = "default") -> list:
        """The game events of a match, in order: what a restarted host replays."""
        return [e.payload for e in self.entries(match=match, kind="game")]

    def matches(self) -> list:
        return [r[0] for r in self._db.execute("SELECT match FROM entries GROUP BY match ORDER BY MIN(id)")]

    def last_id(self) -> int:
        row = self._db.execute("SELECT MAX(id) FROM entries").fetchone()
        return row[0] or 0

    # ---- lifetime ------------------------------------------------------------------------
    def close(self):
        self._db.close()
        if self._lock is not None:
            locks.release(self._lock)
            self._lock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
