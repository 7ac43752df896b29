"""Web face benchmark: event → public page update latency through the real server.

A real controller, service and SQLite event log (WAL, synchronous=FULL, in the temporary folder)
with the web server (Starlette on uvicorn, in its thread, on 127.0.0.1) and real SSE clients
reading ``/events`` over HTTP in their own threads.  The game events of classic bot hands are fed
one at a time as a table reports them; each latency runs from just before the service handles the
event (so it includes the log's commit and building the public state) to the moment the client
has read the whole ``state`` message.  Target: p99 ≤ 100 ms, with 1 and with 8 clients.
"""
from __future__ import annotations

import http.client
import json
import pathlib
import queue
import statistics
import sys
import tempfile
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "web"))

from webtable import feed, make_table  # noqa: E402

from shengji_table.face.web.server import start_web_server  # noqa: E402

TARGET_MS = 100.0
EVENTS = 400


class SSEClient(threading.Thread):
    """Reads one ``/events`` stream; every complete message goes to ``got`` with its arrival time."""

    def __init__(self, host: str, port: int):
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection(host, port, timeout=30)
        self.got: queue.Queue = queue.Queue()

    def run(self) -> None:
        self.conn.request("GET", "/events", headers={"Accept": "text/event-stream"})
        resp = self.conn.getresponse()
        data = []
        try:
            while True:
                line = resp.fp.readline()
                if not line:
                    return
                line = line.rstrip(b"\r\n")
                if line.startswith(b"data: "):
                    data.append(line[6:])
                elif not line and data:
                    self.got.put((time.perf_counter(), b"".join(data)))
                    data = []
        except OSError:
            return

    def close(self) -> None:
        try:
            self.conn.sock.shutdown(2)      # type: ignore[union-attr]
        except OSError:
            pass
        self.conn.close()


def measure(clients: int, tmp: pathlib.Path) -> list:
    svc, events = make_table(tmp / f"bench-{clients}.db", preset="classic", seed=11, hands=3)
    web = start_web_server(svc)
    readers = [SSEClient("127.0.0.1", web.port) for _ in range(clients)]
    for r in readers:
        r.start()
    for r in readers:
        r.got.get(timeout=10)                       # the first message: the state on connecting
    lat = []
    try:
        for e in events[:EVENTS]:
            t0 = time.perf_counter()
            feed(svc, e)
            for r in readers:
                t1, text = r.got.get(timeout=10)
                json.loads(text)
                lat.append((t1 - t0) * 1000.0)
            while any(not r.got.empty() for r in readers):   # (none expected: one message an event)
                for r in readers:
                    while not r.got.empty():
                        r.got.get_nowait()
    finally:
        for r in readers:
            r.close()
        web.stop()
        svc.log.close()
    return lat


def main() -> None:
    print(f"event → SSE client update, {EVENTS} classic game events fed one at a time "
          f"(target p99 ≤ {TARGET_MS:.0f} ms)")
    print(f"{'clients':>8} {'updates':>8} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}  target")
    with tempfile.TemporaryDirectory() as d:
        for clients in (1, 8):
            lat = sorted(measure(clients, pathlib.Path(d)))
            p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
            ok = "met" if p99 <= TARGET_MS else "MISSED"
            print(f"{clients:>8} {len(lat):>8} {statistics.median(lat):>10.2f} {p99:>8.2f} {lat[-1]:>8.2f}  "
                  f"≤ {TARGET_MS:.0f} ms: {ok}", flush=True)


if __name__ == "__main__":
    main()
