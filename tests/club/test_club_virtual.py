"""The club with virtual tables (the real firmware under MicroPython, bots tapping virtual cards):
``club demo`` end to end, and a virtual table reporting through a broker killed mid-hand."""
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from clubkit import club, counted, need_mosquitto, wait_for  # noqa: E402

pytestmark = pytest.mark.micropython


def _need_micropython():
    from shengji_table.micropython import MicroPythonMissing, micropython_binary
    try:
        micropython_binary()
    except MicroPythonMissing as exc:
        pytest.skip(str(exc))


# One hand a table in make test (the same round, the same checks); the README's two in make test-all.
@pytest.mark.parametrize("hands", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_club_demo_plays_a_round_at_three_virtual_tables(tmp_path, hands):
    need_mosquitto()
    _need_micropython()
    db = tmp_path / "club.sqlite"
    out = subprocess.run([sys.executable, "-m", "shengji_table", "club", "demo", "--tables", "3", "--hands",
                          str(hands), "--db", str(db)], capture_output=True, text=True, timeout=280)
    assert out.returncode == 0, out.stdout + out.stderr
    assert re.search(r"club pages were at http://127\.0\.0\.1:\d+/standings", out.stdout)
    import shutil
    if shutil.which("openssl"):            # the tables reach the broker over TLS, certificates of its own
        assert re.search(r"broker mqtts://127\.0\.0\.1:\d+", out.stdout), out.stdout
    assert f"3 table(s), {3 * hands} hand(s) in the club database" in out.stdout
    listed = re.findall(r"^\s+\d+\. (.+?)\s+-?\d+ level", out.stdout, re.M)
    assert len(listed) == 6
    standings = subprocess.run([sys.executable, "-m", "shengji_table", "club", "standings", "--db", str(db),
                                "--json"], capture_output=True, text=True)
    import json
    rows = json.loads(standings.stdout)["standings"]
    assert [r["label"] for r in rows] == [s.strip() for s in listed]


def test_a_virtual_table_plays_on_through_a_broker_kill_and_the_club_gets_every_row(tmp_path):
    need_mosquitto()
    _need_micropython()
    from shengji_table.club.broker import Mosquitto
    from shengji_table.club.publisher import TablePublisher
    from shengji_table.club.wire import BrokerURL
    from shengji_table.sim.match_runner import SimHost
    from shengji_table.sim.virtual_table import VirtualTable
    broker = Mosquitto().start()
    server = club(tmp_path / "club.sqlite", broker=BrokerURL("127.0.0.1", broker.port)).start()
    vt = VirtualTable().start()
    host = SimHost(vt.device, tmp_path / "t1.db", seed=5, hands=1, names=("Li", "Wang", "Zhao", "Chen"))
    pub = TablePublisher(host.log.path, "T1", BrokerURL("127.0.0.1", broker.port), stall_s=1.0)
    host.service.add_listener(pub.notify)
    try:
        host.start()
        pub.start()
        done = {}
        player = threading.Thread(target=lambda: done.setdefault("ok", host.run(timeout=200)))
        player.start()
        wait_for(lambda: pub.acked > 20, 60)
        broker.kill()
        at_kill = host.log.last_id()
        wait_for(lambda: host.log.last_id() > at_kill + 10, 30)     # the table plays on, the club away
        broker.start()
        player.join(220)
        assert done.get("ok")
        wait_for(pub.caught_up, 60)
        with server.lock:
            assert [r[2] for r in counted(server.db, "T1")] == list(range(1, host.log.last_id() + 1))
            assert server.db.one("SELECT COUNT(*) FROM hands") == 1
            assert server.db.one("SELECT COUNT(*) FROM refusals") == 0
    finally:
        pub.stop(drain_s=0)
        server.stop()
        host.close()
        vt.close()
        broker.stop()


def test_club_demo_shows_the_hands_played_on_a_terminal(tmp_path):
    """``club demo`` with stderr on a terminal (a real pseudo-terminal): a progress bar of the hands
    played at the tables; the round's report on stdout as without it."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from processes import run_on_a_terminal
    need_mosquitto()
    _need_micropython()
    status, out, seen = run_on_a_terminal([sys.executable, "-m", "shengji_table", "club", "demo", "--tables", "1",
                                           "--hands", "1", "--db", str(tmp_path / "club.sqlite")], timeout=280)
    assert status == 0, out + seen.decode(errors="replace")
    terminal = seen.decode(errors="replace")
    assert "hands played" in terminal and "1/1" in terminal, terminal
    assert "1 table(s), 1 hand(s) in the club database" in out
