"""``shengji-table log show|export|verify LOGFILE``: read a table's event log; export a match
record; check the log's hash chain.

    shengji-table log show club.sqlite [--kind game] [--match M] [--follow] [--full | --json]
    shengji-table log export club.sqlite [--match M] [--out FILE] [--format json|text]
    shengji-table log verify club.sqlite        # exit 0: the chain holds; 1: names the first bad row
                                                # (or says the log's -wal is missing)
    shengji-table log verify club.sqlite --head 1a2b3c4d5e6f7a8b   # exit 1 unless that row is still there
    shengji-table log verify table.sqlite --against-club club.sqlite   # exit 1 unless the club's copy of
                                                # this log's hashes is the log's
    shengji-table log backup club.sqlite copy.sqlite   # SQLite's online backup, -wal rows included

``show`` prints one line a row: id, time, match, kind and a short summary (``--follow`` keeps
printing rows as the table writes them, like ``tail -f``); ``--full`` prints each payload whole
instead of a summary cut at 60 characters a value, ``--json`` one JSON object a row (``id``,
``time``, ``match``, ``kind``, ``payload``, ``boot``, ``seq``: JSON Lines, for ``jq``).
``export`` rebuilds the game layer's JSON match record (the same format ``play --record`` writes
and ``replay`` reads) from the match's logged game events, or its PBN-like text export.

What ``export`` needs in the log: a ``meta`` row of the match whose payload holds the match header,
``{"ruleset": {...Ruleset.to_json()...}, "mode": "scanned"|"open"}``, optionally ``"seats"`` (or
``"start": {"seats": …}``) — the table service writes it when a match starts — and the match's
``game`` rows, each an event as ``Event.to_json()`` gives it (or ``{"event": {...}}``).  Game
events the game refused (they changed nothing) are left out of the record, said so on stderr, and
the exit status is 1.  Every reader verifies the log's hash chain first and refuses an altered log
(exit 2).

Reading never adds or changes a row (the file is checked read-only before it is opened).  A file
that is not an event log, or a match the log does not hold: a clear error and exit status 2.
"""
from __future__ import annotations

import argparse
import datetime
import json
import pathlib
import sqlite3
import sys
import time

from ..store.log import KINDS, EventLog, LogError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    show = sub.add_parser("show", help="print the log's rows", description="print the log's rows")
    show.add_argument("logfile", help="the table's SQLite event log")
    show.add_argument("--kind", choices=KINDS, help="only rows of this kind")
    show.add_argument("--match", help="only rows of this match")
    show.add_argument("--follow", action="store_true", help="keep printing new rows until Ctrl-C")
    form = show.add_mutually_exclusive_group()
    form.add_argument("--full", action="store_true", help="each row's whole payload, not a short summary")
    form.add_argument("--json", action="store_true", help="one JSON object a row (JSON Lines)")
    show.add_argument("--interval", type=float, default=0.5, help=argparse.SUPPRESS)
    export = sub.add_parser("export", help="rebuild the match record from the logged game events",
                            description="rebuild the match record from the logged game events")
    export.add_argument("logfile", help="the table's SQLite event log")
    export.add_argument("--match", help="which match (default: the only one, else the latest)")
    export.add_argument("--out", metavar="FILE", help="write here (atomically) instead of stdout")
    export.add_argument("--format", choices=("json", "text"), default="json",
                        help="json: the match record replay reads; text: the PBN-like export")
    verify = sub.add_parser("verify", help="check the log's hash chain (exit 0: it holds; 1: names the first bad row)",
                            description="check the log's hash chain")
    verify.add_argument("logfile", help="the table's SQLite event log")
    verify.add_argument("--head", metavar="HASH",
                        help="a head hash written down earlier (16 hex digits or more, as the screen shows "
                             "it): exit 1 unless the log still holds that row")
    verify.add_argument("--against-club", metavar="CLUBDB",
                        help="the club's database (a copy will do): exit 1 unless every row of this log the club "
                             "received is in the log, unchanged")
    backup = sub.add_parser("backup", help="copy the log safely, even while a table writes it",
                            description="copy the log with SQLite's online backup (rows in its -wal included)")
    backup.add_argument("logfile", help="the table's SQLite event log")
    backup.add_argument("dest", help="the copy to write (must not exist)")


class LogCliError(Exception):
    """Bad input to the log command; exit status 2."""


def _fail(exc) -> int:
    print(f"shengji-table log: {exc}", file=sys.stderr)
    return 2


def open_read_only(path: str, *, check: bool = True, live: bool = False) -> EventLog:
    """The :class:`EventLog` at ``path``, opened read-only: a mistyped path or a foreign file is an
    error, never a new empty log.  ``check``: its hash chain is verified first, and a broken chain
    refused (a log without the chain — no hash on row 1 — is read with a warning: it cannot be verified)."""
    try:
        log = EventLog(path, read_only=True, live=live)
    except LogError as exc:
        raise LogCliError(str(exc)) from None
    if log.wal_missing:
        print(f"warning: {path}: its -wal file is missing (the log was not closed cleanly and the -wal was removed "
              f"since): any rows written after its last checkpoint are gone; reading the rows that are left",
              file=sys.stderr)
    if check:
        v = log.verify()
        if v.unchained:
            print(f"warning: {path} is a log without the hash chain: it cannot be verified (nothing shows whether "
                  f"it was altered); it is read-only, never written to again", file=sys.stderr)
        elif not v.ok:
            log.close()
            raise LogCliError(f"{path} has been altered: {v.reason} (shengji-table log verify {path})")
    return log


def _backup(args) -> int:
    log = open_read_only(args.logfile)
    try:
        v = log.backup(args.dest)
    finally:
        log.close()
    print(f"wrote {args.dest}: {v.rows} rows, head {v.head}" + ("" if v.ok else f" ({v.reason})"))
    return 0


def _verify(args) -> int:
    head = (args.head or "").strip().lower()
    if args.head is not None and not (16 <= len(head) <= 64 and all(c in "0123456789abcdef" for c in head)):
        raise LogCliError(f"--head is a head hash as log verify or the screen print it (16 to 64 hex digits), "
                          f"not {args.head!r}")
    log = open_read_only(args.logfile, check=False)
    try:
        v = log.verify()
        at = log.row_of_hash(head) if head and v.ok else None
    finally:
        log.close()
    if head and v.ok:
        if at is None:
            print(f"head {head} is not in this log ({v.rows} rows, head {v.head}): rows were removed since it "
                  f"was written down, or it is another log")
            return 1
        print(f"head {head} is row {at}; " + ("it is still the last row" if at == v.rows
                                               else f"{v.rows - at} rows were written after it"))
    if v.ok and log.wal_missing:
        print(f"incomplete: the {v.rows} rows left hold (head {v.head}), but the log's -wal is missing: "
              f"rows after its last checkpoint are gone")
        return 1
    if v.ok and args.against_club:
        return _against_club(args.logfile, args.against_club)
    if v.ok:
        print(f"ok: {v.rows} rows, the hash chain holds; head {v.head}")
        return 0
    print(f"broken at row {v.bad_id}: {v.reason}; the {v.rows} rows before it hold (head {v.head})")
    return 1


def club_copy(path: str, log_id: str) -> tuple[str | None, dict]:
    """``(table, {seq: hash})``: the rows of log ``log_id`` the club database at ``path`` holds,
    read without writing to it; :class:`LogCliError` for a file that is not a club database."""
    p = pathlib.Path(path)
    if not p.is_file():
        raise LogCliError(f"{path}: no such club database")
    try:
        db = sqlite3.connect(p.resolve().as_uri() + "?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise LogCliError(f"{path}: cannot read it: {exc}") from None
    try:
        found = db.execute("SELECT table_id, seq, hash FROM events WHERE log=? ORDER BY seq", (log_id,)).fetchall()
    except sqlite3.Error as exc:
        raise LogCliError(f"{path} is not a club database of this build (shengji-table club serve makes it): "
                          f"{exc}") from None
    finally:
        db.close()
    tables = sorted({r[0] for r in found})
    if len(tables) > 1:
        raise LogCliError(f"{path} holds this log under tables {', '.join(tables)}: one log is one table's")
    return (tables[0] if tables else None), {seq: digest for _t, seq, digest in found}


def _against_club(logfile: str, clubdb: str) -> int:
    """The table's log against the club's copy of its hashes (every row the club received)."""
    log = open_read_only(logfile, check=False)
    try:
        log_id = log.identity()[1]
        mine = log.hashes()
    finally:
        log.close()
    if log_id is None:
        raise LogCliError(f"{logfile} has no identity (a log without the hash chain): the club never took its rows")
    table, theirs = club_copy(clubdb, log_id)
    if not theirs:
        print(f"the club ({clubdb}) holds no row of this log (id {log_id}): not reported to it yet, or another "
              f"club's database")
        return 1
    last = max(mine, default=0)
    if max(theirs) > last:
        print(f"rows removed: the club holds rows 1–{max(theirs)} of this log (table {table}), the log ends at row "
              f"{last}")
        return 1
    differ = [seq for seq, digest in sorted(theirs.items()) if mine.get(seq) != digest]
    if differ:
        print(f"rewritten: row {differ[0]} is not the row the club received from table {table} (its hash differs; "
              f"{len(differ)} row(s) in all): the log was changed after the club took it")
        return 1
    held = max(theirs)
    print(f"ok: the club holds rows 1–{held} of this log (table {table}, log {log_id}) and every one is the "
          f"log's" + (f"; rows {held + 1}–{last} are not at the club yet" if last > held else ""))
    return 0


# ---- show ---------------------------------------------------------------------------------------

def summary(entry) -> str:
    """One short line for a row: what happened, without the whole payload."""
    p = entry.payload
    if isinstance(p, dict):
        if entry.kind == "game":
            event = p.get("event", p) if isinstance(p.get("event"), dict) else p
            rest = {k: v for k, v in event.items() if k != "type"}
            return f"{event.get('type', '?')} " + " ".join(f"{k}={_short(v)}" for k, v in sorted(rest.items()))
        if entry.kind == "meta" and isinstance(p.get("ruleset"), dict):
            extra = {k: v for k, v in p.items() if k not in ("ruleset", "mode")}
            return (f"match header: preset {p['ruleset'].get('preset', '?')}, mode {p.get('mode', 'scanned')}"
                    + "".join(f", {k}={_short(v)}" for k, v in sorted(extra.items())))
        return " ".join(f"{k}={_short(v)}" for k, v in sorted(p.items()))
    return _short(p)


def _short(value, limit: int = 60) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _line(entry, form: str = "short") -> str:
    """A row as ``show`` prints it: ``short`` (a summary), ``full`` (the whole payload) or ``json``."""
    at = datetime.datetime.fromtimestamp(entry.at).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]
    if form == "json":
        return json.dumps({"id": entry.id, "time": at, "match": entry.match, "kind": entry.kind,
                           "payload": entry.payload, "boot": entry.boot, "seq": entry.seq}, ensure_ascii=False)
    link = f" [{entry.boot:08x}:{entry.seq}]" if entry.seq is not None and entry.boot is not None else ""
    body = (json.dumps(entry.payload, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))
            if form == "full" else summary(entry))
    return f"{entry.id:6d} {at} {entry.match} {entry.kind:8s} {body}{link}"


def _show(args) -> int:
    log = open_read_only(args.logfile, live=args.follow)
    if args.match is not None and args.match not in log.matches():
        raise LogCliError(f"{args.logfile} holds no match {args.match!r}; it holds: "
                          + (", ".join(log.matches()) or "nothing yet"))
    last = 0
    form = "json" if getattr(args, "json", False) else "full" if getattr(args, "full", False) else "short"
    try:
        while True:
            for entry in log.entries(match=args.match, kind=args.kind, after=last, format_row=True):
                print(_line(entry, form), flush=True)
                last = entry.id
            if not args.follow:
                return 0
            time.sleep(args.interval)
    except KeyboardInterrupt:
        return 0
    except BrokenPipeError:
        sys.stderr.close()             # `log show … | head`: stop quietly
        return 0
    finally:
        log.close()


# ---- export -------------------------------------------------------------------------------------

def rebuild(log, match_name: str):
    """``(Match, seats, refused)`` from the match's header and game events; :class:`LogCliError`."""
    from ..game.events import EventError, event_from_json
    from ..game.match import Match
    from ..game.effects import Refusal
    from ..rules.ruleset import Ruleset, RulesetError
    header = None
    for entry in log.entries(match=match_name, kind="meta"):
        if isinstance(entry.payload, dict) and "ruleset" in entry.payload:
            header = entry.payload
            break
    if header is None:
        raise LogCliError(f"match {match_name!r} has no header in the log (a 'meta' row with its ruleset), "
                          f"so its record cannot be rebuilt")
    try:
        match = Match(Ruleset.from_json(header["ruleset"]), header.get("mode", "scanned"))
    except (RulesetError, ValueError, TypeError) as exc:
        raise LogCliError(f"match {match_name!r}: bad header: {exc}") from None
    start = header.get("start")
    seats = header.get("seats") or (start.get("seats") if isinstance(start, dict) else None) or None
    refused = []
    for entry in log.entries(match=match_name, kind="game"):
        raw = entry.payload
        if isinstance(raw, dict) and isinstance(raw.get("event"), dict):
            raw = raw["event"]            # a row that wraps the event with other fields
        try:
            event = event_from_json(raw)
        except EventError as exc:
            raise LogCliError(f"log row {entry.id} is not a game event: {exc}") from None
        effects = match.apply(event)
        if effects and isinstance(effects[0], Refusal):
            refused.append((entry.id, effects[0]))
    return match, seats, refused


def _export(args) -> int:
    from ..game.export import export_text
    from ..game.record import dumps, to_record
    log = open_read_only(args.logfile)
    try:
        matches = log.matches()
        if not matches:
            raise LogCliError(f"{args.logfile} is an empty log: no match to export")
        name = args.match if args.match is not None else matches[-1]
        if name not in matches:
            raise LogCliError(f"{args.logfile} holds no match {name!r}; it holds: {', '.join(matches)}")
        match, seats, refused = rebuild(log, name)
    finally:
        log.close()
    if args.match is None and len(matches) > 1:
        print(f"exporting match {name!r} (the latest of {len(matches)}; choose with --match)", file=sys.stderr)
    for row, r in refused:
        print(f"left out: log row {row}, refused by the game ({r.rule}: {r.reason})", file=sys.stderr)
    text = export_text(match, seats) if args.format == "text" else dumps(to_record(match, seats))
    if args.out:
        out = pathlib.Path(args.out)
        tmp = out.with_name(out.name + ".tmp")
        try:
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(out)
        except OSError as exc:
            raise LogCliError(f"cannot write {out}: {exc.strerror}") from None
        print(f"wrote {out}: match {name!r}, {len(match.events)} events, {len(match.summaries)} hands settled",
              file=sys.stderr)
    else:
        sys.stdout.write(text)
    # a record that had to leave rows out is not the whole match: say so in the exit status
    return 1 if refused else 0


def run(args: argparse.Namespace) -> int:
    try:
        if args.action == "verify":
            return _verify(args)
        if args.action == "backup":
            return _backup(args)
        return _show(args) if args.action == "show" else _export(args)
    except (LogCliError, LogError) as exc:
        return _fail(exc)
    except sqlite3.DatabaseError as exc:
        return _fail(f"{args.logfile}: cannot read the log: {exc}")
