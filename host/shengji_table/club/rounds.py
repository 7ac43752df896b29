"""A round of a movement started in the club database: the join of ``movement.py`` (who plays whom),
``boards.py`` (what they play) and the organiser's ``start-round`` (the seatings rows).

    plan = plan_round(db, "Tuesday", 2, "swiss", boards=("classic", boards), boards_per_round=2)
    start_planned(db, plan, by="cli")        # boards stored, seatings written: one transaction
    print(plan.cards())                       # the table cards

The partnerships are the session's, in the order they were registered (:func:`add_partnerships`):
partnership *i* of the movement is the *i*-th registered; table *t* of the movement is the *t*-th of
the club's tables (``club tables add``, sorted by id; withdrawn tables left out).  A Swiss round is
paired by the session's standings so far (the scoring given: levels or duplicate) and the rounds
already started (who met whom, who sat where).

:class:`RoundError` says why a round cannot be started (an unknown session, a round started
already, an odd field without ``sit_out``, too few tables, a board file that does not match the
session's boards); nothing is written then.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from .boards import Board, BoardError, board_from_json, duplicate_ruleset
from .db import ClubDB
from .movement import MovementError, Round, Table, round_robin, swiss_round, table_card
from .organiser import OrganiserError, apply_action
from .standings import Score, level_score, standings

__all__ = ["RoundError", "Plan", "MOVEMENTS", "plan_round", "start_planned", "add_partnerships",
           "session_boards", "store_boards"]

MOVEMENTS = ("round-robin", "swiss")


class RoundError(ValueError):
    """A round that cannot be started; nothing was written."""


@dataclass(frozen=True)
class Plan:
    """Round ``rnd`` of a session's movement, mapped onto the club: ``pairs[i - 1]`` is movement
    partnership *i* ``(id, name, player a, player b)``, ``tables[t - 1]`` the club's table *t*."""

    session: str
    movement: str
    total: int
    rnd: Round
    pairs: tuple
    tables: tuple
    preset: str | None
    boards: tuple            # the board file's boards not stored yet: stored with the round

    def body(self) -> dict:
        """The organiser's ``start-round`` body for this round."""
        out: dict = {}
        for t in self.rnd.tables:
            (ns,), (ew,) = t.ns, t.ew
            seat: dict = {"02": list(self.pairs[ns - 1][2:]), "13": list(self.pairs[ew - 1][2:])}
            if t.boards:
                seat["boards"] = list(t.boards)
            out[self.tables[t.number - 1]] = seat
        return {"session": self.session, "round": self.rnd.number, "tables": out}

    def names(self) -> dict:
        return {i + 1: p[1] for i, p in enumerate(self.pairs)}

    def cards(self) -> str:
        """Every table's card, each headed by the club's table id."""
        out = []
        for t in self.rnd.tables:
            card = table_card(self.rnd, t.number, rounds=self.total, names=self.names(), event=self.session)
            out.append(f"[{self.tables[t.number - 1]}] {card}")
        return "\n".join(out)

    def movement_json(self) -> dict:
        names = self.names()
        return {"kind": self.movement, "rounds": self.total, "preset": self.preset,
                "sitting_out": [names[i] for i in self.rnd.sitting_out],
                "tables": {self.tables[t.number - 1]: {"ns": names[t.ns[0]], "ew": names[t.ew[0]],
                                                        "boards": list(t.boards)} for t in self.rnd.tables}}


def _session_id(db: ClubDB, session: str) -> int:
    sid = db.one("SELECT id FROM sessions WHERE name=?", (session,))
    if sid is None:
        names = [r[0] for r in db.q("SELECT name FROM sessions ORDER BY id")]
        raise RoundError(f"no session {session!r} (sessions: {', '.join(names) or 'none'}; "
                         f"club partnerships add makes one)")
    return sid


def add_partnerships(db: ClubDB, session: str, pairs: Sequence[tuple]) -> list:
    """Register ``pairs`` ``(a, b)`` as partnerships of ``session`` (made when new), in order; the
    names "A & B".  A player in two partnerships of the session is refused; nothing is written."""
    seen: dict = {}
    for a, b in pairs:
        if not a or not b or a == b:
            raise RoundError(f"a partnership is two different players' names, not {a!r} and {b!r}")
        for p in (a, b):
            if p in seen:
                raise RoundError(f"{p!r} is named in two partnerships")
            seen[p] = (a, b)
    with db.tx():
        sid = db.session(session)
        taken = {n for pid, _ in db.partnerships(sid) for n in _players(db, pid)}
        twice = sorted(set(seen) & taken)
        if twice:
            raise RoundError(f"{', '.join(twice)} already play in a partnership of {session!r}")
        return [db.add_partnership(sid, f"{a} & {b}", a, b) for a, b in pairs]


def _players(db: ClubDB, pid: int) -> tuple:
    row = db.q("SELECT pa.name, pb.name FROM partnerships p JOIN players pa ON pa.id = p.player_a "
               "JOIN players pb ON pb.id = p.player_b WHERE p.id=?", (pid,))[0]
    return tuple(row)


def session_boards(db: ClubDB, session_id: int) -> tuple:
    """``(preset or None, {number: Board})``: the boards stored for the session."""
    preset, out = None, {}
    for number, spec in db.q("SELECT number, spec FROM boards WHERE session_id=? ORDER BY number", (session_id,)):
        data = json.loads(spec)
        preset = data.pop("preset")
        out[number] = board_from_json(data, duplicate_ruleset(preset), f"board {number}")
    return preset, out


def store_boards(db: ClubDB, session_id: int, preset: str, boards: Sequence[Board]) -> None:
    """Store a board file's boards for the session (those stored already must be the same)."""
    for b in boards:
        db.db.execute("INSERT OR IGNORE INTO boards (session_id, number, spec) VALUES (?,?,?)",
                      (session_id, b.number, json.dumps({"preset": preset, **b.to_json()})))


def _check_boards(stored_preset, stored: dict, preset: str | None, boards: Sequence[Board], needed: list) -> None:
    """The round's boards are the file's or the session's; the file's agree with the session's."""
    if boards:
        if stored and stored_preset != preset:
            raise RoundError(f"the board file is preset {preset!r}; the session's boards are {stored_preset!r}")
        mine = {b.number: b for b in boards}
        clash = [n for n, b in mine.items() if n in stored and stored[n].checksum != b.checksum]
        if clash:
            raise RoundError(f"the board file's board {clash[0]} is not the session's board {clash[0]} "
                             f"(another seed or file): use the file the session started with")
        have = {**stored, **mine}
    else:
        have = stored
    missing = [n for n in needed if n not in have]
    if missing:
        where = (f"the board file holds 1..{len(boards)}" if boards else
                 f"the session's boards are 1..{max(stored)}" if stored else "the session has no boards")
        raise RoundError(f"the round plays boards {', '.join(map(str, needed))}; {where}: board(s) "
                         f"{', '.join(map(str, missing))} missing (--boards FILE with enough boards)")


def _history(db: ClubDB, sid: int, number: int, ids: dict) -> list:
    """The rounds 1..number-1 of the session as movement rounds (for the Swiss pairing)."""
    played = []
    for k in range(1, number):
        rid = db.one("SELECT id FROM rounds WHERE session_id=? AND number=? AND started IS NOT NULL", (sid, k))
        if rid is None:
            raise RoundError(f"round {k} has not started: a Swiss round {number} is paired after "
                             f"rounds 1..{number - 1}")
        tables, seated = [], set()
        for i, (p02, p13) in enumerate(db.q("SELECT pair_02, pair_13 FROM seatings WHERE round_id=? "
                                            "ORDER BY table_id", (rid,)), 1):
            if p02 in ids and p13 in ids:
                tables.append(Table(i, (ids[p02],), (ids[p13],), ()))
                seated |= {ids[p02], ids[p13]}
        played.append(Round(k, tuple(tables), tuple(sorted(set(ids.values()) - seated))))
    return played


def _field(db: ClubDB, session: str, number: int, movement: str, sit_out: bool) -> tuple:
    """``(session id, partnerships)``: the session's field, checked before a round of it is paired."""
    if movement not in MOVEMENTS:
        raise RoundError(f"the movement is {' or '.join(MOVEMENTS)}, not {movement!r}")
    sid = _session_id(db, session)
    if db.one("SELECT started FROM rounds WHERE session_id=? AND number=?", (sid, number)):
        raise RoundError(f"round {number} of {session!r} has started already")
    pairs = tuple((pid, name, *_players(db, pid)) for pid, name in db.partnerships(sid))
    n = len(pairs)
    if n < 2:
        raise RoundError(f"{session!r} has {n} partnership(s); a movement needs 2 or more (club partnerships add)")
    if n % 2 and not sit_out:
        raise RoundError(f"{session!r} has an odd field ({n} partnerships): give --sit-out to sit one "
                         f"partnership out each round, or register another partnership")
    return sid, pairs


def _pair_round(db: ClubDB, sid: int, pairs: tuple, number: int, movement: str, rounds: int | None,
                per_round: int, score: Score) -> tuple:
    """``(total rounds, Round)``: round ``number`` of the movement over the session's ``pairs``."""
    n = len(pairs)
    try:
        if movement == "round-robin":
            total = rounds or (n - 1 if n % 2 == 0 else n)
            if not 1 <= number <= total:
                raise RoundError(f"a round robin of {n} partnerships over {total} round(s) has rounds 1..{total}, "
                                 f"not {number}")
            return total, round_robin(n, total, boards_per_round=per_round)[number - 1]
        total = rounds or n - 1
        ids = {p[0]: i for i, p in enumerate(pairs, 1)}
        played = _history(db, sid, number, ids)
        by_label = {r["label"]: r["score"] for r in standings(db, sid, score)}
        scores = {i: float(by_label.get(p[1], 0)) for i, p in enumerate(pairs, 1)}
        return total, swiss_round(n, played, scores, total_rounds=total, boards_per_round=per_round)
    except MovementError as exc:
        raise RoundError(str(exc)) from None


def _club_tables(db: ClubDB, number: int, rnd: Round) -> tuple:
    """The club's first tables (by id, withdrawn ones left out), as many as the round needs."""
    tables = tuple(r[0] for r in db.q("SELECT id FROM tables WHERE withdrawn = 0 ORDER BY id"))
    if len(tables) < len(rnd.tables):
        raise RoundError(f"round {number} needs {len(rnd.tables)} tables; the club has {len(tables)} "
                         f"({', '.join(tables) or 'none'}): club tables add")
    return tables[:len(rnd.tables)]


def plan_round(db: ClubDB, session: str, number: int, movement: str, *, rounds: int | None = None,
               boards: tuple | None = None, boards_per_round: int = 2, sit_out: bool = False,
               score: Score = level_score) -> Plan:
    """Round ``number`` of ``session``'s ``movement`` (round-robin or swiss); ``boards`` is a board
    file's ``(preset, boards)`` or None (the session's stored boards, or no boards at all).  Every
    check is made, in the order the organiser would make them, before anything is written."""
    sid, pairs = _field(db, session, number, movement, sit_out)
    stored_preset, stored = session_boards(db, sid)
    preset, given = boards if boards else (stored_preset, ())
    per_round = boards_per_round if (given or stored) else 0
    total, rnd = _pair_round(db, sid, pairs, number, movement, rounds, per_round, score)
    needed = sorted({b for t in rnd.tables for b in t.boards})
    tables = _club_tables(db, number, rnd)
    if needed:
        _check_boards(stored_preset, stored, preset, given, needed)
    return Plan(session, movement, total, rnd, pairs, tables, preset,
                tuple(b for b in given if b.number not in stored))


def start_planned(db: ClubDB, plan: Plan, by: str) -> dict:
    """Write the plan: the boards it plays, the seatings (the organiser's ``start-round``), the
    movement — in one transaction."""
    try:
        with db.tx():
            sid = db.session(plan.session)
            if plan.boards:
                assert plan.preset is not None
                store_boards(db, sid, plan.preset, plan.boards)
            done = apply_action(db, "start-round", plan.body(), by)
            db.db.execute("UPDATE rounds SET movement=? WHERE id=?",
                          (json.dumps(plan.movement_json(), ensure_ascii=False), done["round"]))
    except (OrganiserError, BoardError) as exc:
        raise RoundError(str(exc)) from None
    return done
