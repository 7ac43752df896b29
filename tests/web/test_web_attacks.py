"""The attack suite against the table's web face (``docs/security.md``): the real server in a process
of its own (``attack_server.py``: real controller, service, SQLite log, uvicorn) on 127.0.0.1,
attacked with bounded loops, each test printing what it measured (memory peak, log rows written,
requests refused).  ``make test`` runs the short versions; ``--run-slow`` (``make test-all``) the
long ones, with the sizes of the attacks first tried on the console.

* oversized bodies: refused (413) after a few KiB read, by their Content-Length or while they
  stream in; the server's memory peak stays where it was;
* a PIN flood from one address: no log row per attempt (one summary when the window closes); the
  right PIN from another address is let in at once;
* slowloris: 300 requests left half-sent, against a server whose file limit is 256: a normal
  request still answers."""
import base64
import http.client
import json
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
sys.path.insert(0, str(Path(__file__).parent))
from webtable import PIN  # noqa: E402

HERE = Path(__file__).parent
MiB = 1024 * 1024


class Target:
    """The attacked server: its address, its process, the figures it gives when stopped."""

    def __init__(self, tmp_path, *extra):
        self.log = tmp_path / "attacked.db"
        self.proc = subprocess.Popen([sys.executable, str(HERE / "attack_server.py"), str(self.log), *extra],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        assert line.startswith("url "), line
        _, self.url, _, pid = line.split()
        self.pid = int(pid)
        self.host, port = self.url.split("//")[1].rstrip("/").rsplit(":", 1)
        self.port = int(port)
        self.figures: dict = {}

    def memory_mib(self, field: str = "VmHWM") -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
        raise AssertionError(f"no {field} for {self.pid}")

    def rows(self) -> int:
        from shengji_table.store.log import EventLog
        with EventLog(self.log, read_only=True) as log:
            return len(list(log.entries()))

    def stop(self) -> dict:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            out = self.proc.stdout.read()
            self.proc.wait(30)
            for line in out.splitlines():
                if line.startswith("figures "):
                    self.figures = json.loads(line[8:])
        return self.figures


@pytest.fixture
def target(tmp_path):
    made = []

    def start(*extra) -> Target:
        made.append(Target(tmp_path, *extra))
        return made[-1]
    yield start
    for t in made:
        if t.proc.poll() is None:
            t.stop()


def _status(sock) -> int:
    sock.settimeout(20)
    head = b""
    while b"\r\n" not in head:
        got = sock.recv(4096)
        if not got:
            break
        head += got
    return int(head.split()[1]) if head.startswith(b"HTTP/") else 0


def send_big_body(t: Target, path: str, total: int, chunked: bool) -> tuple:
    """POST ``total`` bytes to ``path`` (announced, or chunked) until the server answers or
    hangs up; ``(status, bytes sent)``."""
    import select
    sock = socket.create_connection((t.host, t.port), timeout=20)
    head = (f"POST {path} HTTP/1.1\r\nHost: {t.host}:{t.port}\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\n"
            + ("Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {total}\r\n") + "\r\n")
    sock.sendall(head.encode())
    block = b"pin=" + b"9" * (MiB - 4)
    chunk = f"{len(block):x}\r\n".encode() + block + b"\r\n" if chunked else block
    sent = 0
    try:
        while sent < total:
            if select.select([sock], [], [], 0)[0]:
                break                                  # the server has answered
            sock.sendall(chunk)
            sent += len(block)
    except (BrokenPipeError, ConnectionResetError):
        pass
    try:
        status = _status(sock)
    except (ConnectionResetError, TimeoutError, OSError):
        status = 0
    sock.close()
    return status, sent


def _oversized(target, total: int) -> None:
    t = target()
    before = t.memory_mib()
    results = [send_big_body(t, path, total, chunked) for path in ("/referee/login", "/api/referee/penalty")
               for chunked in (False, True)]
    peak = t.memory_mib()
    figures = t.stop()
    print(f"\noversized bodies of {total // MiB} MiB: answers {[r[0] for r in results]}, "
          f"at most {max(r[1] for r in results) / MiB:.0f} MiB sent before the answer; "
          f"memory peak {before:.0f} -> {peak:.0f} MiB; refused {figures.get('refused')}")
    assert [status for status, _ in results[:2]] == [413, 413]            # the login form: too large
    assert all(status in (401, 413) for status, _ in results[2:])       # an action: no PIN, or too large
    assert max(sent for _, sent in results) <= 16 * MiB          # socket buffers, never the whole body
    assert peak - before < 40


def test_oversized_bodies_are_refused_before_they_are_read(target):
    _oversized(target, 64 * MiB)


@pytest.mark.slow
def test_oversized_bodies_of_256_mib_are_refused_before_they_are_read(target):
    _oversized(target, 256 * MiB)


def _basic(pin: str) -> dict:
    return {"Authorization": "Basic " + base64.b64encode(f"referee:{pin}".encode()).decode()}


def _flood(target, n: int) -> None:
    t = target()
    rows = t.rows()
    before = t.memory_mib()
    answers: dict = {}
    conn = http.client.HTTPConnection(t.host, t.port, timeout=20, source_address=("127.0.0.2", 0))
    for i in range(n):
        conn.request("GET", "/api/referee", headers=_basic(f"guess-{i:06d}"))
        r = conn.getresponse()
        r.read()
        answers[r.status] = answers.get(r.status, 0) + 1
    conn.close()
    during = t.rows() - rows
    peak = t.memory_mib()
    req = urllib.request.Request(t.url + "api/referee", headers=_basic(PIN))
    assert urllib.request.urlopen(req, timeout=20).status == 200          # 127.0.0.1: not locked
    figures = t.stop()
    after = t.rows() - rows
    print(f"\nPIN flood: {n} wrong PINs from 127.0.0.2 -> answers {answers}; log rows written during "
          f"the flood {during}, after it (summary, the referee's login and read) {after}; "
          f"memory peak {before:.0f} -> {peak:.0f} MiB")
    assert answers.get(429, 0) >= n - 5 and during == 0
    assert after <= 3 and figures["rows"] == rows + after


def test_a_pin_flood_writes_no_row_per_attempt_and_locks_only_its_address(target):
    _flood(target, 600)


@pytest.mark.slow
def test_a_long_pin_flood_writes_no_row_per_attempt(target):
    _flood(target, 4200)


def _slowloris(target, n: int, rounds: int) -> None:
    t = target("--nofile", "256")
    before = t.memory_mib()
    held: list = []
    answered = 0
    try:
        for _ in range(rounds):
            for _ in range(n):
                s = socket.create_connection((t.host, t.port), timeout=10)
                s.sendall(f"GET /api/table HTTP/1.1\r\nHost: {t.host}\r\nX-Slow: ".encode())
                held.append(s)
            with urllib.request.urlopen(t.url + "api/table", timeout=30) as r:
                answered += r.status == 200 and "hand" in json.loads(r.read())
            for s in held[:-n]:
                s.close()
            held = held[-n:]
        peak = t.memory_mib()
    finally:
        for s in held:
            s.close()
    figures = t.stop()
    print(f"\nslowloris: {rounds} round(s) of {n} half-sent requests against a 256-file limit; "
          f"{answered}/{rounds} normal requests answered; connections the server closed: {figures.get('closed')}; "
          f"memory peak {before:.0f} -> {peak:.0f} MiB")
    assert answered == rounds and figures.get("closed", 0) >= n - 96 - 8


def test_slowloris_leaves_the_face_answering(target):
    _slowloris(target, 300, 1)


@pytest.mark.slow
def test_slowloris_in_rounds_leaves_the_face_answering(target):
    _slowloris(target, 300, 5)


def test_a_stalled_header_is_dropped(target):
    """A connection that never finishes its headers is closed by the server (HEADER_TIMEOUT_S)."""
    t = target()
    s = socket.create_connection((t.host, t.port), timeout=30)
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    try:
        got = s.recv(100)
    except (ConnectionResetError, TimeoutError):
        got = b"?"
    s.close()
    assert got == b""                     # closed by the server, not our 30 s bound


def test_a_stalled_body_is_refused_with_408(target):
    """A body that stops arriving (BODY_TIMEOUT_S) is refused, not waited for."""
    t = target()
    s = socket.create_connection((t.host, t.port), timeout=30)
    s.sendall(f"POST /referee/login HTTP/1.1\r\nHost: {t.host}:{t.port}\r\n"
              f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\npin=12".encode())
    try:
        status = _status(s)
    finally:
        s.close()
    figures = t.stop()
    assert status == 408 and figures["refused"]["408"] == 1
