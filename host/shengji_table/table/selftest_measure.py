"""``selftest --measure N``: the measurements of a built table, as a pure step machine (the same
``start`` / ``feed`` / ``tick`` / ``done`` / ``report`` interface as :class:`~.selftest.SelfTest`,
driven by the same loop over the serial link).

For every reader that is alive, in order (the seats, then the centre):

1. **N placements.**  The ring turns white and the operator is asked to lay a card on the reader
   *now*; the time from the prompt to the TAP is the tap latency (on a real table it includes the
   operator's reaction: an upper bound; the virtual table's operator reacts in milliseconds).  No
   TAP within ``step_timeout`` is a **miss**.  The card then lies still for ``hold_s``: a second TAP
   of the same card meanwhile is a **false lift** (the firmware lost it and found it again: field-edge
   flicker); a TAP of another card on it, or a TAP on any other reader, is a **false tap**.  Then the
   card is lifted (``lift_s`` allowed; a TAP then is a false tap too).
2. **Two cards.**  A second card is laid on the first, for ``2 x hold_s``: the firmware must report
   the stack (STACK) and tap neither card meanwhile.  A reader that taps the cards instead — one
   after the other, a **flip**, which at a game is a take-back — or reports no stack fails, naming
   its seat; so does a stack where one card was asked for (two cards on the pad at a placement).

Polls per second are measured: the firmware counts every reader's answered polls and sends the
counters, with its own millisecond clock, in each SNAPSHOT.  One snapshot is taken when the table
connects and one after the last reader, and polls/s = Δcount / Δclock (the Pico's clock, so the
link's delays do not enter; the host's time between the two is printed beside it).  A Pico whose
firmware sends no counters (older than the counters), or one that restarted in between, gets the
old estimate instead, marked ``~``: a card lands at a uniformly random point of the reader's poll
cycle, so ``max - min`` of N latencies is about ``(N - 1) / (N + 1)`` of one lap (needs N >= 2).
The figures compare with ``make bench``'s (``hardware/timing.py``), which the command prints beside
them.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..board import Board
from . import protocol as P
from .selftest import OFF, RED, SOLID, WHITE, GREEN, AskSnapshot, Prompt, SetRing, position_name
from .session import COUNTER_MODULO, LinkStack, LinkTap, Rebooted, ReaderStatus, Snapshot

__all__ = ["Measurement", "ReaderFigures", "MeasureReport"]

CONNECT, PLACE, HOLD, LIFT, TWO, TWO_LIFT, COUNTERS, DONE = (
    "connect", "place", "hold", "lift", "two", "two-lift", "counters", "done")


@dataclass
class ReaderFigures:
    """What one reader did during the measurement."""
    index: int
    name: str
    alive: bool = True
    latencies_ms: list = field(default_factory=list)
    misses: int = 0
    false_lifts: int = 0
    false_taps: int = 0
    two_cards_uids: list = field(default_factory=list)   # UIDs tapped while two cards lay on it
    two_cards_run: bool = False
    stacks: int = 0                 # STACK reports while two cards lay on it (as asked)
    stray_stacks: int = 0           # STACK reports where one card was asked for
    measured_polls_per_s: float | None = None   # from the firmware's poll counters, when it sends them

    @property
    def mean_ms(self) -> float | None:
        return sum(self.latencies_ms) / len(self.latencies_ms) if self.latencies_ms else None

    @property
    def polls_per_s(self) -> float | None:
        """Measured when the firmware sent its counters, else :attr:`estimated_polls_per_s`."""
        if self.measured_polls_per_s is not None:
            return self.measured_polls_per_s
        return self.estimated_polls_per_s

    @property
    def estimated_polls_per_s(self) -> float | None:
        """Estimated from the spread of the latencies (see the module docstring)."""
        n = len(self.latencies_ms)
        if n < 2:
            return None
        spread = max(self.latencies_ms) - min(self.latencies_ms)
        lap = spread * (n + 1) / (n - 1)
        return 1000 / lap if lap > 0 else None

    @property
    def two_cards(self) -> str:
        if not self.two_cards_run:
            return "not run"
        uids = self.two_cards_uids
        distinct = len(set(uids))
        if distinct > 1:
            return f"flips: {len(uids)} taps of {distinct} cards"
        if self.stacks:
            return "stack reported" + (", and a tap of one card first" if uids else "")
        if not uids:
            return "no stack reported, neither card read"
        return "no stack reported: one card read" + (f", tapped {len(uids)} times" if len(uids) > 1 else "")

    @property
    def two_cards_ok(self) -> bool:
        """Two cards on the reader were reported as a stack, and not tapped in turn."""
        return not self.two_cards_run or (self.stacks > 0 and len(set(self.two_cards_uids)) <= 1)

    @property
    def ok(self) -> bool:
        return self.alive and not (self.misses or self.false_lifts or self.false_taps or self.stray_stacks) \
            and self.two_cards_ok

    def faults(self) -> str:
        """What went wrong at this reader, in words (for the FAIL list)."""
        out = []
        if self.misses or self.false_lifts or self.false_taps:
            out.append(f"{self.misses} misses, {self.false_lifts} false lifts, {self.false_taps} false taps")
        if self.stray_stacks:
            out.append(f"two cards on the pad {self.stray_stacks} time(s) where one was asked for: clear the pad")
        if not self.two_cards_ok:
            out.append(f"two cards laid on it: {self.two_cards} (a flip is a take-back at a game; keep "
                       f"one card per pad)")
        return "; ".join(out)


@dataclass
class MeasureReport:
    """The figures per reader; :meth:`render` with the bench estimate beside them."""
    board: Board
    device: str
    connected: bool
    per_reader: list
    problems: list
    notes: list
    placements: int
    estimate: tuple | None = None      # (polls/s per seat, mean tap latency ms) from make bench
    window_s: tuple | None = None      # (Pico clock, host clock) seconds between the counters read

    @property
    def ok(self) -> bool:
        return self.connected and not self.problems and all(r.ok for r in self.per_reader)

    @property
    def exit_status(self) -> int:
        return 0 if self.ok else 1

    def render(self) -> str:
        b = self.board
        lines = [f"Measurement of {b.name} on {self.device}: {self.placements} placements per reader", ""]
        lines.append(f"  {'position':<9} {'taps':>5} {'misses':>7} {'false lifts':>12} {'false taps':>11} "
                     f"{'latency mean/max ms':>20} {'polls/s':>8}  two cards")
        for r in self.per_reader:
            if not r.alive:
                lines.append(f"  {r.name:<9} reader DEAD: not measured")
                continue
            lat = (f"{r.mean_ms:.0f}/{max(r.latencies_ms):.0f}" if r.latencies_ms else "-")
            pps = f"{r.polls_per_s:.1f}" if r.polls_per_s is not None else "-"
            if r.measured_polls_per_s is None and r.polls_per_s is not None:
                pps = "~" + pps
            lines.append(f"  {r.name:<9} {len(r.latencies_ms):>5} {r.misses:>7} {r.false_lifts:>12} "
                         f"{r.false_taps:>11} {lat:>20} {pps:>8}  {r.two_cards}")
        under = [self._polls_line()] if any(r.alive and r.polls_per_s is not None for r in self.per_reader) else []
        if self.estimate is not None:
            under.append(f"  bench estimate (make bench, hardware/timing.py): {self.estimate[0]:.1f} polls/s per "
                         f"seat, tap latency {self.estimate[1]:.0f} ms mean")
        if under:
            lines += [""] + under
        if self.notes:
            lines += ["", "  Notes:"] + [f"  - {n}" for n in self.notes]
        lines.append("")
        if self.ok:
            lines.append("RESULT: PASS — no misses, no false lifts, no false taps, stacks reported")
        else:
            problems = self.problems + [f"reader of {r.name}: {r.faults()}" for r in self.per_reader
                                        if r.alive and not r.ok]
            lines.append(f"RESULT: FAIL — {len(problems)} problem{'s' if len(problems) != 1 else ''}:")
            lines += [f"  - {p}" for p in problems]
        return "\n".join(lines)

    def _polls_line(self) -> str:
        if self.window_s is not None:
            return (f"  polls/s measured: the firmware's poll counters over {self.window_s[0]:.1f} s of the Pico's "
                    f"clock ({self.window_s[1]:.1f} s on the host's)")
        return ("  polls/s marked ~ estimated from the spread of the latencies: the Pico sent no poll counters "
                "for the whole run (older firmware: shengji-table flash; or it restarted)")


class Measurement:
    """The measuring step machine (module docstring).  Times are the caller's clock, in seconds."""

    def __init__(self, board: Board, placements: int, *, device: str = "", step_timeout: float = 30.0,
                 connect_timeout: float = 10.0, hold_s: float = 2.0, lift_s: float = 1.5):
        if placements < 1:
            raise ValueError("--measure needs at least 1 placement per reader")
        if min(step_timeout, connect_timeout, hold_s, lift_s) <= 0:
            raise ValueError("times must be positive")
        self.board = board
        self.device = device
        self.placements = placements
        self.step_timeout, self.connect_timeout = step_timeout, connect_timeout
        self.hold_s, self.lift_s = hold_s, lift_s
        self.n = board.seats + 1
        self.readers = [ReaderFigures(i, position_name(board, i)) for i in range(self.n)]
        self.phase = CONNECT
        self.connected = False
        self.problems: list = []
        self.notes: list = []
        self.estimate: tuple | None = None
        self._order: list = []          # reader indexes still to measure
        self._current = -1
        self._k = 0                     # placement number at the current reader
        self._since = 0.0               # when the current phase began
        self._uid: bytes | None = None  # the card lying on the current reader
        self._first: tuple | None = None    # (snapshot with poll counters, host time) at connect
        self.window_s: tuple | None = None  # (Pico, host) seconds between the counters read

    @property
    def done(self) -> bool:
        return self.phase == DONE

    def note(self, text: str) -> None:
        self.notes.append(text)

    def fail(self, problem: str) -> None:
        self.problems.append(problem)
        self.phase = DONE

    def start(self, now: float) -> list:
        self._since = now
        out: list = [SetRing(i, OFF, (0, 0, 0)) for i in range(self.n) if self._has_ring(i)]
        return out + [Prompt(f"waiting for the table on {self.device or 'the link'} ..."), AskSnapshot()]

    def _has_ring(self, i: int) -> bool:
        return self.board.ring_for("centre" if i == self.board.seats else i) is not None

    def _ring(self, i: int, rgb: tuple) -> list:
        return [SetRing(i, SOLID, rgb)] if self._has_ring(i) else []

    def feed(self, event, now: float) -> list:
        out: list = []
        if isinstance(event, Snapshot) and self.phase == CONNECT:
            out += self._connected(event, now)
        elif isinstance(event, Snapshot) and self.phase == COUNTERS:
            out += self._counted(event, now)
        elif isinstance(event, ReaderStatus) and 0 <= event.reader < self.n and not event.alive \
                and self.phase != CONNECT:
            self.notes.append(f"reader of {self.readers[event.reader].name} reported dead during the measurement")
        elif isinstance(event, Rebooted) and event.old_boot_id is not None:
            self.problems.append("the Pico restarted during the measurement: check the 5 V supply and run again")
        elif isinstance(event, LinkTap):
            out += self._tap(event, now)
        elif isinstance(event, LinkStack) and event.cards >= 2 and 0 <= event.reader < self.n:
            self._stack(event.reader)
        return out + self.tick(now)

    def _stack(self, reader: int) -> None:
        r = self.readers[reader]
        if reader == self._current and self.phase in (TWO, TWO_LIFT):
            r.stacks += 1
            return
        r.stray_stacks += 1
        self.notes.append(f"reader of {r.name}: two cards on it ({self.phase}), where one was asked for")

    def _connected(self, s: Snapshot, now: float) -> list:
        self.connected = True
        if s.polls is not None:
            self._first = (s, now)
        for i, r in enumerate(self.readers):
            r.alive = i < len(s.readers) and s.readers[i] == P.READER_ALIVE
            if not r.alive:
                self.problems.append(f"reader of {r.name}: not alive, not measured")
        self._order = [r.index for r in self.readers if r.alive]
        out: list = [Prompt("table connected; measuring")]
        return out + self._next_reader(now)

    def _next_reader(self, now: float) -> list:
        if self._current >= 0:
            ok = self.readers[self._current].ok
            out = self._ring(self._current, GREEN if ok else RED)
        else:
            out = []
        if not self._order:
            if self._first is None:
                self.phase = DONE
                return out + [Prompt("measurement finished")]
            self.phase, self._since = COUNTERS, now
            return out + [Prompt("measurement finished; reading the poll counters"), AskSnapshot()]
        self._current = self._order.pop(0)
        self._k = 0
        return out + self._ask_place(now)

    def _ask_place(self, now: float) -> list:
        self._k += 1
        self.phase, self._since, self._uid = PLACE, now, None
        i = self._current
        return self._ring(i, WHITE) + [Prompt(f"[{self.readers[i].name}] place a card on reader {i} now "
                                              f"({self._k}/{self.placements})", "place", i)]

    def _tap(self, e: LinkTap, now: float) -> list:
        i = self._current
        if self.phase == CONNECT or e.reader != i:
            where = self.readers[e.reader].name if 0 <= e.reader < self.n else f"index {e.reader}"
            if 0 <= e.reader < self.n:
                self.readers[e.reader].false_taps += 1
            self.notes.append(f"a tap on the reader of {where}, which was not asked ({self.phase})")
            return []
        r = self.readers[i]
        if self.phase == PLACE:
            r.latencies_ms.append((now - self._since) * 1000)
            self._uid = e.uid
            self.phase, self._since = HOLD, now
            return [Prompt(f"[{r.name}] leave it lying still ({self.hold_s:g} s)")]
        if self.phase == HOLD and e.uid == self._uid:
            r.false_lifts += 1
            self.notes.append(f"reader of {r.name}: the card lying on it was tapped again (a lift it never had)")
        elif self.phase in (HOLD, LIFT):
            r.false_taps += 1
            self.notes.append(f"reader of {r.name}: a tap of {e.uid.hex()} during {self.phase}")
        elif self.phase in (TWO, TWO_LIFT):
            r.two_cards_uids.append(e.uid)
        return []

    def _counted(self, s: Snapshot, now: float) -> list:
        """The second snapshot: polls/s per reader from the counters' growth since the first."""
        assert self._first is not None
        first, then = self._first
        rates = s.polls_per_s(first)
        self.phase = DONE
        if rates is None:
            self.note("the Pico's poll counters could not be compared (it restarted, or sent none at the end): "
                      "polls/s estimated")
            return [Prompt("measurement finished")]
        for r in self.readers:
            if r.alive and r.index < len(rates):
                r.measured_polls_per_s = rates[r.index]
        assert s.clock_ms is not None and first.clock_ms is not None
        self.window_s = (((s.clock_ms - first.clock_ms) % COUNTER_MODULO) / 1000, now - then)
        return [Prompt("measurement finished")]

    def tick(self, now: float) -> list:
        elapsed = now - self._since
        if self.phase == CONNECT and elapsed >= self.connect_timeout:
            self.fail(f"no answer from the Pico on {self.device or 'the link'} within {self.connect_timeout:g} s")
            return [Prompt("no answer from the table")]
        if self.phase == COUNTERS and elapsed >= self.connect_timeout:
            self.phase = DONE
            self.note(f"no snapshot at the end within {self.connect_timeout:g} s: polls/s estimated")
            return [Prompt("measurement finished")]
        i = self._current
        if self.phase == PLACE and elapsed >= self.step_timeout:
            self.readers[i].misses += 1
            self.notes.append(f"reader of {self.readers[i].name}: no tap within {self.step_timeout:g} s "
                              f"(placement {self._k})")
            return self._after_placement(now)
        if self.phase == HOLD and elapsed >= self.hold_s:
            self.phase, self._since = LIFT, now
            return [Prompt(f"[{self.readers[i].name}] lift the card from reader {i}", "lift", i)]
        if self.phase == LIFT and elapsed >= self.lift_s:
            return self._after_placement(now)
        if self.phase == TWO and elapsed >= 2 * self.hold_s:
            self.phase, self._since = TWO_LIFT, now
            return [Prompt(f"[{self.readers[i].name}] lift both cards from reader {i}", "lift", i)]
        if self.phase == TWO_LIFT and elapsed >= self.lift_s:
            return self._next_reader(now)
        return []

    def _after_placement(self, now: float) -> list:
        if self._k < self.placements:
            return self._ask_place(now)
        r = self.readers[self._current]
        r.two_cards_run = True
        self.phase, self._since = TWO, now
        return [Prompt(f"[{r.name}] lay two cards on reader {self._current}, one on the other "
                       f"({2 * self.hold_s:g} s)", "two", self._current)]

    def report(self) -> MeasureReport:
        return MeasureReport(self.board, self.device, self.connected, self.readers, list(self.problems),
                             list(self.notes), self.placements, self.estimate, self.window_s)
