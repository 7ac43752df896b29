"""The club's intake: one table's log row at a time into the club database, with the rules re-run.

:meth:`Ingest.take` is the one door (the MQTT thread of :mod:`.server` calls it; the tests call it
straight).  For a row of table T, match M, position ``seq``:

Positions are per log: a table's rows are keyed by (table, log id, seq) — the log id every
message carries (``wire.py``), which row 1 of the log names (checked there) — so a table that
starts a new log starts a new stream from 1, and an ack names its log.

* T not registered (``club tables add``): refused with the reason, nothing stored, no ack.
* row 1 of a log whose identity is not the one the message names: refused, nothing stored.
* ``seq`` already here: a resend (after a cut, a broker restart, a club restart): nothing stored,
  the ack repeated — so nothing is counted twice.
* ``seq`` beyond the next one: a row before it is still to come (in flight, or lost with the
  connection): not stored; the ack says where T must resend from.
* the next row: stored, and in the same transaction whatever follows from it: a ``meta`` start row
  opens the club's own replay of the match with the event's own rules — the board's preset for a
  duplicate board, else the ruleset of the session of the table's round, else the club's own
  (``club rules``), else the classic preset — never the rules the table claims; a table whose
  start row claims other rules is flagged to the organiser (a ``flags`` row) and its hands are
  scored by the event's rules; every player named must be a club player; a ``game`` row is applied
  to that replay by the game layer (:class:`~shengji_table.game.match.Match`) — a hand settling
  there becomes a ``hands`` row and two ``results`` rows (the partnerships seated at 0/2 and 1/3
  by the round's movement, and the board).  A start row naming a duplicate board (``"duplicate":
  {"number", "checksum"}``) is replayed from the club's own copy of that board (its dealer and
  level), which must be one the table's round plays, with the same checksum; its one hand must be
  dealt from the board's stack.  An event the rules refuse, or that cannot be read, means the
  table's hand does not replay: refused with the rule's reason, and nothing of that match counts
  from there on.

Every refusal is a ``refusals`` row (with the message) and a line on the server's log.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from collections.abc import Callable

from ..game.effects import Refusal
from ..game.events import EventError, event_from_json
from ..game.match import Match
from ..rules.ruleset import Ruleset, RulesetError
from ..store.rows import GENESIS, canonical, identity, row_hash
from .db import ClubDB
from .wire import EventMessage

__all__ = ["Ingest", "Taken", "Replay"]

log = logging.getLogger("shengji_table.club")


@dataclass
class Replay:
    """The club's own replay of one table's match."""
    match: Match | None = None
    broken: str | None = None          # why this match no longer counts (None: it does)
    seats: list = field(default_factory=list)
    hands: int = 0                     # settled hands recorded
    board: tuple | None = None         # (board id, number, stack as text, round id): a duplicate board
    flag: str | None = None            # why the table's claimed rules are not the event's (None: they are)


@dataclass(frozen=True)
class Taken:
    """What :meth:`Ingest.take` did: ``status`` is stored, duplicate, ahead or refused; ``ack`` the
    position to acknowledge to the table (None: nothing to say); ``hand``: a hand was recorded."""
    status: str
    ack: int | None = None
    reason: str = ""
    hand: bool = False
    log: str = ""                      # the log the ack is for


class Ingest:
    """Rows into ``db``; ``on_change(table)`` after every commit that changed what the pages show."""

    def __init__(self, db: ClubDB, on_change: Callable[[str], None] | None = None):
        self.db = db
        self.on_change = on_change
        self.replays: dict[tuple[str, str, str], Replay] = {}       # (table, log, match)
        self.known: set[str] = set(db.tables())
        self.next: dict[tuple[str, str], int] = {}                  # (table, log) -> the row expected
        self.heads: dict[tuple[str, str], str | None] = {}          # (table, log) -> its last row's hash
        self.counts = {"stored": 0, "duplicate": 0, "ahead": 0, "refused": 0}
        self._rebuild()

    def _rebuild(self) -> None:
        """A restarted club replays what it stored (the hands already recorded are not recorded again)."""
        for table, lid, match, kind, payload in self.db.q(
                "SELECT table_id, log, match, kind, payload FROM events ORDER BY table_id, log, seq"):
            self._apply((table, lid, match), kind, json.loads(payload), record=False)

    def register(self, table: str) -> None:
        self.known.add(table)

    def expected(self, table: str, log: str) -> int:
        """The position of the next row of the table's log ``log`` (1: a log the club has not seen)."""
        if (table, log) not in self.next:
            self.next[(table, log)] = self.db.last_seq(table, log) + 1
        return self.next[(table, log)]

    def refuse(self, reason: str, *, table=None, match=None, seq=None, message=None) -> Taken:
        with self.db.tx():
            self.db.refuse(reason, table=table, match=match, seq=seq, message=message)
        self.counts["refused"] += 1
        log.warning("refused (table %s, match %s, seq %s): %s", table, match, seq, reason)
        return Taken("refused", reason=reason)

    def take(self, m: EventMessage) -> Taken:
        if m.table not in self.known:
            self.register_if_added(m.table)
        if m.table not in self.known:
            return self.refuse(f"table {m.table!r} is not one of the club's tables (shengji-table club tables add)",
                               table=m.table, match=m.match, seq=m.seq, message=json.dumps(m.payload)[:500])
        lid = m.log or ""
        expected = self.expected(m.table, lid)
        if m.seq < expected:
            self.counts["duplicate"] += 1
            return Taken("duplicate", ack=expected - 1, log=lid)
        if m.seq > expected:
            self.counts["ahead"] += 1
            return Taken("ahead", ack=expected - 1, log=lid)
        if m.seq == 1:
            named = identity((m.kind, m.match, canonical(m.payload), m.hash))[1]
            if named != lid:
                return self.refuse(f"row 1 of table {m.table}'s log names log {named}, not {lid!r} as its message "
                                   f"says: not stored", table=m.table, match=m.match, seq=m.seq,
                                   message=json.dumps(m.payload, ensure_ascii=False)[:500])
        broken = self._chain(m)
        with self.db.tx() as db:
            db.execute("INSERT INTO events (table_id, log, match, seq, kind, payload, at, hash, received) "
                       "VALUES (?,?,?,?,?,?,?,?,?)",
                       (m.table, lid, m.match, m.seq, m.kind, json.dumps(m.payload, ensure_ascii=False), m.at,
                        m.hash, self.db.clock()))
            if broken is not None:
                hand, refusal = False, broken
            else:
                hand, refusal = self._apply((m.table, lid, m.match), m.kind, m.payload, record=True, seq=m.seq)
            if refusal:
                self.db.refuse(refusal, table=m.table, match=m.match, seq=m.seq,
                               message=json.dumps(m.payload, ensure_ascii=False))
        self.next[(m.table, lid)] = m.seq + 1
        self.counts["stored"] += 1
        if refusal:
            self.counts["refused"] += 1
            log.warning("refused (table %s, match %s, seq %s): %s", m.table, m.match, m.seq, refusal)
        if self.on_change is not None and (m.kind in ("game", "meta") or hand):
            self.on_change(m.table)
        return Taken("refused" if refusal else "stored", ack=m.seq, reason=refusal or "", hand=hand, log=lid)

    def _chain(self, m: EventMessage) -> str | None:
        """Why row ``m`` does not follow the previous row of its log in the hash chain (None: it
        does); from there on nothing of that match counts.  Every row is checked: a row without a
        hash is refused on the wire, and one that follows a stored row without a hash does not chain."""
        key = (m.table, m.log or "")
        previous = self.heads.get(key)
        if previous is None:
            previous = (self.db.one("SELECT hash FROM events WHERE table_id=? AND log=? AND seq=?",
                                    (m.table, key[1], m.seq - 1)) if m.seq > 1 else GENESIS)
        self.heads[key] = m.hash
        if (previous is not None and m.hash is not None
                and row_hash(previous, m.seq, m.match, m.kind, m.boot, m.link, canonical(m.payload), m.at) == m.hash):
            return None
        rp = self.replays.setdefault((m.table, key[1], m.match), Replay())
        first = rp.broken is None
        rp.broken = rp.broken or (f"row {m.seq} of table {m.table}'s log does not follow the row before it in the "
                                  f"log's hash chain: it was altered (shengji-table log verify at the table)")
        return rp.broken if first else ""

    def register_if_added(self, table: str) -> None:
        """A table added (``club tables add``) while the server runs is known from its first row."""
        if self.db.one("SELECT 1 FROM tables WHERE id=?", (table,)):
            self.register(table)

    # ---- the replay ----------------------------------------------------------------------------
    def _apply(self, key: tuple, kind: str, payload, *, record: bool, seq: int = 0):
        """``(hand recorded, refusal reason or None)`` for one stored row of ``key`` (table, log, match)."""
        if kind == "meta" and isinstance(payload, dict) and "start" in payload:
            return False, self._start(key, payload, record, seq)
        if kind != "game":
            return False, None
        rp = self.replays.get(key)
        if rp is None:
            self.replays[key] = rp = Replay(broken="no start row (the table's meta row with its ruleset) came first")
            return False, rp.broken if record else None
        if rp.broken is not None or rp.match is None:
            return False, None                  # refused once already; nothing of this match counts
        try:
            event = event_from_json(payload)
        except EventError as exc:
            rp.broken = f"hand {len(rp.match.summaries) + 1} does not replay: a game event that cannot be read: {exc}"
            return False, rp.broken if record else None
        before = len(rp.match.summaries)
        wrong = _off_board(rp, event, before)
        if wrong:
            rp.broken = wrong
            return False, rp.broken if record else None
        effects = rp.match.apply(event)
        if effects and isinstance(effects[0], Refusal):
            r = effects[0]
            rp.broken = (f"hand {before + 1} does not replay: {event.type} by seat {r.seat} is refused by the "
                         f"rules ({r.rule}: {r.reason})")
            return False, rp.broken if record else None
        if len(rp.match.summaries) > before and record:
            self._record_hand(key, rp, rp.match.summaries[-1], seq)
            return True, None
        return False, None

    def _start(self, key, payload: dict, record: bool, seq: int) -> str | None:
        if key in self.replays and self.replays[key].broken:
            return None                         # refused already: a start row does not make it count again
        start: dict = payload["start"] if isinstance(payload.get("start"), dict) else {}
        mode = payload.get("mode", "scanned")
        try:
            claimed: Ruleset | str = Ruleset.from_json(payload.get("ruleset"))
        except (ValueError, TypeError, KeyError) as exc:
            claimed = str(exc)
        played, flag = None, None
        try:
            if "duplicate" in start:            # a board: its preset's rules, checked by _board
                if isinstance(claimed, str):
                    raise ValueError(claimed)
                ruleset = claimed
            else:                               # the event's own rules, never the table's claim
                ruleset, flag = self._event_rules(key[0], claimed)
            match = Match(ruleset, mode)
        except (ValueError, TypeError, KeyError) as exc:
            self.replays[key] = Replay(broken=f"the match's ruleset cannot be read: {exc}")
            return self.replays[key].broken if record else None
        if flag and record:
            self.db.flag(flag, table=key[0], log=key[1], match=key[2], seq=seq)
            log.warning("flagged (table %s, match %s): %s", key[0], key[2], flag)
        if "duplicate" in start:
            board = self._board(key[0], start["duplicate"], ruleset)
            if isinstance(board, str):
                self.replays[key] = Replay(broken=board)
                return board if record else None
            match = Match(ruleset, payload.get("mode", "scanned"), levels=(board[3],) * ruleset.players,
                          dealer=board[2])
            played = (board[0], board[1], board[4], board[5])
        seats: list = start["seats"] if isinstance(start.get("seats"), list) else []
        unknown = [s for s in seats if not isinstance(s, str) or self.db.player(s) is None]
        if unknown:
            self.replays[key] = Replay(broken=f"unknown player(s) {', '.join(map(str, unknown))}: not the club's "
                                              f"players (add them to the session's partnerships)", seats=seats)
            return self.replays[key].broken if record else None
        self.replays[key] = Replay(match=match, seats=seats, board=played, flag=flag)
        return None

    def _event_rules(self, table: str, claimed: Ruleset | str) -> tuple[Ruleset, str | None]:
        """``(the event's ruleset, why the table's claim differs or None)``: the ruleset of the session
        of the table's round, else the club's own (``club rules``), else the classic preset.
        ``claimed``: the ruleset the table's start row gives, or why it cannot be read."""
        text, where = self.db.rules_for(table)
        try:
            event = Ruleset.from_json(json.loads(text)) if text else Ruleset.from_preset("classic")
        except (ValueError, RulesetError) as exc:       # stored by club rules, checked there: not expected
            event, where = Ruleset.from_preset("classic"), f"the club's default rules (the session's: {exc})"
        if claimed == event:
            return event, None
        if isinstance(claimed, str):
            return event, (f"table {table} claims rules that cannot be read ({claimed}); its hands are scored by "
                           f"{where}")
        mine, theirs = event.to_json(), claimed.to_json()
        differ = sorted(k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k))
        said = ", ".join(f"{k} {json.dumps(theirs.get(k))} (the event's {json.dumps(mine.get(k))})" for k in differ)
        return event, (f"table {table} claims rules other than the event's: {said}; its hands are scored by "
                       f"{where}")

    def _board(self, table: str, said, ruleset: Ruleset):
        """``(board id, number, dealer, level, stack, round id)`` of the club's board a table's start
        row names, or why it is not one: a round of the table's must give it that board, with the
        same checksum."""
        if not (isinstance(said, dict) and isinstance(said.get("number"), int)
                and isinstance(said.get("checksum"), str)):
            return "the start row's duplicate board is not {\"number\": n, \"checksum\": \"sha256:…\"}"
        number = said["number"]
        rnd = self.db.current_round(table)
        if rnd is None:
            return f"table {table} played board {number} but is in no round (club round start)"
        # the latest started round of the table's that gives it this board: a hand that arrives late
        # (the table's network was cut) counts in its own round, not in the one started since
        rows = self.db.q("SELECT b.id, b.spec, s.boards, s.round_id FROM seatings s JOIN rounds r ON r.id = s.round_id "
                         "JOIN boards b ON b.session_id = r.session_id AND b.number = ? "
                         "WHERE s.table_id = ? AND r.started IS NOT NULL ORDER BY r.started DESC, r.id DESC",
                         (number, table))
        if not rows:
            return f"table {table} played board {number}, which is not one of its session's boards"
        fits = [r for r in rows if number in json.loads(r[2] or "[]")] or [r for r in rows if r[3] == rnd[0]]
        if not fits:
            plays = json.loads(rows[0][2] or "[]")
            return (f"table {table} played board {number}; its round gives it board(s) "
                    f"{', '.join(map(str, plays))}")
        board_id, spec, plays, round_id = fits[0][0], json.loads(fits[0][1]), json.loads(fits[0][2] or "[]"), fits[0][3]
        if plays and number not in plays:
            return (f"table {table} played board {number}; its round gives it board(s) "
                    f"{', '.join(map(str, plays))}")
        if said["checksum"] != spec["checksum"]:
            return (f"table {table}'s board {number} is not the club's board {number} (checksum "
                    f"{said['checksum'][:19]}…, the club's {spec['checksum'][:19]}…): another board file")
        if ruleset != Ruleset.from_preset(spec["preset"]):
            return f"table {table} played board {number} with other rules than its preset {spec['preset']!r}"
        return board_id, number, spec["dealer"], spec["level"], tuple(spec["order"]), round_id

    def _record_hand(self, key: tuple, rp: Replay, summary: dict, seq: int) -> None:
        table, lid, match = key
        now = self.db.clock()
        rnd = self.db.current_round(table)
        round_id, pair_02, pair_13, board_id = rnd if rnd else (None, None, None, None)
        if rp.board is not None:                    # the board the table reported playing, in its round
            board_id, round_id = rp.board[0], rp.board[3]
            seated = self.db.q("SELECT pair_02, pair_13 FROM seatings WHERE round_id=? AND table_id=?",
                               (round_id, table))
            pair_02, pair_13 = seated[0] if seated else (None, None)
        cur = self.db.db.execute(
            "INSERT OR IGNORE INTO hands (table_id, log, match, number, round_id, seq, summary, seats, recorded) "
            "VALUES (?,?,?,?,?,?,?,?,?)", (table, lid, match, summary["number"], round_id, seq,
                                         json.dumps(summary, ensure_ascii=False, default=str),
                                         json.dumps(rp.seats, ensure_ascii=False), now))
        if not cur.rowcount:
            return
        hand_id = cur.lastrowid
        res = summary["result"]
        declarer_seat = res["declarers"][0] if res.get("declarers") else summary["dealer"]
        for side, seats, pair in (("02", (0, 2), pair_02), ("13", (1, 3), pair_13)):
            declarer = declarer_seat in seats
            levels = res["declarers_levels"] if declarer else res["attackers_levels"]
            label = _label(self.db, pair, rp.seats, seats, table)
            self.db.db.execute(
                "INSERT INTO results (hand_id, round_id, table_id, board_id, side, partnership_id, label, declarer, "
                "attackers_points, levels) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (hand_id, round_id, table, board_id, side, pair, label, int(declarer), res["attackers_points"],
                 levels))
        rp.hands += 1


def _off_board(rp: Replay, event, before: int) -> str | None:
    """Why ``event`` is not the board's hand (None: it is, or no board is played): a board is one
    hand, dealt from its stack (open play: the stack is unknown, checked at the table)."""
    if rp.board is None or event.type != "deal":
        return None
    number, stack = rp.board[1], rp.board[2]
    if before or (rp.match is not None and rp.match.public_view() is not None):
        return f"board {number} is one hand; the table dealt another"
    if event.order is None:
        return None if event.seed is None else f"hand 1 does not deal board {number}: a shuffled deal (seed)"
    dealt = [str(c) for c in event.order]
    if dealt != list(stack):
        i = next((i for i, (a, b) in enumerate(zip(dealt, stack)) if a != b), min(len(dealt), len(stack)))
        got = dealt[i] if i < len(dealt) else "nothing"
        want = stack[i] if i < len(stack) else "nothing"
        return f"hand 1 does not deal board {number}: card {i + 1} of the stack is {got}, the board's {want}"
    return None


def _label(db: ClubDB, pair, names: list, seats, table: str) -> str:
    """Who a result belongs to, in words: the partnership, else the players named, else the seats."""
    if pair is not None:
        name = db.one("SELECT name FROM partnerships WHERE id=?", (pair,))
        if name:
            return name
    if len(names) > max(seats):
        return " & ".join(names[s] for s in seats)
    return f"{table} seats {seats[0]}/{seats[1]}"
