"""Deliberate gestures under the REAL MicroPython interpreter (unix port, simulated PN532s): a card
passing over a pad is no tap, a card laid down taps after its dwell, a long press with the card on
the pad is a take-back, two cards on a pad are one STACK event, and the table recovers from each
(the next card taps as usual) — all without allocating in the scan loop."""
import json
import pathlib

import pytest

from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.micropython import run_micropython
from shengji_table.sim.hw import HW_DIR

from .test_scan_micropython import PRELUDE

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.micropython

SCRIPT = PRELUDE + r'''
import gc
from pn532_model import SimNTAG

b, readers, sc, wire, link = wire_table("boards/table-4.json", b"table-4")

class Tape:
    """The host end: keeps what the Pico writes in a buffer made once (the harness must not
    allocate during the steps it measures); nothing comes back (no ACKs: events are resent)."""
    def __init__(self):
        self.buf = bytearray(65536)
        self.n = 0
    def readinto(self, buf):
        return 0
    def write(self, buf, off, n):
        t = self.buf
        k = self.n
        for i in range(n):
            t[k + i] = buf[off + i]
        self.n = k + n

tape = Tape()
link.stream = tape
A = SimNTAG(bytes.fromhex("04a1b2c3d4e5f6"), b"SJ01S-A1" + bytes(8))
B = SimNTAG(bytes.fromhex("04112233445566"), b"SJ01H-K2" + bytes(8))
pin2 = raw_pin = json.load(open("boards/table-4.json"))["buttons"][2]["pin"]
alloc = [0, 0]                    # bytes allocated by scan steps, steps measured

def step():
    gc.disable()
    a = gc.mem_alloc()
    sc.step(time.ticks_ms())
    alloc[0] += gc.mem_alloc() - a
    alloc[1] += 1
    gc.enable()

def run(n):
    for _ in range(n):
        step()

def run_ms(ms):
    t0 = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), t0) < ms:
        step()

def mark(what):
    print(json.dumps(["mark", what]))
    dump()

seen = {}
dec = P.Decoder(P.TO_HOST)
def dump():
    for i in range(tape.n):
        if dec.push(tape.buf[i]):
            if not dec.seq or dec.seq in seen:
                continue
            seen[dec.seq] = 1
            f = P.decode(dec.typ, dec.payload[:dec.length])
            name = P.NAMES[dec.typ]
            if name in ("TAP", "TAKE_BACK"):
                f = [f[0], f[1].hex()]
            elif name in ("BUTTON", "STACK"):
                f = [f[0], f[1]]
            else:
                continue
            print(json.dumps([name, f]))
    tape.n = 0

run(20)
sc.turn = 2
world.place("seat2", A)           # over the pad for one poll of its reader only
step()
world.lift("seat2")
run(30)
mark("hover")
world.place("seat2", A)
run(15)
mark("dwell")
world.press(pin2)                 # held with the card on the pad
run_ms(1000)
world.release(pin2)
run(10)
mark("take back")
world.place("seat2", B)           # a second card on the first
run(20)
mark("stack")
world.reader("seat2").lift(B)
run(20)
mark("stack cleared")
world.lift("seat2")
run_ms(b.lift_ms + 200)
world.place("seat2", B)
run(15)
mark("next card")
print(json.dumps(["alloc"] + alloc))
'''


def test_gestures_micropython_dwell_take_back_stack_and_recovery():
    """R-4.1, R-10.4: one pass through every gesture on the real interpreter."""
    proc = run_micropython(SCRIPT, path=[HW_DIR, FIRMWARE_DIR], timeout=90, cwd=REPO_ROOT)
    recs = [json.loads(line) for line in proc.stdout.decode().splitlines() if line.startswith("[")]
    phases, current = {}, None
    for rec in recs:
        if rec[0] == "mark":
            current = rec[1]
            phases[current] = []
        elif rec[0] != "alloc":
            phases.setdefault(current, []).append(rec)
    a, b = "04a1b2c3d4e5f6", "04112233445566"
    assert phases["hover"] == []                                   # passed over: no tap
    assert phases["dwell"] == [["TAP", [2, a]]]
    assert phases["take back"] == [["TAKE_BACK", [2, a]], ["BUTTON", [2, 3]]]   # no PRESS, no LONG_PRESS
    assert phases["stack"] == [["STACK", [2, 2]]]
    assert phases["stack cleared"] == [["STACK", [2, 1]]]          # the card left is the one held
    assert phases["next card"] == [["TAP", [2, b]]]                # lifted, another laid: a tap again
    _, alloc, steps = next(rec for rec in recs if rec[0] == "alloc")
    assert steps > 200 and alloc == 0


IRQ_SCRIPT = PRELUDE + r'''
from pn532_model import SimNTAG
raw = json.load(open("boards/table-4.json"))
for r, pin in zip(raw["readers"], (20, 21, 26, 27, 28)):
    r["irq"] = pin                     # the free GPIOs of table-4
open("irq-board.json", "w").write(json.dumps(raw))
b, readers, sc, wire, link = wire_table("irq-board.json", b"table-4")
chip = world.reader("seat2")
reads = [0]
real = chip._status
def counted():
    reads[0] += 1
    return real()
chip._status = counted
world.place("seat2", SimNTAG(bytes.fromhex("04a1b2c3d4e5f6"), b"SJ01S-A1" + bytes(8)))
for _ in range(20):
    sc.step(time.ticks_ms())
report(wire)
print(json.dumps(["irq", [r.pn.irq is not None for r in readers], reads[0]]))
'''


def test_gestures_micropython_irq_line_replaces_status_reads(tmp_path):
    """Under the real interpreter: a board file that wires each reader's IRQ gets readers that
    wait on it; a card taps as before and its chip answers no SPI status read."""
    import shutil
    (tmp_path / "boards").mkdir()
    shutil.copy(REPO_ROOT / "boards" / "table-4.json", tmp_path / "boards" / "table-4.json")
    proc = run_micropython(IRQ_SCRIPT, path=[HW_DIR, FIRMWARE_DIR], timeout=90, cwd=tmp_path)
    recs = [json.loads(line) for line in proc.stdout.decode().splitlines() if line.startswith("[")]
    assert ["TAP", [2, "04a1b2c3d4e5f6", (b"SJ01S-A1" + bytes(8)).hex()]] in recs
    _, wired, reads = next(r for r in recs if r[0] == "irq")
    assert wired == [True] * 5 and reads == 0
