"""The firmware under the REAL MicroPython interpreter (unix port), with only machine/neopixel/rp2
replaced by the simulated devices: a card on reader 2 gives one TAP, lift and tap again gives a
second; main.py boots, feeds its watchdog, honours the seat-0 REPL escape, and a sim build takes
its cards from SIM frames on the link."""
import json
import pathlib

import pytest

from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.micropython import run_micropython
from shengji_table.sim.hw import HW_DIR

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.micropython

PATH = [HW_DIR, FIRMWARE_DIR]

# Shared by the scripts below: a link stream that hands the firmware scripted host frames, one
# batch per link poll, and keeps what the firmware writes; and a printer of the decoded frames.
PRELUDE = r'''
import json, time
import machine, neopixel, world
import protocol as P
import board as board_file

class Wire:
    def __init__(self, batches=()):
        self.batches = list(batches)   # per poll: bytes the host sends (b"" = nothing)
        self.pending = bytearray()
        self.out = bytearray()
        self.polls = 0
    def readinto(self, buf):
        if not self.pending:
            if self.polls < len(self.batches):
                self.pending = bytearray(self.batches[self.polls])
            self.polls += 1
            if not self.pending:
                return 0
        n = min(len(buf), len(self.pending))
        for i in range(n):
            buf[i] = self.pending[i]
        self.pending = self.pending[n:]
        return n
    def write(self, buf, off, n):
        self.out.extend(buf[off:off + n])

def wire_table(path, name):
    """The production wiring of a board file, as main.boot() builds it, on a scripted Wire."""
    import main as fw
    from scan import Scanner
    from link import Link
    raw = json.load(open(path))
    world.setup_board(raw)
    b = board_file.Board(raw)
    readers, buttons, _ = fw.build(machine, b, False)
    px = neopixel.NeoPixel(machine.Pin(b.led_pin), b.pixels)
    sc = Scanner(readers, buttons, b.rings, px, b.led_order)
    wire = Wire()
    link = Link(wire, time.ticks_ms, sc.on_ring, None, firmware=b"0.1.0", board=name, rings=len(b.rings))
    sc.attach(link)
    sc.start(time.ticks_ms())
    return b, readers, sc, wire, link

def report(wire):
    d = P.Decoder(P.TO_HOST)
    seen = {}
    for x in wire.out:
        if d.push(x):
            name = P.NAMES[d.typ]
            if d.seq and d.seq in seen:
                continue               # a resend of an event already seen
            seen[d.seq] = 1
            f = P.decode(d.typ, d.payload[:d.length])
            if name == "TAP":
                f = [f[0], f[1].hex(), f[2].hex() if f[2] else None]
            elif name in ("READER", "BUTTON"):
                f = [f[0], f[1]]
            else:
                f = None
            print(json.dumps([name, f]))
'''

TAP_SCRIPT = PRELUDE + r'''
from pn532_model import SimNTAG

b, readers, sc, wire, link = wire_table("boards/table-4.json", b"table-4")

def run(n):
    for _ in range(n):
        sc.step(time.ticks_ms())

def run_ms(ms):
    t0 = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), t0) < ms:
        sc.step(time.ticks_ms())

card = SimNTAG(bytes.fromhex("04a1b2c3d4e5f6"), b"SJ01S-A1" + bytes(8))
run(10)
world.place("seat2", card)
run(40)          # the card stays on the reader for 8 laps
world.lift("seat2")
run_ms(b.lift_ms + 200)   # lifted: absent longer than the board's lift time
world.place("seat2", card)
run(15)
report(wire)
print(json.dumps(["fields_max", world.SimPN532.fields_max]))
'''


def frames(stdout: bytes):
    return [json.loads(line) for line in stdout.decode().splitlines() if line.startswith("[")]


def of(out, name):
    """The fields of every printed record called ``name``."""
    return [rec[1] for rec in out if rec[0] == name]


def test_scan_micropython_card_on_reader_2_taps_once_then_again():
    out = frames(run_micropython(TAP_SCRIPT, path=PATH, timeout=60, cwd=REPO_ROOT).stdout)
    taps = of(out, "TAP")
    code = (b"SJ01S-A1" + bytes(8)).hex()
    assert taps == [[2, "04a1b2c3d4e5f6", code], [2, "04a1b2c3d4e5f6", code]]
    assert of(out, "READER") == [[i, 1] for i in range(5)]   # all alive at start
    assert ["fields_max", 1] in out


MAIN_SCRIPT = PRELUDE + r'''
import main as fw
raw = json.load(open(BOARD))
world.setup_board(raw)
if ESCAPE:
    world.press(raw["buttons"][0]["pin"])
wire = Wire(BATCHES)
result = fw.main(BOARD, BUILD, stream=wire, max_steps=STEPS)
print(json.dumps(["result", result if isinstance(result, str) else "ran"]))
print(json.dumps(["wdt", None if world.wdt is None else world.wdt[2], world.wdt_fired]))
report(wire)
'''


def run_main(tmp_path, *, sim=False, escape=False, steps=60, batches=(), timing=None):
    build = tmp_path / "build.json"
    build.write_text(json.dumps({"sim": sim, "board": "table-4"}))
    board = REPO_ROOT / "boards" / "table-4.json"
    if timing is not None:   # the board file's timing section, e.g. a short lift time
        raw = json.loads(board.read_text())
        raw["timing"] = timing
        board = tmp_path / "board.json"
        board.write_text(json.dumps(raw))
    script = (f"ESCAPE = {escape}\nBUILD = {str(build)!r}\nBOARD = {str(board)!r}\nSTEPS = {steps}\n"
              f"BATCHES = {list(batches)!r}\n" + MAIN_SCRIPT)
    return frames(run_micropython(script, path=PATH, timeout=60, cwd=REPO_ROOT).stdout)


def test_scan_micropython_main_boots_and_feeds_the_watchdog(tmp_path):
    out = run_main(tmp_path, steps=60)
    assert ["result", "ran"] in out
    wdt = next(f for f in out if f[0] == "wdt")
    assert wdt[1] >= 60 and wdt[2] is False        # fed every step, never starved
    assert out[2][0] == "HELLO"
    assert of(out, "READER") == [[i, 1] for i in range(5)]


def test_scan_micropython_seat0_button_at_boot_escapes_to_the_repl(tmp_path):
    out = run_main(tmp_path, escape=True)
    assert out[0] == ["result", "escape"]
    assert out[1] == ["wdt", None, False]          # no watchdog started: the REPL stays usable
    assert len(out) == 2                           # and nothing was sent on the link


def _host_frames():
    """SIM frames as the host encodes them (CPython, the same protocol module)."""
    import sys
    if str(FIRMWARE_DIR) not in sys.path:
        sys.path.append(str(FIRMWARE_DIR))
    import protocol as P
    w = P.Writer(b"HOST")
    buf = bytearray(P.MAX_FRAME)

    def enc(f, *args):
        n = f(w, buf, 1, *args)
        return bytes(buf[:n])
    uid = bytes.fromhex("04010203040506")
    return {"place": enc(P.encode_sim_place, 2, uid, b"SJ01D-10" + bytes(8)),
            "lift": enc(P.encode_sim_lift, 2),
            "press": enc(P.encode_sim_button, 1, True),
            "release": enc(P.encode_sim_button, 1, False)}


def test_scan_micropython_sim_build_takes_cards_from_sim_frames(tmp_path):
    f = _host_frames()
    # each step polls a reader: >= 2 commands, each >= 1 ms before the ACK and 1 ms of CS setup per
    # transaction, so 40 steps are > 100 ms (the lift time asked for here) and > 20 ms of settle
    batches = [b""] * 5 + [f["place"]] + [b""] * 20 + [f["lift"]] + [b""] * 40 + [f["place"]] + [b""] * 10 \
        + [f["press"]] + [b""] * 10 + [f["release"]]   # held > 20 ms, < 800 ms (a long press)
    # a sim build lifts after 100 ms (build.json lift_ms), the board's 600 ms is the real table's
    out = run_main(tmp_path, sim=True, steps=len(batches) + 40, batches=batches, timing={"lift_ms": 5000})
    taps = of(out, "TAP")
    assert [t[:2] for t in taps] == [[2, "04010203040506"], [2, "04010203040506"]]
    assert of(out, "BUTTON") == [[1, 1], [1, 3]]   # PRESS, RELEASE


IDLE_SCRIPT = PRELUDE + r'''
import gc
import rings

b, readers, sc, wire, link = wire_table("boards/table-6.json", b"table-6")
sc.on_ring(3, rings.PENDING, 0, 255, 0, 2, 0)   # a static ring: drawn once, then left alone

def steps(ms):
    t0 = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), t0) < ms:
        sc.step(time.ticks_ms())

steps(1500)                    # every periodic path (heartbeat, resend, host timeout) has run
link.pending = 0               # no host here to ACK: stop resending the boot events
class Null:                    # a host that reads nothing back: keeps the harness out of the heap figure
    def readinto(self, buf):
        return 0
    def write(self, buf, off, n):
        pass
link.stream = Null()
result = [0, 0]

def measure():
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    n0 = sc.steps
    steps(1200)
    result[0] = gc.mem_alloc() - before
    result[1] = sc.steps - n0
    gc.enable()

measure()
print(json.dumps(["idle", result[0], result[1]]))
'''


def test_scan_micropython_idle_steps_allocate_nothing():
    """The steady-state loop (7 readers polled, buttons sampled, heartbeats sent) never allocates."""
    out = frames(run_micropython(IDLE_SCRIPT, path=PATH, timeout=60, cwd=REPO_ROOT).stdout)
    idle = next(rec for rec in out if rec[0] == "idle")
    assert idle[2] > 50                 # many full laps of the 7 readers were measured
    assert idle[1] == 0


POLLS_SCRIPT = PRELUDE + r'''
from pn532_model import SimNTAG

b, readers, sc, wire, link = wire_table("boards/table-4.json", b"table-4")
names = [r.name for r in readers]

def chip_lists():
    # the simulated chips' own count of InListPassiveTarget commands they answered
    return [world.reader(n).commands[0x4A] for n in names]

for _ in range(7):
    sc.step(time.ticks_ms())
world.place("seat2", SimNTAG(bytes.fromhex("04a1b2c3d4e5f6"), b"SJ01S-A1" + bytes(8)))
for _ in range(13):                # the card is read and stays: no activation-window retries
    sc.step(time.ticks_ms())
lists0, polls0, steps0 = chip_lists(), list(sc.polls), sc.steps
for _ in range(203):
    sc.step(time.ticks_ms())
lists1, polls1, steps1 = chip_lists(), list(sc.polls), sc.steps
w = P.Writer(b"HOST")
req = bytearray(P.MAX_FRAME)
wire.pending = bytearray(req[:P.encode_snapshot_request(w, req, 1)])
t0 = time.ticks_ms()
sc.step(t0)                        # the link answers the request in this step, before the poll
t1 = time.ticks_ms()
d = P.Decoder(P.TO_HOST)
snap = None
for x in wire.out:
    if d.push(x) and d.typ == P.SNAPSHOT:
        snap = P.decode_snapshot(d.payload[:d.length])
print(json.dumps(["counts", lists0, lists1, polls0, polls1, steps1 - steps0]))
print(json.dumps(["snapshot", list(snap[8]), snap[7], t0 & 0x3FFFFFFF, t1 & 0x3FFFFFFF, list(sc.polls)]))
'''


def test_scan_micropython_counts_every_answered_poll_per_reader():
    """The per-reader poll counters agree with the simulated chips' own count of InListPassiveTarget
    commands, one reader per step in turn, and the SNAPSHOT carries them with the Pico's clock."""
    out = frames(run_micropython(POLLS_SCRIPT, path=PATH, timeout=60, cwd=REPO_ROOT).stdout)
    lists0, lists1, polls0, polls1, steps = next(rec[1:] for rec in out if rec[0] == "counts")
    grown = [b - a for a, b in zip(polls0, polls1)]
    assert grown == [b - a for a, b in zip(lists0, lists1)]      # what the chips were asked, card or none
    assert sum(grown) == steps == 203                              # each step polled one reader
    assert max(grown) - min(grown) <= 1                            # in turn: 40 or 41 laps each
    assert polls1[2] > 0 and all(p > 0 for p in polls0)
    sent, clock, t0, t1, polls_after = next(rec[1:] for rec in out if rec[0] == "snapshot")
    assert sent == polls1                                          # answered before that step's poll
    assert sum(polls_after) == sum(polls1) + 1
    assert t0 <= clock <= t1
