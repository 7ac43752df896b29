"""Just enough of Blinka's ``busio`` and ``digitalio`` for Adafruit's ``adafruit_pn532`` driver to
talk to our ``SimPN532`` (``firmware/pn532_model.py``) over SPI, I2C or UART (HSU).

These stand in for the host-side hardware of an enrolment station (e.g. an FT232H with a PN532).
Adafruit's driver — which we did not write — is the independent witness that the chip model behaves
as real PN532s do (tests/sim/test_pn532_adafruit_witness.py), and the enrolment station is
tested through the same driver and buses (tests/table/test_enroll_blinka_station.py).
"""
from __future__ import annotations

__all__ = ["SimChipSelect", "SimSPIBus", "SimI2CBus", "SimUART"]


class SimChipSelect:
    """``digitalio.DigitalInOut`` on NSS: each edge selects/deselects the simulated chip."""

    def __init__(self, chip):
        self.chip = chip
        self._value = True

    def switch_to_output(self, value=False, drive_mode=None):
        self.value = value

    @property
    def value(self):
        return self._value

    @value.setter
    def value(self, v):
        v = bool(v)
        if v != self._value:
            (self.chip.deselect if v else self.chip.select)()
        self._value = v


class _LockableBus:
    """Blinka's bus lock (``try_lock`` / ``unlock``), which the driver takes around each transfer."""

    def __init__(self, chip):
        self.chip = chip
        self.locked = False

    def try_lock(self):
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        self.locked = False


class SimSPIBus(_LockableBus):
    """``busio.SPI`` (MSB first, mode 0) routing every byte to the simulated chip; ``configured``
    keeps the last ``configure()`` so a test can check the mode the driver asked for."""

    def __init__(self, chip):
        super().__init__(chip)
        self.configured = None

    def configure(self, *, baudrate=100000, polarity=0, phase=0, bits=8):
        self.configured = (baudrate, polarity, phase, bits)

    def _x(self, b):
        assert self.locked, "SPI used without the lock"
        r = self.chip.exchange(b)
        return 0 if r is None else r

    def write(self, buf, *, start=0, end=None):
        for b in bytes(buf)[start:end]:
            self._x(b)

    def readinto(self, buf, *, start=0, end=None, write_value=0):
        for i in range(start, len(buf) if end is None else end):
            buf[i] = self._x(write_value)

    def write_readinto(self, out, into, *, out_start=0, out_end=None, in_start=0, in_end=None):
        out = bytes(out)[out_start:out_end]
        in_end = len(into) if in_end is None else in_end
        assert len(out) == in_end - in_start, "write_readinto with unequal lengths"
        for k, b in enumerate(out):
            into[in_start + k] = self._x(b)


class SimI2CBus(_LockableBus):
    """``busio.I2C`` to the same simulated chip: what a PN532 in I2C mode (address 0x24) does on
    the wire, mapped onto the model's transactions.  An I2C write is a frame (the model's data
    write); every I2C read starts with the status byte (RDY = 0x01) and, when the chip is ready,
    goes on with the ACK or reply frame (the model's data read).  The model speaks LSB first as on
    SPI, so each byte is bit-reversed here, as the SPI driver does on its side."""

    ADDRESS = 0x24

    def __init__(self, chip):
        super().__init__(chip)
        self.wrong_address = 0

    def _check(self, address):
        if address != self.ADDRESS:
            self.wrong_address += 1
            raise OSError(5, "no device at this address")

    def _transaction(self, prefix, out_bytes=(), read=0):
        rev = _REV
        self.chip.select()
        self.chip.exchange(rev[prefix])
        for b in out_bytes:
            self.chip.exchange(rev[b])
        got = bytes(rev[(self.chip.exchange(0) or 0)] for _ in range(read))
        self.chip.deselect()
        return got

    def writeto(self, address, buffer, *, start=0, end=None):
        self._check(address)
        data = bytes(buffer)[start:end]
        if data:                                  # an empty write is adafruit_bus_device's probe
            self._transaction(0x01, data)

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        self._check(address)
        end = len(buffer) if end is None else end
        status = self._transaction(0x02, read=1)[0]
        buffer[start] = status
        if end - start > 1:
            data = self._transaction(0x03, read=end - start - 1) if status == 0x01 else bytes(end - start - 1)
            buffer[start + 1:end] = data

    def writeto_then_readfrom(self, address, out, into, **kw):
        raise OSError(5, "the PN532 is never read with a repeated start")


_REV = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


class SimUART(SimI2CBus):
    """A pyserial-like port to the simulated chip in HSU (UART) mode, for ``PN532_UART``.

    What the host writes is one frame (the model's data write; Adafruit's wake-up preamble is not a
    frame and is ignored, as the chip ignores it once awake).  What the chip sends — the ACK, then
    the reply frame — arrives in the input buffer as soon as the chip has it (status ready), byte
    for byte as on a serial line; ``read`` returns what is there, like a port with a short timeout.
    """

    def __init__(self, chip):
        super().__init__(chip)
        self.inbox = bytearray()

    def _pull(self):
        if self._transaction(0x02, read=1)[0] != 0x01:
            return
        raw = self._transaction(0x03, read=262)
        if raw[3] == 0x00 and raw[4] == 0xFF:           # ACK: 00 00 FF 00 FF 00
            self.inbox += raw[:6]
        else:                                           # 00 00 FF LEN LCS TFI data DCS 00
            self.inbox += raw[:raw[3] + 7]

    @property
    def in_waiting(self):
        if not self.inbox:
            self._pull()
        return len(self.inbox)

    def read(self, count=1):
        if len(self.inbox) < count:
            self._pull()
        out, self.inbox = bytes(self.inbox[:count]), self.inbox[count:]
        return out

    def write(self, data):
        self._transaction(0x01, bytes(data))
        return len(data)

    def reset_input_buffer(self):
        self.inbox.clear()
