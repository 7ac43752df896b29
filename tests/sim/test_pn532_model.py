"""The PN532 device model on its own, driven byte by byte as a host on an MSB-first SPI bus would.

Checks the dialog of UM0701-02 §6.2: ACK after a frame with good checksums, silence after a bad one,
the error frame for bad content, host ACK = abort, host NACK = resend, a new command aborts the
running one; MaxRetries; the card field; NTAG memory; RST and the ``alive`` switch.
"""
import pytest

from shengji_table.firmware_src import pn532_model

REV, SimNTAG, SimPN532, SimTag = pn532_model.REV, pn532_model.SimNTAG, pn532_model.SimPN532, pn532_model.SimTag

ACK = bytes.fromhex("0000ff00ff00")
ERROR = bytes.fromhex("0000ff01ff7f8100")
UID = bytes.fromhex("04a1b2c3d4e5f6")


def frame(*body):
    """A host frame 00 00 FF LEN LCS D4 body… DCS 00."""
    data = bytes([0xD4, *body])
    return bytes([0, 0, 0xFF, len(data), (-len(data)) & 0xFF, *data, (-sum(data)) & 0xFF, 0])


def reply(*body):
    data = bytes([0xD5, *body])
    return bytes([0, 0, 0xFF, len(data), (-len(data)) & 0xFF, *data, (-sum(data)) & 0xFF, 0])


def txn(chip, prefix, data=b"", nread=0):
    """One CS-low transaction; returns the MISO bytes after the prefix (host order; None = not driven)."""
    chip.select()
    got = []
    for b in bytes([prefix]) + bytes(data) + bytes(nread):
        r = chip.exchange(REV[b])
        got.append(None if r is None else REV[r])
    chip.deselect()
    return got[1:]


def write(chip, data):
    txn(chip, 0x01, data)


def ready(chip):
    return txn(chip, 0x02, nread=1)[0] == 0x01


def read(chip, n):
    return bytes(txn(chip, 0x03, nread=n))


def command(chip, data, n_reply):
    """Write, take the ACK, return the reply bytes (n_reply of them)."""
    write(chip, data)
    assert ready(chip)
    assert read(chip, 6) == ACK
    assert ready(chip)
    return read(chip, n_reply)


@pytest.fixture
def chip():
    # The dialog byte by byte, answered at once (test_pn532_model_strict.py: the chip's own time,
    # the lost first command, the short preamble, a reply read across CS cycles)
    c = SimPN532(strict=False)
    c.log = []
    return c


@pytest.fixture
def configured(chip):
    command(chip, frame(0x14, 0x01, 0x14, 0x01), 9)
    command(chip, frame(0x32, 0x05, 0xFF, 0x01, 0x01), 9)
    return chip


def test_sim_pn532_get_firmware_version_dialog(chip):
    assert not ready(chip)  # nothing to say at power-up
    write(chip, frame(0x02))
    assert ready(chip)
    assert read(chip, 6) == ACK
    assert ready(chip)
    assert read(chip, 13) == reply(0x03, 0x32, 0x01, 0x06, 0x07) == bytes.fromhex("0000ff06fad50332010607e800")
    assert not ready(chip)  # the reply was consumed
    assert read(chip, 4) == bytes(4)  # reading with nothing ready gives 00s


def test_sim_pn532_status_repeats_while_cs_held(chip):
    write(chip, frame(0x02))
    assert txn(chip, 0x02, bytes([0x02, 0x00, 0x02]), 0) == [0x01, 0x01, 0x01]  # Adafruit's way


def test_sim_pn532_bad_lcs_is_ignored(chip):
    bad = bytearray(frame(0x02))
    bad[4] ^= 0x01
    write(chip, bad)
    assert not ready(chip) and chip.bad_frames == 1 and chip.frames == 0


def test_sim_pn532_bad_dcs_is_ignored(chip):
    bad = bytearray(frame(0x02))
    bad[-2] ^= 0x80
    write(chip, bad)
    assert not ready(chip) and chip.bad_frames == 1


def test_sim_pn532_truncated_frame_is_ignored(chip):
    write(chip, frame(0x14, 0x01, 0x14, 0x01)[:-3])
    assert not ready(chip) and chip.bad_frames == 1


def test_sim_pn532_wrong_tfi_gets_ack_then_error_frame(chip):
    data = bytes([0xD5, 0x02])
    bad_tfi = bytes([0, 0, 0xFF, 2, 0xFE, *data, (-sum(data)) & 0xFF, 0])
    write(chip, bad_tfi)
    assert read(chip, 6) == ACK
    assert read(chip, 8) == ERROR
    assert chip.error_frames == 1


def test_sim_pn532_bad_sam_mode_gets_error_frame(chip):
    assert command(chip, frame(0x14, 0x00), 8) == ERROR
    assert not chip.sam_ok


def test_sim_pn532_rf_commands_refused_before_sam(chip):
    assert command(chip, frame(0x4A, 0x01, 0x00), 8) == ERROR
    command(chip, frame(0x14, 0x01), 9)
    command(chip, frame(0x32, 0x05, 0xFF, 0x01, 0x01), 9)
    assert command(chip, frame(0x4A, 0x01, 0x00), 10) == reply(0x4B, 0x00)


def test_sim_pn532_max_retries_empty_poll_answers_nbtg_0(configured):
    assert command(configured, frame(0x4A, 0x01, 0x00), 10) == bytes.fromhex("0000ff03fdd54b00e000")


def test_sim_pn532_retry_forever_waits_for_a_card(chip):
    command(chip, frame(0x14, 0x01), 9)
    write(chip, frame(0x4A, 0x01, 0x00))
    assert read(chip, 6) == ACK
    for _ in range(5):
        assert not ready(chip)  # no card: still trying
    chip.place(SimNTAG(UID))
    assert ready(chip)
    got = read(chip, 22)
    assert got == reply(0x4B, 0x01, 0x01, 0x00, 0x44, 0x00, 0x07, *UID)


def test_sim_pn532_host_ack_aborts_running_command(chip):
    command(chip, frame(0x14, 0x01), 9)
    write(chip, frame(0x4A, 0x01, 0x00))
    assert read(chip, 6) == ACK
    write(chip, ACK)
    chip.place(SimNTAG(UID))
    assert not ready(chip) and chip.aborts == 1


def test_sim_pn532_new_command_aborts_running_one(chip):
    command(chip, frame(0x14, 0x01), 9)
    write(chip, frame(0x4A, 0x01, 0x00))
    assert read(chip, 6) == ACK
    assert command(chip, frame(0x02), 13) == reply(0x03, 0x32, 0x01, 0x06, 0x07)
    chip.place(SimNTAG(UID))
    assert not ready(chip)


def test_sim_pn532_nack_resends_last_reply(chip):
    first = command(chip, frame(0x02), 13)
    write(chip, bytes.fromhex("0000ffff0000"))
    assert ready(chip)
    assert read(chip, 13) == first


def test_sim_pn532_in_list_two_targets(configured):
    a, b = SimNTAG(UID), SimTag(bytes.fromhex("deadbeef"))
    configured.place(a)
    configured.place(b)
    # anticollision by UID bits: DE (1101 1110) against the 7-byte UID's CT 88 (1000 1000) differ
    # first at bit 1, DE's is 1: the 4-byte card is target 1, though laid second
    expected = reply(0x4B, 0x02, 0x01, 0x00, 0x04, 0x08, 0x04, *bytes.fromhex("deadbeef"),
                     0x02, 0x00, 0x44, 0x00, 0x07, *UID)
    got = command(configured, frame(0x4A, 0x02, 0x00), len(expected) + 4)
    assert got == expected + bytes(4)  # then 00s past the end of the frame


def test_sim_pn532_in_data_exchange_errors(configured):
    # No target selected: 0x27 (not acceptable in the current context, UM0701-02 §7.1).
    assert command(configured, frame(0x40, 0x01, 0x30, 0x04), 10) == reply(0x41, 0x27)
    tag = SimNTAG(UID)
    configured.place(tag)
    command(configured, frame(0x4A, 0x01, 0x00), 22)
    configured.lift(tag)
    assert command(configured, frame(0x40, 0x01, 0x30, 0x04), 10) == reply(0x41, 0x01)  # tag gone: timeout


def test_sim_pn532_in_release_unknown_target(configured):
    assert command(configured, frame(0x52, 0x01), 10) == reply(0x53, 0x27)
    assert command(configured, frame(0x52, 0x00), 10) == reply(0x53, 0x00)  # "all": nothing to release


def test_sim_pn532_rst_and_alive(configured):
    configured.set_rst(0)
    assert txn(configured, 0x02, nread=1) == [None]  # held in reset: MISO not driven
    configured.set_rst(1)
    assert not configured.sam_ok and configured.max_retries == 0xFF  # power-up state
    configured.alive = False
    write(configured, frame(0x02))
    assert txn(configured, 0x02, nread=1) == [None] and configured.frames == 2


def test_sim_pn532_field_off_unpowers_tags(configured):
    tag = SimNTAG(UID)
    configured.place(tag)
    command(configured, frame(0x4A, 0x01, 0x00), 22)
    assert configured.rf_on and tag.state == 1
    command(configured, frame(0x32, 0x01, 0x00), 9)
    assert not configured.rf_on and tag.state == 0
    assert command(configured, frame(0x32, 0x01), 8) == ERROR  # item 0x01 needs one data byte


def test_sim_ntag_memory_layout_and_commands():
    sig = bytes(range(32))
    for kind, pages, size, ver in ((213, 45, 0x12, 0x0F), (215, 135, 0x3E, 0x11), (216, 231, 0x6D, 0x13)):
        tag = SimNTAG(UID, b"abcd", kind=kind, signature=sig)
        assert tag.total_pages == pages and len(tag.user_memory()) == {213: 144, 215: 504, 216: 888}[kind]
        n = tag.command(bytes([0x30, 0x03]), 0, 2)
        assert bytes(tag.resp[:n]) == bytes([0xE1, 0x10, size, 0x00]) + b"abcd" + bytes(8)
        # READ of the last page rolls over to page 0; PWD and PACK (last two pages) read as 00.
        n = tag.command(bytes([0x30, pages - 1]), 0, 2)
        assert bytes(tag.resp[:16]) == bytes(4) + UID[:3] + bytes([0x88 ^ UID[0] ^ UID[1] ^ UID[2]]) + UID[3:] \
            + bytes([UID[3] ^ UID[4] ^ UID[5] ^ UID[6], 0x48, 0, 0])
        assert tag.command(bytes([0x30, pages]), 0, 2) == -1  # past the end: NAK
        n = tag.command(bytes([0x3C, 0x00]), 0, 2)
        assert bytes(tag.resp[:n]) == sig
        n = tag.command(bytes([0x60]), 0, 1)
        assert bytes(tag.resp[:n]) == bytes([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, ver, 0x03])
    assert SimNTAG(UID).command(bytes([0xA2, 0x01, 1, 2, 3, 4]), 0, 6) == -1  # UID pages are read-only


def test_sim_ntag_rejects_bad_construction():
    with pytest.raises(ValueError):
        SimNTAG(UID[:4])
    with pytest.raises(ValueError):
        SimNTAG(UID, bytes(145), kind=213)
    with pytest.raises(ValueError):
        SimNTAG(UID, kind=214)
    with pytest.raises(ValueError):
        SimTag(bytes(5))
    chip = SimPN532()
    tag = SimNTAG(UID)
    chip.place(tag)
    with pytest.raises(ValueError):
        chip.place(tag)
