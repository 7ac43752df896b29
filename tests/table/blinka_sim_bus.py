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


__all__ = ["SimChipSelect", "SimSPIBus", "ntag_uid", "blinka_station", "HandStation", "SimNTAG"]
