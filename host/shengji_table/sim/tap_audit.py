"""Can a fault test see a lost tap?  The firmware's own count against the log, boot by boot.

The bots at the virtual table are closed-loop: a card whose tap went missing is tapped again, so a
record equal to the fault-free run does not prove that no tap was swallowed.  This module gives
the tests the other half:

* :class:`LineWitness` sits on the virtual line at the sender's end (the virtual table's
  ``faults_to_host`` and ``faults_to_pico``, optionally wrapping a
  :class:`~.line_faults.FaultyLine`), so it decodes every frame *before* any fault.  Towards the
  host it keeps, per boot id, the firmware's own count of the events it numbered (``next_seq - 1``
  of its HEARTBEAT and SNAPSHOT frames, or the highest event seq it sent); towards the Pico, the
  highest seq the host acknowledged per boot (ACKs are cumulative: "stored up to here").
* :func:`audit_log` reads the log's physical rows: per boot, their seqs must run 1..N in the order
  written, each once and none missing; every seq the host acknowledged must be there; and for the
  boot still running at the end, N must equal the firmware's count, but for the events numbered
  after the host's last acknowledgement (the run ended before the host read them: a button's
  release after the match's last press).  An earlier boot may end with events it numbered but
  nobody acknowledged (the Pico restarted, its queue in RAM: by design), and the Pico's queue may
  overflow (the log then has a ``lost`` row for the range): all are counted, not failed.

A host that acknowledges a tap and does not log it leaves a hole and fails the audit; so does one
that logs a tap twice, out of order, or under a boot the firmware never used.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..store.log import EventLog
from ..table import protocol as P

__all__ = ["LineWitness", "Audit", "audit_log"]

_EVENTS = (P.HELLO, P.TAP, P.BUTTON, P.READER, P.LOG, P.TAKE_BACK, P.STACK)


class LineWitness:
    """The firmware's output as it left the firmware; ``carry`` hands it on (through ``inner``, a
    :class:`~.line_faults.FaultyLine`, when given) unchanged otherwise."""

    def __init__(self, inner=None, towards: str = "host"):
        self.inner = inner
        self._dec = P.Decoder(P.TO_HOST if towards == "host" else P.TO_PICO)
        self.counts: dict[int, int] = {}      # boot id -> the firmware's own count of its events
        self.acked: dict[int, int] = {}       # boot id -> the highest seq the host acknowledged
        self.boots: list[int] = []            # in the order the firmware first spoke under them
        self.frames = 0

    def carry(self, data: bytes) -> bytes:
        for x in data:
            if self._dec.push(x):
                self._frame(self._dec.typ, self._dec.sender(), self._dec.seq,
                            bytes(self._dec.payload[:self._dec.length]))
        return self.inner.carry(data) if self.inner is not None else data

    def _frame(self, typ: int, boot: int, seq: int, payload: bytes) -> None:
        self.frames += 1
        count = None
        if typ == P.ACK:
            acked, boot = P.decode_ack_fields(payload)
            self.acked[boot] = max(acked, self.acked.get(boot, 0))
            return
        if boot not in self.boots:
            self.boots.append(boot)
        if typ == P.HEARTBEAT:
            count = P.decode_heartbeat(payload)[1] - 1
        elif typ == P.SNAPSHOT:
            count = P.decode_snapshot(payload)[2] - 1
        elif typ in _EVENTS:
            count = seq
        if count is not None and count > self.counts.get(boot, 0):
            self.counts[boot] = count

    def quiet(self) -> None:
        """From now on the inner line carries everything intact (as :meth:`FaultyLine.quiet`)."""
        if self.inner is not None:
            self.inner.quiet()

    def __getattr__(self, name):            # the inner line's figures (faults, injected_bad, …)
        inner = self.__dict__.get("inner")
        if inner is None:
            raise AttributeError(name)
        return getattr(inner, name)


@dataclass
class Audit:
    """What :func:`audit_log` found: per boot the seqs logged, the firmware's count and the events
    the log reports lost; ``problems`` is empty when no tap was lost, doubled or misfiled."""
    logged: dict = field(default_factory=dict)      # boot -> number of physical rows
    counted: dict = field(default_factory=dict)     # boot -> the firmware's own count
    reported_lost: dict = field(default_factory=dict)
    unacked_at_restart: dict = field(default_factory=dict)   # numbered, never acknowledged, Pico restarted
    unacked_at_end: dict = field(default_factory=dict)       # numbered after the host's last ACK (run over)
    problems: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def figures(self) -> str:
        return (f"{len(self.counted)} boot(s), {sum(self.logged.values())} events logged, "
                f"{sum(self.counted.values())} numbered by the firmware, "
                f"{sum(self.reported_lost.values())} reported lost, "
                f"{sum(self.unacked_at_restart.values())} unacknowledged when the Pico restarted, "
                f"{sum(self.unacked_at_end.values())} after the host's last acknowledgement")


def _lost_rows(log: EventLog, match: str) -> dict[int, set[int]]:
    lost: dict[int, set[int]] = {}
    for e in log.entries(match=match, kind="meta"):
        p = e.payload
        if isinstance(p, dict) and p.get("link") == "lost":
            lost.setdefault(p["boot"], set()).update(range(p["first"], p["first"] + p["count"]))
    return lost


def audit_log(log_path, to_host: LineWitness, to_pico: LineWitness, match: str = "default") -> Audit:
    """Check the log at ``log_path`` against what the witnesses saw on the line: see the module
    docstring.  Boots the firmware never spoke under are problems too."""
    audit = Audit()
    seqs: dict[int, list[int]] = {}
    with EventLog(log_path, read_only=True) as log:
        for e in log.entries(match=match, kind="physical"):
            if e.boot is None or e.seq is None:
                audit.problems.append(f"physical row {e.id} has no link identity")
                continue
            seqs.setdefault(e.boot, []).append(e.seq)
        lost = _lost_rows(log, match)
    last_boot = to_host.boots[-1] if to_host.boots else None
    for boot in sorted(set(seqs) | set(to_host.counts)):
        _audit_boot(audit, boot, seqs.get(boot, []), to_host.counts.get(boot), to_pico.acked.get(boot, 0),
                    lost.get(boot, set()), boot == last_boot)
    return audit


def _audit_boot(audit: Audit, boot: int, got: list, count: int | None, acked: int, gone: set,
                last: bool) -> None:
    """One boot's rows against the firmware's count and the host's acknowledgements."""
    name = f"boot {boot:08x}"
    audit.logged[boot], audit.reported_lost[boot] = len(got), len(gone)
    if count is None:
        audit.problems.append(f"{name}: {len(got)} events logged, but the firmware never numbered any")
        return
    audit.counted[boot] = count
    if got != sorted(set(got)):
        doubled = sorted({s for s in got if got.count(s) > 1})
        audit.problems.append(f"{name}: seqs logged twice {doubled[:10]}" if doubled else f"{name}: seqs out of order")
    have = set(got) | gone
    swallowed = [s for s in range(1, min(acked, count) + 1) if s not in have]
    if swallowed:
        audit.problems.append(f"{name}: {len(swallowed)} events acknowledged by the host but not in the log: "
                              f"seq {swallowed[:10]}")
    _audit_unacked(audit, name, boot, got, count, acked, have, last)
    beyond = sorted(s for s in set(got) if s > count)
    if beyond:
        audit.problems.append(f"{name}: seqs {beyond[:10]} logged beyond the firmware's count {count}")


def _audit_unacked(audit: Audit, name: str, boot: int, got: list, count: int, acked: int, have: set,
                   last: bool) -> None:
    """The events the firmware numbered after the host's last acknowledgement and the log lacks:
    counted (the run ended, or the Pico restarted), unless the host logged a later one of the boot
    still running — then they are taps lost on the way."""
    rest = [s for s in range(acked + 1, count + 1) if s not in have]
    logged_late = [s for s in got if s > acked]
    if rest and last and logged_late and min(rest) < max(logged_late):
        # a hole below an event the host did log: not the end of the run, a tap lost on the way
        audit.problems.append(f"{name}: the firmware numbered {count} events; {len(rest)} never logged: "
                              f"seq {rest[:10]}")
    elif rest:
        (audit.unacked_at_end if last else audit.unacked_at_restart)[boot] = len(rest)
