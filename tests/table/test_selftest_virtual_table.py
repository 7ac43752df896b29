"""``shengji-table selftest`` against the virtual table: the real firmware under the real MicroPython
interpreter behind a pseudo-terminal, with one reader's simulated PN532 made dead (it never drives
MISO, as a chip without power or with a broken chip-select wire).

The command runs as a user runs it (the venv's console script, a subprocess that owns the serial
link); the test is the operator: it reads each prompt and does what it asks at the table — a card
laid on the named reader, the named button pressed — with SIM frames of its own slipped into the
line towards the Pico, as the virtual table's players do.

How the reader is made dead: ``VirtualTable(board, dead_readers=(name,))`` writes the name into the
sim build's ``build.json``; the firmware's sim build sets ``alive = False`` on that reader's
``SimPN532`` model — the model's own fault switch.  Everything else is the unmodified firmware.
"""
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from shengji_table.sim.virtual_table import VirtualTable
from shengji_table.table import protocol as P

REPO_ROOT = Path(__file__).resolve().parents[2]

EXE = Path(sys.executable).parent / "shengji-table"    # the venv's console script

@pytest.fixture
def table_with_dead_reader():
    """``make(board, dead_reader_name)`` -> a started VirtualTable whose named reader never answers."""
    tables = []

    def make(board: Path, dead: str | None) -> VirtualTable:
        vt = VirtualTable(board, dead_readers=(dead,) if dead else ()).start()
        tables.append(vt)
        return vt

    yield make
    for vt in tables:
        vt.close()


class Operator:
    """Does at the virtual table what the command's prompts ask, with SIM frames of its own."""

    def __init__(self, table: VirtualTable, proc: subprocess.Popen):
        self.table = table
        self.proc = proc
        self.writer = P.Writer(b"OPER")
        self.out = bytearray(P.MAX_FRAME)
        self.seq = 0
        self.lines: queue.Queue = queue.Queue()
        self.seen: list = []
        self.taps: list = []
        self.presses: list = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def _send(self, n: int) -> None:
        # A leading delimiter ends any host frame this write cuts in two; ours then arrives whole.
        self.table.inject(b"\x00" + bytes(self.out[:n]), towards="pico")

    def place(self, reader: int) -> None:
        self.seq += 1
        uid = bytes([0x04, 0x5E, 0x1F, 0x7E, 0x57, reader, 0x80])
        self._send(P.encode_sim_place(self.writer, self.out, self.seq, reader, uid, b""))

    def lift(self, reader: int) -> None:
        self.seq += 1
        self._send(P.encode_sim_lift(self.writer, self.out, self.seq, reader))

    def button(self, seat: int, down: bool) -> None:
        self.seq += 1
        self._send(P.encode_sim_button(self.writer, self.out, self.seq, seat, down))

    def _next_line(self, timeout: float):
        line = self.lines.get(timeout=timeout)
        if line is not None:
            self.seen.append(line)
        return line

    def work(self, deadline_s: float = 60.0) -> list:
        """Answer prompts until the command ends; returns everything it printed."""
        end = time.monotonic() + deadline_s
        pending = None        # (kind, index, when asked): repeated if the frame was lost on the line
        while time.monotonic() < end:
            try:
                line = self._next_line(0.8)
            except queue.Empty:
                if pending is not None:           # our SIM frame was lost: do it again
                    self._act(*pending[:2], again=True)
                continue
            if line is None:
                return self.seen
            if line.lstrip().startswith("virtual table:"):
                continue                          # the hint under a prompt: the prompt still stands
            if pending is not None:
                self._undo(*pending[:2])
                pending = None
            m = re.search(r"tap a card on reader (\d+)", line)
            if m:
                pending = ("tap", int(m.group(1)))
                self._act(*pending)
                continue
            m = re.search(r"press button (\d+)", line)
            if m:
                pending = ("press", int(m.group(1)))
                self._act(*pending)
        raise AssertionError(f"the self-test did not end; it said: {self.seen[-8:]}")

    def _act(self, kind: str, index: int, again: bool = False) -> None:
        if kind == "tap":
            if again:
                self.lift(index)
                time.sleep(0.08)          # missed on two polls of its reader: a lift
            self.place(index)
            self.taps.append(index)
        else:
            if again:
                self.button(index, False)
                time.sleep(0.05)
            self.button(index, True)
            self.presses.append(index)

    def _undo(self, kind: str, index: int) -> None:
        if kind == "tap":
            self.lift(index)
        else:
            self.button(index, False)
        time.sleep(0.08)                  # the lift / release settles before the next action


def _run_selftest(table: VirtualTable, board: Path, timeout: float = 4.0):
    proc = subprocess.Popen([str(EXE), "selftest", "--device", table.device, "--board", str(board),
                             "--timeout", str(timeout)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    op = Operator(table, proc)
    try:
        out = op.work()
        rc = proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return rc, out, proc.stderr.read(), op


def _rows(out: list) -> dict:
    """The report's table: position -> (reader, firmware, tap, button, ring)."""
    rows = {}
    for line in out:
        m = re.match(r"\s+(seat \d+|centre)\s+(alive|DEAD|ABSENT|not heard)\s+(.*?)\s+(ok|FAIL|not run)\s+"
                     r"(ok|FAIL|not run|-)\s+(ok|FAIL|not run|-)\s*$", line)
        if m:
            rows[m.group(1)] = m.groups()[1:]
    return rows


@pytest.mark.parametrize("board_name, dead, dead_position", [
    ("table-4", "seat2", "seat 2"),
    ("table-6", "centre", "centre"),
])
def test_selftest_names_exactly_the_dead_reader(table_with_dead_reader, board_name, dead, dead_position):
    """Every ring is lit, every live reader tapped, every button pressed through the real firmware;
    the report fails with one problem, the dead reader (by position and pins), and passes the rest."""
    board = REPO_ROOT / "boards" / f"{board_name}.json"
    table = table_with_dead_reader(board, dead)
    rc, out, err, op = _run_selftest(table, board)
    text = "\n".join(out)
    assert rc == 1, f"exit {rc}; stderr: {err}\n{text}"

    rows = _rows(out)
    seats = table.board["seats"]
    positions = [f"seat {s}" for s in range(seats)] + ["centre"]
    assert list(rows) == positions, text
    for pos in positions:
        reader, firmware, tap, button, ring = rows[pos]
        assert ring == "ok", f"{pos}: the Pico does not hold its final ring state\n{text}"
        assert button == ("-" if pos == "centre" else "ok"), f"{pos}\n{text}"
        if pos == dead_position:
            assert (reader, firmware, tap) == ("DEAD", "-", "FAIL"), text
        else:
            # the simulated chip answers GetFirmwareVersion with 0x32 0x01 0x06 0x07
            assert (reader, firmware, tap) == ("alive", "PN532 1.6 [14443A,14443B,18092]", "ok"), text

    problems = text.split("RESULT: FAIL — 1 problem:")
    assert len(problems) == 2, text
    problem_lines = [line for line in problems[1].splitlines() if line.strip().startswith("- ")]
    assert len(problem_lines) == 1, text
    reader = next(r for r in table.board["readers"] if r["name"] == dead)
    assert f"reader of {dead_position} (CS GP{reader['cs']}" in problem_lines[0]
    assert "dead" in problem_lines[0]

    # the dead reader was never asked for a tap; every other reader and every button was, once
    assert sorted(set(op.taps)) == [i for i in range(seats + 1) if positions[i] != dead_position]
    assert sorted(set(op.presses)) == list(range(seats))
    # rings were lit in turn: white for the tap, blue for the button, each position before the next
    walk = [line for line in out if line.startswith("[")]
    order = [re.match(r"\[(seat \d+|centre)\]", line).group(1) for line in walk]
    assert [p for i, p in enumerate(order) if i == 0 or order[i - 1] != p] == positions
    assert f"[{dead_position}] ring lit white; the reader is DEAD: no tap asked" in walk


def test_selftest_all_good_exits_0(table_with_dead_reader):
    """No reader dead: every check passes and the exit status is 0."""
    board = REPO_ROOT / "boards" / "table-4.json"
    table = table_with_dead_reader(board, None)
    rc, out, err, op = _run_selftest(table, board)
    text = "\n".join(out)
    assert rc == 0, f"exit {rc}; stderr: {err}\n{text}"
    assert "RESULT: PASS" in text
    assert all(row[2:] in (("ok", "ok", "ok"), ("ok", "-", "ok")) for row in _rows(out).values()), text


def test_virtual_table_refuses_a_dead_reader_it_does_not_have():
    with pytest.raises(ValueError, match="no reader named seat9.*readers: seat0"):
        VirtualTable(REPO_ROOT / "boards" / "table-4.json", dead_readers=("seat9",))
