"""``shengji-table log show|export`` on a real SQLite event log, run as subprocesses.

The log is written the way the table service writes it (a ``meta`` header row with the ruleset,
then one ``game`` row per event, physical rows in between); the exported record must be exactly the
record of the same match played directly in the game layer.
"""
import json
import select
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from shengji_table.game.bots import make_bot
from shengji_table.game.driver import run_match
from shengji_table.game.export import export_text
from shengji_table.game.match import Match
from shengji_table.game.record import dumps, from_record, loads, to_record
from shengji_table.rules.ruleset import Ruleset
from shengji_table.store import EventLog, LogError

EXE = Path(sys.executable).parent / "shengji-table"    # the venv's console script, as a user runs it
SEATS = ["north", "east", "south", "west"]


def shengji(*args, cwd=None):
    return subprocess.run([str(EXE), *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)


def played(seed: int, preset="classic"):
    rs = Ruleset.from_preset(preset)
    m = Match(rs, "scanned")
    run_match(m, [make_bot("random", 10 * seed + i) for i in range(rs.players)], [seed])
    return m


def header(m, seats=SEATS):
    return {"ruleset": m.ruleset.to_json(), "mode": m.mode, "seats": seats}


def write_match(log, name, m, *, physical_every=0, wrapped=False):
    rows = [("meta", header(m))]
    for i, e in enumerate(m.events):
        if physical_every and i % physical_every == 0:
            rows.append(("physical", {"tap": "stand-in", "reader": i % 4}))
        rows.append(("game", {"event": e.to_json()} if wrapped else e.to_json()))
    log.append_many(rows, match=name)


@pytest.fixture(scope="module")
def matches():
    return played(3), played(4)


@pytest.fixture
def logfile(tmp_path, matches):
    path = tmp_path / "table.sqlite"
    with EventLog(path) as log:
        write_match(log, "friday-1", matches[0], physical_every=7)
        write_match(log, "friday-2", matches[1], wrapped=True)
    return path


def test_log_cli_export_json_is_the_game_layers_record_of_the_same_match(logfile, matches, tmp_path):
    r = shengji("log", "export", logfile, "--match", "friday-1")
    assert r.returncode == 0, r.stderr
    assert r.stdout == dumps(to_record(matches[0], SEATS))
    again, seats = from_record(loads(r.stdout))          # and it replays to the same match
    assert seats == SEATS and again.summaries == matches[0].summaries
    out = tmp_path / "rec.json"
    r = shengji("log", "export", logfile, "--match", "friday-2", "--out", out)
    assert r.returncode == 0 and "wrote" in r.stderr
    assert out.read_text() == dumps(to_record(matches[1], SEATS))


def test_log_cli_export_text_and_the_default_match_is_the_latest(logfile, matches):
    r = shengji("log", "export", logfile, "--format", "text")
    assert r.returncode == 0, r.stderr
    assert r.stdout == export_text(matches[1], SEATS)
    assert "exporting match 'friday-2' (the latest of 2; choose with --match)" in r.stderr


def test_log_cli_export_leaves_out_refused_game_events_says_so_and_fails(tmp_path, matches):
    """The record of what could be used is written, each row left out is named, and the exit status
    is 1: a record missing rows is not the whole match."""
    m = matches[0]
    path = tmp_path / "t.sqlite"
    events = [e.to_json() for e in m.events]
    bad = dict(events[-1])                    # the last accepted event, sent again: refused now
    with EventLog(path) as log:
        log.append("meta", header(m))
        log.append_many([("game", e) for e in events] + [("game", bad)])
    r = shengji("log", "export", path)
    assert r.returncode == 1, r.stderr
    assert r.stdout == dumps(to_record(m, SEATS))
    assert f"left out: log row {len(events) + 3}, refused by the game" in r.stderr


def test_log_cli_show_prints_one_readable_line_per_row_and_filters(logfile, matches):
    r = shengji("log", "show", logfile)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    with EventLog(logfile) as log:
        rows = list(log.entries())
    assert len(lines) == len(rows) + 1 and lines[0].split()[:4][3] == "(log)"     # the format row first
    assert '"format":2' in lines[0]
    first = lines[1].split()
    assert first[0] == "2" and first[3:6] == ["friday-1", "meta", "match"]
    assert "preset classic, mode scanned" in lines[1]
    deal = matches[0].events[0].to_json()
    assert lines[2].split()[3:] == ["friday-1", "physical", "reader=0", "tap=stand-in"]
    assert lines[3].split()[3:] == ["friday-1", "game", "deal", "order=null", f"seed={deal['seed']}"]
    r = shengji("log", "show", logfile, "--kind", "game", "--match", "friday-2")
    games = r.stdout.splitlines()
    assert len(games) == len(matches[1].events)
    assert all(" friday-2 game " in line for line in games)
    assert games[-1].split()[5] == matches[1].events[-1].type      # wrapped events summarised too


def test_log_cli_show_follow_prints_rows_as_they_are_written(logfile):
    proc = subprocess.Popen([str(EXE), "log", "show", str(logfile), "--kind", "ruling", "--follow",
                             "--interval", "0.05"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(0.3)
        with EventLog(logfile) as log:
            row = log.append("ruling", {"rule": "R-4.2", "why": "revoke"}, match="friday-2")
            log.append("game", {"type": "confirm", "seat": 1}, match="friday-2")   # filtered out
        ready, _, _ = select.select([proc.stdout], [], [], 10)
        assert ready, "no line within 10 s"
        line = proc.stdout.readline().split()
        assert line[0] == str(row) and line[3:] == ["friday-2", "ruling", "rule=R-4.2", "why=revoke"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_log_cli_a_file_that_is_not_a_log_or_an_unknown_match_is_a_clear_error(tmp_path, logfile):
    rec = tmp_path / "record.json"
    rec.write_text(json.dumps({"format": "shengji-table/match-record"}))
    for action in ("show", "export"):
        r = shengji("log", action, rec)
        assert r.returncode == 2 and "is not an event log" in r.stderr and "Traceback" not in r.stderr
    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE notes (x)")
    db.commit()
    db.close()
    before = other.read_bytes()
    r = shengji("log", "show", other)
    assert r.returncode == 2 and "not a shengji-table event log" in r.stderr
    assert other.read_bytes() == before                 # not turned into an empty log
    r = shengji("log", "export", tmp_path / "absent.sqlite")
    assert r.returncode == 2 and "no such log file" in r.stderr
    assert not (tmp_path / "absent.sqlite").exists()
    r = shengji("log", "export", logfile, "--match", "saturday")
    assert r.returncode == 2 and "holds no match 'saturday'; it holds: friday-1, friday-2" in r.stderr
    r = shengji("log", "show", logfile, "--match", "saturday")
    assert r.returncode == 2 and "holds no match 'saturday'" in r.stderr


def test_log_cli_export_needs_the_match_header_and_real_game_events(tmp_path, matches):
    path = tmp_path / "t.sqlite"
    with EventLog(path) as log:
        log.append("game", matches[0].events[0].to_json(), match="headless")
        log.append("meta", header(matches[0]), match="odd")
        log.append("game", {"type": "teleport", "seat": 1}, match="odd")
    r = shengji("log", "export", path, "--match", "headless")
    assert r.returncode == 2 and "has no header in the log" in r.stderr
    r = shengji("log", "export", path, "--match", "odd")
    assert r.returncode == 2 and "log row 4 is not a game event" in r.stderr
    empty = tmp_path / "empty.sqlite"
    EventLog(empty).close()
    r = shengji("log", "export", empty)
    assert r.returncode == 2 and "empty log" in r.stderr


def test_log_cli_export_of_a_virtual_table_session_is_the_match_the_service_played(tmp_path):
    """The log written by the real table service (serial link over a pseudo-terminal to the real
    firmware under MicroPython, bots tapping simulated cards) exports to the record of exactly the
    match the service's controller played; the record replays and its summary checks."""
    from shengji_table.sim.match_runner import SimHost
    from shengji_table.sim.virtual_table import VirtualTable
    path = tmp_path / "club.db"
    with VirtualTable() as vt:
        host = SimHost(vt.device, path, mode="scanned", seed=11, hands=1, match="club-night").start()
        try:
            assert host.run(timeout=120), "the virtual table did not finish one hand in 120 s"
            played = host.controller.match
        finally:
            host.close()
    assert len(played.summaries) == 1
    r = shengji("log", "export", path)
    assert r.returncode == 0, r.stderr
    record = loads(r.stdout)
    assert record["events"] == [e.to_json() for e in played.events]
    again, _ = from_record(record)                  # replays, and the summary matches the events
    assert again.summaries == played.summaries and again.levels == played.levels
    shown = shengji("log", "show", path, "--kind", "physical").stdout.splitlines()
    assert shown and all(" club-night physical " in line for line in shown)
    assert any("type=tap" in line and "uid=" in line for line in shown)


def _chained_log(tmp_path, m):
    path = tmp_path / "t.sqlite"
    with EventLog(path) as log:
        log.append("meta", header(m))
        log.append_many([("game", e.to_json()) for e in m.events])
    return path


def _tamper(path, sql):
    """What a tool that ignores our rules could do: drop the triggers, change a row, put them back."""
    import sqlite3
    db = sqlite3.connect(path)
    db.executescript("DROP TRIGGER entries_no_update; DROP TRIGGER entries_no_delete;" + sql)
    db.close()


def test_log_verify_holds_for_a_log_as_written(tmp_path, matches):
    path = _chained_log(tmp_path, matches[0])
    r = shengji("log", "verify", path)
    assert r.returncode == 0 and r.stdout.startswith(f"ok: {len(matches[0].events) + 2} rows"), r.stdout + r.stderr
    with EventLog(path, read_only=True) as log:
        assert log.head() in r.stdout and len(log.head()) == 64


@pytest.mark.parametrize("sql, bad", [
    ("UPDATE entries SET payload = replace(payload, 'seed', 'seeD') WHERE id = 3;", 3),
    ("DELETE FROM entries WHERE id = 4;", 4),
    ("UPDATE entries SET at = at + 1 WHERE id = 6;", 6),
])
def test_log_verify_names_the_first_altered_row_and_readers_refuse_it(tmp_path, matches, sql, bad):
    path = _chained_log(tmp_path, matches[0])
    _tamper(path, sql)
    r = shengji("log", "verify", path)
    assert r.returncode == 1 and f"broken at row {bad}" in r.stdout, r.stdout + r.stderr
    for action in ("show", "export"):
        r = shengji("log", action, path)
        assert r.returncode == 2 and "has been altered" in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_log_backup_copies_the_rows_still_in_the_wal_and_the_copy_verifies(tmp_path, matches):
    """While a table holds its log open, rows may live only in the -wal: copying the .db alone loses
    them; ``log backup`` (SQLite's online backup) does not, and the copy's chain holds."""
    import shutil
    path = tmp_path / "t.sqlite"
    log = EventLog(path)                          # held open, as by a running serve
    try:
        log.append("meta", header(matches[0]))
        log.append_many([("game", e.to_json()) for e in matches[0].events])
        assert (tmp_path / "t.sqlite-wal").exists()
        naive = tmp_path / "naive.sqlite"
        shutil.copy(path, naive)                  # the unsafe way: the main file only
        r = shengji("log", "backup", path, tmp_path / "copy.sqlite")
        assert r.returncode == 0 and f"{len(matches[0].events) + 2} rows" in r.stdout, r.stdout + r.stderr
        assert shengji("log", "verify", tmp_path / "copy.sqlite").returncode == 0
        try:                                      # what docs/table.md warns about: rows are lost
            with EventLog(naive, read_only=True) as lost:
                assert lost.last_id() < log.last_id()
        except LogError as exc:
            assert "no 'entries' table" in str(exc)   # here: every row was still in the -wal
        again = shengji("log", "backup", path, tmp_path / "copy.sqlite")
        assert again.returncode == 2 and "never overwrites" in again.stderr
    finally:
        log.close()


def test_log_read_only_copy_is_read_without_creating_files_beside_it(tmp_path, matches):
    """A log closed cleanly is one file; a read-only copy of it in a read-only folder is read, and
    nothing (no -shm, no -wal) is created beside it."""
    import os
    path = _chained_log(tmp_path, matches[0])
    folder = tmp_path / "ro"
    folder.mkdir()
    copy = folder / "copy.sqlite"
    copy.write_bytes(path.read_bytes())
    os.chmod(copy, 0o444)
    os.chmod(folder, 0o555)
    try:
        for action in ("show", "export", "verify"):
            r = shengji("log", action, copy)
            assert r.returncode == 0, (action, r.stderr)
        assert sorted(p.name for p in folder.iterdir()) == ["copy.sqlite"]
    finally:
        os.chmod(folder, 0o755)


def test_log_damaged_files_fail_cleanly_with_exit_2(tmp_path, matches):
    """A truncated log, and one with a byte flipped inside a row: every reader answers with one line
    and exit 2 (verify: exit 1 naming the row), never a traceback; a writer refuses them too."""
    path = _chained_log(tmp_path, matches[0])
    data = path.read_bytes()
    truncated = tmp_path / "truncated.sqlite"
    truncated.write_bytes(data[:len(data) // 2])
    flipped = tmp_path / "flipped.sqlite"
    raw = bytearray(data)
    at = raw.find(b'"type":"draw"')
    raw[at + 8] ^= 0x01                           # "draw" → "eraw" inside one row's payload
    flipped.write_bytes(bytes(raw))
    for action in ("show", "export", "verify"):
        r = shengji("log", action, truncated)
        assert r.returncode == 2 and "Traceback" not in r.stderr and r.stderr.count("\n") == 1, r.stderr
        r = shengji("log", action, flipped)
        expected = 1 if action == "verify" else 2
        assert r.returncode == expected and "Traceback" not in r.stderr, (action, r.stdout, r.stderr)
    for bad in (truncated, flipped):
        with pytest.raises(LogError):
            EventLog(bad)


def test_log_cli_show_full_prints_whole_payloads_and_json_one_object_a_row(tmp_path):
    """``log show`` cuts a long payload; ``--full`` prints it whole, ``--json`` one JSON object a
    row that reads back to the stored payload; both together are refused."""
    path = tmp_path / "table.sqlite"
    long = "the referee ruled that " + "the lead was out of turn and " * 10
    with EventLog(path) as log:
        log.append_many([("meta", {"referee": {"action": "pause", "reason": long}})], match="m1")
    short = shengji("log", "show", path)
    assert short.returncode == 0 and long not in short.stdout and "…" in short.stdout
    full = shengji("log", "show", path, "--full")
    assert full.returncode == 0, full.stderr
    assert long in full.stdout and len(full.stdout.splitlines()) == 2       # the log's format row, the row
    js = shengji("log", "show", path, "--json")
    assert js.returncode == 0, js.stderr
    rows = [json.loads(line) for line in js.stdout.splitlines()]
    assert [(r["id"], r["match"], r["kind"]) for r in rows] == [(1, "(log)", "meta"), (2, "m1", "meta")]
    assert rows[1]["payload"] == {"referee": {"action": "pause", "reason": long}}
    both = shengji("log", "show", path, "--full", "--json")
    assert both.returncode == 2 and "not allowed with" in both.stderr
