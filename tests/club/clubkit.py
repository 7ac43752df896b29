"""Test helper (not a test): software tables fed to a club, straight or over a real mosquitto."""
from __future__ import annotations

import pathlib
import time

import pytest

from shengji_table.club.server import ClubServer
from shengji_table.club.soft_table import SoftTable
from shengji_table.club.wire import EventMessage, encode_event, events_topic

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
    server = ClubServer(path, broker, **kw)
    with server.db.tx():
        for t in tables:
            server.db.add_table(t)
            for n in NAMES.get(t, ()):
                server.db.add_player(n)
    for t in tables:
        server.ingest.register(t)
    return server


def rows(log) -> list:
    """The log's rows as the publisher sends them: (id, match, kind, payload, at, hash)."""
    return log._db.execute("SELECT id, match, kind, payload, at, hash FROM entries ORDER BY id").fetchall()


def message(table: str, row) -> bytes:
    import json
    rid, match, kind, payload, at, digest = row
    return encode_event(EventMessage(table, match, rid, kind, json.loads(payload), at, digest))


def feed(server: ClubServer, table: str, log) -> list:
    """Every row of ``log`` into ``server`` as table ``table``; the statuses."""
    return [server.handle(events_topic(table), message(table, r)).status for r in rows(log)]


def soft(tmp: pathlib.Path, table: str, seed: int, hands: int = 2, **kw) -> SoftTable:
    return SoftTable(tmp / f"{table}-{seed}.db", table=table, seed=seed, hands=hands, names=NAMES.get(table, ()), **kw)


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
