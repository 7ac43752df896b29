"""The self-test of a freshly built table, as a pure step machine: link events in, prompts and ring
states out, a report at the end.  No I/O and no clock of its own (``shengji-table selftest`` drives
it over the serial link, the tests feed it events directly)::

    test = SelfTest(board, step_timeout=30.0)
    outputs = test.start(now)                 # Prompt / SetRing / AskSnapshot
    outputs += test.feed(event, now)          # every event the link delivers (table/session.py)
    outputs += test.tick(now)                 # timeouts
    if test.done: print(test.report().render()); exit(test.report().exit_status)

The walk, in order:

1. **Connect**: wait for the Pico's first SNAPSHOT (the link asks for one when it opens).  HELLO, if
   this boot's is still unacknowledged, gives the firmware version and the board name the Pico was
   flashed with; a board name other than the board file's is a failure.
2. **Inventory**: the READER events of this boot give each reader's health and PN532 firmware
   version (GetFirmwareVersion: IC, Ver, Rev, Support); the snapshot gives the health of each
   reader now.  Waits until every reader of the board file has reported, at most ``inventory_s``
   (a Pico whose boot events another host already acknowledged does not report them again: the
   version is then "not reported", a warning, and the health comes from the snapshot).
3. **Walk**: each position in turn — the seats, then the centre — gets its ring lit SOLID white
   and a request to tap a card on its reader; a seat's ring then turns blue and its button is asked
   for; each ask times out after ``step_timeout`` seconds.  A dead or absent reader is not asked for
   a tap (it fails at once).  A tap or press at another position is noted (crossed chip-selects or
   button wires show up that way) and does not count for either position.
4. **Rings**: every ring ends green (its position passed) or red, and a last snapshot must show
   the Pico holding exactly those states (it does not prove the LEDs light: the operator saw each
   ring lit during its step).

Ring pattern ids are ``firmware/rings.py``'s (SOLID is 8); reader indexes follow the firmware's
convention: seat ``s`` is index ``s``, the centre is index ``seats``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..board import CENTRE, Board
from . import protocol as P
from .session import (Button, Hello, LinkDown, LinkTap, LinkUp, Log, Lost, ReaderStatus, Rebooted,
                      Snapshot)

__all__ = ["SelfTest", "Prompt", "SetRing", "AskSnapshot", "Output", "Report", "PositionResult",
           "ReaderInfo", "SOLID", "WHITE", "BLUE", "GREEN", "RED", "describe_firmware", "position_name"]

# Pattern ids of firmware/rings.py (the host does not import the firmware's rings module: it is
# MicroPython code with no host-side use; tests/hardware checks the ids still agree).
OFF = 0
SOLID = 8

WHITE = (255, 255, 255)      # "tap a card here"
BLUE = (0, 0, 255)           # "press this seat's button"
GREEN = (0, 255, 0)          # this position passed
RED = (255, 0, 0)            # something at this position failed

PN532_IC = 0x32
_SUPPORT = ((0x01, "14443A"), (0x02, "14443B"), (0x04, "18092"))

# Phases
CONNECT, INVENTORY, WALK, RINGS, DONE = "connect", "inventory", "walk", "rings", "done"


# ---- outputs ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Prompt:
    """A line for the operator.  ``ask`` is ``"tap"`` / ``"press"`` with the reader / seat index
    when the line asks for an action (``None`` for information)."""
    text: str
    ask: str | None = None
    index: int | None = None


@dataclass(frozen=True)
class SetRing:
    """Command ring ``ring`` to ``pattern`` in colour ``rgb`` (sent with ``HostSession.set_ring``)."""
    ring: int
    pattern: int
    rgb: tuple

    @property
    def state(self) -> tuple:
        """The ring state as a SNAPSHOT reports it: (pattern, r, g, b, count, arg)."""
        return (self.pattern, *self.rgb, 0, 0)


@dataclass(frozen=True)
class AskSnapshot:
    """Ask the Pico for a SNAPSHOT (``SerialLink.request_snapshot``)."""


Output = Prompt | SetRing | AskSnapshot


# ---- results ----------------------------------------------------------------------------------

def describe_firmware(fw: bytes | None) -> str:
    """A PN532 GetFirmwareVersion answer (IC, Ver, Rev, Support) in words."""
    if fw is None:
        return "not reported"
    if len(fw) != 4 or fw == b"\x00\x00\x00\x00":
        return "unknown"
    ic, ver, rev, support = fw
    kinds = ",".join(name for bit, name in _SUPPORT if support & bit) or "-"
    chip = "PN532" if ic == PN532_IC else f"IC 0x{ic:02x} (not a PN532)"
    return f"{chip} {ver}.{rev} [{kinds}]"


def position_name(board: Board, index: int) -> str:
    """``seat 2`` / ``centre`` for a reader/ring index."""
    return "centre" if index == board.seats else f"seat {index}"


@dataclass
class ReaderInfo:
    """What the Pico said about one reader: ``status`` is P.READER_ALIVE/DEAD/ABSENT or None
    (never heard); ``firmware`` the 4 bytes of its last alive report (None: not reported)."""
    status: int | None = None
    firmware: bytes | None = None
    reported: bool = False          # a READER event of this boot was heard

    @property
    def state_name(self) -> str:
        return {P.READER_ALIVE: "alive", P.READER_DEAD: "DEAD", P.READER_ABSENT: "ABSENT",
                None: "not heard"}[self.status]


@dataclass
class PositionResult:
    """One position's checks: each ``None`` (not reached), ``True`` (passed) or a failure text."""
    index: int
    name: str
    reader: ReaderInfo = field(default_factory=ReaderInfo)
    tap: None | bool | str = None
    button: None | bool | str = None       # stays None for the centre (it has no button)
    has_button: bool = True
    has_ring: bool = True
    ring: None | bool | str = None

    @property
    def passed(self) -> bool:
        """Tap and button passed (the ring's own verdict comes after the ring has shown this)."""
        return (self.tap is True and (self.button is True or not self.has_button))


@dataclass
class Report:
    """The self-test's findings; :meth:`render` is the readable report."""
    board: Board
    device: str
    connected: bool
    hello: Hello | None
    positions: list
    problems: list              # every failure, one line each, naming the part and what to check
    warnings: list
    notes: list                 # stray taps/presses and link incidents, in order

    @property
    def ok(self) -> bool:
        return self.connected and not self.problems

    @property
    def exit_status(self) -> int:
        """0 all good, 1 something failed (2, could not run, is the command's)."""
        return 0 if self.ok else 1

    def render(self) -> str:
        b = self.board
        lines = [f"Self-test of {b.name} ({b.seats} seats + centre) on {self.device}"]
        if self.hello is not None:
            h = self.hello
            lines.append(f"  Pico: firmware {h.firmware}, protocol {h.protocol}, board file '{h.board}'")
        elif self.connected:
            lines.append("  Pico: answered (its HELLO was acknowledged earlier: firmware version not reported)")
        if self.connected:
            lines.append("")
            lines.append(f"  {'position':<9} {'reader':<10} {'PN532 firmware':<32} {'tap':<8} {'button':<8} ring")
            for pos in self.positions:
                fw = describe_firmware(pos.reader.firmware) if pos.reader.status == P.READER_ALIVE else "-"
                lines.append(f"  {pos.name:<9} {pos.reader.state_name:<10} {fw:<32} {_verdict(pos.tap):<8} "
                             f"{_verdict(pos.button) if pos.has_button else '-':<8} "
                             f"{_verdict(pos.ring) if pos.has_ring else '-'}")
        if self.notes:
            lines.append("")
            lines.append("  Notes:")
            lines += [f"  - {n}" for n in self.notes]
        if self.warnings:
            lines.append("")
            lines.append("  Warnings:")
            lines += [f"  - {w}" for w in self.warnings]
        lines.append("")
        if self.ok:
            lines.append("RESULT: PASS — every ring, reader and button answered")
        else:
            n = len(self.problems)
            lines.append(f"RESULT: FAIL — {n} problem{'s' if n != 1 else ''}:")
            lines += [f"  - {p}" for p in self.problems]
        return "\n".join(lines)


def _verdict(v) -> str:
    if v is True:
        return "ok"
    if v is None:
        return "not run"
    return "FAIL"


# ---- the machine ------------------------------------------------------------------------------

class SelfTest:
    """The self-test step machine (see the module docstring).

    ``board``: the validated board file of the table; ``step_timeout``: seconds allowed for each
    tap or press; ``connect_timeout``: seconds to wait for the Pico's first snapshot;
    ``inventory_s``: at most this long for every reader's status report; ``rings_timeout``: for
    the final snapshot to show the ring states.  All times are the caller's clock, in seconds.
    """

    def __init__(self, board: Board, *, device: str = "", step_timeout: float = 30.0,
                 connect_timeout: float = 10.0, inventory_s: float = 3.0, rings_timeout: float = 5.0):
        if step_timeout <= 0 or connect_timeout <= 0:
            raise ValueError("timeouts must be positive")
        self.board = board
        self.device = device
        self.step_timeout = step_timeout
        self.connect_timeout = connect_timeout
        self.inventory_s = inventory_s
        self.rings_timeout = rings_timeout
        self.n = board.seats + 1
        self.positions = [PositionResult(i, position_name(board, i), has_button=i < board.seats,
                                         has_ring=board.ring_for(self._seat(i)) is not None)
                          for i in range(self.n)]
        self.phase = CONNECT
        self.hello: Hello | None = None
        self.connected = False
        self.problems: list = []
        self.warnings: list = []
        self.notes: list = []
        self._deadline = 0.0
        self._current = 0           # position being walked
        self._asking: str | None = None      # "tap" / "press" while waiting for one
        self._final: dict = {}      # ring -> SetRing of the last state commanded

    # ---- helpers ------------------------------------------------------------------------------
    def _seat(self, index: int):
        return CENTRE if index == self.board.seats else index

    def _reader_pins(self, index: int) -> str:
        r = self.board.reader_for(self._seat(index))
        rst = f", RST GP{r.rst}" if r.rst is not None else ""
        return f"CS GP{r.cs}{rst}"

    def _ring(self, index: int, rgb: tuple) -> list:
        if not self.positions[index].has_ring:
            return []
        cmd = SetRing(index, SOLID, rgb)
        self._final[index] = cmd
        return [cmd]

    @property
    def done(self) -> bool:
        return self.phase == DONE

    # ---- inputs -------------------------------------------------------------------------------
    def note(self, text: str) -> None:
        """Record an incident of the transport (a port that failed and came back) in the report."""
        self.notes.append(text)

    def fail(self, problem: str) -> None:
        """End the test now with ``problem`` (the link failed, the operator gave up); what was
        not reached stays 'not run' in the report."""
        self.problems.append(problem)
        self.phase = DONE

    def start(self, now: float) -> list:
        """Begin: every ring dark, wait for the Pico."""
        self._deadline = now + self.connect_timeout
        out: list = [SetRing(i, OFF, (0, 0, 0)) for i in range(self.n) if self.positions[i].has_ring]
        out.append(Prompt(f"waiting for the table on {self.device or 'the link'} ..."))
        return out

    def feed(self, event, now: float) -> list:
        """One event from the link (``table.session`` events, and the transport's notes)."""
        out: list = []
        if isinstance(event, Hello):
            self._hello(event)
        elif isinstance(event, ReaderStatus):
            out += self._reader_status(event, now)
        elif isinstance(event, Snapshot):
            out += self._snapshot(event, now)
        elif isinstance(event, LinkTap):
            out += self._tap(event, now)
        elif isinstance(event, Button):
            if event.kind == P.PRESS:
                out += self._press(event, now)
        elif isinstance(event, Rebooted):
            if event.old_boot_id is not None:
                self.problems.append("the Pico restarted during the self-test (a power dip when the rings "
                                     "light? the watchdog?): check the 5 V supply and run again")
        elif isinstance(event, Lost):
            self.notes.append(f"{event.count} event(s) of the Pico were lost (its queue overflowed)")
        elif isinstance(event, LinkDown):
            self.notes.append("the Pico fell silent (nothing heard for 3 s)")
        elif isinstance(event, LinkUp):
            pass
        elif isinstance(event, Log):
            self.notes.append(f"firmware says: {event.text}")
        out += self.tick(now)
        return out

    def _hello(self, event: Hello) -> None:
        """The Pico says who it is: a problem if it was flashed with another table's board file."""
        self.hello = event
        if event.board != self.board.name:
            self.problems.append(
                f"the Pico was flashed with board file '{event.board}', not '{self.board.name}': "
                f"flash the right one (shengji-table flash --board ...)")

    def _reader_status(self, event: ReaderStatus, now: float) -> list:
        """A reader reports alive or dead: note it; a reader dying while its tap is asked fails that step."""
        if not 0 <= event.reader < self.n:
            self.notes.append(f"a READER report for index {event.reader}, which the board file does not have")
            return []
        info = self.positions[event.reader].reader
        info.status = P.READER_ALIVE if event.alive else P.READER_DEAD
        info.reported = True
        info.firmware = bytes(event.firmware) if event.alive else None
        if self.phase == WALK and not event.alive and self._current == event.reader \
                and self._asking == "tap":
            return self._fail_tap(now, "the reader died while a tap was asked")
        return []

    def tick(self, now: float) -> list:
        """Run the timeouts."""
        if self.phase == CONNECT and now >= self._deadline:
            self.problems.append(f"no answer from the Pico on {self.device or 'the link'} within "
                                 f"{self.connect_timeout:g} s: is the firmware flashed, is it the table's port?")
            self.phase = DONE
            return [Prompt("no answer from the table")]
        if self.phase == INVENTORY and (now >= self._deadline or
                                        all(p.reader.reported for p in self.positions)):
            return self._begin_walk(now)
        if self.phase == WALK and self._asking is not None and now >= self._deadline:
            if self._asking == "tap":
                return self._fail_tap(now, f"no tap within {self.step_timeout:g} s")
            return self._fail_press(now, f"no press within {self.step_timeout:g} s")
        if self.phase == RINGS and now >= self._deadline:
            for pos in self.positions:
                if pos.has_ring and pos.ring is None:
                    pos.ring = (f"ring of {pos.name}: the Pico never reported the commanded state "
                                f"(it did not take the RING command)")
                    self.problems.append(pos.ring)
            return self._finish()
        return []

    # ---- phases -------------------------------------------------------------------------------
    def _snapshot(self, s: Snapshot, now: float) -> list:
        out: list = []
        if self.phase == CONNECT:
            self.connected = True
            if len(s.readers) != self.n or len(s.buttons) != self.board.seats:
                self.problems.append(
                    f"the Pico reports {len(s.readers)} readers and {len(s.buttons)} buttons, the board file "
                    f"{self.n} and {self.board.seats}: flash the board file of this table")
            for i, pos in enumerate(self.positions):
                if i < len(s.readers) and not pos.reader.reported:
                    pos.reader.status = s.readers[i]
            self.phase = INVENTORY
            self._deadline = now + self.inventory_s
            out.append(Prompt("table connected; reading the readers' status"))
        elif self.phase == RINGS:
            for pos in self.positions:
                cmd = self._final.get(pos.index)
                if cmd is not None and pos.index < len(s.rings) and tuple(s.rings[pos.index]) == cmd.state:
                    pos.ring = True
            if all(p.ring is True for p in self.positions if p.has_ring):
                return self._finish()
            out.append(AskSnapshot())      # the Pico may not have applied the last RINGs yet
        return out

    def _begin_walk(self, now: float) -> list:
        out: list = []
        for pos in self.positions:
            info = pos.reader
            if info.status == P.READER_ALIVE and not info.reported:
                self.warnings.append(f"reader of {pos.name}: alive, but its firmware version was not reported "
                                     f"(this boot's reports were acknowledged earlier; power-cycle the table "
                                     f"to see it)")
            elif info.status == P.READER_ALIVE and info.firmware is not None and info.firmware[0] != PN532_IC:
                self.problems.append(f"reader of {pos.name} ({self._reader_pins(pos.index)}): "
                                     f"{describe_firmware(info.firmware)}")
        self.phase = WALK
        self._current = 0
        return out + self._enter(now)

    def _enter(self, now: float) -> list:
        """Start the walk of position ``_current`` (or the ring phase after the last)."""
        if self._current >= self.n:
            return self._begin_rings(now)
        i = self._current
        pos = self.positions[i]
        out = self._ring(i, WHITE)
        status = pos.reader.status
        if status != P.READER_ALIVE:
            why = {P.READER_DEAD: "dead, no answer on SPI; check its 3.3 V, its interface switches (SPI) "
                                  "and its CS/SCK/MOSI/MISO wires",
                   P.READER_ABSENT: "absent: the Pico's board file has no reader here",
                   None: "never reported by the Pico"}[status]
            pos.tap = f"reader of {pos.name} ({self._reader_pins(i)}): {why}"
            out.append(Prompt(f"[{pos.name}] ring lit white; the reader is {pos.reader.state_name}: no tap asked"))
            return out + self._after_tap(now)
        self._asking = "tap"
        self._deadline = now + self.step_timeout
        out.append(Prompt(f"[{pos.name}] ring lit white: tap a card on reader {i} ({pos.name}) "
                          f"within {self.step_timeout:g} s", "tap", i))
        return out

    def _after_tap(self, now: float) -> list:
        i = self._current
        pos = self.positions[i]
        if not pos.has_button:
            self._asking = None
            return self._leave(now)
        self._asking = "press"
        self._deadline = now + self.step_timeout
        out = self._ring(i, BLUE)
        out.append(Prompt(f"[{pos.name}] ring lit blue: press button {i} ({pos.name}) "
                          f"within {self.step_timeout:g} s", "press", i))
        return out

    def _leave(self, now: float) -> list:
        i = self._current
        pos = self.positions[i]
        self.problems += [p for p in (pos.tap, pos.button) if isinstance(p, str)]
        out = self._ring(i, GREEN if pos.passed else RED)
        out.append(Prompt(f"[{pos.name}] {'passed' if pos.passed else 'FAILED'}"))
        self._current += 1
        return out + self._enter(now)

    def _fail_tap(self, now: float, why: str) -> list:
        i = self._current
        pos = self.positions[i]
        pos.tap = (f"reader of {pos.name} ({self._reader_pins(i)}): {why} "
                   f"(check the antenna, the card, and that the card is not on another reader)")
        return self._after_tap(now)

    def _fail_press(self, now: float, why: str) -> list:
        i = self._current
        pos = self.positions[i]
        b = self.board.button_for(i)
        pos.button = (f"button of {pos.name} (GP{b.pin}, active {b.active}): {why} "
                      f"(check its wiring to GP{b.pin} and ground)")
        self._asking = None
        return self._leave(now)

    def _tap(self, e: LinkTap, now: float) -> list:
        if self.phase != WALK or self._asking is None:
            self.notes.append(f"a tap on reader {e.reader} outside the walk (ignored)")
            return []
        i = self._current
        if self._asking == "tap" and e.reader == i:
            self.positions[i].tap = True
            return self._after_tap(now)
        where = position_name(self.board, e.reader) if 0 <= e.reader < self.n else f"index {e.reader}"
        self.notes.append(f"a tap on the reader of {where} while {self._asking} at {self.positions[i].name} "
                          f"was asked (crossed chip-selects, or the wrong reader)")
        return []

    def _press(self, e: Button, now: float) -> list:
        if self.phase != WALK or self._asking is None:
            self.notes.append(f"a press of button {e.seat} outside the walk (ignored)")
            return []
        i = self._current
        if self._asking == "press" and e.seat == i:
            self.positions[i].button = True
            self._asking = None
            return self._leave(now)
        where = position_name(self.board, e.seat) if 0 <= e.seat < self.board.seats else f"index {e.seat}"
        self.notes.append(f"a press of the button of {where} while {self._asking} at {self.positions[i].name} "
                          f"was asked (crossed button wires, or the wrong button)")
        return []

    def _begin_rings(self, now: float) -> list:
        self.phase = RINGS
        self._asking = None
        self._deadline = now + self.rings_timeout
        return [Prompt("checking that the Pico holds every ring's state"), AskSnapshot()]

    def _finish(self) -> list:
        self.phase = DONE
        return [Prompt("self-test finished")]

    # ---- result -------------------------------------------------------------------------------
    def report(self) -> Report:
        """The findings so far (complete once :attr:`done`)."""
        return Report(self.board, self.device, self.connected, self.hello, self.positions,
                      list(self.problems), list(self.warnings), list(self.notes))
