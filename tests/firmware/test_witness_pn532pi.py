"""A second independent client of the PN532 model: ``pn532pi`` (PyPI; a port of the Seeed/Elechouse
Arduino library, used on Raspberry Pis), beside Adafruit's (tests/sim/test_pn532_adafruit_witness.py).

pn532pi is stricter than Adafruit's driver: it accepts only the ``00 00 FF`` preamble, reads a
reply in two chip-select cycles (the header, then the rest, expecting the chip to go on where it
stopped and to send the next byte during the second read's prefix, as libnfc's SPI driver also
does), polls status every 1 ms and drops the byte clocked during a fresh read's prefix.  Each of
its ``spidev`` calls is one chip-select cycle; the ``spidev`` stand-in below hands those bytes to
the model as the Pi's SPI controller would.  The model is the strict one: replies take the chip's
time, and the first command after power-up is lost (pn532pi does not retry it; the caller does).
"""
import sys
import types

import pytest

from shengji_table.firmware_src import pn532_model

SimNTAG, SimPN532 = pn532_model.SimNTAG, pn532_model.SimPN532
UID = bytes.fromhex("04a1b2c3d4e5f6")
USER = b"SJ01S-A1" + bytes(8)


class SpiDev:
    """``spidev.SpiDev`` on the model: every call is one transfer with chip-select low."""

    chip = None

    def __init__(self):
        self.mode = 0
        self.cshigh = False
        self.max_speed_hz = 0
        self.opened = None

    def open(self, bus, device):
        self.opened = (bus, device)

    def close(self):
        self.opened = None

    def xfer2(self, data):
        chip = SpiDev.chip
        chip.select()
        out = [0 if (r := chip.exchange(b)) is None else r for b in data]
        chip.deselect()
        return out

    def writebytes(self, data):
        self.xfer2(list(data))

    def readbytes(self, n):
        return self.xfer2([0] * n)


@pytest.fixture
def pi(monkeypatch):
    """(chip, pn532pi's Pn532) over the stand-in ``spidev``."""
    shim = types.ModuleType("spidev")
    shim.SpiDev = SpiDev
    monkeypatch.setitem(sys.modules, "spidev", shim)
    for name in [m for m in sys.modules if m.startswith("pn532pi")]:
        monkeypatch.delitem(sys.modules, name)
    spi_mod = pytest.importorskip("pn532pi.interfaces.pn532spi")
    from pn532pi.nfc.pn532 import Pn532
    chip = SimPN532("pn532pi", lose_first=True)
    chip.log = []
    SpiDev.chip = chip
    nfc = Pn532(spi_mod.Pn532Spi(spi_mod.Pn532Spi.SS0_GPIO8))
    nfc.begin()
    return chip, nfc


def test_witness_pn532pi_firmware_version(pi):
    chip, nfc = pi
    assert nfc.getFirmwareVersion() == 0          # the first command after power-up: lost
    assert chip.lost == 1
    assert nfc.getFirmwareVersion() == 0x32010607  # IC 0x32, Ver 1, Rev 6, Support 7


def test_witness_pn532pi_sam_configuration(pi):
    chip, nfc = pi
    nfc.getFirmwareVersion()
    assert nfc.SAMConfig() is True and chip.sam_ok


def test_witness_pn532pi_passive_target_uid_and_ntag_page(pi):
    from pn532pi.nfc.pn532 import PN532_MIFARE_ISO14443A_106KBPS
    chip, nfc = pi
    nfc.getFirmwareVersion()
    assert nfc.SAMConfig()
    assert nfc.setPassiveActivationRetries(0x01)
    ok, uid = nfc.readPassiveTargetID(PN532_MIFARE_ISO14443A_106KBPS, timeout=200)
    assert not ok                                  # no card: NbTg 0
    chip.place(SimNTAG(UID, USER))
    ok, uid = nfc.readPassiveTargetID(PN532_MIFARE_ISO14443A_106KBPS, timeout=200)
    assert ok and bytes(uid) == UID
    ok, page = nfc.mifareultralight_ReadPage(4)
    assert ok and bytes(page[:4]) == USER[:4]
    ok, page = nfc.mifareultralight_ReadPage(5)
    assert ok and bytes(page[:4]) == USER[4:8]


def test_witness_pn532pi_needs_the_reply_continued_across_reads(pi):
    """The point of this witness: a chip that dropped the rest of its reply when chip-select rose
    (the old, kinder model) fails pn532pi's two-cycle read."""
    chip, nfc = pi
    nfc.getFirmwareVersion()
    real = chip.deselect

    def forgetful():
        real()
        if chip._src == pn532_model._SRC_REPLY and chip._reply_len:
            chip._reply_len = 0                    # the reply is gone once CS rises
    chip.deselect = forgetful
    assert nfc.getFirmwareVersion() == 0
