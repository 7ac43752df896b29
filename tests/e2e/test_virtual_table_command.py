"""``shengji-table virtual-table`` as a user runs it, with ``selftest --measure``, ``enroll --station
table`` and ``serve`` as real subprocesses against the pseudo-terminal it prints: the real firmware
under MicroPython, real pyserial, the commands' own code.  The test is the operator: it reads each
command's prompts and types ``tap``/``lift`` lines into the virtual table's stdin."""
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from shengji_table.rules.cards import parse_copy
from shengji_table.sim.virtual_table import SIM_DECK_SET_ID, sim_uid
from shengji_table.table.registry import DeckSet, standard_order

pytestmark = pytest.mark.micropython

REPO_ROOT = Path(__file__).resolve().parents[2]
BOARD = str(REPO_ROOT / "boards" / "table-4.json")
EXE = Path(sys.executable).parent / "shengji-table"


class Lines:
    """A process's stdout lines through a thread (several lines may come in one read)."""

    def __init__(self, stream):
        self.q: queue.Queue = queue.Queue()
        self.seen: list = []
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream):
        for line in stream:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def next(self, seconds: float = 30) -> str | None:
        line = self.q.get(timeout=seconds)
        if line is not None:
            self.seen.append(line)
        return line

    def until(self, words: str, seconds: float = 30) -> str:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                line = self.next(max(0.01, end - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            if words in line:
                return line
        raise AssertionError(f"{words!r} never printed; got:\n" + "\n".join(self.seen))


def read_until(proc, words: str, seconds: float = 30) -> str:
    if not hasattr(proc, "lines"):
        proc.lines = Lines(proc.stdout)
    return proc.lines.until(words, seconds)


class VirtualTableProcess:
    """``shengji-table virtual-table`` in a subprocess; :meth:`do` types one command line."""

    def __init__(self, tmp_path: Path, *extra: str):
        self.proc = subprocess.Popen([str(EXE), "virtual-table", "--board", BOARD, *extra], cwd=tmp_path,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        self.device = read_until(self.proc, "device: ").split(": ", 1)[1]
        read_until(self.proc, "commands:")

    def do(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def close(self) -> str:
        if self.proc.poll() is None:
            self.do("quit")
        assert self.proc.wait(timeout=20) == 0
        lines = self.proc.lines
        while lines.next() is not None:
            pass
        return "\n".join(lines.seen)


@pytest.fixture
def vt(tmp_path):
    tables = []

    def make(*extra):
        table = VirtualTableProcess(tmp_path, *extra)
        tables.append(table)
        return table
    yield make
    for table in tables:
        if table.proc.poll() is None:
            table.proc.kill()
            table.proc.wait()


def _command(tmp_path, *argv):
    return subprocess.Popen([str(EXE), *argv], cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_selftest_measure_against_the_virtual_table(vt, tmp_path):
    """Every reader gets its placements and the two-card test; with an operator who does what is
    asked there are no misses, no false lifts and no false taps, and the bench estimate is shown."""
    table = vt()
    proc = _command(tmp_path, "selftest", "--device", table.device, "--board", BOARD, "--measure", "2",
                    "--hold", "0.4", "--lift-wait", "1.0", "--timeout", "10")
    cards = iter(["SA#1", "SK#1", "HA#1", "HK#1", "CA#1", "CK#1", "DA#1", "DK#1", "S2#1", "S3#1"] * 2)
    lines = []
    for line in proc.stdout:
        lines.append(line.rstrip("\n"))
        words = line.split()
        if "place a card on reader" in line:
            table.do(f"tap {words[words.index('reader') + 1]} {next(cards)}")
        elif "lay two cards on reader" in line:
            reader = words[words.index("reader") + 1].rstrip(",")
            table.do(f"tap {reader} BJ#1")
            table.do(f"stack {reader} LJ#1")
        elif "lift" in line and "from reader" in line:
            table.do(f"lift {words[-1]}")
    assert proc.wait(timeout=30) == 0, "\n".join(lines) + proc.stderr.read()
    report = "\n".join(lines)
    print(report)                      # the figures, for the log (pytest -s)
    assert "RESULT: PASS" in report
    rows = {line.split()[0]: line.split() for line in lines if line.startswith("  seat ") or
            line.startswith("  centre ")}
    for name in ("seat", "centre"):
        assert any(k == name for k in rows)
    for line in lines:
        if line.startswith(("  seat ", "  centre ")) and "DEAD" not in line:
            cols = line.split()
            offset = 2 if cols[0] == "seat" else 1
            taps, misses, false_lifts, false_taps = (int(c) for c in cols[offset:offset + 4])
            assert (taps, misses, false_lifts, false_taps) == (2, 0, 0, 0), line
            assert "stack reported" in line, line
    assert "bench estimate (make bench, hardware/timing.py)" in report
    _check_measured_polls(lines)
    table.close()


def test_selftest_measure_fails_naming_the_seat_where_two_cards_lie(vt, tmp_path):
    """A second card laid on seat 2's while one was asked for: the firmware reports the stack and
    the measurement fails, naming seat 2 and telling to clear the pad."""
    table = vt()
    proc = _command(tmp_path, "selftest", "--device", table.device, "--board", BOARD, "--measure", "1",
                    "--hold", "0.4", "--lift-wait", "0.6", "--timeout", "3")
    lines = []
    for line in proc.stdout:
        lines.append(line.rstrip("\n"))
        words = line.split()
        if "place a card on reader" in line:
            reader = words[words.index("reader") + 1]
            table.do(f"tap {reader} SA#1")
            if reader == "2":
                table.do("stack 2 SK#1")          # the scripted stack
        elif "lay two cards on reader" in line:
            reader = words[words.index("reader") + 1].rstrip(",")
            table.do(f"tap {reader} BJ#1")
            table.do(f"stack {reader} LJ#1")
        elif "lift" in line and "from reader" in line:
            table.do(f"lift {words[-1]}")
    assert proc.wait(timeout=30) == 1, "\n".join(lines) + proc.stderr.read()
    report = "\n".join(lines)
    assert "RESULT: FAIL" in report
    fails = [p for p in lines[next(i for i, x in enumerate(lines) if x.startswith("RESULT")):] if p.startswith("  - ")]
    assert len(fails) == 1 and fails[0].startswith("  - reader of seat 2: "), report
    # the stack lay there from the placement on: no TAP (a miss) and the stack never ended
    assert "two cards on the pad 1 time(s) where one was asked for: clear the pad" in fails[0]
    table.close()


def test_selftest_json_on_a_virtual_table_with_a_fault_injected(vt, tmp_path):
    """Fault injection from the command line: seat 2's chip model takes every command corrupted
    (``--fault seat2:corrupt-commands=10000``): its reader is dead; ``selftest --measure --json``
    prints one JSON object on stdout (the prompts on stderr) that names it, exit 1."""
    import json
    table = vt("--fault", "seat2:corrupt-commands=10000")
    proc = _command(tmp_path, "selftest", "--device", table.device, "--board", BOARD, "--measure", "1",
                    "--hold", "0.3", "--lift-wait", "0.6", "--timeout", "5", "--json")
    prompts = []

    def operate():
        for line in proc.stderr:
            prompts.append(line)
            words = line.split()
            if "place a card on reader" in line:
                table.do(f"tap {words[words.index('reader') + 1]} SA#1")
            elif "lay two cards on reader" in line:
                reader = words[words.index("reader") + 1].rstrip(",")
                table.do(f"tap {reader} BJ#1")
                table.do(f"stack {reader} LJ#1")
            elif "lift" in line and "from reader" in line:
                table.do(f"lift {words[-1]}")
    t = threading.Thread(target=operate, daemon=True)
    t.start()
    out = proc.stdout.read()
    assert proc.wait(timeout=30) == 1
    t.join(timeout=5)
    report = json.loads(out)
    assert report["ok"] is False and report["exit_status"] == 1 and report["board"] == "table-4"
    assert report["problems"] == ["reader of seat 2: not alive, not measured"]
    rows = {r["name"]: r for r in report["per_reader"]}
    assert rows["seat 2"]["alive"] is False
    assert rows["seat 0"]["ok"] is True and rows["seat 0"]["two_cards"] == "stack reported"
    assert report["result"].startswith("RESULT: FAIL")
    assert any("place a card on reader 0" in p for p in prompts)
    table.close()


def _check_measured_polls(lines):
    """polls/s is measured (the firmware's counters, not the ~ estimate) and agrees with what the scan
    loop does: it polls the readers in turn, so every reader gets the same rate within a lap or
    two; and the window of the Pico's clock the counters grew over is the host's window (the
    measurement's own holds and lifts make it at least 5 x (2 x (0.4 + 1.0) + 0.8 + 1.0) = 23 s)."""
    rows = [line.split() for line in lines if line.startswith(("  seat ", "  centre "))]
    rates = [cols[next(i for i, c in enumerate(cols) if "/" in c) + 1] for cols in rows]   # after mean/max
    assert len(rates) == 5 and not any(r.startswith("~") for r in rates), rates
    rates = [float(r) for r in rates]
    assert min(rates) > 0 and max(rates) - min(rates) <= 0.05 * max(rates), rates
    window = next(line for line in lines if "polls/s measured: the firmware's poll counters over" in line)
    pico_s, host_s = (float(x) for x in re.search(r"over ([0-9.]+) s of the Pico's clock \(([0-9.]+) s on the host's",
                                                   window).groups())
    assert pico_s >= 23 and abs(pico_s - host_s) <= 0.05 * host_s, window


def test_enroll_through_the_virtual_tables_reader(vt, tmp_path):
    """A deck enrolled by tapping its virtual cards on the centre reader: the deck set maps each
    tag the virtual table lays down to the card it was laid as."""
    table = vt()
    proc = subprocess.Popen([str(EXE), "enroll", "--deck-set", "enrolled.json", "--name", "vt", "--decks", "1",
                             "--id", str(SIM_DECK_SET_ID), "--station", "table", "--device", table.device,
                             "--reader", "4"], cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    order = standard_order(1)
    read_until(proc, f"tap {order[0]}")
    table.do(f"tap 4 {order[0]}")
    for n in range(54):
        read_until(proc, f"{n + 1}/54 {order[n]} = tag {sim_uid(order[n]).hex()}")
        table.do("lift 4")
        if n + 1 < 54:
            table.do(f"tap 4 {order[n + 1]}")
    read_until(proc, "saved enrolled.json")
    assert proc.wait(timeout=20) == 0
    ds = DeckSet.load(tmp_path / "enrolled.json")
    assert ds.complete and [ds.cards[sim_uid(c).hex()] for c in order] == order
    table.close()


def test_serve_takes_taps_typed_into_the_virtual_table(vt, tmp_path):
    """serve on the virtual table with the deck set it wrote: a draw out of turn is refused by the
    rules (R: table.draw-order), seat 0's draw is logged with the tag the virtual table laid down."""
    import signal
    table = vt("--deck-set-out", "deck.json")
    proc = subprocess.Popen([str(EXE), "serve", "--device", table.device, "--board", BOARD, "--deck-set",
                             "deck.json", "--log", "t.db", "--plain", "--voice", "off"], cwd=tmp_path,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    read_until(proc, "table connected")
    table.do("tap 2 S2#1")
    read_until(proc, "Seat 2: refused — it is seat 0's turn to draw")
    table.do("lift 2")
    table.do("tap 0 SA#1")
    log = subprocess.run([str(EXE), "log", "show", "t.db"], cwd=tmp_path, capture_output=True, text=True)
    for _ in range(50):
        if sim_uid(parse_copy("SA#1")).hex() in log.stdout:
            break
        log = subprocess.run([str(EXE), "log", "show", "t.db"], cwd=tmp_path, capture_output=True, text=True)
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=20)
    assert proc.returncode == 0
    taps = [line for line in log.stdout.splitlines() if "type=tap" in line]
    assert any("reader=0" in t and sim_uid(parse_copy("SA#1")).hex() in t for t in taps), log.stdout
    assert any("reader=2" in t and sim_uid(parse_copy("S2#1")).hex() in t for t in taps), log.stdout
    table.close()


def test_virtual_table_refuses_a_bad_script_before_starting(tmp_path):
    """A script with a line that means nothing: exit 2, the line named, no table started."""
    script = tmp_path / "taps.txt"
    script.write_text("tap 2 SA#1\nlift 9\n")
    p = subprocess.run([str(EXE), "virtual-table", "--board", BOARD, "--script", str(script)], cwd=tmp_path,
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 2
    assert "line 2: a reader must be a number from 0 to 4, not '9'" in p.stderr
    assert "device:" not in p.stdout


def test_virtual_table_runs_a_script_file(vt, tmp_path):
    script = tmp_path / "taps.txt"
    script.write_text("# a seat's card, then its button\ntap 1 HQ#2   # queen of hearts\nwait 50\nlift 1\n"
                      "press 1\nlong 1\nquit\n")
    table = vt("--script", str(script))
    out = table.close()
    assert f"reader 1: {parse_copy('HQ#2')} laid down (tag {sim_uid(parse_copy('HQ#2')).hex()})" in out
    assert "reader 1: card lifted" in out and "waited 50 ms" in out
    assert "seat 1: button pressed (120 ms)" in out and "seat 1: button held (1000 ms)" in out


@pytest.mark.parametrize("argv, words", [
    (["--decks", "5"], "--decks is 1 to 4, not 5"),
    (["--dead", "seat9"], "--dead seat9: table-4 has readers seat0, seat1, seat2, seat3, centre"),
    (["--device", "/nonexistent-folder/tty"], "folder /nonexistent-folder does not exist"),
    (["--fault", "seat9:drop-acks=3"], "--fault 'seat9:drop-acks=3': no reader 'seat9'"),
    (["--fault", "seat2:wobble=3"], "--fault 'seat2:wobble=3': no fault 'wobble'; faults: drop-acks"),
    (["--fault", "seat2:coupling=0"], "coupling is a whole number from 1 to 100"),
    (["--fault", "seat2"], "write READER:KNOB=VALUE, e.g. seat2:drop-acks=3"),
    (["--script", "/nonexistent-script.txt"], "cannot read /nonexistent-script.txt"),
])
def test_virtual_table_refuses_bad_options(tmp_path, argv, words):
    p = subprocess.run([str(EXE), "virtual-table", "--board", BOARD, *argv], cwd=tmp_path, capture_output=True,
                       text=True, timeout=30)
    assert p.returncode == 2 and words in p.stderr and "device:" not in p.stdout


def test_virtual_table_refuses_a_device_path_that_exists(tmp_path):
    taken = tmp_path / "tty"
    taken.write_text("")
    p = subprocess.run([str(EXE), "virtual-table", "--board", BOARD, "--device", str(taken)], cwd=tmp_path,
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 2 and "exists: name a new path" in p.stderr
    assert taken.read_text() == ""


def test_selftest_measure_on_the_virtual_table_says_what_to_type_there(vt, tmp_path):
    """Against a virtual table each prompt that asks for a card is followed by the command to type
    in the virtual-table window; typing it is what the measurement waits for."""
    table = vt()
    proc = _command(tmp_path, "selftest", "--device", table.device, "--board", BOARD, "--measure", "1",
                    "--hold", "0.4", "--lift-wait", "1.0", "--timeout", "20")
    try:
        read_until(proc, "place a card on reader 0")
        hint = proc.lines.next()
        assert hint == ("  virtual table: type `tap 0 SA#1` in the virtual-table window, "
                        "then `lift 0` when asked to lift it"), hint
        table.do(hint.split("`")[1])                  # the operator types what it says
        read_until(proc, "leave it lying still")
    finally:
        proc.kill()
        proc.wait()


def test_selftest_prints_a_line_said_twice_in_a_row_once():
    from shengji_table.cli.selftest import _printer
    import io
    out = io.StringIO()
    say = _printer(out)
    for line in ("measurement finished", "measurement finished", "report", "measurement finished"):
        say(line)
    assert out.getvalue().splitlines() == ["measurement finished", "report", "measurement finished"]
