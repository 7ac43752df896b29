"""Two cards on one reader: the chip model selects by UID bits, as a real PN532's anticollision
does, not by the order the cards were laid — checked through both independent drivers, Adafruit's
``adafruit_pn532`` and ``pn532pi``, asking for one target (the card named is the same whichever
was laid first) and for two (both come back, NbTg 2, in the same order both ways)."""
import sys
import types

import pytest
from hypothesis import given, settings, strategies as st

from shengji_table.firmware_src import pn532_model
from shengji_table.sim.blinka_bus import SimChipSelect, SimSPIBus

from ..firmware.test_witness_pn532pi import SpiDev

SimNTAG, SimPN532, SimTag = pn532_model.SimNTAG, pn532_model.SimPN532, pn532_model.SimTag

# pairs of UIDs and which one anticollision picks: at the first differing bit, least significant
# bit of each byte first, the 1 wins
PAIRS = [
    (bytes.fromhex("04a1b2c3d4e5f6"), bytes.fromhex("04a0b2c3d4e5f6"), 0),   # byte 1 bit 0
    (bytes.fromhex("04a0b2c3d4e5f6"), bytes.fromhex("04a1b2c3d4e5f6"), 1),
    (bytes.fromhex("0411223344556a"), bytes.fromhex("04112233445566"), 1),   # last byte: 0x6a vs 0x66, bit 2
    (bytes.fromhex("04112233445566"), bytes.fromhex("04112233445564"), 0),   # bit 1
    (bytes.fromhex("de00beef"), bytes.fromhex("04a1b2c3d4e5f6"), 0),         # 4 bytes against CT 0x88
]


def reference_first(a: bytes, b: bytes) -> bytes:
    """The witness's own statement of the rule, over bit strings: cascade the UIDs, list their
    bits in air order, the 1 wins at the first difference."""
    def cascade(u):
        if len(u) == 4:
            return u
        if len(u) == 7:
            return b"\x88" + u
        return b"\x88" + u[:3] + b"\x88" + u[3:]

    def bits(u):
        return [(byte >> k) & 1 for byte in cascade(u) for k in range(8)]
    for x, y in zip(bits(a), bits(b)):
        if x != y:
            return a if x else b
    return a


def _chip():
    chip = SimPN532("witness", lose_first=True)
    chip.log = []
    return chip


@pytest.fixture
def adafruit():
    pytest.importorskip("adafruit_pn532.spi")
    from adafruit_pn532.spi import PN532_SPI
    chip = _chip()
    driver = PN532_SPI(SimSPIBus(chip), SimChipSelect(chip))
    driver.SAM_configuration()
    return chip, driver


@pytest.fixture
def pi(monkeypatch):
    shim = types.ModuleType("spidev")
    shim.SpiDev = SpiDev
    monkeypatch.setitem(sys.modules, "spidev", shim)
    for name in [m for m in sys.modules if m.startswith("pn532pi")]:
        monkeypatch.delitem(sys.modules, name)
    spi_mod = pytest.importorskip("pn532pi.interfaces.pn532spi")
    from pn532pi.nfc.pn532 import Pn532
    chip = _chip()
    SpiDev.chip = chip
    nfc = Pn532(spi_mod.Pn532Spi(spi_mod.Pn532Spi.SS0_GPIO8))
    nfc.begin()
    nfc.getFirmwareVersion()                  # the first command after power-up: lost
    assert nfc.SAMConfig() and nfc.setPassiveActivationRetries(0x01)
    return chip, nfc


def _lay(chip, first, second):
    chip.lift()
    chip.place(SimNTAG(first) if len(first) == 7 else SimTag(first))
    chip.place(SimNTAG(second) if len(second) == 7 else SimTag(second))


def _two_targets(reply: bytes) -> list:
    """NbTg, then per target Tg SENS_RES(2) SEL_RES NFCIDLength NFCID: the UIDs, in order."""
    assert reply[0] == 2
    uids, k = [], 1
    for tg in (1, 2):
        assert reply[k] == tg
        n = reply[k + 4]
        uids.append(bytes(reply[k + 5:k + 5 + n]))
        k += 5 + n
    return uids


@pytest.mark.parametrize("a, b, first", PAIRS)
def test_anticollision_adafruit_names_the_uid_order_winner_whichever_card_was_laid_first(adafruit, a, b, first):
    chip, pn = adafruit
    winner = (a, b)[first]
    assert reference_first(a, b) == winner
    for order in ((a, b), (b, a)):
        _lay(chip, *order)
        assert bytes(pn.read_passive_target(timeout=0.5)) == winner
        pn.call_function(0x52, params=[0x00], response_length=1)     # InRelease: the card selected is halted
        reply = pn.call_function(0x4A, params=[0x02, 0x00], response_length=64, timeout=0.5)
        assert _two_targets(bytes(reply)) == [winner, (a, b)[1 - first]]


@pytest.mark.parametrize("a, b, first", PAIRS)
def test_anticollision_pn532pi_names_the_uid_order_winner_whichever_card_was_laid_first(pi, a, b, first):
    from pn532pi.nfc.pn532 import PN532_MIFARE_ISO14443A_106KBPS
    chip, nfc = pi
    winner = (a, b)[first]
    for order in ((a, b), (b, a)):
        _lay(chip, *order)
        ok, uid = nfc.readPassiveTargetID(PN532_MIFARE_ISO14443A_106KBPS, timeout=200)
        assert ok and bytes(uid) == winner
        assert nfc.inRelease(0)
        assert nfc._interface.writeCommand(bytearray([0x4A, 0x02, 0x00])) == 0
        status, reply = nfc._interface.readResponse()
        assert status > 0
        assert _two_targets(bytes(reply)) == [winner, (a, b)[1 - first]]


uids7 = st.binary(min_size=6, max_size=6).map(lambda b: b"\x04" + b)


@settings(max_examples=200, deadline=None)
@given(uids7, uids7)
def test_anticollision_model_follows_the_uids_for_any_two_cards(a, b):
    """Property: the model's pick is the reference rule's and does not depend on the order laid."""
    if a == b:
        return
    assert pn532_model._wins(a, b) == (reference_first(a, b) == a)
    assert pn532_model._wins(a, b) != pn532_model._wins(b, a)
