"""Firmware figures, measured under the real MicroPython interpreter (unix port) with the simulated
PN532s, LEDs and buttons standing in for the hardware:

* heap bytes allocated per idle scan cycle (all readers polled once, no card; target 0), measured
  with ``gc.mem_alloc()`` deltas while the collector is disabled;
* the firmware's heap in use (target < 64 KB), measured twice: importing the ``.py`` sources (the
  interpreter compiles them at import) and loading the ``.mpy`` build a Pico actually runs
  (``mpy-cross`` as ``shengji-table flash`` compiles it, without ``-march`` so that the unix port
  loads it; ``main.py`` stays source, as on the Pico).  "Firmware heap in use" is ``gc.mem_alloc()``
  minus what the interpreter and the simulated world hold before the firmware is imported:
  *live* after a full boot (modules, board, readers, scanner, LED buffer, link, every reader
  started) and a scan run with 40 cards tapped, ``gc.collect()`` first; *peak* the most in use
  during any scan step of that run (collected before the step, collector off during it, so the
  step's end is its peak).  Importing is reported apart: the bytes it allocates with the collector
  off (an upper bound of its peak; for sources that is mostly the compiler's working memory);
* the scan cycle's time budget per reader, computed from the PN532 timings the driver uses
  (pn532.py: the wait before the ACK, ACK/reply timeouts, status poll interval, MaxRetries) and the SPI clock of
  the board file: typical (chip answers at its first chance) and worst case (every timeout).

The unix port is 64-bit (8-byte words and pointers, 32-byte GC blocks against the Pico's 4-byte
words and 16-byte blocks), so its heap figures are larger than a Pico's would be.  They are
printed as measured, not scaled: they are not a measurement of a Pico.  The fake ``machine.Pin``
objects the firmware creates are counted as firmware too (on the rp2 port a Pin is a static object
in flash), so the figure errs high.
"""
import json
import pathlib
import re
import shutil
import subprocess
import tempfile

from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.hardware.flash import HOST_ONLY, SIM_MODULES, SOURCE_ONLY, mpy_cross_binary
from shengji_table.micropython import run_micropython
from shengji_table.sim.hw import HW_DIR

REPO_ROOT = pathlib.Path(__file__).resolve().parents[1]
BOARD = "boards/table-4.json"                   # relative to REPO_ROOT, where MicroPython runs
CYCLES = 200
TARGET_KB = 64

SCRIPT = r'''
import gc, json, micropython, time
gc.collect()
heap_start = gc.mem_alloc()
import machine, neopixel, world
from pn532_model import SimNTAG
raw = json.load(open(BOARD))
world.setup_board(raw)
cards = [SimNTAG(bytes([4, i, 0x10, 0x20, 0x30, 0x40, 0x50]), b"SJ01" + bytes([i]) + bytes(11)) for i in range(40)]
names = [r["name"] for r in raw["readers"]]

class HostTraffic:
    """The USB stream's stand-in with a host on the other end: every EVERY-th read delivers the next
    of a few host frames (heartbeat, ring states, an ACK), copied byte by byte so the stand-in
    itself allocates nothing; everything written is dropped."""
    def __init__(self, frames, every):
        self.frames = frames            # [(bytearray, length)], built before the baseline
        self.every = every
        self.calls = 0
        self.next = 0
        self.delivered = 0
    def readinto(self, buf):
        self.calls += 1
        if self.calls < self.every:
            return 0
        self.calls = 0
        data, n = self.frames[self.next]
        self.next = (self.next + 1) % len(self.frames)
        for i in range(n):
            buf[i] = data[i]
        self.delivered += 1
        return n
    def write(self, buf, off, n):
        pass

stream = HostTraffic([(bytearray(bytes.fromhex(h)), len(h) // 2) for h in TRAFFIC], 25)

def measured_step():
    global peak, worst_step
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    sc.step(time.ticks_ms())
    m = gc.mem_alloc()
    gc.enable()
    peak = max(peak, m)
    worst_step = max(worst_step, m - a)

# Every global of this script exists before the baseline, so that its dictionary does not grow
# (and get counted as firmware) later.
board_file = fw = pn532 = reader = debounce = rings = Scanner = Link = None
b = readers = buttons = _ = r = px = sc = link = None
import_alloc = heap_code = heap_readers = heap_scanner = heap_link = live_boot = live_after_run = 0
n = t0 = before = elapsed = idle_alloc = pins = k = peak = worst_step = 0
gc.collect()
heap_sim = gc.mem_alloc()
print("QSTR-BEFORE")
micropython.qstr_info()

# Import every firmware module the production build uses, collector off: what importing allocates.
gc.disable()
import board as board_file
import main as fw
import pn532, reader, debounce, rings
from scan import Scanner
from link import Link
import_alloc = gc.mem_alloc() - heap_sim
gc.enable()
gc.collect()
heap_code = gc.mem_alloc()
# Where the heap goes, piece by piece (the pieces main.boot() builds), then thrown away again.
b = board_file.Board(raw)
readers, buttons, _ = fw.build(machine, b, False)
gc.collect()
heap_readers = gc.mem_alloc()
pins = len(buttons) + 1                     # button inputs and the LED data pin ...
for r in readers:
    if r is not None:
        pins += 1 + (r.pn.rst is not None)      # ... and each reader's chip-select and reset
px = neopixel.NeoPixel(machine.Pin(b.led_pin), b.pixels)
sc = Scanner(readers, buttons, b.rings, px, b.led_order)
gc.collect()
heap_scanner = gc.mem_alloc()
link = Link(stream, time.ticks_ms, sc.on_ring, None, firmware=b"0.1.0", board=b"bench", rings=len(b.rings),
            boot_id=b"\x01\x02\x03\x04")
gc.collect()
heap_link = gc.mem_alloc()
b = readers = buttons = r = px = sc = link = board_file = None
gc.collect()

# The real boot, as on the Pico (production build: no build.json): main.main() wires everything,
# starts every reader and returns the scanner after 0 loop steps.
sc = fw.main(BOARD, "no-build.json", stream=stream, max_steps=0)
link = sc.link
readers = sc.readers
gc.collect()
live_boot = gc.mem_alloc() - heap_sim
n = len(readers)
# Warm up for 1.5 s: every periodic path (heartbeat, resend, host timeout) has run once.
t0 = time.ticks_ms()
while time.ticks_diff(time.ticks_ms(), t0) < 1500:
    sc.step(time.ticks_ms())
link.pending = 0                             # nobody ACKs here: stop resending the boot events

# 1. Allocation per idle cycle, collector off.
t0 = time.ticks_us()
gc.collect()
gc.disable()
before = gc.mem_alloc()
for _ in range(CYCLES * n):
    sc.step(time.ticks_ms())
elapsed = time.ticks_diff(time.ticks_us(), t0)
idle_alloc = gc.mem_alloc() - before
gc.enable()

# 2. Peak heap in use while cards are tapped: before each step the heap holds only live objects
# (collect), during the step nothing is freed (collector off), so the step's end is its peak.
for k in range(40):
    world.place(names[k % len(names)], cards[k])
    for _ in range(3 * n):
        measured_step()
    world.lift(names[k % len(names)])
    for _ in range(2 * n):
        measured_step()
gc.collect()
live_after_run = gc.mem_alloc() - heap_sim
print("QSTR-AFTER")
micropython.qstr_info()
mods = {}
for name in ("protocol", "link", "pn532", "reader", "scan", "rings", "debounce", "board", "main"):
    mods[name] = __import__(name).__file__
print(json.dumps({
    "idle_alloc": idle_alloc, "cycles": CYCLES, "readers": n, "sim_us_per_step": elapsed // (CYCLES * n),
    "taps": sc.tap_count, "heap_interpreter": heap_start, "heap_sim": heap_sim - heap_start,
    "import_alloc": import_alloc, "live_boot": live_boot, "live_after_run": live_after_run,
    "peak": peak - heap_sim, "code": heap_code - heap_sim, "readers_objs": heap_readers - heap_code,
    "scanner_objs": heap_scanner - heap_readers, "link_objs": heap_link - heap_scanner,
    "worst_step": worst_step, "fake_pins": pins, "modules": mods,
    "timing": {"ACK_GAP_MS": pn532.ACK_GAP_MS, "ACK_TIMEOUT_MS": pn532.ACK_TIMEOUT_MS,
               "REPLY_TIMEOUT_MS": pn532.REPLY_TIMEOUT_MS, "POLL_INTERVAL_MS": pn532.POLL_INTERVAL_MS,
               "MAX_RETRIES": pn532.MAX_RETRIES_DEFAULT},
    "baudrate": raw["spi"]["baudrate"], "pixels": len(sc.pixels.buf) // 3,
    "host_frames": stream.delivered,
}))
'''

STANDIN_PROBE = r'''
import gc, machine, world
gc.collect()
a = gc.mem_alloc()
pins = [machine.Pin(40 + i, machine.Pin.OUT, value=1) for i in range(N)]
gc.collect()
b = gc.mem_alloc()
spi = machine.SPI(0, baudrate=1000000, polarity=0, phase=0)
gc.collect()
c = gc.mem_alloc()
world.neopixel_written(99, bytearray(PIXELS * 3), PIXELS, 3)
gc.collect()
print((b - a - 16 * N) // N, c - b, gc.mem_alloc() - c)
'''


def compile_mpy(dest: pathlib.Path) -> None:
    """The firmware as a Pico gets it (``shengji-table flash``): modules as .mpy, main.py as source.

    No ``-march``: the modules are bytecode only, and an architecture flag would make the x86-64
    unix port refuse them.
    """
    binary = mpy_cross_binary()
    for source in sorted(FIRMWARE_DIR.glob("*.py")):
        if source.name in HOST_ONLY + SIM_MODULES:     # the PN532 model is the simulation's, loaded as source
            continue
        if source.name in SOURCE_ONLY:
            shutil.copyfile(source, dest / source.name)
            continue
        subprocess.run([binary, "-s", source.name, "-o", str(dest / (source.stem + ".mpy")), str(source)],
                       check=True, capture_output=True)


QSTR_ENTRY = 8 + 2 + 1   # bytes a pool spends per name on this port: string pointer, hash, length


def _qstr_info(lines: list[str], marker: str) -> tuple[int, int, int, int]:
    """(pools, names, text bytes, total bytes) of ``micropython.qstr_info()`` printed after ``marker``."""
    found = lines[lines.index(marker) + 1]
    return tuple(int(v) for v in re.findall(r"=(\d+)", found))  # type: ignore[return-value]


def host_traffic() -> list:
    """Hex of the host frames the bench's stream delivers: heartbeat, two ring states, an ACK."""
    from shengji_table.table import protocol as P
    w, buf = P.Writer(b"\x0a\x0b\x0c\x01"), bytearray(P.MAX_FRAME)
    frames = [bytes(buf[:P.encode_host_heartbeat(w, buf, 1)]),
              bytes(buf[:P.encode_ring(w, buf, 2, 0, 1, 0, 0, 255, 0, 0)]),
              bytes(buf[:P.encode_ring(w, buf, 3, 1, 2, 0, 255, 0, 2, 0)]),
              bytes(buf[:P.encode_ack(w, buf, 4, 1, b"\x01\x02\x03\x04")])]
    return [f.hex() for f in frames]


def measure(firmware: pathlib.Path) -> dict:
    prelude = f"BOARD = {BOARD!r}\nCYCLES = {CYCLES}\nTRAFFIC = {host_traffic()!r}\n"
    # the PN532 model is the simulation's: always the source in firmware/ (a build leaves it out)
    model = [] if firmware == FIRMWARE_DIR else [FIRMWARE_DIR]
    proc = run_micropython(prelude + SCRIPT, path=[HW_DIR, firmware] + model, cwd=REPO_ROOT,
                           timeout=300)
    lines = proc.stdout.decode().strip().splitlines()
    fig = json.loads(lines[-1])
    _, names0, text0, total0 = _qstr_info(lines, "QSTR-BEFORE")
    _, names1, text1, total1 = _qstr_info(lines, "QSTR-AFTER")
    fig["qstr_names"] = names1 - names0
    fig["qstr_bytes"] = total1 - total0
    # Pool capacity not yet used by any name: pool bytes beyond what the interned names fill.
    fig["qstr_unused"] = max(0, (total1 - text1) - names1 * QSTR_ENTRY) - max(0, (total0 - text0) - names0 * QSTR_ENTRY)
    return fig


def standins(fig: dict) -> tuple[int, str]:
    """Heap bytes of the hardware stand-ins the firmware keeps alive (fake ``machine.Pin`` objects,
    the fake SPI object, the simulated LED chain's copy of the last frame), none of which a Pico
    has on its heap (rp2 Pins and SPI buses are static objects); and how they were counted."""
    pins = fig["fake_pins"]
    proc = run_micropython(f"N = {pins}\nPIXELS = {fig['pixels']}\n" + STANDIN_PROBE, path=[HW_DIR, FIRMWARE_DIR],
                          cwd=REPO_ROOT)
    pin, spi, leds = (int(v) for v in proc.stdout.decode().split()[-3:])
    return pins * pin + spi + leds, f"{pins} Pins x {pin} B + SPI {spi} B + LED frame copy {leds} B"


def kb(n: int) -> str:
    return f"{n / 1024:5.1f} KB"


# Chip-side processing the driver cannot know (assumptions, stated so the figure can be checked on a
# real table): one passive activation attempt with no card in the field, a READ answered by an NTAG
# (NTAG21x datasheet: a few hundred µs at 106 kbps), any other command.
CHIP_ATTEMPT_MS = 1.0
CHIP_NTAG_READ_MS = 1.0
CHIP_COMMAND_MS = 0.5
WS2812_US_PER_LED = 30          # docs/hardware-notes.md: neopixel.write with interrupts off
FRAME_MS = 40                   # scan._FRAME_MS


def command(name, nparams, reply_len, chip_ms, t, baud):
    """(typical ms, worst ms) of one PN532 command as pn532.PN532._call runs it."""
    byte_ms = 8 * 1000 / baud
    send = (1 + 8 + nparams) * byte_ms             # prefix + 00 00 FF LEN LCS D4 cmd params DCS 00
    status = 2 * byte_ms                            # prefix 0x02 + status byte
    ack = 7 * byte_ms                               # prefix 0x03 + 00 00 FF 00 FF 00
    reply = (1 + 6 + reply_len + 1) * byte_ms       # prefix + head + (LEN - 1 + DCS + 00) ... + TFI
    ack_wait = t["ACK_GAP_MS"]
    poll = t["POLL_INTERVAL_MS"]
    # Typical: ACK ready at the first status read after that wait; the reply after the chip's time,
    # seen at the next status poll (polls every POLL_INTERVAL_MS).
    import math
    waits = math.ceil(chip_ms / poll)
    typical = send + ack_wait + status + ack + status + waits * (poll + status) + reply
    worst = send + ack_wait + t["ACK_TIMEOUT_MS"] + ack + t["REPLY_TIMEOUT_MS"] + reply
    return name, typical, worst


def budget(fig):
    t, baud = fig["timing"], fig["baudrate"]
    tries = t["MAX_RETRIES"] + 1
    # reply LEN: TFI + code + data
    ilpt_empty = command(f"InListPassiveTarget, no card ({tries} tries)", 2, 3, tries * CHIP_ATTEMPT_MS, t, baud)
    ilpt_card = command("InListPassiveTarget, 7-byte UID", 2, 2 + 13, CHIP_ATTEMPT_MS, t, baud)
    read = command("InDataExchange NTAG READ (16 bytes)", 3, 2 + 17, CHIP_NTAG_READ_MS, t, baud)
    release = command("InRelease", 1, 3, CHIP_COMMAND_MS, t, baud)
    field = command("RFConfiguration field off", 2, 2, CHIP_COMMAND_MS, t, baud)
    rows = [ilpt_empty, ilpt_card, read, release, field]
    for name, typ, worst in rows:
        print(f"   {name:<42} {typ:6.2f} ms typical  {worst:6.1f} ms worst")
    empty = (ilpt_empty[1] + field[1], ilpt_empty[2] + field[2])
    card = tuple(ilpt_card[i] + read[i] + release[i] + field[i] for i in (1, 2))
    print(f"   per reader, no card (poll + field off)      {empty[0]:6.2f} ms typical  {empty[1]:6.1f} ms worst")
    print(f"   per reader, card (poll+READ+release+off)   {card[0]:6.2f} ms typical  {card[1]:6.1f} ms worst")
    n = fig["readers"]
    led = fig["pixels"] * WS2812_US_PER_LED / 1000
    lap = n * empty[0]
    print(f"   LED frame ({fig['pixels']} px) {led:.1f} ms every {FRAME_MS} ms while animated")
    print(f"   scan lap, {n} readers, no card: {lap:.1f} ms typical (+{led:.1f} ms when a frame falls in it); "
          f"one card arriving: {lap - empty[0] + card[0]:.1f} ms; worst {n * card[1]:.0f} ms < watchdog 5000 ms")


def main():
    with tempfile.TemporaryDirectory(prefix="fw-mpy-") as tmp:
        compile_mpy(pathlib.Path(tmp))
        runs = {"source (.py compiled at import)": measure(FIRMWARE_DIR),
                ".mpy build (as flashed)": measure(pathlib.Path(tmp))}
    mpy = list(runs.values())[1]
    assert all(f.endswith(".mpy") for m, f in mpy["modules"].items() if m != "main"), mpy["modules"]
    stand, how = standins(mpy)
    fig = mpy
    print(f"firmware on {BOARD}, MicroPython unix port: 64-bit, so objects and pointers are about twice a "
          f"Pico's (32-byte GC blocks against 16); figures as measured, not scaled")
    print(f"   heap allocated per idle scan cycle ({fig['readers']} readers): "
          f"{fig['idle_alloc'] / fig['cycles']:.1f} bytes  "
          f"({fig['idle_alloc']} over {fig['cycles']} cycles; target 0), "
          f"with host traffic: {fig['host_frames']} host frames (heartbeats, ring states, ACKs) "
          f"received during the run")
    print(f"   firmware heap in use = gc.mem_alloc() minus interpreter ({kb(fig['heap_interpreter'])}) and "
          f"simulated chips/world ({kb(fig['heap_sim'])}); live = after boot + {fig['taps']} taps, gc.collect() "
          f"first; peak = most in use during any scan step of that run (target < {TARGET_KB} KB)")
    for label, f in runs.items():
        verdict = "below" if f["peak"] < TARGET_KB * 1024 else "ABOVE"
        print(f"   {label:<33} live {kb(f['live_after_run'])}  peak {kb(f['peak'])} ({verdict} target)  "
              f"importing allocated {kb(f['import_alloc'])}")
        print(f"{'':<38} after boot {kb(f['live_boot'])}: module code {kb(f['code'])}, and built apart: board "
              f"and readers {kb(f['readers_objs'])}, scanner and LED buffer {kb(f['scanner_objs'])}, link queue "
              f"{kb(f['link_objs'])}")
    print(f"   .mpy peak, of which interned names (qstrs): {fig['qstr_names']} new, "
          f"{kb(fig['qstr_bytes'])} of qstr pools, about "
          f"{kb(fig['qstr_unused'])} of it capacity no name uses yet (a new pool doubles the last one; where that "
          f"falls depends on every name interned before, the simulated world's included)")
    print(f"   .mpy peak, of which hardware stand-ins: {kb(stand)} ({how}), counted anyway")
    own = fig["peak"] - fig["qstr_unused"] - stand
    print(f"   .mpy peak without those two artefacts of the simulation on this port: {kb(own)} "
          f"({'below' if own < TARGET_KB * 1024 else 'ABOVE'} target; for scale, not the headline figure)")
    print(f"   most allocated by one step while tapping: {fig['worst_step']} bytes (simulated chips included)")
    print(f"   one scan step in the simulation: {fig['sim_us_per_step']} µs (host CPU, not a Pico)")
    print(f"time budget per reader at {fig['baudrate'] / 1e6:g} MHz SPI (driver timings {fig['timing']}):")
    budget(fig)


if __name__ == "__main__":
    main()
