"""``serve --club … --table-id T`` and ``demo --club …``: the table's own commands report their log
to a club server over a real mosquitto, and the club's database ends with every row of it."""
import contextlib
import json
import pathlib
import signal
import sqlite3
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from clubkit import club, counted, need_mosquitto, wait_for  # noqa: E402
from processes import read_until  # noqa: E402

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def club_over_mosquitto(tmp_path):
    need_mosquitto()
    from shengji_table.club.broker import Mosquitto
    from shengji_table.club.wire import BrokerURL
    broker = Mosquitto().start()
    server = club(tmp_path / "club.sqlite", tables=("T1",), broker=BrokerURL("127.0.0.1", broker.port)).start()
    yield broker, server
    server.stop()
    broker.stop()


def _log_rows(path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as con:
        return con.execute("SELECT MAX(id) FROM entries").fetchone()[0]


def test_serve_reports_its_log_to_the_club(tmp_path, club_over_mosquitto):
    from shengji_table.sim.cpython_pico import CPythonPico
    from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set
    broker, server = club_over_mosquitto
    deck = tmp_path / "deck.json"
    sim_deck_set(2).save(deck)
    log = tmp_path / "table.db"
    with CPythonPico() as pico:
        p = subprocess.Popen([sys.executable, "-m", "shengji_table", "serve", "--device", pico.device, "--board",
                              str(DEFAULT_BOARD), "--deck-set", str(deck), "--log", str(log), "--players",
                              "Li,Wang,Zhao,Chen", "--club", broker.url, "--table-id", "T1"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(REPO_ROOT))
        out = read_until(p, "table connected")
        assert "club: table T1 reports to mqtt://127.0.0.1" in out
        wait_for(lambda: counted(server.db, "T1"), 20)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=20)
        assert p.returncode == 0, err
    rows = _log_rows(log)
    wait_for(lambda: len(counted(server.db, "T1")) == rows, 10)
    with server.lock:
        assert [r[2] for r in counted(server.db, "T1")] == list(range(1, rows + 1))
        # row 1 is the log's format row, row 2 the start
        start = json.loads(server.db.one("SELECT payload FROM events WHERE table_id='T1' AND seq=2"))
        assert start["start"]["seats"] == ["Li", "Wang", "Zhao", "Chen"]
        assert server.db.one("SELECT COUNT(*) FROM refusals") == 0


@pytest.mark.micropython
def test_demo_reports_its_hand_to_the_club(tmp_path, club_over_mosquitto):
    from shengji_table.micropython import MicroPythonMissing, micropython_binary
    try:
        micropython_binary()
    except MicroPythonMissing as exc:
        pytest.skip(str(exc))
    broker, server = club_over_mosquitto
    log = tmp_path / "demo.db"
    out = subprocess.run([sys.executable, "-m", "shengji_table", "demo", "--hands", "1", "--plain", "--no-voice",
                          "--log", str(log), "--players", "Li,Wang,Zhao,Chen", "--club", broker.url, "--table-id",
                          "T1"], capture_output=True, text=True, timeout=200, cwd=str(REPO_ROOT))
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr
    rows = _log_rows(log)
    wait_for(lambda: len(counted(server.db, "T1")) == rows, 20)
    with server.lock:
        assert server.db.one("SELECT COUNT(*) FROM hands") == 1
        labels = {r[0] for r in server.db.q("SELECT label FROM results")}
    assert labels == {"Li & Zhao", "Wang & Chen"}
