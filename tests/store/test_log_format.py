"""The log's format row: row 1 names the format and the log's identity; a log of this format is
chained throughout, and a log without the chain is read-only — never written to again, refused by
``serve`` — so blanking a hash cannot turn the chain off."""
import hashlib
import pathlib
import sqlite3
import subprocess
import sys

import pytest

from shengji_table.store.log import FORMAT, FORMAT_MATCH, EventLog, LogError, UnchainedLog

REPO = pathlib.Path(__file__).resolve().parents[2]


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "shengji_table", *map(str, args)], capture_output=True, text=True,
                          cwd=str(REPO))


def _log(path, n=4):
    with EventLog(path) as log:
        for i in range(n):
            log.append("game", {"type": "draw", "n": i})
        return log.identity()


def _sql(path, script):
    db = sqlite3.connect(path)
    db.executescript(script)
    db.close()


def _digest(path) -> str:
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def test_a_new_log_begins_with_its_format_row_and_a_random_identity(tmp_path):
    first, second = _log(tmp_path / "a.db"), _log(tmp_path / "b.db")
    assert first[0] == second[0] == FORMAT == 2
    assert len(first[1]) == 32 and int(first[1], 16) >= 0 and first[1] != second[1]
    with EventLog(tmp_path / "a.db", read_only=True) as log:
        row = next(log.entries(format_row=True))
        assert (row.id, row.kind, row.match) == (1, "meta", FORMAT_MATCH)
        assert row.payload == {"log": {"format": 2, "id": first[1]}}
        assert [e.payload["n"] for e in log.entries()] == [0, 1, 2, 3]      # the format row is no match's
        assert log.matches() == ["default"] and log.verify().ok


def test_blanking_the_first_hash_of_an_edited_log_is_an_alteration_not_an_old_log(tmp_path):
    """The attack: edit a row, then set row 1's hash to NULL so the log reads as one from before the
    chain.  The format row says the log is chained: verify names it altered (exit 1), every reader
    refuses it (exit 2), and a writer (serve, demo) does not open it."""
    path = tmp_path / "t.db"
    _log(path)
    _sql(path, "DROP TRIGGER entries_no_update; UPDATE entries SET payload='{\"n\":9,\"type\":\"draw\"}' WHERE id=3;"
               "UPDATE entries SET hash=NULL WHERE id=1;")
    with EventLog(path, read_only=True) as log:
        v = log.verify()
        assert not v.ok and not v.unchained and v.bad_id == 1 and "format row, has no hash" in v.reason
    before = _digest(path)
    with pytest.raises(LogError, match="has been altered"):
        EventLog(path)
    assert _digest(path) == before
    verify = _cli("log", "verify", path)
    assert verify.returncode == 1 and "broken at row 1" in verify.stdout
    for reader in (("log", "show", path), ("log", "export", path)):
        out = _cli(*reader)
        assert out.returncode == 2 and "has been altered" in out.stderr and out.stdout == ""


@pytest.mark.parametrize("how", ["blank row 1's hash", "drop the hash column"])
def test_a_log_without_the_chain_is_read_only_and_never_written_again(tmp_path, how):
    """A log with no hash on row 1 (a build before the chain, or an old log whose first hash was
    blanked): readers read it and say it cannot be verified; writing is refused with the file left
    as it was, so nothing ever carries on from it."""
    path = tmp_path / "t.db"
    with EventLog(path) as log:
        log.append("game", {"type": "draw", "n": 0})
    if how == "blank row 1's hash":       # an old chained log (no format row) with its first hash blanked
        _sql(path, "DROP TRIGGER entries_no_update; DROP TRIGGER entries_no_delete;"
                   "DELETE FROM entries WHERE id=1; UPDATE entries SET hash=NULL;")
    else:                                 # a log of a build before the chain: no hash column at all
        path.unlink()
        _sql(path, "CREATE TABLE entries (id INTEGER PRIMARY KEY AUTOINCREMENT, match TEXT NOT NULL,"
                   " kind TEXT NOT NULL, boot INTEGER, seq INTEGER, payload TEXT NOT NULL, at REAL NOT NULL);"
                   "INSERT INTO entries VALUES (2, 'default', 'game', NULL, NULL, '{\"n\":0,\"type\":\"draw\"}', 1.5);")
    before = _digest(path)
    with pytest.raises(UnchainedLog, match="without the hash chain.*read-only"):
        EventLog(path)
    assert _digest(path) == before and not pathlib.Path(f"{path}-wal").exists()
    with EventLog(path, read_only=True) as log:
        assert log.verify().unchained and log.identity() == (0, None)
        assert [e.payload["n"] for e in log.entries()] == [0]
    shown = _cli("log", "show", path)
    assert shown.returncode == 0 and "cannot be verified" in shown.stderr and "draw" in shown.stdout
    assert _cli("log", "verify", path).returncode == 1
    assert _digest(path) == before


def test_serve_refuses_a_log_without_the_chain(tmp_path):
    """``serve --log`` on an unchained log: exit 2 with the reason, the log untouched."""
    from shengji_table.sim.cpython_pico import CPythonPico
    from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set
    deck = tmp_path / "deck.json"
    sim_deck_set(2).save(deck)
    path = tmp_path / "table.db"
    with EventLog(path) as log:
        log.append("meta", {"note": "an old log"})
    _sql(path, "DROP TRIGGER entries_no_update; DROP TRIGGER entries_no_delete; DELETE FROM entries WHERE id=1;"
               "UPDATE entries SET hash=NULL;")
    before = _digest(path)
    with CPythonPico() as pico:
        out = subprocess.run([sys.executable, "-m", "shengji_table", "serve", "--device", pico.device, "--board",
                              str(DEFAULT_BOARD), "--deck-set", str(deck), "--log", str(path)],
                             capture_output=True, text=True, cwd=str(REPO), timeout=60)
    assert out.returncode == 2 and "without the hash chain" in out.stderr and "start a new log" in out.stderr
    assert "Traceback" not in out.stderr and _digest(path) == before
