"""Club benchmark: 50 software tables (no firmware) reporting whole hands at full speed through a
real mosquitto to the club server, and a real SSE client on the standings page.

Before the clock starts, each table's hands are played by bots (the game layer) into a scratch log.
Then every table, in its own thread of the tables' own process (at a club they are machines of
their own), writes its hands into its live event log one whole hand per
transaction, as fast as it can, each hand's commit time noted; its publisher (paho-mqtt, QoS 1)
sends the rows from the club's ack; the club server (its MQTT intake, the rules re-run on every
hand, SQLite WAL with synchronous=FULL) stores them and its pages push the standings over
``/events``.  Figures: ingest rows/s (every row of every table acknowledged), and the latency from a
hand's log commit to the standings stream counting that hand (``per_table``), median and p99.
At full speed the tables commit every hand within a second or two, far faster than the club takes
them in: the latency is then the backlog's, and is printed for information.  A second run paces
the same tables to ``PACED_HANDS_S`` hands a second in all (a real evening is about one hand every
ten seconds over 50 tables): its p99 is the one with a target.
Targets: ingest ≥ 1500 rows/s; paced, commit → standings p99 ≤ 1 s.
"""
from __future__ import annotations

import http.client
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "club"))

TABLES = 50
HANDS = 2
TARGET_ROWS_S = 1500.0
TARGET_P99_S = 1.0
PACED_HANDS_S = 2.0


class StandingsStream(threading.Thread):
    """Reads ``/events``; notes when each (table, hand count) first shows in the standings."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.seen: dict = {}
        self.ready = threading.Event()

    def run(self) -> None:
        self.conn.request("GET", "/events", headers={"Accept": "text/event-stream"})
        resp = self.conn.getresponse()
        event = None
        self.ready.set()
        try:
            while True:
                line = resp.fp.readline()
                if not line:
                    return
                line = line.rstrip(b"\r\n")
                if line.startswith(b"event: "):
                    event = line[7:]
                elif line.startswith(b"data: ") and event == b"standings":
                    now = time.time()
                    for table, count in json.loads(line[6:])["per_table"].items():
                        for k in range(1, count + 1):
                            self.seen.setdefault((table, k), now)
        except (OSError, AttributeError):      # the connection closed at the end of the run
            return


def _prepare(tmp: pathlib.Path) -> dict:
    """Each table's start row and its hands' rows (split at each deal), played before the clock starts."""
    from clubkit import soft
    out = {}
    for i in range(TABLES):
        t = f"B{i + 1}"
        table = soft(tmp, t, seed=1000 + i, hands=HANDS, commit="hand")
        table.play()
        rows = [(k, json.loads(p)) for k, p in table.log._db.execute("SELECT kind, payload FROM entries ORDER BY id")]
        hands: list = []
        for kind, payload in rows[1:]:
            if kind == "game" and payload.get("type") == "deal":
                hands.append([])
            hands[-1].append((kind, payload))
        out[t] = (rows[0], hands)
        table.close()
    return out


def run(plan: dict, tmp: pathlib.Path, pace_s: float) -> dict:
    """One run: every table commits its hands (``pace_s`` apart at each table; 0: at once).

    The club (broker, server, pages, the standings stream) runs in this process; the 50 tables run
    in a process of their own (:func:`tables_side`), as at a club, where they are 50 machines: in
    one process, their hundred threads would queue for the club's interpreter lock."""
    from clubkit import club
    from shengji_table.club.broker import Mosquitto
    from shengji_table.club.web import start_club_web
    from shengji_table.club.wire import BrokerURL
    tmp.mkdir()
    broker = Mosquitto().start()
    server = club(tmp / "club.sqlite", tables=tuple(plan), broker=BrokerURL("127.0.0.1", broker.port)).start()
    web = start_club_web(server)
    stream = StandingsStream(web.port)
    stream.start()
    stream.ready.wait(10)
    (tmp / "plan.json").write_text(json.dumps(plan))
    side = subprocess.run([sys.executable, __file__, "tables", str(tmp), str(broker.port), str(pace_s)],
                          capture_output=True, text=True, timeout=600)
    if side.returncode != 0:
        raise RuntimeError(f"the tables' process failed: {side.stderr[-2000:]}")
    done = json.loads((tmp / "tables.json").read_text())
    commits = {(t, k): at for t, k, at in done["commits"]}
    deadline = time.time() + 120
    while len(stream.seen) < len(commits) and time.time() < deadline:
        time.sleep(0.02)
    lat = sorted(stream.seen[key] - commits[key] for key in commits if key in stream.seen)
    hands = server.db.one("SELECT COUNT(*) FROM hands")
    stream.conn.close()
    web.stop()
    server.stop()
    broker.stop()
    return {"rows": done["rows"], "took": done["took"], "lat": lat, "hands": hands,
            "caught_up": done["caught_up"]}


def tables_side(tmp: pathlib.Path, port: int, pace_s: float) -> None:
    """The tables' process: each table's log and publisher; every table, in its own thread, commits
    its hands as fast as it can (or ``pace_s`` apart); written to ``tables.json`` once every row is
    acknowledged (or 300 s have passed): each hand's commit time, the rows and the time taken."""
    from shengji_table.club.publisher import TablePublisher
    from shengji_table.club.wire import BrokerURL
    from shengji_table.store.log import EventLog
    plan = json.loads((tmp / "plan.json").read_text())
    logs = {t: EventLog(tmp / f"{t}.db") for t in plan}
    for t, (first, _) in plan.items():
        logs[t].append_many([tuple(first)], match="table")
    pubs = {t: TablePublisher(logs[t].path, t, BrokerURL("127.0.0.1", port)).start() for t in plan}
    commits: list = []

    def play(i, t):
        time.sleep(pace_s * i / len(plan))            # paced: the tables' hands spread evenly
        for k, hand in enumerate(plan[t][1], 1):
            logs[t].append_many([tuple(row) for row in hand], match="table")
            commits.append((t, k, time.time()))
            pubs[t].notify()
            time.sleep(pace_s)
    total = len(plan) + sum(len(h) for _, hs in plan.values() for h in hs)
    t0 = time.time()
    threads = [threading.Thread(target=play, args=(i, t)) for i, t in enumerate(plan)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    deadline = time.time() + 300
    while not all(p.caught_up() for p in pubs.values()) and time.time() < deadline:
        time.sleep(0.02)
    took = time.time() - t0
    caught_up = all(p.caught_up() for p in pubs.values())
    (tmp / "tables.json").write_text(json.dumps({"commits": commits, "rows": total, "took": took,
                                                 "caught_up": caught_up}))
    for p in pubs.values():
        p.stop(drain_s=0)
    for log in logs.values():
        log.close()


def main() -> None:
    from shengji_table.club.broker import mosquitto_missing
    problem = mosquitto_missing()
    if problem:
        print(f"skipped: {problem}")
        return
    with tempfile.TemporaryDirectory(prefix="bench-club-") as d:
        tmp = pathlib.Path(d)
        (tmp / "scratch").mkdir()
        plan = _prepare(tmp / "scratch")
        full = run(plan, tmp / "full", 0.0)
        paced = run(plan, tmp / "paced", TABLES / PACED_HANDS_S)
    rate = full["rows"] / full["took"]
    print(f"{TABLES} software tables × {HANDS} hands = {full['rows']} rows, through mosquitto to the club "
          f"(hands recorded: {full['hands']} and {paced['hands']})")
    acked = "all" if full["caught_up"] else "NOT all"
    print(f"  full speed: ingest {rate:6.0f} rows/s ({acked} acknowledged in {full['took']:.1f} s)   target ≥ "
          f"{TARGET_ROWS_S:.0f}: {'met' if rate >= TARGET_ROWS_S else 'MISSED'}")
    for name, r, target in (("full speed", full, None), (f"paced {PACED_HANDS_S:g} hands/s", paced, TARGET_P99_S)):
        lat = r["lat"]
        if not lat:
            print(f"  {name}: no hand reached the standings stream")
            continue
        p99 = lat[int(0.99 * (len(lat) - 1))]
        verdict = "(backlog; no target)" if target is None else \
            f"target p99 ≤ {target:g} s: {'met' if p99 <= target else 'MISSED'}"
        print(f"  {name}: hand commit → standings stream median {statistics.median(lat):.3f} s, p99 {p99:.3f} s, "
              f"max {lat[-1]:.3f} s ({len(lat)} hands)   {verdict}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["tables"]:
        tables_side(pathlib.Path(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]))
    else:
        main()
