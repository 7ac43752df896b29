"""Test helper (not a test): Adafruit's real ``PN532_SPI`` talking to our :class:`SimPN532` over a
simulated ``busio.SPI`` and chip-select pin, plus a "hand" that lays cards on the reader one after
another, as a person at an enrolment station does.

The bus objects live in :mod:`shengji_table.sim.blinka_bus`; the Adafruit witness test
(tests/firmware) proves the model against the same ones.
"""
from __future__ import annotations

from adafruit_pn532.spi import PN532_SPI

from shengji_table.sim.blinka_bus import SimChipSelect, SimI2CBus, SimSPIBus, SimUART  # noqa: F401
from shengji_table.firmware_src import pn532_model
from shengji_table.table.stations import BlinkaStation, Station

SimNTAG, SimPN532 = pn532_model.SimNTAG, pn532_model.SimPN532


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


__all__ = ["SimChipSelect", "SimSPIBus", "SimI2CBus", "blinka_i2c_station", "SimUART", "blinka_uart_station",
           "ntag_uid", "blinka_station", "HandStation", "SimNTAG"]
