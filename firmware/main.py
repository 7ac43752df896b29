"""Entry point on the Pico: board.json -> readers, rings, buttons, link; then the scan loop forever.

Production build (``build.json`` absent or ``"sim": false``):

* Ctrl-C (0x03) on the USB link is data, not KeyboardInterrupt (``micropython.kbd_intr(-1)``): a
  frame may contain that byte, and most host frames do (COBS code bytes).  It is switched off
  first thing, before the board file is read: the host talks as soon as it opens the port, and
  rp2's USB handler turns every 0x03 into KeyboardInterrupt while the interrupt char is set.
* Anything that escapes the run, KeyboardInterrupt included (``BaseException``), resets the Pico:
  a table must never be left at the REPL with no watchdog.
* A watchdog (5 s, ``_WDT_MS``) is fed by the loop; a hung reader or an exception reboots the Pico.
* **REPL escape**: hold seat 0's button while the Pico starts.  main.py then gives Ctrl-C back and
  returns before it starts the watchdog, and prints why; ``mpremote`` and the REPL work normally.

Sim build (``"sim": true``, ``shengji-table flash --sim``): the readers are ``SimPN532`` models on
the Pico itself, fed by the link's SIM_PLACE / SIM_LIFT / SIM_BUTTON frames (see simboard.py).
"""
import gc
import json
import sys
import time

from compat import const

FIRMWARE = b"0.1.0"
_WDT_MS = const(5000)    # RP2040 maximum is 8388 ms; one loop step takes a few tens of ms
_ESCAPE_SEAT = const(0)
_ESCAPE_SAMPLE_MS = const(30)
# Sim builds: the cards are the models', put down and taken off exactly by SIM frames, with no
# flicker at the edge of a field to ride out, so a lift counts after this (build.json ``lift_ms``
# sets it) rather than the board's real-table figure; the host's players re-tap at that pace.
_SIM_LIFT_MS = const(100)
# High while a reader is polled, for a logic analyser (docs/firmware.md): GP25, the on-board LED
# (test point TP5 under the Pico), free on every board file (board.py refuses it).
_MARKER_PIN = const(25)


def load_build(path="build.json"):
    """The build flags written by ``shengji-table flash`` ({} when absent: production)."""
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        return {}


def _button_pin(machine, b):
    pull = machine.Pin.PULL_UP if b.pull == "up" else (machine.Pin.PULL_DOWN if b.pull == "down" else None)
    return machine.Pin(b.pin, machine.Pin.IN, pull)


def escape_requested(machine, board):
    """True when seat ``_ESCAPE_SEAT``'s button is held at boot (pressed on two samples 30 ms apart)."""
    from scan import Button
    b = board.buttons[_ESCAPE_SEAT]
    button = Button(_button_pin(machine, b), b.active_low)
    if not button.pressed():
        return False
    time.sleep_ms(_ESCAPE_SAMPLE_MS)
    return button.pressed()


def build(machine, board, sim, dead=(), faults=None):
    """(readers, buttons, sim_table or None) wired as the board file says.

    ``dead`` (sim builds only): names of readers whose simulated PN532 never answers, as a chip
    without power or with a broken chip-select wire — for the self-test and fault drills; ``faults``
    (sim builds only): the chip models' fault knobs per reader name (simboard.FAULT_KNOBS).

    All readers sit on one SPI bus and share one ``PN532Bus`` (frame buffers): the scan loop polls
    them one at a time, so no two transactions ever overlap.
    """
    from pn532 import PN532Bus
    from scan import Button
    buttons = [Button(_button_pin(machine, b), b.active_low) for b in board.buttons]
    readers = []  # type: list
    table = None
    if sim:
        from simboard import SimTable
        table = SimTable(board, buttons, dead, faults)
        bus = PN532Bus(table.bus)
        for i in range(len(board.readers)):
            sel = table.selects[i]
            readers.append(None if sel is None else _reader(board, board.readers[i].name, bus, sel, None))
        return readers, table.buttons, table
    spi = machine.SPI(board.spi_bus, baudrate=board.baudrate, polarity=0, phase=0,
                      sck=machine.Pin(board.sck), mosi=machine.Pin(board.mosi), miso=machine.Pin(board.miso))
    bus = PN532Bus(spi)
    for pins in board.readers:
        if pins is None:
            readers.append(None)
            continue
        cs = machine.Pin(pins.cs, machine.Pin.OUT, value=1)
        rst = machine.Pin(pins.rst, machine.Pin.OUT, value=1) if pins.rst is not None else None
        irq = machine.Pin(pins.irq, machine.Pin.IN, machine.Pin.PULL_UP) if pins.irq is not None else None
        readers.append(_reader(board, pins.name, bus, cs, rst, irq))
    return readers, buttons, table


def _reader(board, name, bus, cs, rst, irq=None):
    """One reader with the board file's timings (``"rst": null``: a module without a usable reset
    pin; its recovery is then ``begin()`` alone; ``irq``: its P70_IRQ line, read instead of status
    polls where the board file wires it)."""
    from pn532 import PN532
    from reader import Reader
    pn = PN532(bus, cs, rst, reply_timeout_ms=board.reply_timeout_ms, cs_setup_us=board.cs_setup_us, irq=irq)
    return Reader(name, pn, activation_ms=board.activation_ms)


def boot(board_path="board.json", build_path="build.json", stream=None):
    """Everything before the loop: the wired ``Scanner`` with its link attached, or None when the
    REPL escape was asked for.  The decoded board file and the build flags are needed only here:
    they are garbage once this returns, so the running table does not keep them on the heap."""
    import machine
    import neopixel

    import board as board_file
    from link import Link, StdioStream
    from scan import Scanner

    board = board_file.load(board_path)
    flags = load_build(build_path)
    sim = bool(flags.get("sim", False))
    if escape_requested(machine, board):
        print("shengji-table: seat %d button held at boot: firmware not started, REPL is yours" % _ESCAPE_SEAT)
        return None
    readers, buttons, table = build(machine, board, sim, flags.get("dead", ()), flags.get("faults"))
    pixels = neopixel.NeoPixel(machine.Pin(board.led_pin), board.pixels) if board.pixels else None
    lift_ms = flags.get("lift_ms", _SIM_LIFT_MS) if sim else board.lift_ms
    dwell_ms = min(board.dwell_ms, lift_ms - 1)
    marker = machine.Pin(_MARKER_PIN, machine.Pin.OUT, value=0)
    scanner = Scanner(readers, buttons, board.rings, pixels, board.led_order, lift_ms=lift_ms,
                      dwell_ms=dwell_ms, marker=marker)
    link = Link(stream or StdioStream(), time.ticks_ms, scanner.on_ring,
                table.on_sim if table is not None else None, firmware=FIRMWARE,
                board=board.name.encode(), rings=len(board.rings))
    scanner.attach(link)
    # The board file decoder is boot-only code: dropping the module lets its code be collected with
    # the decoded board (a later ``import board`` would simply load it again).
    sys.modules.pop("board", None)
    return scanner


def main(board_path="board.json", build_path="build.json", stream=None, max_steps=-1):
    """Run the table.  ``stream``/``max_steps`` exist for tests; on the Pico both keep defaults.

    Returns ``"escape"`` after the REPL escape, else (only when ``max_steps`` ran out) the scanner.
    """
    import micropython
    # First of all: a host frame's 0x03 arriving during boot must be data, not KeyboardInterrupt.
    micropython.kbd_intr(-1)
    import machine

    scanner = boot(board_path, build_path, stream)
    if scanner is None:
        micropython.kbd_intr(3)   # the escape: the REPL is the user's
        return "escape"
    wdt = machine.WDT(timeout=_WDT_MS)
    scanner.start(time.ticks_ms())
    wdt.feed()
    gc.collect()
    steps = 0
    while steps != max_steps:
        scanner.step(time.ticks_ms())
        wdt.feed()
        steps += 1
    return scanner


def run():
    """The Pico's entry: ``main()``, and on anything escaping it (KeyboardInterrupt too) its last
    words, then a reset, so that the table never stays at the REPL without a watchdog."""
    try:
        main()
    except BaseException as exc:  # noqa: B036 - KeyboardInterrupt must reset too
        try:
            sys.print_exception(exc)
        finally:
            import machine
            machine.reset()


if __name__ == "__main__":
    run()
