"""``club demo --boards``: a duplicate evening at virtual tables (the real firmware under MicroPython)
— partnerships, round 1 of a round robin, every table dealing the same board from its stack, the
rows over TLS to the club, and the standings by duplicate scoring (docs/club-duplicate.md)."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from clubkit import need_mosquitto  # noqa: E402

pytestmark = pytest.mark.micropython


def test_club_demo_plays_a_duplicate_board_at_two_tables(tmp_path):
    need_mosquitto()
    from shengji_table.micropython import MicroPythonMissing, micropython_binary
    try:
        micropython_binary()
    except MicroPythonMissing as exc:
        pytest.skip(str(exc))
    db = tmp_path / "club.sqlite"
    out = subprocess.run([sys.executable, "-m", "shengji_table", "club", "demo", "--tables", "2", "--boards", "1",
                          "--db", str(db)], capture_output=True, text=True, timeout=280, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "2 table(s), 2 hand(s) in the club database; standings by duplicate scoring" in out.stdout
    listed = re.findall(r"^\s+\d+\. (.+?)\s+(-?[\d.]+) IMP", out.stdout, re.M)
    assert len(listed) == 4
    # the club's own reading of its database says the same, board by board
    cli = subprocess.run([sys.executable, "-m", "shengji_table", "club", "standings", "--db", str(db),
                          "--scoring", "duplicate", "--json"], capture_output=True, text=True)
    rows = json.loads(cli.stdout)["standings"]
    assert [(r["label"], float(r["score"])) for r in rows] == [(n.strip(), float(s)) for n, s in listed]
    assert sum(float(s) for _, s in listed) == 0          # cross-IMPs: what one direction wins, the other loses
    import sqlite3
    con = sqlite3.connect(db)
    try:
        matches = {m for (m,) in con.execute("SELECT DISTINCT match FROM hands")}
        on_board = con.execute("SELECT COUNT(*) FROM results WHERE board_id IS NOT NULL").fetchone()[0]
    finally:
        con.close()
    assert matches == {"board-1"} and on_board == 4          # each table's two sides, under board 1
