"""Test helper (not a test): Adafruit's real ``PN532_SPI`` talking to our :class:`SimPN532` over a
simulated ``busio.SPI`` and chip-select pin, plus a "hand" that lays cards on the reader one after
another, as a person at an enrolment station does.

The bus objects are the ones the Adafruit witness test (tests/firmware) proves the model against:
just enough of ``busio.SPI`` and ``digitalio.DigitalInOut`` for ``adafruit_bus_device``.
"""
from __future__ import annotations

from adafruit_pn532.spi import PN532_SPI

from shengji_table.sim.pn532_model import SimNTAG, SimPN532
from shengji_table.table.stations import BlinkaStation, Station


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


class SimSPIBus:
    """``busio.SPI`` (MSB first, mode 0) routing every byte to the simulated chip."""

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

    def configure(self, *, baudrate=100000, polarity=0, phase=0, bits=8):
        pass

    def _x(self, b):
        r = self.chip.exchange(b)
        return 0 if r is None else r

    def write(self, buf, *, start=0, end=None):
        for b in bytes(buf)[start:end]:
            self._x(b)

    def readinto(self, buf, *, start=0, end=None, write_value=0):
        for i in range(start, len(buf) if end is None else end):
            buf[i] = self._x(write_value)

    def write_readinto(self, out, into, *, out_start=0, out_end=None, in_start=0, in_end=None):
        for k, b in enumerate(bytes(out)[out_start:out_end]):
            into[in_start + k] = self._x(b)


class SimI2CBus:
    """``busio.I2C`` to the same simulated chip: what a PN532 in I2C mode (address 0x24) does on
    the wire, mapped onto the model's transactions.  An I2C write is a frame (the model's data
    write); every I2C read starts with the status byte (RDY = 0x01) and, when the chip is ready,
    goes on with the ACK or reply frame (the model's data read).  The model speaks LSB first as on
    SPI, so each byte is bit-reversed here, as the SPI driver does on its side."""

    ADDRESS = 0x24

    def __init__(self, chip):
        self.chip = chip
        self.locked = False
        self.wrong_address = 0

    def try_lock(self):
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        self.locked = False

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


def blinka_uart_station(name="enrol-uart"):
    """``(chip, station)`` with Adafruit's PN532_UART on a simulated serial port."""
    from adafruit_pn532.uart import PN532_UART
    chip = SimPN532(name)
    return chip, BlinkaStation(PN532_UART(SimUART(chip)))


def blinka_i2c_station(name="enrol-i2c"):
    """``(chip, station)`` with Adafruit's PN532_I2C on a simulated I2C bus."""
    from adafruit_pn532.i2c import PN532_I2C
    chip = SimPN532(name)
    return chip, BlinkaStation(PN532_I2C(SimI2CBus(chip)))


def ntag_uid(n: int) -> bytes:
    """A 7-byte NXP UID (manufacturer byte 0x04)."""
    return b"\x04" + n.to_bytes(6, "big")


def blinka_station(name="enrol"):
    """``(chip, station)``: a BlinkaStation whose driver is Adafruit's PN532_SPI on a simulated bus."""
    chip = SimPN532(name)
    return chip, BlinkaStation(PN532_SPI(SimSPIBus(chip), SimChipSelect(chip)))


class HandStation(Station):
    """Wraps a station on a simulated reader: whenever the reader has reported the card lying on it
    (or nothing lies there yet), the hand swaps in the next card of ``tags``; ``END`` after the last.

    ``actions`` may interleave the string ``"undo"`` (reported as UNDO) between tags.
    """

    def __init__(self, chip, station, actions):
        from shengji_table.table.stations import END, UNDO
        self._END, self._UNDO = END, UNDO
        self.chip, self.inner = chip, station
        self.name, self.can_write = station.name, station.can_write
        self.actions = list(actions)
        self.on_reader = None
        self.reported = True
        self.polls = 0

    def poll(self, timeout):
        self.polls += 1
        if self.reported:
            if not self.actions:
                return self._END
            item = self.actions.pop(0)
            if item == "undo":
                return self._UNDO
            if self.on_reader is not None:
                self.chip.lift(self.on_reader)
            self.chip.place(item)
            self.on_reader, self.reported = item, False
        tap = self.inner.poll(timeout)
        if tap is not None:
            self.reported = True
        return tap

    def write_code(self, uid, code):
        return self.inner.write_code(uid, code)


__all__ = ["SimChipSelect", "SimSPIBus", "SimI2CBus", "blinka_i2c_station", "SimUART", "blinka_uart_station", "ntag_uid", "blinka_station", "HandStation", "SimNTAG"]
