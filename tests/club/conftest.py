"""The club tests close what they open: every SQLite file (a club database, a table's log) a test
opened in this process is closed by its end — by the test itself or by :func:`clubkit.close_all`
for the servers, tables and databases the kit made.  A file left open fails the test, naming it."""
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import clubkit  # noqa: E402

SQLITE = (".db", ".sqlite", ".db-wal", ".db-shm", ".sqlite-wal", ".sqlite-shm")


def _open_sqlite_files() -> set:
    out = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:                 # closed meanwhile (the listing's own fd, a thread's)
            continue
        if target.endswith(SQLITE):
            out.add(target)
    return out


@pytest.fixture(autouse=True)
def no_sqlite_file_left_open():
    before = _open_sqlite_files()
    yield
    clubkit.close_all()
    left = _open_sqlite_files() - before
    assert not left, f"the test left SQLite files open: {sorted(left)}"
