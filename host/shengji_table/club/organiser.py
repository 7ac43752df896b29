"""The organiser's actions on the club database: start a round, correct a result, withdraw a table.

Each takes a JSON body, checked field by field before anything is written (:class:`OrganiserError`
with the reason: HTTP 400 on the pages, exit 2 on the command line), and is written in one
transaction with its ``organiser`` row (who, when, what).  The web pages put them behind the
referee's PIN mechanism (``face/web/auth.py``).

==================  =========================================================================
``start-round``     ``{"session": "Tuesday", "round": 1, "tables": {"T1": {"02": ["Li", "Wang"],
                    "13": ["Zhao", "Chen"], "board": 3}, …}}`` — the movement of one round: which
                    partnership sits at seats 0/2 and 1/3 of each table (optional: ``board`` n
                    or ``boards`` [n, …], the boards played there).  The players become club players; each pair a
                    partnership of the session, named "A & B".
``correct``         ``{"hand": id, "side": "02"|"13", "levels": n, "attackers_points": n,
                    "reason": "…"}`` — the result counted instead of the table's
``withdraw``        ``{"table": "T2", "reason": "…"}`` — the table's results stop counting
==================  =========================================================================
"""
from __future__ import annotations

import json

from .db import ClubDB
from .wire import WireError, check_table_id

__all__ = ["OrganiserError", "apply_action", "ACTIONS"]

ACTIONS = ("start-round", "correct", "withdraw")
MAX_REASON = 300


class OrganiserError(ValueError):
    """A malformed or impossible organiser action: nothing was written."""


def _text(body: dict, name: str) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not value.strip():
        raise OrganiserError(f"{name!r} is a non-empty text")
    if len(value) > MAX_REASON:
        raise OrganiserError(f"{name!r} is longer than {MAX_REASON} characters")
    return value.strip()


def _int(body: dict, name: str, low: int = 0) -> int:
    value = body.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise OrganiserError(f"{name!r} is a whole number ≥ {low}, not {value!r}")
    return value


def _only(body, allowed: set, action: str) -> None:
    if not isinstance(body, dict):
        raise OrganiserError(f"the body of {action} is a JSON object")
    extra = sorted(set(body) - allowed)
    if extra:
        raise OrganiserError(f"{action} takes {', '.join(sorted(allowed))}, not {', '.join(extra)}")


def _pair(db: ClubDB, session_id: int, value, where: str) -> int:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) and v.strip() for v in value)):
        raise OrganiserError(f"{where} is two players' names, e.g. [\"Li\", \"Wang\"]")
    a, b = (v.strip() for v in value)
    return db.add_partnership(session_id, f"{a} & {b}", a, b)


def _seat_boards(db: ClubDB, session_id: int, session: str, table: str, seat: dict) -> tuple:
    """``([board numbers], id of the first)`` a table plays in the round (``board`` or ``boards``)."""
    if "board" in seat:
        numbers = [_int(seat, "board", 1)]
    elif "boards" in seat:
        numbers = seat["boards"]
        if (not isinstance(numbers, list) or not numbers or len(set(numbers)) != len(numbers)
                or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in numbers)):
            raise OrganiserError(f"table {table}: 'boards' is a list of different board numbers ≥ 1")
    else:
        return [], None
    ids = []
    for n in numbers:
        board_id = db.one("SELECT id FROM boards WHERE session_id=? AND number=?", (session_id, n))
        if board_id is None:
            raise OrganiserError(f"table {table}: {session!r} has no board {n} (club round start --boards FILE)")
        ids.append(board_id)
    return numbers, ids[0]


def _start_round(db: ClubDB, body: dict) -> dict:
    _only(body, {"session", "round", "tables"}, "start-round")
    session, number, tables = _text(body, "session"), _int(body, "round", 1), body.get("tables")
    if not isinstance(tables, dict) or not tables:
        raise OrganiserError("'tables' maps table ids to {\"02\": [a, b], \"13\": [c, d]}")
    known = set(db.tables())
    for table, seat in tables.items():
        try:
            check_table_id(table)
        except WireError as exc:
            raise OrganiserError(str(exc)) from None
        if table not in known:
            raise OrganiserError(f"table {table!r} is not one of the club's tables (club tables add)")
        if (not isinstance(seat, dict) or set(seat) - {"02", "13", "board", "boards"} or not {"02", "13"} <= set(seat)
                or {"board", "boards"} <= set(seat)):
            raise OrganiserError(f"table {table}: {{\"02\": [a, b], \"13\": [c, d], \"board\": n or "
                                 f"\"boards\": [n, …] (optional)}}")
    session_id = db.session(session)
    if db.one("SELECT started FROM rounds WHERE session_id=? AND number=?", (session_id, number)):
        raise OrganiserError(f"round {number} of {session!r} has started already")
    db.db.execute("INSERT OR IGNORE INTO rounds (session_id, number) VALUES (?,?)", (session_id, number))
    round_id = db.one("SELECT id FROM rounds WHERE session_id=? AND number=?", (session_id, number))
    for table, seat in tables.items():
        p02 = _pair(db, session_id, seat["02"], f"table {table} seats 0/2")
        p13 = _pair(db, session_id, seat["13"], f"table {table} seats 1/3")
        numbers, board_id = _seat_boards(db, session_id, session, table, seat)
        db.db.execute("INSERT OR REPLACE INTO seatings (round_id, table_id, pair_02, pair_13, board_id, boards) "
                      "VALUES (?,?,?,?,?,?)", (round_id, table, p02, p13, board_id,
                                               json.dumps(numbers) if numbers else None))
    db.db.execute("UPDATE rounds SET started=? WHERE id=?", (db.clock(), round_id))
    return {"round": round_id, "session": session, "number": number}


def _correct(db: ClubDB, body: dict) -> dict:
    _only(body, {"hand", "side", "levels", "attackers_points", "reason"}, "correct")
    hand, side, reason = _int(body, "hand", 1), body.get("side"), _text(body, "reason")
    if side not in ("02", "13"):
        raise OrganiserError("'side' is \"02\" or \"13\"")
    fix: dict = {"reason": reason}
    if "levels" in body:
        fix["levels"] = _int(body, "levels", -20)
    if "attackers_points" in body:
        fix["attackers_points"] = _int(body, "attackers_points", 0)
    if len(fix) == 1:
        raise OrganiserError("correct needs 'levels' and/or 'attackers_points'")
    if not db.one("SELECT 1 FROM results WHERE hand_id=? AND side=?", (hand, side)):
        raise OrganiserError(f"no result of hand {hand} for seats {side}")
    db.db.execute("UPDATE results SET corrected=? WHERE hand_id=? AND side=?", (json.dumps(fix), hand, side))
    return {"hand": hand, "side": side, **fix}


def _withdraw(db: ClubDB, body: dict) -> dict:
    _only(body, {"table", "reason"}, "withdraw")
    table, reason = body.get("table"), _text(body, "reason")
    if not isinstance(table, str) or table not in set(db.tables()):
        raise OrganiserError(f"table {table!r} is not one of the club's tables")
    db.db.execute("UPDATE tables SET withdrawn=1, withdrawn_reason=? WHERE id=?", (reason, table))
    return {"table": table, "reason": reason}


def apply_action(db: ClubDB, action: str, body, by: str) -> dict:
    """Check and apply one action in one transaction (with its ``organiser`` row); a refusal is
    logged too, and changes nothing else."""
    fns = {"start-round": _start_round, "correct": _correct, "withdraw": _withdraw}
    fn = fns.get(action)
    try:
        if fn is None:
            raise OrganiserError(f"unknown action {action!r}: the actions are {', '.join(ACTIONS)}")
        with db.tx():
            done = fn(db, body)
            db.note_organiser(action, True, by, done)
        return done
    except OrganiserError as exc:
        with db.tx():
            db.note_organiser(action[:40], False, by, {"why": str(exc)})
        raise
