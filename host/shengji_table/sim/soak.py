"""A fault soak over whole matches at the virtual table, with its figures.

Each match runs the host as its own process (``python -m shengji_table.sim.match_runner``) on a
fresh log at a virtual table whose line is watched at both ends (:mod:`.tap_audit`).  While it
plays, faults are injected at random moments, one at a time:

* ``kill`` — the host SIGKILLed and started again on the same log (it resumes from the log);
* ``cut`` — the cable pulled for 0.1–0.6 s and put back (the host reconnects, asks for a snapshot);
* ``garbage`` — random bytes (1–300, then a delimiter) written into the line towards the host and
  towards the Pico;
* ``restart`` — the Pico's firmware killed and booted again (a power cut: a new boot id, its queue
  and the cards on its readers gone).

A match passes when the host finishes it (exit 0), its record rebuilt from the log equals the same
match played directly in the game layer, and the audit finds no tap lost, doubled or misfiled.
:func:`soak` raises :class:`SoakFailure` on the first match that does not pass and returns a
:class:`SoakReport` with the counts otherwise (``str(report)`` prints them).
"""
from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, cast

from ..game.events import event_from_json
from ..game.match import Match
from ..game.record import to_record
from ..rules.ruleset import Ruleset
from ..store.log import EventLog
from .players import play_direct
from .tap_audit import LineWitness, audit_log
from .virtual_table import VirtualTable

__all__ = ["soak", "SoakReport", "SoakFailure", "KINDS"]

KINDS = ("kill", "cut", "garbage", "restart")


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

    def __str__(self) -> str:
        kinds = ", ".join(f"{k} {self.faults[k]}" for k in KINDS if self.faults[k])
        return (f"{sum(self.faults.values())} faults injected ({kinds}) over {self.matches} match(es), "
                f"{self.hands} hand(s), {self.logged} table events logged; 0 taps lost, 0 doubled, every "
                f"record equal to the fault-free run; {self.unacked_at_restart} events unacknowledged when "
                f"a Pico restarted (its queue is in RAM); {self.seconds:.0f} s")


def _record_from_log(path, ruleset: Ruleset, mode: str) -> dict:
    with EventLog(path, read_only=True) as log:
        return to_record(Match(ruleset, mode).apply_all(event_from_json(e) for e in log.game_events()))


class _Match:
    """One match being soaked: the virtual table, the host process, the faults."""

    def __init__(self, workdir, n: int, preset: str, mode: str, hands: int, seed: int, rng: random.Random):
        self.log = workdir / f"soak-{n}.db"
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
    kind of :data:`KINDS` is picked; ``pace``: the wait between faults (s); ``settle``: a host,
    cable or Pico just brought back gets only garbage this long, so the match moves on.  ``on_match(report)``
    after each match (to print progress)."""
    weights = weights or {"kill": 1, "cut": 1, "garbage": 1, "restart": 1}
    rng, report, t0 = random.Random(seed), SoakReport(), time.monotonic()
    pick = _Picker(rng, weights)
    ruleset = Ruleset.from_preset(preset)
    while sum(report.faults.values()) < faults:
        match_seed, mode = seed * 1000 + report.matches, modes[report.matches % len(modes)]
        m = _Match(workdir, report.matches, preset, mode, hands, match_seed, rng)
        budget = min(faults, sum(report.faults.values()) + (per_match or faults))
        try:
            m.vt.start()
            m.start_host()
            quiet_until = time.monotonic() + settle
            while True:
                assert m.proc is not None
                try:
                    rc = m.proc.wait(timeout=rng.uniform(*pace))
                except subprocess.TimeoutExpired:
                    rc = None
                if rc is not None:
                    if rc != 0:
                        raise SoakFailure(f"match {report.matches}: the host exited {rc}: "
                                          f"{(m.proc.stderr.read() if m.proc.stderr else '')[-2000:]}")
                    break
                if sum(report.faults.values()) >= budget:
                    continue
                # while a host, cable or Pico settles back, only garbage: the match must move on
                kind = pick() if time.monotonic() >= quiet_until else "garbage"
                m.inject(kind)
                report.faults[kind] += 1
                if kind != "garbage":
                    quiet_until = time.monotonic() + settle
            time.sleep(1.2)                   # one more heartbeat: the firmware's count as it ends
            audit = audit_log(m.log, m.to_host, m.to_pico)
        finally:
            m.close()
        if not audit.ok:
            raise SoakFailure(f"match {report.matches} (seed {match_seed}): {audit.problems}")
        want = to_record(play_direct(ruleset, mode, match_seed, hands))
        if _record_from_log(m.log, ruleset, mode) != want:
            raise SoakFailure(f"match {report.matches} (seed {match_seed}): its record differs from the fault-free run")
        report.matches += 1
        report.hands += hands
        report.logged += sum(audit.logged.values())
        report.unacked_at_restart += sum(audit.unacked_at_restart.values())
        report.seconds = time.monotonic() - t0
        if on_match is not None:
            on_match(report)
    return report
