"""Fake ``machine`` for the simulated table: the parts of the rp2 port's API the firmware uses.

``Pin`` levels live in ``world``; driving a reader's chip-select pin low selects its SimPN532, and
``SPI``/``SoftSPI`` transfers go byte by byte to the selected chip(s) (MISO idles at 0x00 when no
chip drives it).  ``SPI`` is MSB-first only and rejects ``firstbit=SPI.LSB`` with
NotImplementedError, like rp2's hardware SPI; ``SoftSPI`` accepts LSB first (MicroPython ≥ 1.24).
``WDT`` records feeds against the world clock; ``reset()`` raises ``world.MachineReset``.

The transfer path allocates nothing, so heap measurements of the firmware stay meaningful.
"""

try:
    from shengji_table.sim.hw import world  # CPython, package import
except ImportError:  # MicroPython: sim/hw is on MICROPYPATH (mypy checks the package import above)
    import world  # type: ignore[import-not-found, no-redef]

try:
    from shengji_table.firmware_src import pn532_model as _model  # CPython: the host's firmware modules
    REV = _model.REV
except ImportError:  # MicroPython: firmware/ is on MICROPYPATH
    from pn532_model import REV  # type: ignore[import-not-found, no-redef]

MISO_IDLE = 0x00


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 1
    IRQ_RISING = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = self.IN
        self.pull = None
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        if mode != -1:
            self.mode = mode
        if pull != -1:
            self.pull = pull
        if self.id not in world.pins:
            # An unconnected input reads its pull level (floating reads 0 here).
            world.pins[self.id] = 1 if self.pull == self.PULL_UP else 0
        if value is not None:
            self.value(value)
        world.pin_touched()

    def value(self, v=None):
        if v is None:
            return world.pin_level(self.id)
        level = 1 if v else 0
        if self.mode == self.OUT or self.mode == self.OPEN_DRAIN:
            world.pin_written(self.id, level)
        else:
            world.pins[self.id] = level  # writing an input latches the output register only
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=3, hard=False):
        if handler is None:
            world.irqs.pop(self.id, None)
        else:
            world.irqs[self.id] = (handler, trigger, self)

    def __repr__(self):
        return "Pin(GPIO%d)" % self.id


class _Bus:
    """Common transfer code; ``_lsb`` says whether bytes leave least-significant bit first."""

    MSB = 0
    LSB = 1
    _lsb = False

    def _xfer(self, out):
        """Clock one byte (host value ``out``) and return the byte read back."""
        wire = REV[out] if self._lsb else out
        chips = 0
        got = 0xFF
        for cs in world.readers_by_cs:
            if world.pins.get(cs, 1) == 0:
                chips += 1
                b = world.readers_by_cs[cs].exchange(wire)
                got &= MISO_IDLE if b is None else b
        if chips == 0:
            got = MISO_IDLE
        elif chips > 1:
            world.spi_conflicts += 1
        return REV[got] if self._lsb else got

    def write(self, buf):
        for i in range(len(buf)):
            self._xfer(buf[i])
        return None

    def read(self, n, write=0x00):
        buf = bytearray(n)
        self.readinto(buf, write)
        return bytes(buf)

    def readinto(self, buf, write=0x00):
        for i in range(len(buf)):
            buf[i] = self._xfer(write)
        return None

    def write_readinto(self, out, into):
        if len(out) != len(into):
            raise ValueError("buffers must be the same length")
        for i in range(len(out)):
            into[i] = self._xfer(out[i])
        return None

    def deinit(self):
        pass


class SPI(_Bus):
    """Hardware SPI (rp2): MSB first only."""

    def __init__(self, id=0, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=_Bus.MSB,
                 sck=None, mosi=None, miso=None):
        self.id = id
        self.init(baudrate, polarity, phase, bits, firstbit, sck, mosi, miso)

    def init(self, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=_Bus.MSB, sck=None, mosi=None,
             miso=None):
        if firstbit != self.MSB:
            raise NotImplementedError("LSB")  # rp2 machine_spi.c: the PL022 shifts MSB first only
        if bits != 8:
            raise ValueError("bits")
        self.baudrate = baudrate
        self.polarity = polarity
        self.phase = phase


class SoftSPI(_Bus):
    """Bit-banged SPI: either bit order."""

    def __init__(self, baudrate=500000, polarity=0, phase=0, bits=8, firstbit=_Bus.MSB, sck=None, mosi=None,
                 miso=None):
        self.baudrate = baudrate
        self.polarity = polarity
        self.phase = phase
        self._lsb = firstbit == self.LSB


class WDT:
    """Watchdog: ``timeout`` 1..8388 ms (RP2040 limit); starvation judged on the world clock."""

    def __init__(self, id=0, timeout=5000):
        if not 1 <= timeout <= 8388:
            raise ValueError("timeout")
        world.wdt_start(timeout)

    def feed(self):
        world.wdt_feed()


def unique_id():
    return b"\xe6\x61\x38\x51\x0b\x2f\x5a\x2c"


def reset():
    world.resets += 1
    raise world.MachineReset("machine.reset()")


def soft_reset():
    reset()


def freq(hz=None):
    if hz is None:
        return world.freq_hz
    world.freq_hz = hz
    return None


def idle():
    pass


def disable_irq():
    return 0


def enable_irq(state=0):
    pass
