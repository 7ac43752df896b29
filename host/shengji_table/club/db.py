"""The club's database: one SQLite file (WAL), its schema grown by numbered migrations.

:data:`MIGRATIONS` is a list; migration *n* (1-based) runs once, inside a transaction, when the
file's ``PRAGMA user_version`` is below *n*, and leaves it at *n* — a file written by an older
build is brought up to date on open, one written by a newer build is refused (we would not know
its tables).  A small runner rather than a migration library: the schema is a handful of tables
and the standard library's ``sqlite3`` does all of it.

Tables: ``players``, ``partnerships`` (two players, per session), ``sessions``, ``rounds``,
``tables`` (the club's tables, their broker user), ``seatings`` (a round's movement: which
partnership sits at seats 0/2 and 1/3 of which table, and the boards played there), ``boards``
(a fixed deal order, dealer, level and trump rule: written by the board maker), ``events`` (every
row each table sent, de-duplicated by (table, log, seq): ``log`` is the identity of the table's
log, so a new log is a new stream), ``hands`` (each settled hand as the club's own replay found it),
``results`` (a hand turned into the two partnerships' results, with the board; corrections by the
organiser), ``refusals`` (what the club refused, and why), ``flags`` (a table that claimed other rules
than the event's, for the organiser), ``organiser`` (the organiser's actions), ``settings``.  A
session's ``ruleset`` is the event's own rules: the club scores every hand of its rounds by it; the
``rules`` setting is the club's own for every other hand (:meth:`ClubDB.rules_for`).
"""
from __future__ import annotations

import json
import sqlite3
import time

__all__ = ["ClubDB", "ClubDBError", "MIGRATIONS"]

MIGRATIONS = [
    # 1: the club
    """
    CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created REAL NOT NULL);
    CREATE TABLE sessions (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created REAL NOT NULL);
    CREATE TABLE partnerships (id INTEGER PRIMARY KEY, session_id INTEGER NOT NULL REFERENCES sessions(id),
        name TEXT NOT NULL, player_a INTEGER NOT NULL REFERENCES players(id),
        player_b INTEGER NOT NULL REFERENCES players(id), UNIQUE (session_id, name));
    CREATE TABLE rounds (id INTEGER PRIMARY KEY, session_id INTEGER NOT NULL REFERENCES sessions(id),
        number INTEGER NOT NULL, started REAL, UNIQUE (session_id, number));
    CREATE TABLE tables (id TEXT PRIMARY KEY, broker_user TEXT NOT NULL, withdrawn INTEGER NOT NULL DEFAULT 0,
        withdrawn_reason TEXT, created REAL NOT NULL);
    CREATE TABLE boards (id INTEGER PRIMARY KEY, session_id INTEGER REFERENCES sessions(id), number INTEGER NOT NULL,
        spec TEXT NOT NULL, UNIQUE (session_id, number));
    CREATE TABLE seatings (round_id INTEGER NOT NULL REFERENCES rounds(id),
        table_id TEXT NOT NULL REFERENCES tables(id),
        pair_02 INTEGER REFERENCES partnerships(id), pair_13 INTEGER REFERENCES partnerships(id),
        board_id INTEGER REFERENCES boards(id), match TEXT, PRIMARY KEY (round_id, table_id));
    """,
    # 2: what the tables send, what the club made of it
    """
    CREATE TABLE events (table_id TEXT NOT NULL REFERENCES tables(id), match TEXT NOT NULL, seq INTEGER NOT NULL,
        kind TEXT NOT NULL, payload TEXT NOT NULL, at REAL NOT NULL, hash TEXT, received REAL NOT NULL,
        PRIMARY KEY (table_id, match, seq));
    CREATE INDEX events_table_seq ON events (table_id, seq);
    CREATE TABLE hands (id INTEGER PRIMARY KEY, table_id TEXT NOT NULL REFERENCES tables(id), match TEXT NOT NULL,
        number INTEGER NOT NULL, round_id INTEGER REFERENCES rounds(id), seq INTEGER NOT NULL, summary TEXT NOT NULL,
        seats TEXT, recorded REAL NOT NULL, UNIQUE (table_id, match, number));
    CREATE TABLE results (id INTEGER PRIMARY KEY, hand_id INTEGER NOT NULL REFERENCES hands(id),
        round_id INTEGER REFERENCES rounds(id), table_id TEXT NOT NULL, board_id INTEGER REFERENCES boards(id),
        side TEXT NOT NULL CHECK (side IN ('02','13')), partnership_id INTEGER REFERENCES partnerships(id),
        label TEXT NOT NULL, declarer INTEGER NOT NULL, attackers_points INTEGER NOT NULL, levels INTEGER NOT NULL,
        corrected TEXT, UNIQUE (hand_id, side));
    CREATE TABLE refusals (id INTEGER PRIMARY KEY, at REAL NOT NULL, table_id TEXT, match TEXT, seq INTEGER,
        reason TEXT NOT NULL, message TEXT);
    CREATE TABLE organiser (id INTEGER PRIMARY KEY, at REAL NOT NULL, action TEXT NOT NULL, accepted INTEGER NOT NULL,
        by TEXT NOT NULL, detail TEXT NOT NULL);
    """,
    # 3: a movement's rounds: every board a table plays in the round (JSON numbers), the movement
    """
    ALTER TABLE seatings ADD COLUMN boards TEXT;
    ALTER TABLE rounds ADD COLUMN movement TEXT;
    """,
    # 4: a table's rows keyed by the log they come from (a new log is a new stream); the event's own
    # rules (a session's ruleset, the club's own in settings); the tables flagged to the organiser.
    # The rows of a database before it are given their log's identity as a table of this build
    # names it (store/log.py: a log without a format row is known by its row 1's hash), so a table
    # carrying on with the same log carries on with the same stream.
    """
    CREATE TABLE events_v4 (table_id TEXT NOT NULL REFERENCES tables(id), log TEXT NOT NULL DEFAULT '',
        match TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL, at REAL NOT NULL,
        hash TEXT, received REAL NOT NULL, PRIMARY KEY (table_id, log, seq));
    INSERT OR IGNORE INTO events_v4 (table_id, log, match, seq, kind, payload, at, hash, received)
        SELECT table_id, COALESCE((SELECT substr(o.hash, 1, 32) FROM events o WHERE o.table_id = events.table_id
        AND o.seq = 1 LIMIT 1), ''), match, seq, kind, payload, at, hash, received FROM events;
    CREATE TABLE hands_v4 (id INTEGER PRIMARY KEY, table_id TEXT NOT NULL REFERENCES tables(id),
        log TEXT NOT NULL DEFAULT '', match TEXT NOT NULL, number INTEGER NOT NULL,
        round_id INTEGER REFERENCES rounds(id), seq INTEGER NOT NULL, summary TEXT NOT NULL, seats TEXT,
        recorded REAL NOT NULL, UNIQUE (table_id, log, match, number));
    INSERT INTO hands_v4 (id, table_id, log, match, number, round_id, seq, summary, seats, recorded)
        SELECT id, table_id, COALESCE((SELECT substr(o.hash, 1, 32) FROM events o WHERE o.table_id = hands.table_id
        AND o.seq = 1 LIMIT 1), ''), match, number, round_id, seq, summary, seats, recorded FROM hands;
    DROP TABLE events;
    ALTER TABLE events_v4 RENAME TO events;
    CREATE INDEX events_received ON events (table_id, received);
    DROP TABLE hands;
    ALTER TABLE hands_v4 RENAME TO hands;
    ALTER TABLE sessions ADD COLUMN ruleset TEXT;
    CREATE TABLE flags (id INTEGER PRIMARY KEY, at REAL NOT NULL, table_id TEXT NOT NULL, log TEXT NOT NULL,
        match TEXT NOT NULL, seq INTEGER NOT NULL, reason TEXT NOT NULL);
    CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)
    """,
]


class ClubDBError(RuntimeError):
    """The club database cannot be used (not SQLite, another program's, or newer than this build)."""


class ClubDB:
    """An open club database.  Writes go through :meth:`tx` (one transaction)."""

    def __init__(self, path, *, clock=time.time):
        self.path = str(path)
        self.clock = clock
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        except sqlite3.DatabaseError as exc:
            raise ClubDBError(f"{self.path} is not a usable club database: {exc}") from None
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")       # an acked row survives a kill
            self._migrate()                                  # (foreign keys off: a migration rebuilds tables)
            self.db.execute("PRAGMA foreign_keys=ON")
        except (sqlite3.DatabaseError, ClubDBError) as exc:
            self.db.close()                                  # refused: nothing of the file stays open
            if isinstance(exc, ClubDBError):
                raise
            raise ClubDBError(f"{self.path} is not a usable club database: {exc}") from None

    def _migrate(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > len(MIGRATIONS):
            raise ClubDBError(f"{self.path} has schema version {version}, newer than this build's "
                              f"{len(MIGRATIONS)}: upgrade shengji-table")
        names = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if version == 0 and names:
            raise ClubDBError(f"{self.path} is an SQLite file of something else (tables "
                              f"{', '.join(sorted(names))}), not a club database")
        for n in range(version + 1, len(MIGRATIONS) + 1):
            self.db.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[n - 1].split(";"):
                    if statement.strip():
                        self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version = {n}")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    @property
    def version(self) -> int:
        return self.db.execute("PRAGMA user_version").fetchone()[0]

    def tx(self):
        """``with db.tx():`` — the statements inside commit together or not at all."""
        return _Tx(self.db)

    def q(self, sql: str, args=()) -> list:
        return self.db.execute(sql, args).fetchall()

    def one(self, sql: str, args=()):
        row = self.db.execute(sql, args).fetchone()
        return None if row is None else row[0]

    # ---- the club's registers -------------------------------------------------------------------
    def add_table(self, table: str, broker_user: str | None = None) -> None:
        self.db.execute("INSERT OR IGNORE INTO tables (id, broker_user, created) VALUES (?,?,?)",
                        (table, broker_user or table, self.clock()))

    def tables(self) -> list:
        return [r[0] for r in self.q("SELECT id FROM tables ORDER BY id")]

    def add_player(self, name: str) -> int:
        self.db.execute("INSERT OR IGNORE INTO players (name, created) VALUES (?,?)", (name, self.clock()))
        return self.one("SELECT id FROM players WHERE name=?", (name,))

    def player(self, name: str) -> int | None:
        return self.one("SELECT id FROM players WHERE name=?", (name,))

    def session(self, name: str) -> int:
        self.db.execute("INSERT OR IGNORE INTO sessions (name, created) VALUES (?,?)", (name, self.clock()))
        return self.one("SELECT id FROM sessions WHERE name=?", (name,))

    def add_partnership(self, session_id: int, name: str, a: str, b: str) -> int:
        pa, pb = self.add_player(a), self.add_player(b)
        self.db.execute("INSERT OR IGNORE INTO partnerships (session_id, name, player_a, player_b) VALUES (?,?,?,?)",
                        (session_id, name, pa, pb))
        return self.one("SELECT id FROM partnerships WHERE session_id=? AND name=?", (session_id, name))

    def last_seq(self, table: str, log: str | None = None) -> int:
        """The acknowledged position in the table's log ``log`` (None: the log it sent last): every
        row of that log up to it is here (rows arrive in order)."""
        if log is None:
            log = self.latest_log(table)
        return self.one("SELECT MAX(seq) FROM events WHERE table_id=? AND log=?", (table, log)) or 0

    def latest_log(self, table: str) -> str:
        """The identity of the log the table sent a row of last ('' for none)."""
        return self.one("SELECT log FROM events WHERE table_id=? ORDER BY received DESC, rowid DESC LIMIT 1",
                        (table,)) or ""

    def set_rules(self, ruleset: dict, session_id: int | None = None) -> None:
        """The event's rules (a ruleset's JSON): a session's, or (None) the club's own."""
        text = json.dumps(ruleset, ensure_ascii=False, sort_keys=True)
        if session_id is None:
            self.db.execute("INSERT OR REPLACE INTO settings (name, value) VALUES ('rules', ?)", (text,))
        else:
            self.db.execute("UPDATE sessions SET ruleset=? WHERE id=?", (text, session_id))

    def rules_for(self, table: str) -> tuple[str | None, str]:
        """``(ruleset JSON or None, whose)`` a hand of ``table`` is scored by now: the session's of the
        table's round, else the club's own (``club rules``), else None (the classic preset)."""
        rnd = self.current_round(table)
        text = (self.one("SELECT s.ruleset FROM rounds r JOIN sessions s ON s.id = r.session_id WHERE r.id=?",
                         (rnd[0],)) if rnd else None)
        if text:
            return text, "the session's rules"
        text = self.one("SELECT value FROM settings WHERE name='rules'")
        return (text, "the club's rules") if text else (None, "the club's default rules (preset classic)")

    def flag(self, reason: str, *, table: str, log: str, match: str, seq: int) -> None:
        self.db.execute("INSERT INTO flags (at, table_id, log, match, seq, reason) VALUES (?,?,?,?,?,?)",
                        (self.clock(), table, log, match, seq, reason))

    def refuse(self, reason: str, *, table: str | None = None, match: str | None = None, seq: int | None = None,
               message: str | None = None) -> None:
        self.db.execute("INSERT INTO refusals (at, table_id, match, seq, reason, message) VALUES (?,?,?,?,?,?)",
                        (self.clock(), table, match, seq, reason, (message or "")[:2000]))

    def note_organiser(self, action: str, accepted: bool, by: str, detail: dict) -> None:
        self.db.execute("INSERT INTO organiser (at, action, accepted, by, detail) VALUES (?,?,?,?,?)",
                        (self.clock(), action, int(accepted), by, json.dumps(detail, ensure_ascii=False)))

    def partnerships(self, session_id: int) -> list:
        """``[(id, name)]`` of the session's partnerships in the order they were registered."""
        return self.q("SELECT id, name FROM partnerships WHERE session_id=? ORDER BY id", (session_id,))

    def current_round(self, table: str):
        """``(round_id, pair_02, pair_13, board_id)`` of the last round started with this table in it."""
        rows = self.q("SELECT s.round_id, s.pair_02, s.pair_13, s.board_id FROM seatings s JOIN rounds r "
                      "ON r.id = s.round_id WHERE s.table_id=? AND r.started IS NOT NULL "
                      "ORDER BY r.started DESC, r.id DESC LIMIT 1", (table,))
        return rows[0] if rows else None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> ClubDB:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class _Tx:
    """One transaction; inside another it joins that one (the intake commits a burst of rows at once)."""

    def __init__(self, db):
        self.db = db
        self.outer = False

    def __enter__(self):
        self.outer = not self.db.in_transaction
        if self.outer:
            self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type, exc, tb):
        if self.outer:
            self.db.execute("ROLLBACK" if exc_type else "COMMIT")
        return False
