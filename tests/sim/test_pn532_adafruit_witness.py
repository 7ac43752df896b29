"""The independent check of the PN532 model: Adafruit's ``adafruit_pn532.spi.PN532_SPI`` (a driver we did
not write, used with real boards) talks to our SimPN532 over a busio-like SPI object.

It must read the firmware version, detect a simulated NTAG's UID and read its pages; it also wakes
the chip its own way (a 0x00 byte, then SAMConfiguration), polls status while holding CS low, reads
more bytes than the frame holds, and leaves the power-up MaxRetries (retry forever) in place —
all behaviours the model has to get right for this to pass.  The model is the strict one (replies
take the chip's time; the first command after power-up is lost): the wake-up's SAMConfiguration is
that first command, so the driver is then used as Adafruit's examples use it, SAM_configuration()
called after construction.
"""
import pytest

pytest.importorskip("adafruit_pn532.spi")
from adafruit_pn532.spi import PN532_SPI  # noqa: E402

from shengji_table.sim.blinka_bus import SimChipSelect, SimSPIBus  # noqa: E402
from shengji_table.firmware_src import pn532_model  # noqa: E402
SimNTAG, SimPN532 = pn532_model.SimNTAG, pn532_model.SimPN532

UID = bytes.fromhex("04a1b2c3d4e5f6")
USER = b"SJ1:HA:0001\x00\x00\x00\x00\x00" + b"second row data!"


@pytest.fixture
def chip_and_driver():
    chip = SimPN532("witness", lose_first=True)
    chip.log = []
    bus = SimSPIBus(chip)
    driver = PN532_SPI(bus, SimChipSelect(chip))  # its __init__ wakes the chip, SAM, firmware version
    assert chip.lost == 1 and not chip.sam_ok     # the wake-up's SAMConfiguration: lost
    driver.SAM_configuration()                    # as in Adafruit's examples
    assert bus.configured[1:3] == (0, 0)  # mode 0
    return chip, driver


def test_sim_adafruit_reads_firmware_version(chip_and_driver):
    chip, pn = chip_and_driver
    assert pn.firmware_version == (0x32, 0x01, 0x06, 0x07)
    assert chip.sam_ok  # Adafruit configured SAM through our model


def test_sim_adafruit_sends_the_frames_we_expect(chip_and_driver):
    chip, pn = chip_and_driver
    frames = [f.hex() for f in chip.log]
    # Adafruit's wake-up byte (0x00 after the prefix slot) is not a frame; SAM and GetFirmwareVersion are.
    assert "0000ff05fbd4140114010200" in frames
    assert "0000ff02fed4022a00" in frames
    assert chip.bad_frames == 0


def test_sim_adafruit_no_card_times_out(chip_and_driver):
    chip, pn = chip_and_driver
    # MaxRetries is still the power-up 0xFF: the chip keeps trying and Adafruit's own timeout ends it.
    assert pn.read_passive_target(timeout=0.05) is None
    assert chip.max_retries == 0xFF


def test_sim_adafruit_detects_ntag_uid_and_reads_pages(chip_and_driver):
    chip, pn = chip_and_driver
    chip.place(SimNTAG(UID, USER, kind=213))
    uid = pn.read_passive_target(timeout=0.5)
    assert bytes(uid) == UID
    pages = b"".join(bytes(pn.ntag2xx_read_block(p)) for p in range(4, 12))
    assert pages == USER
    cc = pn.ntag2xx_read_block(3)
    assert bytes(cc) == b"\xe1\x10\x12\x00"  # NTAG213 capability container


def test_sim_adafruit_card_lifted_and_replaced(chip_and_driver):
    chip, pn = chip_and_driver
    tag = SimNTAG(UID)
    chip.place(tag)
    assert bytes(pn.read_passive_target(timeout=0.5)) == UID
    chip.lift(tag)
    assert pn.read_passive_target(timeout=0.05) is None
    other = SimNTAG(bytes.fromhex("04112233445566"))
    chip.place(other)
    assert bytes(pn.read_passive_target(timeout=0.5)) == other.uid


def test_sim_adafruit_writes_ntag_page(chip_and_driver):
    chip, pn = chip_and_driver
    tag = SimNTAG(UID, kind=216)
    chip.place(tag)
    assert pn.read_passive_target(timeout=0.5)
    assert pn.ntag2xx_write_block(4, b"SJ1:") is True
    assert tag.user_memory()[:4] == b"SJ1:"
    assert bytes(pn.ntag2xx_read_block(4)) == b"SJ1:"


class SimResetPin:
    """``digitalio.DigitalInOut`` on RSTPDN: Adafruit's ``reset()`` pulses it low for 100 ms."""

    def __init__(self, chip):
        self.chip = chip
        self.direction = None
        self.levels = []

    @property
    def value(self):
        return not self.chip.rst_low

    @value.setter
    def value(self, v):
        self.levels.append(bool(v))
        self.chip.set_rst(1 if v else 0)


def test_sim_adafruit_reset_pin_restarts_the_chip():
    chip = SimPN532("witness", lose_first=True)
    rst = SimResetPin(chip)
    pn = PN532_SPI(SimSPIBus(chip), SimChipSelect(chip), reset=rst)
    assert rst.levels[:2] == [False, True] and rst.levels.count(False) == 1  # pulsed once at construction
    pn.SAM_configuration()
    chip.place(SimNTAG(UID))
    assert bytes(pn.read_passive_target(timeout=0.5)) == UID
    pn.reset()  # back to power-up: SAM lost; Adafruit's _wakeup sends it, the first command: lost
    assert rst.levels.count(False) == 2 and rst.levels[-1] is True
    assert not chip.sam_ok and chip.lost == 2
    pn.SAM_configuration()
    assert chip.sam_ok and chip.max_retries == 0xFF
    assert bytes(pn.read_passive_target(timeout=0.5)) == UID
