"""Test helper (not a test): software tables fed to a club, straight or over a real mosquitto."""
from __future__ import annotations

import contextlib
import pathlib
import time

import pytest

from shengji_table.club.server import ClubServer
from shengji_table.club.soft_table import SoftTable
from shengji_table.club.wire import EventMessage, encode_event, events_topic

# What the kit opened, closed at the end of each test (tests/club/conftest.py): a test that stops
# or closes its own early loses nothing, stop/close twice is harmless.
_opened: list = []


def close_all() -> None:
    """Stop the servers and close the tables and logs the kit made since the last call."""
    while _opened:
        thing = _opened.pop()
        (thing.stop if isinstance(thing, ClubServer) else thing.close)()


def kept(thing):
    """``thing`` (a server, a table, a log, a ClubDB), closed at the end of the test."""
    _opened.append(thing)
    return thing


NAMES = {"T1": ("Li", "Wang", "Zhao", "Chen"), "T2": ("Liu", "Yang", "Huang", "Zhou"),
         "T3": ("Wu", "Xu", "Sun", "Ma")}


def need_mosquitto():
    from shengji_table.club.broker import mosquitto_missing
    problem = mosquitto_missing()
    if problem:
        pytest.skip(problem)
    pytest.importorskip("paho.mqtt.client")


def club(path, tables=("T1",), broker=None, **kw) -> ClubServer:
    """A club server with ``tables`` registered and their players known."""
    server = kept(ClubServer(path, broker, **kw))
    with server.db.tx():
        for t in tables:
            server.db.add_table(t)
            for n in NAMES.get(t, ()):
                server.db.add_player(n)
    for t in tables:
        server.ingest.register(t)
    return server


def rows(log) -> list:
    """The log's rows as the publisher sends them: (id, match, kind, payload, at, hash, the log's id)."""
    lid = log.identity()[1]
    return [(*r, lid) for r in log._db.execute("SELECT id, match, kind, payload, at, hash FROM entries ORDER BY id")]


def message(table: str, row) -> bytes:
    import json
    rid, match, kind, payload, at, digest, lid = row
    return encode_event(EventMessage(table, match, rid, kind, json.loads(payload), at, digest, log=lid))


def feed(server: ClubServer, table: str, log) -> list:
    """Every row of ``log`` into ``server`` as table ``table``; the statuses."""
    return [server.handle(events_topic(table), message(table, r)).status for r in rows(log)]


def feed_table(server: ClubServer, table: str, log) -> list:
    """Every row of a real table's log (physical rows carry their link identity, which the hash
    chain covers) into ``server``, as the publisher sends them; the statuses."""
    import json
    out, lid = [], log.identity()[1]
    for rid, match, kind, payload, at, digest, boot, link in log._db.execute(
            "SELECT id, match, kind, payload, at, hash, boot, seq FROM entries ORDER BY id"):
        raw = encode_event(EventMessage(table, match, rid, kind, json.loads(payload), at, digest, boot, link, lid))
        out.append(server.handle(events_topic(table), raw).status)
    return out


def soft(tmp: pathlib.Path, table: str, seed: int, hands: int = 2, **kw) -> SoftTable:
    return kept(SoftTable(tmp / f"{table}-{seed}.db", table=table, seed=seed, hands=hands,
                          names=NAMES.get(table, ()), **kw))


@contextlib.contextmanager
def reporting(tmp: pathlib.Path, club_broker, table_broker, *, tables=("T1",), seed: int = 2, hands: int = 2):
    """A club server (``tables`` registered) and table T1 reporting to it through a real broker:
    ``(server, table)`` once the table has played and its whole log is acknowledged."""
    from shengji_table.club.publisher import TablePublisher
    server = club(tmp / "club.sqlite", tables=tables, broker=club_broker).start()
    t = soft(tmp, "T1", seed=seed, hands=hands)
    pub = TablePublisher(t.log.path, "T1", table_broker).start()
    t.listeners.append(pub.notify)
    try:
        t.play()
        wait_for(pub.caught_up, 30)
        yield server, t
    finally:
        pub.stop()
        server.stop()


def relog(path, log, replace: dict):
    """A copy of ``log`` written afresh (its own valid hash chain) with row ids in ``replace``
    given new payloads: a table whose log chains but whose play may not replay (its own format row
    first, so the row ids stay the same)."""
    import json
    from shengji_table.store.log import FORMAT_MATCH, EventLog
    out = kept(EventLog(path))
    for rid, match, kind, payload, _at, _digest, _lid in rows(log):
        if match != FORMAT_MATCH:
            out.append(kind, replace.get(rid, json.loads(payload)), match=match)
    return out


def wait_for(what, timeout: float, poll: float = 0.05):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = what()
        if got:
            return got
        time.sleep(poll)
    raise AssertionError(f"timed out after {timeout} s")


def counted(db, table: str | None = None) -> list:
    """(table, match, seq) of every event row stored: duplicates would show twice."""
    sql = "SELECT table_id, match, seq FROM events" + (" WHERE table_id=?" if table else "") + " ORDER BY 1, 3"
    return db.q(sql, (table,) if table else ())


class CutProxy:
    """A TCP relay in front of the broker for one table: :meth:`cut` drops its connections and
    refuses new ones (a pulled network cable) until :meth:`restore`."""

    def __init__(self, port: int):
        import socket
        import threading
        self.target = port
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.up = True
        self.conns: list = []
        self.cuts = 0
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        import socket
        import threading
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            try:
                server = socket.create_connection(("127.0.0.1", self.target), 2)
            except OSError:
                client.close()
                continue
            with self._lock:
                self.conns += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a, b):
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.close()
                except OSError:
                    pass

    def cut(self):
        import socket
        self.up = False
        self.cuts += 1
        with self._lock:
            for s in self.conns:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                    s.close()
                except OSError:
                    pass
            self.conns = []

    def restore(self):
        self.up = True

    def close(self):
        self.cut()
        self.sock.close()
