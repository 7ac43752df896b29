"""The event log: an append-only SQLite file (WAL) with one row per physical event, game event,
ruling and effect, written before anything is shown to the players.

Why SQLite: it is a real, crash-safe file format that a referee can open with any tool, and WAL
with ``synchronous=FULL`` makes each committed row durable before :meth:`EventLog.append` returns.
Append-only is enforced by the database itself (triggers refuse UPDATE and DELETE), so no code
path of ours, nor a careless script, can rewrite history.

Tamper-evident: every row carries ``hash`` = SHA-256 over the previous row's hash and the row's
canonical encoding (:func:`row_hash`), so editing, inserting or deleting any row — even by a tool
that drops the triggers — breaks the chain from that row on.  :meth:`EventLog.verify` walks it;
the head hash (:meth:`EventLog.head`) is what a referee writes down or a record quotes.

Failures: a write the database refuses (disk full, I/O error) raises :class:`LogWriteError`; every
row committed before it stays, and the log refuses later writes, so the table stops without
acknowledging what it could not log.  The table checkpoints at each hand's end (:meth:`checkpoint`)
and a clean close leaves one self-contained file; a log whose ``-wal`` was removed after an
unclean stop (:func:`wal_missing`) is never written to again, and is read as far as it goes.

Format: row 1 of every log this build creates is the log's format row (:data:`FORMAT_MATCH`,
``{"log": {"format": 2, "id": "<32 hex>"}}``): the log's version, and its identity — a random id
that the club keys the table's rows by, so a new log is a new stream.  In a log of format 2 every
row is chained, so a row without a hash is an altered row.  A log with no hash on row 1 (a build
before the chain, or a log whose first hash was removed) cannot be verified: it is read-only, and
never written to again (:class:`UnchainedLog`): there is no way back to a log without the chain.

A restarted host reads the game events back (:meth:`EventLog.game_events`) and replays them to the
same state; the physical events it already handled are recognised by their link identity
(``boot``, ``seq``) through :meth:`EventLog.seen`, so a tap the Pico resends is not counted twice.
"""
from __future__ import annotations

import contextlib
import json
import os
import pathlib
import secrets
import sqlite3
import time
from collections.abc import Iterator

from .. import locks
from .rows import (FORMAT, FORMAT_MATCH, GENESIS, KINDS, Entry, RowKind, Verification, canonical, format_of,
                   identity, row_hash)

__all__ = ["EventLog", "Entry", "LogError", "LogWriteError", "UnchainedLog", "RowKind", "KINDS", "Verification",
           "row_hash", "GENESIS", "wal_missing", "FORMAT", "FORMAT_MATCH", "identity"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    match   TEXT NOT NULL,
    kind    TEXT NOT NULL CHECK (kind IN ('meta','physical','game','ruling','effect')),
    boot    INTEGER,              -- link identity of a physical event: the Pico's boot id …
    seq     INTEGER,              -- … and the frame's sequence number (NULL for other kinds)
    payload TEXT NOT NULL,        -- canonical JSON
    at      REAL NOT NULL,        -- wall-clock seconds, for people; replay never reads it
    hash    TEXT                  -- SHA-256 chained to the previous row (row_hash)
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


class UnchainedLog(LogError):
    """A log without the hash chain (no hash on row 1): it cannot be verified, so it is never written."""


class LogWriteError(LogError):
    """A row could not be written (disk full, I/O error): the row and everything after it is not in
    the log, every row before it is; the log refuses further writes, so the caller stops."""


def wal_missing(path) -> bool:
    """True when the log's ``-shm`` is there but its ``-wal`` is not: it was not closed cleanly (a
    clean close removes both) and its -wal was removed since, taking the rows written after the
    last checkpoint with it.  A plain copy of the .db alone cannot be told from a whole log."""
    p = pathlib.Path(path)
    return p.with_name(p.name + "-shm").exists() and not p.with_name(p.name + "-wal").exists()


def _private(path) -> None:
    """Create ``path`` readable by its owner only (0600) if it is missing: the log holds every hand,
    and SQLite makes its -wal and -shm files with the same mode."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    except OSError:
        pass                              # a directory that cannot be written: sqlite says so


class EventLog:
    """An open log file.  ``with EventLog(path) as log: log.append("game", {...})``."""

    def __init__(self, path, *, clock=time.time, read_only: bool = False, live: bool = False):
        """Open (and with ``read_only=False`` create) the log at ``path``.

        ``read_only=True`` is for readers (``log show``/``export``, a referee's copy): the file must
        already be a log; nothing is created or written, and a read-only file or medium works.
        ``live=True``: a reader that keeps reading while a table may start writing (``--follow``).
        """
        self.path = str(path)
        self._clock = clock
        self.read_only = read_only
        self._lock: int | None = None
        self._head = GENESIS
        self._failed: str | None = None       # why a write failed; the log refuses writes after it
        self.wal_missing = wal_missing(self.path) and pathlib.Path(self.path).is_file()
        if self.wal_missing and not read_only:
            raise LogError(f"{self.path}: its -wal file is missing (the log was not closed cleanly and the -wal "
                           f"was removed since): the rows written after its last checkpoint are gone, so it is "
                           f"not written to; shengji-table log verify {self.path} checks the rows left")
        try:
            if read_only:
                self._db = self._open_existing(live)
            else:
                _private(self.path)
                self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
                self._hold()
                tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")
                          if not r[0].startswith("sqlite_")}
                if tables and "entries" not in tables:
                    # another program's database: never add our tables to it
                    self._db.close()
                    raise LogError(f"{self.path} is an SQLite file of something else "
                                   f"(tables {', '.join(sorted(tables))}), not a shengji-table event log")
                if "entries" in tables:
                    self._check_existing()       # before anything is changed in the file
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self._db.executescript(_SCHEMA)
                self._head = self._last_hash()
                if self.last_id() == 0:          # a new log: its format row, with its identity, first
                    self.append("meta", {"log": {"format": FORMAT, "id": secrets.token_hex(16)}}, match=FORMAT_MATCH)
        except sqlite3.DatabaseError as exc:
            raise LogError(f"{self.path} is not a usable event log: {exc}") from exc

    def _check_existing(self) -> None:
        """An existing log is written to only when it carries the chain from row 1, is of a format
        this build knows, and its chain holds (never carry on writing after an altered row):
        :class:`UnchainedLog` or :class:`LogError` otherwise, with nothing changed in the file."""
        columns = {r[1] for r in self._db.execute("PRAGMA table_info(entries)")}
        fmt, why = FORMAT, ""
        if "hash" not in columns:
            if self._db.execute("SELECT 1 FROM entries LIMIT 1").fetchone() is not None:
                fmt, why = 0, "it has no hash column"
        else:
            fmt, _ = identity(self._first_row())
            why = "its row 1 has no hash"
        if fmt == 0:
            self.close()
            raise UnchainedLog(f"{self.path} is a log without the hash chain ({why}: written by a build before the "
                               f"chain, or its first hash was removed): it cannot be verified, so it is read-only and "
                               f"is not written to; start a new log (another --log file); "
                               f"shengji-table log show/export still read it")
        if fmt > FORMAT:
            self.close()
            raise LogError(f"{self.path} is a log of format {fmt}, newer than this build's {FORMAT}: it is not written "
                           f"to (upgrade shengji-table)")
        checked = self.verify()
        if not checked.ok:
            self.close()
            raise LogError(f"{self.path} has been altered: {checked.reason}; it is not written to "
                           f"(shengji-table log verify {self.path})")

    def _first_row(self):
        """Row 1 as ``(kind, match, payload text, hash)``, or None in an empty log."""
        try:
            return self._db.execute("SELECT kind, match, payload, hash FROM entries ORDER BY id LIMIT 1").fetchone()
        except sqlite3.OperationalError:      # no hash column: a build before the chain
            row = self._db.execute("SELECT kind, match, payload FROM entries ORDER BY id LIMIT 1").fetchone()
            return None if row is None else (*row, None)

    def identity(self) -> tuple[int, str | None]:
        """``(format, log id)`` of this log (:func:`identity`)."""
        return identity(self._first_row())

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

    def _open_existing(self, live: bool = False):
        p = pathlib.Path(self.path)
        if not p.is_file():
            raise LogError(f"{self.path}: no such log file")
        # A log closed cleanly is one file (its WAL checkpointed and removed): read it as immutable,
        # which creates nothing beside it (a read-only copy, a read-only medium).  A -wal beside it
        # holds committed rows not yet in the main file: read through it (SQLite needs its -shm).
        wal = p.with_name(p.name + "-wal")
        query = "?mode=ro" if live or wal.exists() else "?mode=ro&immutable=1"   # (a stale -shm is ignored)
        try:
            db = sqlite3.connect(p.resolve().as_uri() + query, uri=True, isolation_level=None,
                                 check_same_thread=False)
            db.execute("SELECT 1 FROM sqlite_master LIMIT 1")
        except sqlite3.OperationalError as exc:
            raise LogError(f"{self.path}: cannot read it beside its -wal file ({exc}); copy the log with "
                           f"shengji-table log backup, which takes the rows in the -wal too") from None
        except sqlite3.DatabaseError as exc:
            raise LogError(f"{self.path} is not an event log (not an SQLite file: {exc})") from None
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
        self._writable()
        if kind not in KINDS:
            raise LogError(f"unknown entry kind {kind!r}; kinds are {', '.join(KINDS)}")
        text, at = canonical(payload), float(self._clock())
        new_id = self.last_id() + 1
        digest = row_hash(self._head, new_id, match, kind, boot, seq, text, at)
        try:
            cur = self._db.execute(
                "INSERT INTO entries (id, match, kind, boot, seq, payload, at, hash) VALUES (?,?,?,?,?,?,?,?)",
                (new_id, match, kind, boot, seq, text, at, digest))
        except sqlite3.IntegrityError as exc:
            raise LogError(f"physical event boot={boot} seq={seq} is already in the log") from exc
        except sqlite3.Error as exc:
            raise self._write_failed(exc) from None
        self._head = digest
        return cur.lastrowid

    @contextlib.contextmanager
    def transaction(self):
        """All appends inside the ``with`` block are written together or not at all::

            with log.transaction():
                log.append("physical", tap, boot=b, seq=s)
                log.append("game", event)
        """
        self._writable()
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise self._write_failed(exc) from None
        try:
            yield self
        except BaseException:
            if self._db.in_transaction:          # SQLite may have rolled back already (disk full)
                self._db.execute("ROLLBACK")
            self._head = self._last_hash()       # the rows rolled back are not in the chain
            raise
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise self._write_failed(exc) from None

    def _writable(self) -> None:
        if self.read_only:
            raise LogError(f"{self.path} is open read-only")
        if self._failed is not None:
            raise LogWriteError(f"{self.path} is not written to since a write failed ({self._failed})")

    def _write_failed(self, exc: sqlite3.Error) -> LogWriteError:
        """A write the database refused (full disk, I/O error): roll back, keep the head of what is
        committed, refuse any later write (the caller's state has moved past the log), and say so."""
        with contextlib.suppress(sqlite3.Error):
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
        with contextlib.suppress(sqlite3.Error):
            self._head = self._last_hash()
        self._failed = str(exc)
        kept = ""
        with contextlib.suppress(sqlite3.Error):
            kept = f"; rows 1–{self.last_id()} are kept"
        return LogWriteError(f"the log {self.path} cannot be written ({exc}): the row being written and nothing "
                             f"after it was acknowledged{kept}; make room (or fix the medium) and start "
                             f"again with the same log to resume")

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

    def entries(self, *, match: str | None = None, kind: str | None = None, after: int = 0,
                format_row: bool = False) -> Iterator[Entry]:
        """Rows in order of writing, optionally of one match and/or kind, with id > ``after``; the
        log's format row only with ``format_row`` (or ``match=FORMAT_MATCH``)."""
        sql = "SELECT id, match, kind, payload, at, boot, seq FROM entries WHERE id > ?"
        args: list = [after]
        if match is not None:
            sql += " AND match = ?"
            args.append(match)
        elif not format_row:
            sql += " AND match != ?"
            args.append(FORMAT_MATCH)
        if kind is not None:
            sql += " AND kind = ?"
            args.append(kind)
        for row in self._db.execute(sql + " ORDER BY id", args):
            yield Entry(row[0], row[1], row[2], json.loads(row[3]), row[4], row[5], row[6])

    def _last_hash(self) -> str:
        try:
            row = self._db.execute("SELECT hash FROM entries ORDER BY id DESC LIMIT 1").fetchone()
        except sqlite3.OperationalError:      # read-only, a build before the chain: no column
            return GENESIS
        return GENESIS if row is None else (row[0] or GENESIS)

    def row_of_hash(self, prefix: str) -> int | None:
        """The id of the row whose hash starts with ``prefix`` (a head written down), or None."""
        row = self._db.execute("SELECT id FROM entries WHERE substr(hash, 1, ?) = ? ORDER BY id LIMIT 1",
                               (len(prefix), prefix.lower())).fetchone()
        return None if row is None else row[0]

    def hashes(self) -> dict:
        """Every row's hash by its id (None: a row without one), as the club's copy keeps them."""
        return dict(self._db.execute("SELECT id, hash FROM entries ORDER BY id").fetchall())

    def head(self) -> str:
        """The hash of the last row (:data:`GENESIS` for an empty log)."""
        return self._last_hash()

    def verify(self) -> Verification:
        """Walk the whole chain from the first row; the first row whose hash does not follow names
        where the log was altered (or, with no hash on row 1, a log without the chain: ``unchained``).
        A log whose row 1 is a format row is chained throughout: a missing hash there is an alteration."""
        previous, rows, expected_id = GENESIS, 0, None
        columns = {r[1] for r in self._db.execute("PRAGMA table_info(entries)")}
        if "hash" not in columns:
            first = self._db.execute("SELECT MIN(id) FROM entries").fetchone()[0]
            if first is None:
                return Verification(True, 0, GENESIS)
            return Verification(False, 0, GENESIS, first, f"row {first} has no hash (written without the chain)",
                                unchained=True)
        for row in self._db.execute("SELECT id, match, kind, boot, seq, payload, at, hash FROM entries ORDER BY id"):
            rid, match, kind, boot, seq, text, at, stored = row
            if expected_id is not None and rid != expected_id:
                return Verification(False, rows, previous, expected_id, f"row {expected_id} is missing")
            if stored is None and rows == 0 and format_of(kind, match, text) is not None:
                return Verification(False, rows, previous, rid, f"row {rid}, the log's format row, has no hash: "
                                                                 "it was removed (the log was altered)")
            if stored is None:
                return Verification(False, rows, previous, rid, f"row {rid} has no hash"
                                    + (" (a log without the hash chain: it cannot be verified)" if rows == 0
                                       else ": it was removed (the log was altered)"),
                                    unchained=rows == 0)
            if stored != row_hash(previous, rid, match, kind, boot, seq, text, at):
                return Verification(False, rows, previous, rid, f"row {rid} does not match its hash: it was altered, "
                                                                 "or a row before it was")
            previous, rows, expected_id = stored, rows + 1, rid + 1
        return Verification(True, rows, previous)

    def backup(self, dest) -> Verification:
        """Copy the log, rows still in its WAL included, to ``dest`` with SQLite's online backup
        (safe while a table is writing it); returns the copy's verification."""
        target = pathlib.Path(dest)
        if target.exists():
            raise LogError(f"{dest} exists: a backup never overwrites a file")
        tmp = target.with_name(target.name + ".partial")
        try:
            _private(tmp)
            out = sqlite3.connect(tmp)
            try:
                self._db.backup(out)
            finally:
                out.close()
            tmp.replace(target)
        except (OSError, sqlite3.Error) as exc:
            tmp.unlink(missing_ok=True)
            raise LogError(f"cannot write the backup {dest}: {exc}") from None
        with EventLog(target, read_only=True) as copy:
            return copy.verify()

    def game_events(self, match: str = "default") -> list:
        """The game events of a match, in order: what a restarted host replays."""
        return [e.payload for e in self.entries(match=match, kind="game")]

    def matches(self) -> list:
        """The matches the log holds, in the order they began (not the format row's)."""
        return [r[0] for r in self._db.execute("SELECT match FROM entries WHERE match != ? GROUP BY match "
                                               "ORDER BY MIN(id)", (FORMAT_MATCH,))]

    def last_id(self) -> int:
        row = self._db.execute("SELECT MAX(id) FROM entries").fetchone()
        return row[0] or 0

    def checkpoint(self) -> None:
        """Move the rows in the -wal into the .db now (a hand's end): a copy of the .db alone, or
        a -wal lost, then misses at most the rows written since.  A failure here loses nothing."""
        if not self.read_only and self._failed is None:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    # ---- lifetime ------------------------------------------------------------------------
    def close(self):
        if not self.read_only:
            with contextlib.suppress(sqlite3.Error):   # a clean close leaves one self-contained file
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()
        if self._lock is not None:
            locks.release(self._lock)
            self._lock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
