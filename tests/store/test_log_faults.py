"""The log under damage and exhausted resources: a lost ``-wal``, a clean close, a full disk.

What the log promises here (docs/referee.md, "What the record promises"): a cleanly closed log is
one self-contained file; a log whose ``-wal`` was removed after an unclean stop is never written
to again, and its readers say so and read (verified) what is left, which is everything up to the
last checkpoint (a hand's end); a full disk stops the writer with :class:`LogWriteError` and every
row it had acknowledged is still there, the chain whole.
"""
import pathlib
import shutil
import signal
import subprocess
import sys

import pytest

from shengji_table.store.log import EventLog, LogError

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tests"))
from full_disk import small_tmpfs  # noqa: E402

# A writer as its own process: appends game rows, checkpoints after ``every`` rows (as the table
# does at each hand's end), prints the id of each row once append returned, and stops on the
# first failed write with the error's class and message.
WRITER = """
import sys
from shengji_table.store.log import EventLog, LogError
path, rows, every = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
log = EventLog(path)
try:
    for n in range(rows):
        rid = log.append_many([("game", {"type": "draw", "n": n, "pad": "x" * 200})])[-1]
        print("ok", rid, flush=True)
        if every and rid % every == 0:
            log.checkpoint()
            print("checkpoint", rid, flush=True)
    print("done", flush=True)
except LogError as exc:
    print("failed", type(exc).__name__, exc, flush=True)
    try:
        log.append("game", {"type": "draw", "after": True})
    except LogError as again:
        print("refused", again, flush=True)
import time
time.sleep(60)
"""


def _writer(path, rows, every=0, preexec_fn=None):
    return subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(rows), str(every)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(REPO_ROOT),
                            preexec_fn=preexec_fn)


def _read_until(proc, word):
    lines = []
    for line in proc.stdout:
        lines.append(line.strip())
        if line.startswith(word):
            return lines
    raise AssertionError(f"the writer stopped before {word!r}: {lines[-3:]} {proc.stderr.read()}")


def _log_cli(*args):
    return subprocess.run([sys.executable, "-m", "shengji_table", "log", *map(str, args)],
                          capture_output=True, text=True, timeout=60, cwd=str(REPO_ROOT))


def test_a_clean_close_checkpoints_so_the_db_alone_holds_every_row(tmp_path):
    """A log closed cleanly never needs its -wal: none is left, and a plain copy of the .db reads
    every row with the chain whole."""
    path = tmp_path / "t.db"
    with EventLog(path) as log:
        for n in range(300):
            log.append("game", {"n": n})
        head = log.head()
        assert (tmp_path / "t.db-wal").exists()       # while open, rows live in the -wal
    assert not (tmp_path / "t.db-wal").exists() and not (tmp_path / "t.db-shm").exists()
    shutil.copy(path, tmp_path / "copy.db")
    with EventLog(tmp_path / "copy.db", read_only=True) as copy:
        v = copy.verify()
        assert v.ok and v.rows == 301 and v.head == head      # the format row and 300


def test_a_missing_wal_after_a_kill_is_refused_for_writing_and_read_as_far_as_it_goes(tmp_path):
    """SIGKILL mid-match, then the -wal deleted: the rows after the last checkpoint are gone.  A
    writer (serve, demo resuming) refuses the log; ``log verify`` says it is incomplete (exit 1)
    and the rows left verify; ``log show`` warns and prints exactly the checkpointed rows."""
    path = tmp_path / "t.db"
    proc = _writer(path, 10_000, every=40)
    try:
        _read_until(proc, "checkpoint 80")
        _read_until(proc, "ok 100")                  # 20 rows after the checkpoint, only in the -wal
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    (tmp_path / "t.db-wal").unlink()
    assert (tmp_path / "t.db-shm").exists()
    with pytest.raises(LogError, match="its -wal file is missing .* not written to"):
        EventLog(path)
    with EventLog(path, read_only=True) as reader:
        v = reader.verify()
        assert reader.wal_missing and v.ok and v.rows >= 80 and v.rows % 40 == 0   # up to a checkpoint
        kept = v.rows
    verify = _log_cli("verify", path)
    assert verify.returncode == 1 and f"incomplete: the {kept} rows left hold" in verify.stdout, verify.stdout
    show = _log_cli("show", path)
    assert show.returncode == 0 and "Traceback" not in show.stderr
    assert "-wal file is missing" in show.stderr and len(show.stdout.splitlines()) == kept


def test_a_kill_with_its_wal_kept_loses_nothing(tmp_path):
    """The control for the test above: SIGKILL with the -wal left in place loses no row that was
    acknowledged, and the log is written to again."""
    path = tmp_path / "t.db"
    proc = _writer(path, 10_000, every=40)
    try:
        acked = [int(line.split()[1]) for line in _read_until(proc, "ok 100") if line.startswith("ok")]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    with EventLog(path) as log:
        v = log.verify()
        assert v.ok and v.rows >= max(acked) and log.last_id() == v.rows
        log.append("game", {"type": "resumed"})


def _check_full_disk_stop(path, proc):
    lines = _read_until(proc, "refused")
    acked = [int(line.split()[1]) for line in lines if line.startswith("ok")]
    failed = next(line for line in lines if line.startswith("failed"))
    assert failed.startswith("failed LogWriteError") and "cannot be written" in failed, failed
    assert "nothing after it was acknowledged" in failed and f"rows 1–{acked[-1]} are kept" in failed
    assert "is not written to since a write failed" in lines[-1]
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert acked and "Traceback" not in proc.stderr.read()
    with EventLog(path, read_only=True) as reader:
        v = reader.verify()
        assert v.ok and v.rows == acked[-1] == reader.last_id()     # every acknowledged row, no other


def test_a_full_disk_stops_the_writer_cleanly_and_keeps_every_acknowledged_row(tmp_path):
    """A tmpfs of 256 KiB fills mid-match: the write fails with a clear LogWriteError (no traceback),
    later writes are refused, and the log read afterwards holds exactly the acknowledged rows."""
    with small_tmpfs(tmp_path / "mnt", "256k") as mnt:
        path = mnt / "t.db"
        proc = _writer(path, 100_000, every=50)
        _check_full_disk_stop(path, proc)


def test_a_file_size_limit_stops_the_writer_cleanly_too(tmp_path):
    """The same stop when the kernel refuses to grow the file (RLIMIT_FSIZE, as ``ulimit -f``; Python
    ignores SIGXFSZ, so the write fails with EFBIG): no root needed."""
    import resource
    path = tmp_path / "t.db"

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (200 * 1024, 200 * 1024))
    proc = _writer(path, 100_000, every=50, preexec_fn=limit)
    _check_full_disk_stop(path, proc)
    with EventLog(path) as log:                     # room again (no limit here): the log resumes
        log.append("game", {"type": "resumed"})
        assert log.verify().ok


def test_rows_removed_from_the_end_are_seen_against_a_head_written_down(tmp_path):
    """Removing the last rows leaves a chain that holds (``log verify`` alone says ok); the head hash
    the referee wrote down (16 hex digits, as the screen shows it) is then not in the log:
    ``log verify --head`` exits 1.  A head further back names its row; a malformed one is exit 2."""
    import sqlite3
    path = tmp_path / "t.db"
    with EventLog(path) as log:
        for n in range(12):
            log.append("game", {"type": "draw", "n": n})
            if n == 4:
                early = log.head()
        head = log.head()
    ok = _log_cli("verify", path, "--head", head[:16])
    assert ok.returncode == 0 and f"head {head[:16]} is row 13; it is still the last row" in ok.stdout
    back = _log_cli("verify", path, "--head", early)
    assert back.returncode == 0 and "is row 6; 7 rows were written after it" in back.stdout
    db = sqlite3.connect(path)
    db.executescript("DROP TRIGGER entries_no_delete; DELETE FROM entries WHERE id > 10;")
    db.close()
    assert _log_cli("verify", path).returncode == 0                  # the chain left holds …
    gone = _log_cli("verify", path, "--head", head[:16])
    assert gone.returncode == 1 and "is not in this log (10 rows" in gone.stdout and "rows were removed" in gone.stdout
    for bad in ("abc", "x" * 16, "0" * 65):
        refused = _log_cli("verify", path, "--head", bad)
        assert refused.returncode == 2 and "--head is a head hash" in refused.stderr
        assert "Traceback" not in refused.stderr
