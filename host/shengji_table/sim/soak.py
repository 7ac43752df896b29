"""A fault soak over whole matches at the virtual table, with its figures.

Each match runs the host as its own process (``python -m shengji_table.sim.match_runner``) on a
fresh log at a virtual table whose line is watched at both ends (:mod:`.tap_audit`).  While it
plays, faults are injected at random moments, one at a time:

* ``kill`` — the host SIGKILLed and started again on the same log (it resumes from the log);
* ``cut`` — the cable pulled for 0.1–0.6 s and put back (the host reconnects, asks for a snapshot);
* ``garbage`` — random bytes (1–300, then a delimiter) written into the line towards the host and
  towards the Pico;
* ``restart`` — the Pico's firmware killed and booted again (a power cut: a new boot id, its queue
  and the cards on its readers gone);
* ``broker`` — the club's mosquitto SIGKILLed, and started again on the same port 0.2–2 s later,
  while the other faults go on (:class:`_Club`).

With ``broker`` in the weights and mosquitto and paho-mqtt installed, each match's table reports
to a club server (in this process) over a local mosquitto: a table id per match (its log is a fresh
one), its publisher (``club/publisher.py``, reading the log as ``serve --club`` does) started again
whenever its host is SIGKILLed — at a real table it lives in the host's process.  Without them the
kind is skipped and :attr:`SoakReport.skipped` says why.

A match passes when the host finishes it (exit 0), its record rebuilt from the log equals the same
match played directly in the game layer, and the audit finds no tap lost, doubled or misfiled; with
the club, also when the club's database holds every row of the table's log exactly once (by table,
match, seq, with the same kind, payload and hash) and nothing was refused.  At the end the club's
hands and standings must equal those of a club fed the fault-free runs.
:func:`soak` raises :class:`SoakFailure` on the first match that does not pass and returns a
:class:`SoakReport` with the counts otherwise (``str(report)`` prints them).
"""
from __future__ import annotations

import importlib.util
import json
import pathlib
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any, cast

from ..game.events import event_from_json
from ..game.match import Match
from ..game.record import to_record
from ..rules.ruleset import Ruleset
from ..store.log import EventLog, identity
from .players import play_direct
from .tap_audit import LineWitness, audit_log
from .virtual_table import VirtualTable

__all__ = ["soak", "SoakReport", "SoakFailure", "KINDS", "club_missing"]

KINDS = ("kill", "cut", "garbage", "restart", "broker")


class SoakFailure(AssertionError):
    """A match that lost or doubled a tap, ended with another record, or did not end."""


@dataclass
class SoakReport:
    faults: Counter = field(default_factory=Counter)
    matches: int = 0
    hands: int = 0
    logged: int = 0               # physical events in the logs
    unacked_at_restart: int = 0   # numbered by a Pico that restarted before anyone acknowledged them
    seconds: float = 0.0
    club_rows: int = 0            # rows the club stored, each exactly once
    club_checked: bool = False    # its hands and standings compared with the fault-free runs
    skipped: dict = field(default_factory=dict)     # kind -> why it was not injected

    def __str__(self) -> str:
        kinds = ", ".join(f"{k} {self.faults[k]}" for k in KINDS if self.faults[k])
        skipped = "".join(f"; {k} skipped: {why}" for k, why in self.skipped.items())
        club = (f"; the club stored {self.club_rows} rows, each once" if self.club_rows else "")
        club += ", its hands and standings those of the fault-free runs" if self.club_checked else ""
        return (f"{sum(self.faults.values())} faults injected ({kinds}) over {self.matches} match(es), "
                f"{self.hands} hand(s), {self.logged} table events logged; 0 taps lost, 0 doubled, every "
                f"record equal to the fault-free run; {self.unacked_at_restart} events unacknowledged when "
                f"a Pico restarted (its queue is in RAM){club}{skipped}; {self.seconds:.0f} s")


def _record_from_log(path, ruleset: Ruleset, mode: str) -> dict:
    with EventLog(path, read_only=True) as log:
        return to_record(Match(ruleset, mode).apply_all(event_from_json(e) for e in log.game_events()))


class _Match:
    """One match being soaked: the virtual table, the host process, the faults."""

    def __init__(self, workdir, n: int, preset: str, mode: str, hands: int, seed: int, rng: random.Random):
        self.log = workdir / f"soak-{n}.db"
        self.table = f"S{n}"                  # its table id at the club
        self.args = [sys.executable, "-m", "shengji_table.sim.match_runner", "--log", str(self.log),
                     "--preset", preset, "--mode", mode, "--hands", str(hands), "--seed", str(seed),
                     "--timeout", "600"]
        self.rng = rng
        self.to_host, self.to_pico = LineWitness(), LineWitness(towards="pico")
        # the virtual table only calls a line's carry(), which a witness has
        self.vt = VirtualTable(faults_to_host=cast(Any, self.to_host), faults_to_pico=cast(Any, self.to_pico))
        self.proc: subprocess.Popen | None = None
        self.started = 0.0

    def start_host(self) -> None:
        self.proc = subprocess.Popen(self.args + ["--device", self.vt.device], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        self.started = time.monotonic()

    def inject(self, kind: str) -> None:
        rng, vt = self.rng, self.vt
        if kind == "kill":
            assert self.proc is not None
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
            self.start_host()
        elif kind == "cut":
            vt.pull_cable()
            time.sleep(rng.uniform(0.1, 0.6))
            vt.plug_cable()
        elif kind == "garbage":
            vt.inject(bytes(rng.randrange(1, 256) for _ in range(rng.randint(1, 300))) + b"\x00", "host")
            vt.inject(bytes(rng.randrange(0, 256) for _ in range(rng.randint(1, 300))), "pico")
        else:
            vt.restart_firmware()

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.vt.close()


def club_missing() -> str | None:
    """Why the soak cannot have a club here (None: it can)."""
    from ..club.broker import mosquitto_missing
    problem = mosquitto_missing()
    if problem is None and importlib.util.find_spec("paho") is None:
        problem = "paho-mqtt is not installed (pip install 'shengji-table[club]')"
    return problem


def _read_only(path) -> sqlite3.Connection:
    return sqlite3.connect(pathlib.Path(path).resolve().as_uri() + "?mode=ro", uri=True)


_ROWS = "SELECT match, id, kind, payload, hash FROM entries ORDER BY id"


class _Club:
    """The club side of the soak: a local mosquitto, the club server on it, a publisher per table."""

    def __init__(self, workdir, rng: random.Random, ruleset: Ruleset):
        from ..club.broker import Mosquitto
        from ..club.server import ClubServer
        from ..club.wire import BrokerURL
        self.rng, self.workdir, self.ruleset = rng, pathlib.Path(workdir), ruleset
        self.broker = Mosquitto().start()
        self.url = BrokerURL("127.0.0.1", self.broker.port)
        self.server = ClubServer(self.workdir / "club.sqlite", self.url)
        with self.server.db.tx():              # the club's own rules: the soak's preset (club rules)
            self.server.db.set_rules(ruleset.to_json())
        self.server.start()
        self.pubs: dict = {}
        self.logs: dict = {}
        self.back_at: float | None = None
        self.played: dict = {}        # table -> (mode, seed, hands): its fault-free run

    def add_table(self, table: str, log_path, mode: str, seed: int, hands: int) -> None:
        with self.server.lock:
            with self.server.db.tx():
                self.server.db.add_table(table)
            self.server.ingest.register(table)
        self.logs[table], self.played[table] = log_path, (mode, seed, hands)
        self.restart_publisher(table)

    def restart_publisher(self, table: str) -> None:
        """The host's process died: its publisher with it (positions forgotten; it learns the ack again)."""
        from ..club.publisher import TablePublisher
        old = self.pubs.pop(table, None)
        if old is not None:
            old.stop(drain_s=0)
        self.pubs[table] = TablePublisher(self.logs[table], table, self.url, stall_s=1.0).start()

    @property
    def down(self) -> bool:
        return self.back_at is not None

    def kill_broker(self) -> None:
        self.broker.kill()
        self.back_at = time.monotonic() + self.rng.uniform(0.2, 2.0)

    def tick(self, force: bool = False) -> None:
        """The broker started again once its time down is over (``force``: now)."""
        if self.back_at is not None and (force or time.monotonic() >= self.back_at):
            self.broker.start()
            self.back_at = None

    def settle(self, table: str, timeout: float = 60.0) -> int:
        """Wait until the club acknowledged every row of ``table``'s log; check it holds each exactly
        once, as logged, and refused none; the number of rows."""
        self.tick(force=True)
        pub = self.pubs.pop(table)
        deadline = time.monotonic() + timeout
        while not pub.caught_up() and time.monotonic() < deadline:
            time.sleep(0.1)
        caught_up = pub.caught_up()
        pub.stop(drain_s=0)
        with closing(_read_only(self.logs[table])) as log:
            logged = log.execute(_ROWS).fetchall()
        with self.server.lock:
            stored = self.server.db.q("SELECT match, seq, kind, payload, hash FROM events WHERE table_id=? "
                                      "ORDER BY seq", (table,))
            refused = self.server.db.q("SELECT seq, reason FROM refusals WHERE table_id=?", (table,))
        if not caught_up:
            raise SoakFailure(f"table {table}: the club acknowledged {pub.acked} of {len(logged)} rows in {timeout} s")
        if refused:
            raise SoakFailure(f"table {table}: the club refused {refused[:3]}")
        have = [(m, q, k, json.loads(p), h) for m, q, k, p, h in stored]
        want = [(m, q, k, json.loads(p), h) for m, q, k, p, h in logged]
        if have != want:
            missing = {r[:2] for r in want} - {r[:2] for r in have}
            raise SoakFailure(f"table {table}: the club holds {len(have)} rows for the log's {len(want)} "
                              f"(missing {sorted(missing)[:5]}, or some doubled or changed)")
        return len(have)

    def check_against_fault_free(self, ruleset: Ruleset) -> None:
        """The club's hands and standings equal a club's fed the fault-free runs of the same tables."""
        from ..club.server import ClubServer
        ref = ClubServer(self.workdir / "club-fault-free.sqlite", None)
        with ref.db.tx():
            ref.db.set_rules(ruleset.to_json())
        try:
            for table, (mode, seed, hands) in self.played.items():
                _feed_fault_free(ref, self.workdir / f"fault-free-{table}.db", table, ruleset, mode, seed, hands)
            with self.server.lock:
                got = _club_results(self.server.db)
            if got != _club_results(ref.db):
                raise SoakFailure("the club's hands or standings differ from those of the fault-free runs")
        finally:
            ref.stop()

    def close(self) -> None:
        for pub in self.pubs.values():
            pub.stop(drain_s=0)
        self.server.stop()
        self.broker.stop()


def _club_results(db) -> tuple:
    from ..club.standings import standings
    hands = db.q("SELECT table_id, match, number, summary FROM hands ORDER BY 1, 2, 3")
    return [(t, m, n, json.loads(s)) for t, m, n, s in hands], standings(db)


def _feed_fault_free(ref, path, table: str, ruleset: Ruleset, mode: str, seed: int, hands: int) -> None:
    """The fault-free run of ``table`` written as a table writes its log (a start row, then the game
    events), each row handed to the club ``ref`` as the broker would."""
    from ..club.wire import EventMessage, encode_event, events_topic
    with ref.db.tx():
        ref.db.add_table(table)
    ref.ingest.register(table)
    with EventLog(path) as log:
        log.append("meta", {"start": {"preset": ruleset.preset, "mode": mode, "seed": seed, "hands": hands},
                            "ruleset": ruleset.to_json(), "mode": mode})
        log.append_many([("game", e.to_json()) for e in play_direct(ruleset, mode, seed, hands).events])
    with closing(_read_only(path)) as db:
        rows = db.execute("SELECT id, match, kind, payload, at, hash, boot, seq FROM entries ORDER BY id").fetchall()
    lid = identity((rows[0][2], rows[0][1], rows[0][3], rows[0][5]))[1]
    for rid, match, kind, payload, at, digest, boot, link in rows:
        taken = ref.handle(events_topic(table), encode_event(
            EventMessage(table, match, rid, kind, json.loads(payload), at, digest, boot, link, lid)))
        if taken.status != "stored":
            raise SoakFailure(f"the fault-free run of {table} was not taken by the club: {taken}")


class _Picker:
    """Garbage or a heavy fault, by the weights; the heavy kinds in turn (each as often as its
    weight), so even a short soak has each kind."""

    def __init__(self, rng: random.Random, weights: dict):
        self.rng, self.garbage = rng, weights.get("garbage", 0)
        self.heavy = [k for k in KINDS if k != "garbage" for _ in range(weights.get(k, 0))]
        self.turn = 0

    def __call__(self) -> str:
        if not self.heavy or self.rng.random() * (self.garbage + len(self.heavy)) < self.garbage:
            return "garbage"
        self.turn += 1
        return self.heavy[(self.turn - 1) % len(self.heavy)]


def soak(workdir, *, faults: int, preset: str = "one-deck", modes: tuple = ("open", "scanned"), hands: int = 1,
         seed: int = 1, weights: dict | None = None, pace: tuple = (0.05, 0.3), settle: float = 1.5,
         per_match: int | None = None, on_match=None) -> SoakReport:
    """Play matches of ``hands`` hands, in each of ``modes`` in turn, until ``faults`` faults were
    injected (the match under way then plays to its end without more), at most ``per_match`` in
    one match (so they spread over several).  ``weights``: how often each
    kind of :data:`KINDS` is picked (``broker`` only when :func:`club_missing` finds nothing
    missing; else :attr:`SoakReport.skipped` says why); ``pace``: the wait between faults (s);
    ``settle``: a host, cable or Pico just brought back gets only garbage this long, so the match
    moves on.  ``on_match(report)`` after each match (to print progress)."""
    weights = dict(weights or {"kill": 1, "cut": 1, "garbage": 1, "restart": 1})
    rng, report, t0 = random.Random(seed), SoakReport(), time.monotonic()
    if weights.get("broker") and (why := club_missing()):
        report.skipped["broker"] = why
        weights.pop("broker")
    ruleset = Ruleset.from_preset(preset)
    club = _Club(workdir, rng, ruleset) if weights.get("broker") else None
    pick = _Picker(rng, weights)
    try:
        while sum(report.faults.values()) < faults:
            match_seed, mode = seed * 1000 + report.matches, modes[report.matches % len(modes)]
            m = _Match(workdir, report.matches, preset, mode, hands, match_seed, rng)
            budget = min(faults, sum(report.faults.values()) + (per_match or faults))
            if club is not None:
                club.add_table(m.table, m.log, mode, match_seed, hands)
            try:
                audit = _play(m, report, pick, budget, rng, pace, settle, club)
            finally:
                m.close()
            if not audit.ok:
                raise SoakFailure(f"match {report.matches} (seed {match_seed}): {audit.problems}")
            want = to_record(play_direct(ruleset, mode, match_seed, hands))
            if _record_from_log(m.log, ruleset, mode) != want:
                raise SoakFailure(f"match {report.matches} (seed {match_seed}): its record differs from the "
                                  f"fault-free run")
            if club is not None:
                report.club_rows += club.settle(m.table)
            report.matches += 1
            report.hands += hands
            report.logged += sum(audit.logged.values())
            report.unacked_at_restart += sum(audit.unacked_at_restart.values())
            report.seconds = time.monotonic() - t0
            if on_match is not None:
                on_match(report)
        if club is not None:
            club.check_against_fault_free(ruleset)
            report.club_checked = True
    finally:
        if club is not None:
            club.close()
    report.seconds = time.monotonic() - t0
    return report


def _play(m: _Match, report: SoakReport, pick: _Picker, budget: int, rng: random.Random, pace: tuple,
          settle: float, club: _Club | None):
    """Play match ``m`` to its end, injecting faults until ``budget`` in all; the audit of its log."""
    m.vt.start()
    m.start_host()
    quiet_until = time.monotonic() + settle
    while True:
        assert m.proc is not None
        try:
            rc = m.proc.wait(timeout=rng.uniform(*pace))
        except subprocess.TimeoutExpired:
            rc = None
        if club is not None:
            club.tick()
        if rc is not None:
            if rc != 0:
                raise SoakFailure(f"match {report.matches}: the host exited {rc}: "
                                  f"{(m.proc.stderr.read() if m.proc.stderr else '')[-2000:]}")
            break
        if sum(report.faults.values()) >= budget:
            continue
        # while a host, cable or Pico settles back, only garbage: the match must move on
        kind = pick() if time.monotonic() >= quiet_until else "garbage"
        if kind == "broker" and club is not None and club.down:
            kind = "garbage"                  # down already: it comes back by itself
        if kind == "broker" and club is not None:
            club.kill_broker()
        else:
            m.inject(kind)
        if kind == "kill" and club is not None:
            club.restart_publisher(m.table)
        report.faults[kind] += 1
        if kind not in ("garbage", "broker"):     # a broker away does not stop the table
            quiet_until = time.monotonic() + settle
    time.sleep(1.2)                   # one more heartbeat: the firmware's count as it ends
    return audit_log(m.log, m.to_host, m.to_pico)
