"""The simulated table's hardware state, consulted by the fake ``machine``, ``neopixel`` and ``rp2``.

Runs under MicroPython (``sim/hw`` first on ``MICROPYPATH``, then ``firmware/``, so ``import machine``
gets the fake) and under CPython (``from shengji_table.sim.hw import world``).  There is one world per
process; ``reset()`` empties it.

Setting up a world from a board file (``boards/*.json``, see docs/board-schema.md)::

    import json, world                      # CPython: from shengji_table.sim.hw import world
    readers = world.setup_board(json.load(open("boards/table-4.json")))
    readers["seat0"]                        # the SimPN532 behind reader "seat0" (chip select = its cs pin)
    world.place("seat0", SimNTAG(uid7, user_bytes))   # a card on seat 0's reader
    world.lift("seat0")
    world.press(2); world.release(2)        # the button on GP2 (its active level comes from the board)
    world.pixels(22)                        # last buffer written by neopixel on GP22 (bytes, GRB order)
    world.fields_on()                       # names of readers whose RF field is on now

By hand (no board file): ``add_reader(cs, rst=None, name=None)`` returns the new ``SimPN532``;
``set_pin(pin, level)`` drives an input pin (fires ``Pin.irq`` handlers on the edge).

From another process (the host side of a virtual table sends JSON, the MicroPython side applies it)::

    world.apply({"op": "place", "reader": "seat0", "uid": "04a1b2c3d4e5f6", "user": "534a31", "kind": 213})
    world.apply({"op": "lift", "reader": "seat0"})
    world.apply({"op": "press", "pin": 2}); world.apply({"op": "release", "pin": 2})
    world.apply({"op": "alive", "reader": "seat2", "value": False})
    world.apply({"op": "pixels", "pin": 22})      # -> {"pixels": "hex…", "writes": n}
    world.apply({"op": "status"})                  # -> readers, fields on, wdt state

Clock: real ``time.ticks_ms`` unless ``use_sim_clock()`` was called, then ``advance(ms)`` moves it;
the fake WDT judges starvation by this clock (``wdt_fired`` becomes True when a feed came late or
``check_wdt()`` finds it overdue).
"""

try:
    # CPython: the PN532 model (firmware/pn532_model.py) among the host's firmware modules
    from shengji_table.firmware_src import pn532_model as _model
    SimPN532, SimNTAG, SimTag = _model.SimPN532, _model.SimNTAG, _model.SimTag
except ImportError:  # MicroPython: firmware/ is on MICROPYPATH
    # mypy checks the package import above; this name exists only on the MicroPython path.
    from pn532_model import SimPN532, SimNTAG, SimTag  # type: ignore[import-not-found, no-redef]  # noqa: F401

import time

try:
    # MicroPython's time; CPython's has neither (mypy checks against CPython's typeshed).
    _ticks_ms = time.ticks_ms  # type: ignore[attr-defined]
    _ticks_diff = time.ticks_diff  # type: ignore[attr-defined]
except AttributeError:  # CPython
    def _ticks_ms():
        return int(time.monotonic() * 1000)

    def _ticks_diff(a, b):
        return a - b


class MachineReset(Exception):
    """Raised by ``machine.reset()``: the firmware asked for a reboot."""


# (Annotations are not evaluated by MicroPython, and name no typing module: it has none.  The
# model's classes come from a module loaded at run time, so the type checker cannot name them.)
readers_by_cs: dict = {}       # pin number -> SimPN532
readers_by_rst: dict = {}      # pin number -> SimPN532
readers_by_irq: dict = {}      # pin number -> SimPN532 (its P70_IRQ output)
readers_by_name: dict = {}     # board name -> SimPN532
pins: dict[int, int] = {}      # pin number -> level (0/1): inputs set by tests, outputs written by firmware
buttons: dict[int, int] = {}   # pin number -> active level (0 = active low)
irqs: dict[int, tuple] = {}    # pin number -> (handler, trigger, Pin object)
neopixels: dict[int, list] = {}   # pin number -> [last written bytes or None, write count, pixel count, bpp]
hw_hooks: list = []    # called whenever the firmware makes a pin or drives an edge (usb_cdc's clock)
spi_conflicts = 0      # transactions with more than one chip select low
bootsel = 0            # rp2.bootsel_button() level
wdt = None             # [timeout_ms, last_feed_ms, feeds] once machine.WDT() was created
wdt_fired = False
resets = 0
freq_hz = 125_000_000
_sim_ms = None


def reset():
    """Forget every reader, pin, pixel buffer, watchdog and clock setting."""
    global spi_conflicts, bootsel, wdt, wdt_fired, resets, freq_hz, _sim_ms
    readers_by_cs.clear()
    readers_by_rst.clear()
    readers_by_irq.clear()
    readers_by_name.clear()
    pins.clear()
    buttons.clear()
    irqs.clear()
    neopixels.clear()
    hw_hooks.clear()
    spi_conflicts = 0
    bootsel = 0
    wdt = None
    wdt_fired = False
    resets = 0
    freq_hz = 125_000_000
    _sim_ms = None
    SimPN532.fields_now = 0
    SimPN532.fields_max = 0


# ---- clock -----------------------------------------------------------------------------------
def use_sim_clock(start_ms=0):
    """Switch the world clock from real time to a simulated one that only ``advance()`` moves."""
    global _sim_ms
    _sim_ms = start_ms


def sim_clock() -> bool:
    """Whether the simulated clock (``use_sim_clock``) runs the world."""
    return _sim_ms is not None


def advance(ms):
    global _sim_ms
    if _sim_ms is None:
        raise RuntimeError("advance() needs use_sim_clock() first")
    _sim_ms += ms
    check_wdt()


def now_ms():
    return _ticks_ms() if _sim_ms is None else _sim_ms


# ---- readers ---------------------------------------------------------------------------------
def add_reader(cs, rst=None, name=None, model=None, irq=None):
    """Wire a simulated PN532 to chip-select pin ``cs`` (and RSTPDN pin ``rst``, its IRQ output
    to pin ``irq``); returns it."""
    if cs in readers_by_cs:
        raise ValueError("chip select GP%d already has a reader" % cs)
    if model is None:
        model = SimPN532(name or "cs%d" % cs, lose_first=True)  # as the firmware must expect
    readers_by_cs[cs] = model
    pins[cs] = 1
    if rst is not None:
        readers_by_rst[rst] = model
        pins[rst] = 1
    if irq is not None:
        readers_by_irq[irq] = model
    readers_by_name[model.name] = model
    return model


def reader(name):
    """The SimPN532 named ``name`` (a board reader name, or ``cs<N>`` when added without one)."""
    return readers_by_name[name]


def place(name, tag):
    """Put ``tag`` (SimNTAG/SimTag) on reader ``name``'s antenna."""
    readers_by_name[name].place(tag)


def lift(name, tag=None):
    """Take ``tag`` (default: every tag) off reader ``name``."""
    readers_by_name[name].lift(tag)


def fields_on():
    """Names of the readers whose RF field is on right now."""
    return [m.name for m in readers_by_cs.values() if m.rf_on]


def selected():
    """The readers whose chip select is low (one, normally)."""
    return [m for cs, m in readers_by_cs.items() if pins.get(cs, 1) == 0]


# ---- pins ------------------------------------------------------------------------------------
def pin_level(pin):
    """What an input pin reads: a reader's IRQ output, or the level last set."""
    m = readers_by_irq.get(pin)
    if m is not None:
        return m.irq_level()
    return pins.get(pin, 0)


def pin_written(pin, level):
    """Called by ``machine.Pin`` when the firmware drives an output: CS and RST reach the chips."""
    old = pins.get(pin)
    pins[pin] = level
    if old == level:
        return
    m = readers_by_cs.get(pin)
    if m is not None:
        if level:
            m.deselect()
        else:
            m.select()
    m = readers_by_rst.get(pin)
    if m is not None:
        m.set_rst(level)
    for hook in hw_hooks:
        hook()


def pin_touched():
    """Called by ``machine.Pin`` when the firmware makes or sets up a pin: a moment in its boot."""
    for hook in hw_hooks:
        hook()


def set_pin(pin, level):
    """Drive input ``pin`` from outside (a button, a level); fires its irq handler on an edge."""
    old = pins.get(pin, 1)
    pins[pin] = level
    entry = irqs.get(pin)
    if entry is not None and old != level:
        handler, trigger, obj = entry
        if (level and trigger & 2) or (not level and trigger & 1):  # IRQ_RISING=2, IRQ_FALLING=1
            handler(obj)


def add_button(pin, active=0):
    """A push button on ``pin``: ``active`` is its pressed level (0 = to ground, pulled up)."""
    buttons[pin] = active
    pins[pin] = 1 - active


def press(pin):
    set_pin(pin, buttons.get(pin, 0))


def release(pin):
    set_pin(pin, 1 - buttons.get(pin, 0))


# ---- LEDs ------------------------------------------------------------------------------------
def neopixel_written(pin, buf, n, bpp):
    # Copied into a buffer made once per pin, so that the stand-in does not allocate per frame
    # (the real neopixel.write allocates nothing; the firmware's allocation figures must not be
    # spoiled by its stand-in).
    entry = neopixels.get(pin)
    if entry is None or len(entry[0]) != len(buf):
        entry = neopixels[pin] = [bytearray(len(buf)), 0, n, bpp]
    entry[0][:] = buf
    entry[1] += 1


def pixels(pin):
    """The last pixel buffer written on ``pin`` (bytes in wire order, e.g. GRB), or None."""
    entry = neopixels.get(pin)
    return None if entry is None else bytes(entry[0])


def pixel_writes(pin):
    entry = neopixels.get(pin)
    return 0 if entry is None else entry[1]


# ---- watchdog --------------------------------------------------------------------------------
def wdt_start(timeout_ms):
    global wdt
    wdt = [timeout_ms, now_ms(), 0]


def wdt_feed():
    check_wdt()
    wdt[1] = now_ms()
    wdt[2] += 1


def check_wdt():
    """True (and ``wdt_fired`` set) when the watchdog has gone unfed longer than its timeout."""
    global wdt_fired
    if wdt is not None and _ticks_diff(now_ms(), wdt[1]) > wdt[0]:
        wdt_fired = True
    return wdt_fired


# ---- board files -----------------------------------------------------------------------------
def setup_board(board):
    """Reset the world and wire it like ``board`` (a decoded board file dict).

    One SimPN532 per reader, named as in the board, on its ``cs`` (and ``rst``) pin; one button per
    entry of ``buttons`` at its idle level.  Returns ``{reader name: SimPN532}``.
    """
    reset()
    for r in board["readers"]:
        add_reader(r["cs"], r.get("rst"), r["name"], irq=r.get("irq"))
    for b in board.get("buttons", ()):
        add_button(b["pin"], 0 if b.get("active", "low") == "low" else 1)
    return dict(readers_by_name)


# ---- remote control --------------------------------------------------------------------------
def _unhex(text):
    out = bytearray(len(text) // 2)
    for i in range(len(out)):
        out[i] = int(text[2 * i:2 * i + 2], 16)
    return bytes(out)


def _hex(data):
    return "".join("%02x" % b for b in data)


def apply(cmd):
    """Apply one command dict (see the module docstring); returns a result dict.

    Unknown operations and bad arguments raise ValueError/KeyError with the offending field, and
    change nothing.
    """
    op = cmd["op"]
    if op == "place":
        uid = _unhex(cmd["uid"])
        if len(uid) == 7 and cmd.get("kind", 213) != 0:
            tag = SimNTAG(uid, _unhex(cmd.get("user", "")), cmd.get("kind", 213))
        else:
            tag = SimTag(uid)
        readers_by_name[cmd["reader"]].place(tag)
        return {"ok": True}
    if op == "lift":
        readers_by_name[cmd["reader"]].lift()
        return {"ok": True}
    if op == "press":
        press(cmd["pin"])
        return {"ok": True}
    if op == "release":
        release(cmd["pin"])
        return {"ok": True}
    if op == "alive":
        readers_by_name[cmd["reader"]].alive = bool(cmd["value"])
        return {"ok": True}
    if op == "bootsel":
        global bootsel
        bootsel = 1 if cmd["value"] else 0
        return {"ok": True}
    if op == "pixels":
        data = pixels(cmd["pin"])
        return {"pixels": None if data is None else _hex(data), "writes": pixel_writes(cmd["pin"])}
    if op == "status":
        return {"readers": {m.name: {"alive": m.alive, "rf_on": m.rf_on, "tags": [_hex(t.uid) for t in m.tags],
                                     "frames": m.frames, "bad_frames": m.bad_frames}
                            for m in readers_by_cs.values()},
                "fields_on": fields_on(), "fields_max": SimPN532.fields_max, "spi_conflicts": spi_conflicts,
                "wdt_fired": check_wdt(), "resets": resets}
    raise ValueError("unknown world op: %r" % (op,))
