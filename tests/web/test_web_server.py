"""The web server as it runs: uvicorn in a thread of the table's process, the public ``/events``
stream over real HTTP pushing every change, the spectator delay, and ``shengji-table serve --web``
as a user runs it (a separate process, the firmware's link code as the Pico on a pseudo-terminal),
with the referee's PIN file from ``referee set-pin``; bad web options are refused before anything
starts."""
import http.client
import json
import pathlib
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
sys.path.insert(0, str(Path(__file__).parent))
from webtable import PIN, feed, feed_until, in_play, make_table  # noqa: E402

from shengji_table.face.web.server import parse_address, start_web_server  # noqa: E402

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]


def sse_messages(port: int, path: str = "/events", headers=None):
    """A thread reading ``path``; returns (messages list, connection)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    conn.request("GET", path, headers=headers or {})
    resp = conn.getresponse()
    assert resp.status == 200 and resp.getheader("content-type").startswith("text/event-stream")
    got: list = []

    def read():
        data = []
        try:
            for raw in resp.fp:
                line = raw.rstrip(b"\r\n")
                if line.startswith(b"data: "):
                    data.append(line[6:])
                elif not line and data:
                    got.append(json.loads(b"".join(data)))
                    data = []
        except (OSError, ValueError):
            pass
    threading.Thread(target=read, daemon=True).start()
    return got, conn


def hang_up(conn) -> None:
    """Close a stream being read in another thread (shut the socket first: ``close`` alone waits
    for the reader)."""
    try:
        conn.sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    conn.close()


def wait(cond, seconds=10.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    raise AssertionError("timed out")


def test_events_stream_pushes_every_change_and_the_server_stops_cleanly(tmp_path):
    svc, events = make_table(tmp_path / "log.db")
    i = feed_until(svc, events, 0, in_play)
    web = start_web_server(svc)
    try:
        got, conn = sse_messages(web.port)
        wait(lambda: len(got) == 1)
        assert got[0]["phase"] == "playing"
        for k in range(5):
            feed(svc, events[i + k])
            wait(lambda k=k: len(got) == k + 2)
        assert got[-1] == json.loads(urllib.request.urlopen(web.url + "api/table", timeout=5).read())
        assert sum(len(p["cards"]) for p in got[-1]["trick"]) or got[-1]["last_trick"]
    finally:
        web.stop()
    assert not web.thread.is_alive()
    hang_up(conn)


def test_spectator_delay_holds_the_public_view_back(tmp_path):
    svc, events = make_table(tmp_path / "log.db")
    i = feed_until(svc, events, 0, in_play)
    web = start_web_server(svc, spectator_delay=0.6)
    try:
        got, conn = sse_messages(web.port)
        wait(lambda: len(got) == 1)
        feed(svc, events[i])
        fed = time.monotonic()
        now = json.loads(urllib.request.urlopen(web.url + "api/table", timeout=5).read())
        assert now == got[0]                                   # not yet
        with svc.lock:
            live = json.loads(json.dumps(web.hub.state()))
        assert live != got[0]
        wait(lambda: len(got) == 2, 5)
        assert time.monotonic() - fed >= 0.5
        assert got[1] == live
        assert json.loads(urllib.request.urlopen(web.url + "api/table", timeout=5).read()) == live
        hang_up(conn)
    finally:
        web.stop()


def test_web_address_parsing():
    assert parse_address("127.0.0.1:8080") == ("127.0.0.1", 8080)
    assert parse_address(":0") == ("127.0.0.1", 0)
    assert parse_address("8081") == ("127.0.0.1", 8081)
    assert parse_address("[::1]:80") == ("::1", 80)
    for bad in ("host:port", "1.2.3.4:70000"):
        with pytest.raises(ValueError):
            parse_address(bad)


def test_bad_web_options_are_refused_before_anything_starts(tmp_path):
    base = [sys.executable, "-m", "shengji_table", "demo", "--hands", "1"]
    for extra, words in ((["--web", "nowhere"], "HOST:PORT"),
                         (["--referee-pin-file", "x.pin"], "need --web"),
                         (["--web", ":0", "--referee-pin-file", str(tmp_path / "none.pin")], "cannot read")):
        p = subprocess.run(base + extra, capture_output=True, text=True, timeout=60, cwd=str(REPO_ROOT))
        assert p.returncode == 2 and words in p.stderr, (extra, p.stderr)


def test_serve_with_web_and_a_referee_pin(tmp_path):
    from shengji_table.sim.cpython_pico import CPythonPico
    from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set
    pin_file = tmp_path / "referee.pin"
    subprocess.run([sys.executable, "-m", "shengji_table", "referee", "set-pin", str(pin_file)], input=PIN + "\n",
                   text=True, check=True, timeout=60, cwd=str(REPO_ROOT), capture_output=True)
    deck = tmp_path / "deck.json"
    sim_deck_set(2).save(deck)
    with CPythonPico() as pico:
        p = subprocess.Popen([sys.executable, "-m", "shengji_table", "serve", "--device", pico.device, "--board",
                              str(DEFAULT_BOARD), "--deck-set", str(deck), "--log", str(tmp_path / "t.db"),
                              "--web", "127.0.0.1:0", "--referee-pin-file", str(pin_file)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(REPO_ROOT))
        try:
            url = None
            end = time.monotonic() + 30
            while url is None and time.monotonic() < end:
                line = p.stdout.readline()
                m = re.search(r"http://127\.0\.0\.1:\d+/", line)
                url = m.group(0) if m else None
            assert url, "no web address printed"
            state = json.loads(urllib.request.urlopen(url + "api/table", timeout=10).read())
            assert state["hand"] == 1 and state["phase"] == "drawing"
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(url + "api/referee", timeout=10)
            assert refused.value.code == 401
            req = urllib.request.Request(url + "api/referee/pause", data=b'{"reason": "tea"}', method="POST",
                                         headers={"Authorization": "Basic " + _basic("referee", PIN),
                                                  "Content-Type": "application/json"})
            assert json.loads(urllib.request.urlopen(req, timeout=10).read())["ok"]
            assert json.loads(urllib.request.urlopen(url + "api/table", timeout=10).read())["paused"] == "tea"
        finally:
            p.send_signal(signal.SIGINT)
            p.wait(20)
    assert p.returncode == 0


def _basic(user: str, pin: str) -> str:
    import base64
    return base64.b64encode(f"{user}:{pin}".encode()).decode()
