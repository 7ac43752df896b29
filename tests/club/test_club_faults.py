"""Faults mid-session, over a real mosquitto with the club server as its own process: the broker
killed and restarted, the club server SIGKILLed and restarted, one table's network cut.  The
tables play on throughout; afterwards the club database holds every row of every table exactly once
and the standings equal those of a fault-free run with the same seeds."""
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from clubkit import CutProxy, club, counted, feed, kept, need_mosquitto, soft, wait_for  # noqa: E402

TABLES = ("T1", "T2", "T3")
SEEDS = {"T1": 21, "T2": 22, "T3": 23}
HANDS = 3


def _club_process(db, port):
    return subprocess.Popen([sys.executable, "-m", "shengji_table", "club", "serve", "--db", str(db), "--broker",
                             f"mqtt://127.0.0.1:{port}", "--web", "127.0.0.1:0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _fault_free(tmp: Path):
    ref = club(tmp / "ref.sqlite", tables=TABLES)
    for t in TABLES:
        table = soft(tmp / "ref", t, SEEDS[t], HANDS)
        table.play()
        feed(ref, t, table.log)
        table.close()
    from shengji_table.club.standings import standings
    return standings(ref.db)


def _play_hand_everywhere(tables):
    threads = [threading.Thread(target=t.play_hand) for t in tables.values()]
    for th in threads:
        th.start()
    for th in threads:
        th.join()


def test_no_row_lost_or_doubled_through_broker_kill_club_sigkill_and_a_cut(tmp_path):
    need_mosquitto()
    from shengji_table.club.broker import Mosquitto
    from shengji_table.club.db import ClubDB
    from shengji_table.club.publisher import TablePublisher
    from shengji_table.club.standings import standings
    from shengji_table.club.wire import BrokerURL
    (tmp_path / "ref").mkdir()
    (tmp_path / "run").mkdir()
    expected = _fault_free(tmp_path)
    db_path = tmp_path / "club.sqlite"
    club(db_path, tables=TABLES).stop()                # registered, the players known
    broker = Mosquitto().start()
    proxy = CutProxy(broker.port)
    server = _club_process(db_path, broker.port)
    tables = {t: soft(tmp_path / "run", t, SEEDS[t], HANDS) for t in TABLES}
    pubs = {}
    for t, table in tables.items():
        port = proxy.port if t == "T3" else broker.port
        pubs[t] = TablePublisher(table.log.path, t, BrokerURL("127.0.0.1", port), stall_s=1.0).start()
        table.listeners.append(pubs[t].notify)
    try:
        _play_hand_everywhere(tables)                   # hand 1: all reported
        wait_for(lambda: all(p.acked > 0 for p in pubs.values()), 20)
        broker.kill()                                   # the broker dies mid-session
        rows_before = {t: tables[t].log.last_id() for t in TABLES}
        tables["T1"].play_hand()                        # T1 plays on while the club is away
        assert tables["T1"].log.last_id() > rows_before["T1"]
        broker.start()
        wait_for(lambda: pubs["T1"].acked == tables["T1"].log.last_id(), 30)
        threading.Thread(target=tables["T2"].play_hand).start()
        wait_for(lambda: pubs["T2"].acked > rows_before["T2"], 20)
        os.kill(server.pid, signal.SIGKILL)             # the club server dies while T2 reports
        server.wait(5)
        server = _club_process(db_path, broker.port)
        proxy.cut()                                     # T3's network cut while it plays its hand 2
        tables["T3"].play_hand()
        t3_cut_at = pubs["T3"].acked
        proxy.restore()
        for t in TABLES:
            while tables[t].play_hand():
                pass
        wait_for(lambda: all(p.caught_up() for p in pubs.values()), 60)
        assert t3_cut_at < tables["T3"].log.last_id()
    finally:
        for p in pubs.values():
            p.stop(drain_s=0)
        server.terminate()
        server.wait(10)
        proxy.close()
        broker.stop()
    db = kept(ClubDB(db_path))
    for t in TABLES:
        seqs = [r[2] for r in counted(db, t)]
        assert seqs == list(range(1, tables[t].log.last_id() + 1)), f"table {t}: rows lost or doubled"
    assert db.one("SELECT COUNT(*) FROM hands") == len(TABLES) * HANDS
    assert db.one("SELECT COUNT(*) FROM refusals") == 0
    assert standings(db) == expected
