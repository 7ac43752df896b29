"""The event log is a real SQLite file: append-only, durable, ordered, and safe against resends."""
import multiprocessing
import os
import signal
import sqlite3

import pytest

from shengji_table.store import EventLog, LogError


def test_rows_come_back_in_order_with_their_kind(tmp_path):
    path = tmp_path / "table.sqlite"
    with EventLog(path) as log:
        a = log.append("physical", {"tap": "S10#1"}, boot=7, seq=1)
        b = log.append("game", {"event": "play", "seat": 0})
        c = log.append("effect", {"ring": 0, "pattern": "pending"})
    with EventLog(path) as log:
        rows = list(log.entries())
        assert [r.id for r in rows] == [a, b, c]
        assert [r.kind for r in rows] == ["physical", "game", "effect"]
        assert log.game_events() == [{"event": "play", "seat": 0}]
        assert list(log.entries(kind="physical"))[0].seq == 1


def test_log_is_append_only_even_for_raw_sql(tmp_path):
    path = tmp_path / "table.sqlite"
    with EventLog(path) as log:
        log.append("game", {"n": 1})
    db = sqlite3.connect(path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("UPDATE entries SET payload='{}'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("DELETE FROM entries")
    db.close()
    with EventLog(path) as log:
        assert log.game_events() == [{"n": 1}]


def test_a_resent_physical_event_is_recognised_and_refused(tmp_path):
    with EventLog(tmp_path / "t.sqlite") as log:
        log.append("physical", {"tap": 1}, boot=3, seq=10)
        assert log.seen(3, 10) and not log.seen(3, 11) and not log.seen(4, 10)
        with pytest.raises(LogError, match="already in the log"):
            log.append("physical", {"tap": 1}, boot=3, seq=10)
        assert len(list(log.entries())) == 1


def test_unknown_kind_and_foreign_file_are_clear_errors(tmp_path):
    with EventLog(tmp_path / "t.sqlite") as log:
        with pytest.raises(LogError, match="unknown entry kind"):
            log.append("gossip", {})
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(LogError, match="not a usable event log"):
        EventLog(junk)


def test_append_many_is_all_or_nothing(tmp_path):
    with EventLog(tmp_path / "t.sqlite") as log:
        log.append("game", {"n": 0})
        with pytest.raises(LogError):
            log.append_many([("game", {"n": 1}), ("nonsense", {"n": 2})])
        assert log.game_events() == [{"n": 0}]
        log.append_many([("game", {"n": 1}), ("ruling", {"r": "R-4.4"})])
        assert [e.kind for e in log.entries()] == ["game", "game", "ruling"]


def _writer(path, ready):
    log = EventLog(path)
    for n in range(100000):
        log.append("game", {"n": n})
        if n == 50:
            ready.set()


def test_rows_written_before_a_sigkill_survive_it(tmp_path):
    """A host killed mid-write loses nothing it had appended: every row read back is whole and the
    numbering has no holes."""
    path = str(tmp_path / "t.sqlite")
    ctx = multiprocessing.get_context("fork")
    ready = ctx.Event()
    proc = ctx.Process(target=_writer, args=(path, ready))
    proc.start()
    assert ready.wait(20)
    os.kill(proc.pid, signal.SIGKILL)
    proc.join()
    with EventLog(path) as log:
        ns = [e["n"] for e in log.game_events()]
    assert len(ns) > 50
    assert ns == list(range(len(ns)))


def test_read_only_open_reads_a_log_and_refuses_everything_else(tmp_path):
    path = tmp_path / "t.sqlite"
    with EventLog(path) as log:
        log.append("game", {"n": 1})
    path.chmod(0o444)
    with EventLog(path, read_only=True) as log:
        assert log.game_events() == [{"n": 1}]
        with pytest.raises(LogError, match="read-only"):
            log.append("game", {"n": 2})
    with pytest.raises(LogError, match="no such log file"):
        EventLog(tmp_path / "typo.sqlite", read_only=True)
    assert not (tmp_path / "typo.sqlite").exists()
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE x (y)").connection.close()
    with pytest.raises(LogError, match="not a shengji-table event log"):
        EventLog(other, read_only=True)
    junk = tmp_path / "junk"
    junk.write_bytes(b"x" * 4096)
    with pytest.raises(LogError, match="not an event log"):
        EventLog(junk, read_only=True)


def test_append_many_keeps_the_link_identity_of_physical_rows(tmp_path):
    with EventLog(tmp_path / "t.sqlite") as log:
        log.append_many([("physical", {"tap": 1}, 9, 1), ("game", {"n": 1})])
        assert log.seen(9, 1)
        with pytest.raises(LogError, match="already in the log"):
            log.append_many([("game", {"n": 2}), ("physical", {"tap": 1}, 9, 1)])
        assert log.game_events() == [{"n": 1}]      # the whole second batch was rolled back


def test_writing_never_adopts_another_programs_database(tmp_path):
    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE invoices (n)")
    db.commit()
    db.close()
    with pytest.raises(LogError, match="SQLite file of something else.*invoices"):
        EventLog(other)
    db = sqlite3.connect(other)
    assert [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")] == ["invoices"]
    db.close()


def test_one_writer_per_log_the_second_is_refused_naming_the_first(tmp_path):
    """Two programs must not write one table's log: while one holds it open for writing, a second
    is refused naming the first's process id; a reader (log show/export) still reads."""
    import subprocess
    import sys

    import pytest

    from shengji_table.store.log import EventLog, LogError
    path = tmp_path / "table.db"
    with EventLog(path) as log:
        log.append("game", {"type": "deal"})
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom shengji_table.store.log import EventLog\n"
         "log = EventLog(sys.argv[1]); print('holding', flush=True); time.sleep(60)", str(path)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "holding"
        with pytest.raises(LogError, match=rf"in use by process {holder.pid}: one program writes"):
            EventLog(path)
        with EventLog(path, read_only=True) as reader:
            assert [e.kind for e in reader.entries()] == ["game"]
    finally:
        holder.kill()
        holder.wait(timeout=10)
    with EventLog(path) as log:                 # the holder's lock died with it
        log.append("game", {"type": "draw"})


def test_an_altered_log_is_not_written_to(tmp_path):
    """A writer (serve or demo resuming) verifies the chain first: after a row was changed behind the
    log's back, opening it for writing is refused naming the row; nothing is appended."""
    import sqlite3

    import pytest

    from shengji_table.store.log import EventLog, LogError
    path = tmp_path / "table.db"
    with EventLog(path) as log:
        for n in range(4):
            log.append("game", {"type": "draw", "n": n})
        head = log.head()
    db = sqlite3.connect(path)
    db.executescript("DROP TRIGGER entries_no_update; UPDATE entries SET payload = '{\"n\":9}' WHERE id = 3;")
    db.close()
    with pytest.raises(LogError, match="has been altered: row 3 does not match its hash"):
        EventLog(path)
    with EventLog(path, read_only=True) as reader:
        assert reader.last_id() == 5 and reader.verify().bad_id == 3 and head != reader.verify().head
