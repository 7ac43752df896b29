"""Enrolment through a Blinka station: Adafruit's real ``adafruit_pn532`` driver over a simulated
SPI bus to our PN532 model, with NTAG cards laid on the reader one by one.

This is the whole path a club's laptop + FT232H + PN532 takes, minus the USB chip: the driver's
frames, the model's tag state machine, the NTAG WRITE and READ commands, the enrolment session and
the command's tap loop.
"""
import sys
from pathlib import Path

import pytest

pytest.importorskip("adafruit_pn532.spi")
sys.path.insert(0, str(Path(__file__).parent))
from blinka_sim_bus import HandStation, SimNTAG, blinka_station, ntag_uid  # noqa: E402

from shengji_table.cli import enroll as enroll_cli  # noqa: E402
from shengji_table.rules.cards import parse_copy  # noqa: E402
from shengji_table.firmware_src import pn532_model  # noqa: E402
from shengji_table.table.card_code import decode_card_code, encode_card_code  # noqa: E402
from shengji_table.table.enrollment_session import Accepted, EnrollmentSession, Refused  # noqa: E402
from shengji_table.table.registry import DeckCheck, DeckSet, standard_order, uid_hex  # noqa: E402
from shengji_table.table.stations import StationTap  # noqa: E402

SimTag = pn532_model.SimTag

SET_ID = 0x5EED0002


def poll_until_tap(station, limit=20):
    for _ in range(limit):
        item = station.poll(0.02)
        if item is not None:
            return item
    raise AssertionError("the station reported no tap")


def test_enroll_full_two_deck_set_writes_and_reads_back_every_code(tmp_path, capsys):
    """108 NTAGs enrolled in the stated order with --write-codes: each tag ends up holding the code
    of its card (decoded from the tag's own memory), the deck-set file maps every UID to that card,
    and a deck check read through the same driver finds the set complete."""
    chip, station = blinka_station()
    tags = [SimNTAG(ntag_uid(n), kind=213) for n in range(108)]
    path = tmp_path / "club.json"
    session = EnrollmentSession(path, "club", 2, deck_set_id=SET_ID, write_codes=True, station=station)
    rc = enroll_cli._enrol(session, HandStation(chip, station, tags))
    assert rc == 0
    out = capsys.readouterr().out
    assert "108/108 BJ#2" in out and "(code written, read back)" in out
    ds = DeckSet.load(path)
    assert ds.complete and ds.id == SET_ID
    order = standard_order(2)
    for tag, copy in zip(tags, order):
        assert ds.cards[tag.uid.hex()] == copy
        assert decode_card_code(tag.user_memory()[:16]) == (SET_ID, copy)
    assert not session.partial.exists()
    # The same cards checked through the driver: codes read back at every tap agree with the file.
    chip.lift()
    assert [station.poll(0.01) for _ in range(2)] == [None, None]
    check = DeckCheck(ds)
    hand = HandStation(chip, station, list(reversed(tags)))
    while (tap := hand.poll(0.02)) is not hand._END:
        assert hand.polls < 1000
        if tap is not None:
            assert tap.card_code() == (SET_ID, ds.cards[tap.uid])
            check.tap(tap.uid, tap.card_code())
    assert check.report().ok


def test_enroll_blinka_card_resting_on_reader_is_one_tap_and_lifting_rearms_it():
    chip, station = blinka_station()
    tag = SimNTAG(ntag_uid(1))
    chip.place(tag)
    first = poll_until_tap(station)
    assert first == StationTap(uid_hex(ntag_uid(1)), bytes(16))     # blank NTAG: 16 zero bytes, no code
    assert first.card_code() is None
    assert [station.poll(0.02) for _ in range(3)] == [None, None, None]   # still resting: no repeat
    chip.lift(tag)
    assert [station.poll(0.01) for _ in range(2)] == [None, None]         # two empty polls: lifted
    chip.place(tag)
    assert poll_until_tap(station).uid == first.uid


def test_enroll_blinka_tag_tapped_twice_is_refused_and_says_which_card_it_is(tmp_path):
    chip, station = blinka_station()
    session = EnrollmentSession(tmp_path / "d.json", "d", 1, deck_set_id=1, write_codes=True, station=station)
    a, b = SimNTAG(ntag_uid(10)), SimNTAG(ntag_uid(11))
    chip.place(a)
    assert isinstance(session.tap(poll_until_tap(station)), Accepted)
    chip.lift(a)
    station.poll(0.01), station.poll(0.01)
    chip.place(a)                              # the same card again
    again = session.tap(poll_until_tap(station))
    assert isinstance(again, Refused)
    assert "already enrolled as S2#1; still waiting for S3#1" in again.reason
    assert decode_card_code(a.user_memory()[:16]) == (1, parse_copy("S2#1"))   # untouched
    chip.lift(a)
    chip.place(b)
    assert session.tap(poll_until_tap(station)) == Accepted(parse_copy("S3#1"), b.uid.hex(), True)


def test_enroll_blinka_foreign_code_and_unwritable_tag_are_refused_and_change_nothing(tmp_path):
    chip, station = blinka_station()
    session = EnrollmentSession(tmp_path / "d.json", "d", 1, deck_set_id=1, write_codes=True, station=station)
    other = SimNTAG(ntag_uid(20), user=encode_card_code(parse_copy("HA#1"), 99))
    chip.place(other)
    refused = session.tap(poll_until_tap(station))
    assert isinstance(refused, Refused) and "HA#1 of deck set 99" in refused.reason
    assert decode_card_code(other.user_memory()[:16]) == (99, parse_copy("HA#1"))   # not overwritten
    chip.lift(other)
    station.poll(0.01), station.poll(0.01)
    classic = SimTag(b"\x11\x22\x33\x44")          # a MIFARE Classic: READ/WRITE get a NAK
    chip.place(classic)
    tap = poll_until_tap(station)
    assert tap.code is None
    refused = session.tap(tap)
    assert isinstance(refused, Refused) and "writing page 4" in refused.reason
    assert session.count == 0 and str(session.expected) == "S2#1"
    assert not session.partial.exists()            # nothing was ever accepted, nothing saved


def test_enroll_blinka_card_swapped_before_the_write_is_not_written(tmp_path):
    """The code goes only to the tag that was tapped: a different card on the reader by the time of
    the write is left alone and the tap is refused (tap again)."""
    chip, station = blinka_station()
    session = EnrollmentSession(tmp_path / "d.json", "d", 1, deck_set_id=1, write_codes=True, station=station)
    a, b = SimNTAG(ntag_uid(30)), SimNTAG(ntag_uid(31))
    chip.place(a)
    tap = poll_until_tap(station)
    chip.lift(a)
    chip.place(b)
    refused = session.tap(tap)
    assert isinstance(refused, Refused) and "left the reader" in refused.reason
    assert a.user_memory()[:16] == b.user_memory()[:16] == bytes(16)
    assert session.count == 0


@pytest.mark.parametrize("bus", ["i2c", "uart"])
def test_enroll_blinka_i2c_and_uart_drivers_enrol_and_write_codes_too(tmp_path, bus):
    """The same station with Adafruit's PN532_I2C (address 0x24) on a simulated I2C bus, and with
    PN532_UART on a simulated serial port: one deck enrolled with codes, read back from the tags'
    memory."""
    import blinka_sim_bus
    chip, station = getattr(blinka_sim_bus, f"blinka_{bus}_station")()
    assert station.pn532.firmware_version == (0x32, 0x01, 0x06, 0x07)
    tags = [SimNTAG(ntag_uid(200 + n)) for n in range(54)]
    session = EnrollmentSession(tmp_path / "i2c.json", "i2c", 1, deck_set_id=12, write_codes=True, station=station)
    assert enroll_cli._enrol(session, HandStation(chip, station, tags)) == 0
    for tag, copy in zip(tags, standard_order(1)):
        assert decode_card_code(tag.user_memory()[:16]) == (12, copy)
    assert DeckSet.load(tmp_path / "i2c.json").complete


def test_enroll_blinka_garbled_replies_are_retried_and_a_dead_reader_is_reported():
    """A corrupted reply frame (line noise) makes Adafruit's driver raise; the station retries at
    the next poll and still reports the card once with its code. A chip that stops answering
    becomes a clear StationError after a few polls, not a hang or a traceback."""
    from shengji_table.table.stations import StationError
    chip, station = blinka_station()
    tag = SimNTAG(ntag_uid(40), user=encode_card_code(parse_copy("DK#2"), 3))
    chip.place(tag)
    chip.corrupt_replies = 2              # the detection and the first page read come back garbled
    taps = [station.poll(0.02) for _ in range(6)]
    got = [t for t in taps if t is not None]
    assert got == [StationTap(tag.uid.hex(), encode_card_code(parse_copy("DK#2"), 3))]
    assert station.errors == 0
    chip.lift(tag)
    chip.alive = False                    # unplugged: to the driver a dead chip is just "no card"
    station.health_every = 3
    assert [station.poll(0.01) for _ in range(2)] == [None, None]
    with pytest.raises(StationError, match="the PN532 does not answer"):
        station.poll(0.01)
    chip.alive = True
    chip.place(tag)
    chip.corrupt_replies = 10             # a reader that only ever garbles
    with pytest.raises(StationError, match="keeps failing"):
        for _ in range(station.max_errors):
            station.poll(0.02)
