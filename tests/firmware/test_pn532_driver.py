"""firmware/pn532.py against the simulated PN532 (firmware/pn532_model.py) through the fake machine.SPI.

Frames are checked byte for byte against the frames listed in docs/hardware-notes.md (computed
from UM0701-02 §6.2.1 and matching public captures); the wire bytes are checked to be the
bit-reversed frames, as rp2's MSB-first SPI must send them to an LSB-first chip.
"""
import sys

import pytest

from shengji_table.sim.hw import machine, world
from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.firmware_src import pn532_model
SimNTAG, SimTag = pn532_model.SimNTAG, pn532_model.SimTag

if str(FIRMWARE_DIR) not in sys.path:
    sys.path.append(str(FIRMWARE_DIR))
import pn532  # noqa: E402  (firmware/pn532.py)

# From docs/hardware-notes.md ("PN532 frames").
FRAME_GET_FIRMWARE_VERSION = "0000ff02fed4022a00"
FRAME_IN_LIST_PASSIVE_TARGET = "0000ff04fcd44a0200e000"
FRAME_SAM_CONFIGURATION = "0000ff05fbd4140114010200"
FRAME_MAX_RETRIES = "0000ff06fad43205ff0101f400"
FRAME_IN_RELEASE = "0000ff03fdd45200da00"
FRAME_READ_PAGE_4 = "0000ff05fbd440013004b700"

UID7 = bytes.fromhex("04a1b2c3d4e5f6")
UID4 = bytes.fromhex("deadbeef")
CODE = b"SJ1:HA:0001\x00\x00\x00\x00\x00"  # a card code as enrolment writes it (16 bytes, pages 4..7)


class WireTap:
    """Wraps a SimPN532's exchange() to record the raw MOSI/MISO bytes of each transaction."""

    def __init__(self, chip):
        self.chip = chip
        self.mosi = []
        inner = chip.exchange

        def exchange(wire):
            self.mosi.append(wire)
            return inner(wire)

        chip.exchange = exchange


@pytest.fixture
def chip():
    world.reset()
    c = world.add_reader(17, rst=20, name="seat0")
    c.log = []
    yield c
    world.reset()


def make_driver(**kw):
    spi = machine.SPI(0, baudrate=1_000_000, polarity=0, phase=0)
    return pn532.PN532(spi, machine.Pin(17, machine.Pin.OUT, value=1), machine.Pin(20, machine.Pin.OUT, value=1),
                       **kw)


@pytest.fixture
def pn(chip):
    d = make_driver()
    d.begin()
    chip.log.clear()
    return d


def test_pn532_rev_table_is_bit_reversal():
    for i in range(256):
        assert pn532.REV[i] == int(f"{i:08b}"[::-1], 2)
    assert len(pn532.REV) == 256 and isinstance(pn532.REV, bytes)


def test_pn532_begin_frames_byte_exact(chip):
    d = make_driver()
    assert d.begin() == 0x32010607  # IC 0x32 (PN532), Ver 1, Rev 6, Support 7
    # The first GetFirmwareVersion after power-up is lost (the model, as chips do): begin() sends it again.
    assert [f.hex() for f in chip.log] == [FRAME_GET_FIRMWARE_VERSION, FRAME_GET_FIRMWARE_VERSION,
                                           FRAME_SAM_CONFIGURATION, FRAME_MAX_RETRIES]
    assert chip.lost == 1 and chip.sam_ok and chip.max_retries == 1


def test_pn532_begin_retries_only_once(chip):
    chip.alive = False                     # no chip: two tries, then the error
    d = make_driver()
    with pytest.raises(pn532.PN532Timeout):
        d.begin()


def test_pn532_wire_bytes_are_bit_reversed(chip):
    chip.lose_first_command = False
    tap = WireTap(chip)
    d = make_driver()
    d.firmware_version()
    # First transaction: data-write prefix 0x01 then the frame, each byte mirrored (LSB first on the wire).
    frame = bytes.fromhex("01" + FRAME_GET_FIRMWARE_VERSION)
    assert bytes(tap.mosi[:len(frame)]) == bytes(pn532.REV[b] for b in frame)
    assert tap.mosi[0] == 0x80  # 0x01 reversed
    assert pn532.REV[0x02] in tap.mosi and pn532.REV[0x03] in tap.mosi  # status and data-read prefixes


def test_pn532_poll_frames_byte_exact(pn, chip):
    uid = bytearray(pn532.UID_MAX)
    page = bytearray(16)
    chip.place(SimNTAG(UID7, CODE))
    assert pn.list_passive_target(uid) == 7
    pn.read_pages(4, page)
    pn.release()
    assert [f.hex() for f in chip.log] == [FRAME_IN_LIST_PASSIVE_TARGET, FRAME_READ_PAGE_4, FRAME_IN_RELEASE]


def test_pn532_no_card_returns_zero_without_timeout(pn, chip):
    uid = bytearray(pn532.UID_MAX)
    assert pn.list_passive_target(uid) == 0
    assert chip.aborts == 0  # answered NbTg = 0 (MaxRetries), not aborted after a timeout


def test_pn532_without_max_retries_empty_poll_times_out_and_aborts(chip):
    chip.lose_first_command = False
    d = make_driver(reply_timeout_ms=20)
    d.firmware_version()
    d.sam_configuration()  # MaxRetries left at the power-up 0xFF: the chip retries forever
    with pytest.raises(pn532.PN532Timeout):
        d.list_passive_target(bytearray(10))
    assert chip.aborts == 1  # the driver sent ACK to stop the endless command (UM0701-02 §6.2.2)
    assert d.firmware_version() == 0x32010607  # and the chip is usable again


def test_pn532_card_placed_and_lifted_7_byte_uid(pn, chip):
    uid = bytearray(pn532.UID_MAX)
    tag = SimNTAG(UID7, CODE)
    chip.place(tag)
    assert pn.list_passive_target(uid) == 7
    assert bytes(uid[:7]) == UID7
    assert pn.sens_res == 0x0044 and pn.sel_res == 0x00  # NTAG21x ATQA / SAK
    pn.release()
    chip.lift(tag)
    assert pn.list_passive_target(uid) == 0


def test_pn532_4_byte_uid(pn, chip):
    uid = bytearray(pn532.UID_MAX)
    chip.place(SimTag(UID4))
    assert pn.list_passive_target(uid) == 4
    assert bytes(uid[:4]) == UID4
    assert pn.sel_res == 0x08
    with pytest.raises(pn532.PN532CommandError):  # a MIFARE Classic refuses an unauthenticated READ
        pn.read_pages(4, bytearray(16))


def test_pn532_ntag_page_read(pn, chip):
    tag = SimNTAG(UID7, CODE + b"more user data", kind=215)
    chip.place(tag)
    uid = bytearray(10)
    page = bytearray(16)
    assert pn.list_passive_target(uid) == 7
    pn.read_pages(4, page)
    assert bytes(page) == CODE
    pn.read_pages(8, page)
    assert bytes(page[:14]) == b"more user data"
    pn.read_pages(0, page)
    bcc0 = 0x88 ^ UID7[0] ^ UID7[1] ^ UID7[2]
    assert bytes(page[:8]) == UID7[:3] + bytes([bcc0]) + UID7[3:]
    assert bytes(page[12:16]) == bytes([0xE1, 0x10, 0x3E, 0x00])  # NTAG215 capability container
    with pytest.raises(pn532.PN532CommandError) as e:  # past the last page (NTAG215: 135 pages)
        pn.read_pages(135, page)
    assert e.value.code == 0x14


def test_pn532_ntag_write_then_read(pn, chip):
    tag = SimNTAG(UID7)
    chip.place(tag)
    uid = bytearray(10)
    page = bytearray(16)
    assert pn.list_passive_target(uid) == 7
    pn.write_page(4, b"SJ1:")
    pn.read_pages(4, page)
    assert bytes(page[:4]) == b"SJ1:"
    assert tag.user_memory()[:4] == b"SJ1:"


def test_pn532_in_release_halts_tag_and_next_poll_finds_it(pn, chip):
    tag = SimNTAG(UID7)
    chip.place(tag)
    uid = bytearray(10)
    pn.set_max_retries(0)  # one activation attempt per poll: the quirk shows without InRelease
    found = [pn.list_passive_target(uid) for _ in range(4)]
    assert found == [7, 0, 7, 0]  # re-polling an un-released (ACTIVE) tag misses it every second time
    released = []
    for _ in range(4):
        released.append(pn.list_passive_target(uid))
        pn.release()
    assert released == [7, 7, 7, 7]


def test_pn532_rf_field_off(pn, chip):
    chip.place(SimNTAG(UID7))
    assert pn.list_passive_target(bytearray(10)) == 7
    assert chip.rf_on
    pn.rf_field(False)
    assert not chip.rf_on and world.fields_on() == []


def test_pn532_dead_reader_times_out(chip):
    chip.alive = False
    d = make_driver(ack_timeout_ms=5)
    with pytest.raises(pn532.PN532Timeout):
        d.begin()


def test_pn532_reader_held_in_reset_times_out(chip):
    d = make_driver(ack_timeout_ms=5)
    d.rst.value(0)
    with pytest.raises(pn532.PN532Timeout):
        d.firmware_version()


def test_pn532_reset_pulse_returns_chip_to_power_up(pn, chip):
    assert chip.sam_ok
    assert pn.reset() is True
    assert not chip.sam_ok and chip.max_retries == 0xFF
    with pytest.raises(pn532.PN532Timeout):  # the first command after power-up: lost
        pn.list_passive_target(bytearray(10))
    with pytest.raises(pn532.PN532CommandError):  # RF before SAMConfiguration: the chip refuses
        pn.list_passive_target(bytearray(10))
    assert pn.begin() == 0x32010607
    assert pn.list_passive_target(bytearray(10)) == 0


def test_pn532_ack_loss_raises_no_ack(pn, chip):
    chip.drop_acks = 1
    with pytest.raises(pn532.PN532NoAck):
        pn.list_passive_target(bytearray(10))
    assert pn.list_passive_target(bytearray(10)) == 0  # the next exchange is clean


def test_pn532_gap_before_status_poll_keeps_ack(chip):
    chip.ack_gap_us = 500  # a board that loses the ACK when polled sooner than 0.5 ms
    d = make_driver()  # default: ~1 ms before the status poll
    assert d.begin() == 0x32010607
    assert chip.last_ack_gap_us >= 500
    # a driver that polls at once loses it: the board is made slower still, so that a loaded machine
    # (which can stretch "at once" past 0.5 ms) cannot hide the fault
    chip.ack_gap_us = 50_000
    hasty = make_driver(ack_gap_ms=0)
    with pytest.raises(pn532.PN532NoAck):
        hasty.firmware_version()


def test_pn532_bad_reply_checksum_raises_bad_frame(pn, chip):
    chip.corrupt_replies = 1
    with pytest.raises(pn532.PN532BadFrame):
        pn.firmware_version()
    assert pn.firmware_version() == 0x32010607


def test_pn532_busy_chip_is_polled_until_ready(pn, chip):
    chip.reply_delay_polls = 5
    assert pn.firmware_version() == 0x32010607


def test_pn532_uid_buffer_too_small_is_bad_frame(pn, chip):
    chip.place(SimNTAG(UID7))
    with pytest.raises(pn532.PN532BadFrame):
        pn.list_passive_target(bytearray(4))


def test_pn532_error_classes():
    for cls in (pn532.PN532Timeout, pn532.PN532NoAck, pn532.PN532BadFrame, pn532.PN532CommandError):
        assert issubclass(cls, pn532.PN532Error)
    assert pn532.PN532CommandError(0x27).code == 0x27


def test_pn532_command_garbled_on_the_wire_gets_no_ack(pn, chip):
    """A frame whose checksum fails on arrival is ignored by the chip (no ACK): the driver times out
    on the ACK instead of waiting forever, and the next command goes through."""
    chip.corrupt_commands = 1
    with pytest.raises(pn532.PN532Timeout):
        pn.list_passive_target(bytearray(10))
    assert chip.bad_frames == 1
    assert pn.list_passive_target(bytearray(10)) == 0
