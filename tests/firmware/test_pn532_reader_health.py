"""firmware/reader.py: one reader's health over the simulated PN532 — dead after N failures, retried
with exponential back-off (RST pulse spread over polls), reported through the callback, while the
other readers keep serving."""
import sys

import pytest

from shengji_table.sim.hw import machine, world
from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.firmware_src import pn532_model
SimNTAG, SimPN532, SimTag = pn532_model.SimNTAG, pn532_model.SimPN532, pn532_model.SimTag

if str(FIRMWARE_DIR) not in sys.path:
    sys.path.append(str(FIRMWARE_DIR))
import pn532  # noqa: E402
import reader  # noqa: E402

UID7 = bytes.fromhex("04a1b2c3d4e5f6")
UID7_B = bytes.fromhex("04112233445566")
CODE = b"SJ1:SA:0001\x00\x00\x00\x00\x00"
FW = 0x32010607


@pytest.fixture(autouse=True)
def clean_world():
    world.reset()
    yield
    world.reset()


def make_reader(cs, rst=None, name="seat0", **kw):
    chip = world.add_reader(cs, rst=rst, name=name)
    spi = machine.SPI(0)
    pn = pn532.PN532(spi, machine.Pin(cs, machine.Pin.OUT, value=1),
                     None if rst is None else machine.Pin(rst, machine.Pin.OUT, value=1), ack_timeout_ms=3,
                     reply_timeout_ms=10)
    events = []
    r = reader.Reader(name, pn, on_change=lambda rd, alive, fw: events.append((rd.name, alive, fw)), **kw)
    return chip, r, events


def count_begins(r):
    calls = []
    inner = r.pn.begin

    def begin(*a):
        calls.append(1)
        return inner(*a)

    r.pn.begin = begin
    return calls


def test_pn532_reader_start_reports_alive_with_firmware():
    chip, r, events = make_reader(17)
    assert r.start(now=0) is True
    assert events == [("seat0", True, FW)]
    assert r.alive and r.firmware == FW


def test_pn532_reader_start_missing_chip_reports_dead():
    chip, r, events = make_reader(17)
    chip.alive = False
    assert r.start(now=0) is False
    assert events == [("seat0", False, 0)]


def test_pn532_reader_poll_reads_uid_and_card_code_then_field_off_without_release():
    chip, r, events = make_reader(17)
    r.start(now=0)
    tag = SimNTAG(UID7, CODE)
    assert r.poll(now=1) == 0
    chip.place(tag)
    assert r.poll(now=2) == 7
    assert bytes(r.uid[:7]) == UID7 and r.code_ok and bytes(r.code) == CODE and r.targets == 1
    assert chip.commands[0x52] == 0  # no InRelease: the field going off unpowers the tag
    assert not chip.rf_on and tag.state == 0  # field switched off after the poll: the tag is unpowered
    assert r.poll(now=3) == 7        # and it answers the next poll (no every-second-poll quirk)
    chip.lift()
    assert r.poll(now=4) == 0 and r.failures == 0


def test_pn532_reader_field_kept_on_releases_the_card():
    chip, r, events = make_reader(17, field_off=False)
    r.start(now=0)
    chip.place(SimNTAG(UID7, CODE))
    assert r.poll(now=1) == 7 and r.poll(now=2) == 7
    assert chip.commands[0x52] == 2 and chip.rf_on


class Knows:
    """A debouncer's ``knows``: the card whose code is read already."""
    def __init__(self, uid):
        self.uid = uid

    def knows(self, uid, n):
        return bytes(uid[:n]) == self.uid


def test_pn532_reader_does_not_read_the_code_of_a_card_it_knows():
    """A card held on the reader costs one InListPassiveTarget a poll, not a READ as well."""
    chip, r, events = make_reader(17)
    r.start(now=0)
    chip.place(SimNTAG(UID7, CODE))
    assert r.poll(now=1, known=Knows(UID7_B)) == 7 and r.code_ok
    assert chip.commands[0x40] == 1
    for t in range(2, 7):
        assert r.poll(now=t, known=Knows(UID7)) == 7 and not r.code_ok
    assert chip.commands[0x40] == 1


def test_pn532_reader_two_cards_answer_as_two_targets_and_no_code_is_read():
    chip, r, events = make_reader(17)
    r.start(now=0)
    chip.place(SimNTAG(UID7, CODE))
    chip.place(SimNTAG(UID7_B, CODE))
    assert r.poll(now=1) == 7 and r.targets == 2 and not r.code_ok
    assert chip.commands[0x40] == 0


def test_pn532_reader_4_byte_uid_without_code():
    chip, r, events = make_reader(17)
    r.start(now=0)
    chip.place(SimTag(bytes.fromhex("deadbeef")))
    assert r.poll(now=1) == 4
    assert not r.code_ok and r.failures == 0  # UID only: not an error


def test_pn532_reader_dead_after_n_consecutive_failures():
    chip, r, events = make_reader(17, fail_limit=3)
    r.start(now=0)
    chip.alive = False
    assert [r.poll(now=t) for t in (10, 20)] == [0, 0]
    assert r.alive and r.failures == 2 and len(events) == 1  # not yet reported
    assert r.poll(now=30) == 0
    assert not r.alive
    assert events[-1] == ("seat0", False, 0)
    r.poll(now=31)
    assert len(events) == 2  # reported once


def test_pn532_reader_single_failure_does_not_kill():
    chip, r, events = make_reader(17, fail_limit=3)
    r.start(now=0)
    chip.drop_acks = 1
    assert r.poll(now=1) == 0 and r.failures == 1
    assert r.poll(now=2) == 0 and r.failures == 0 and r.alive
    assert r.errors == 1


def test_pn532_reader_exponential_backoff_without_rst():
    chip, r, events = make_reader(17, fail_limit=1, backoff_ms=100, backoff_max_ms=400)
    r.start(now=0)
    chip.alive = False
    begins = count_begins(r)
    r.poll(now=1000)  # dead now; first retry due at 1100
    assert not r.alive
    attempts = []
    for t in range(1000, 3000, 10):
        before = len(begins)
        r.poll(now=t)
        if len(begins) > before:
            attempts.append(t)
    # back-off 100, 200, 400, 400, ... (capped)
    assert attempts[:5] == [1100, 1300, 1700, 2100, 2500]


def test_pn532_reader_recovers_and_reports_firmware():
    chip, r, events = make_reader(17, fail_limit=1, backoff_ms=100)
    r.start(now=0)
    chip.alive = False
    r.poll(now=10)
    chip.alive = True
    chip.power_cycle()
    assert r.poll(now=50) == 0 and not r.alive  # not due yet
    r.poll(now=110)
    assert r.alive and r.recoveries == 1
    assert events == [("seat0", True, FW), ("seat0", False, 0), ("seat0", True, FW)]
    chip.place(SimNTAG(UID7))
    assert r.poll(now=120) == 7


def test_pn532_reader_reset_pulse_spread_over_polls():
    """A brown-out leaves the chip unconfigured (SAM lost): polls fail, the reader is declared dead,
    and recovery pulses RST low, waits for boot, then brings it up — each step in its own poll."""
    chip, r, events = make_reader(17, rst=20, fail_limit=2, backoff_ms=100)
    r.start(now=0)
    levels = []
    inner = chip.set_rst
    chip.set_rst = lambda level: (levels.append(level), inner(level))
    chip.power_cycle()
    r.poll(now=10)
    r.poll(now=20)
    assert not r.alive
    begins = count_begins(r)
    r.poll(now=120)  # due: RST low
    assert levels == [0] and chip.rst_low and not begins
    r.poll(now=121)  # RST_LOW_MS (2) not over
    assert levels == [0]
    r.poll(now=122)  # RST released, chip boots
    assert levels == [0, 1] and not chip.rst_low and not begins
    r.poll(now=130)  # boot wait (10 ms) not over
    assert not begins
    r.poll(now=132)
    assert begins and r.alive and events[-1] == ("seat0", True, FW)


def test_pn532_reader_others_keep_serving_when_one_dies():
    a_chip, a, a_events = make_reader(17, name="seat0", fail_limit=2)
    b_chip, b, b_events = make_reader(13, name="centre", fail_limit=2)
    a.start(now=0)
    b.start(now=0)
    b_chip.place(SimNTAG(UID7_B))
    a_chip.alive = False
    seen = []
    for t in range(1, 41):
        a.poll(now=t * 10)
        seen.append(b.poll(now=t * 10))
    assert not a.alive
    assert seen == [7] * 40 and b.errors == 0 and b.alive
    assert bytes(b.uid[:7]) == UID7_B
    assert SimPN532.fields_max == 1  # one RF field at a time


def test_pn532_reader_that_answers_begin_but_fails_every_poll_does_not_flap():
    """Three timeouts mark a reader dead; one that comes back (begin() works) and fails again before
    it proved itself waits twice as long each time, so over a minute of polls every 50 ms its
    dead/alive reports stay few and their spacing grows to the 8 s cap."""
    chip, r, events = make_reader(17)                 # no RST: recovery is begin() alone ("rst": null)
    r.start(now=0)

    def timeout(uid):
        raise pn532.PN532Timeout("no reply")
    r.pn.list_passive_target = timeout
    ups = []
    for now in range(0, 60_000, 50):
        before = len(events)
        r.poll(now)
        if len(events) > before and events[-1][1]:
            ups.append(now)
    assert len(events) <= 30, len(events)             # four times a second would be ~ 400
    spacing = [b - a for a, b in zip(ups, ups[1:])]
    assert spacing == sorted(spacing) and spacing[-1] >= 8000


def test_pn532_reader_back_off_starts_over_once_the_reader_proved_itself():
    chip, r, events = make_reader(17)
    r.start(now=0)
    chip.alive = False
    now = 0
    for _ in range(3):                                # dead after three failures
        now += 10
        r.poll(now)
    assert not r.alive
    chip.alive = True
    while not r.alive:
        now += 10
        r.poll(now)
    for _ in range(25):                               # healthy long enough: trusted again
        now += 10
        r.poll(now)
    chip.alive = False
    for _ in range(3):
        now += 10
        r.poll(now)
    down_at = now
    chip.alive = True
    while not r.alive:
        now += 10
        r.poll(now)
    assert now - down_at <= 300                       # the first back-off (250 ms), not a doubled one


def test_pn532_reader_activation_window_finds_a_flickering_card_again():
    """A card seen at the previous poll and missed now is tried again within activation_ms."""
    chip, r, events = make_reader(17)
    r.start(now=0)
    tag = SimNTAG(UID7, CODE)
    tag.coupling = 45                                 # hears 45 % of the activation attempts
    chip.place(tag)
    results = {}
    for window in (0, 100):
        r.activation_ms = window
        r.uid_len = 0
        seen = sum(1 for i in range(60) if r.poll(i * 100))
        results[window] = seen
    assert results[0] < 50                            # the card really flickers: ~70 % of polls
    assert results[100] >= 58 and r.retried > 0       # found again inside the window


def test_pn532_reader_with_its_irq_wired_polls_without_status_reads():
    """Where the board file wires a reader's IRQ, the driver waits on that line instead of SPI
    status reads (after begin(), which wakes the chip with status reads): the same card, read the
    same, and the chip answers no status read while polled."""
    chip = world.add_reader(17, name="seat0", irq=20)
    spi = machine.SPI(0)
    pn = pn532.PN532(spi, machine.Pin(17, machine.Pin.OUT, value=1), None, ack_timeout_ms=3,
                     reply_timeout_ms=10, irq=machine.Pin(20, machine.Pin.IN, machine.Pin.PULL_UP))
    r = reader.Reader("seat0", pn)
    assert r.start(now=0) and not pn.waking
    assert machine.Pin(20, machine.Pin.IN).value() == 1            # nothing pending: the line is high
    reads = []
    real = chip._status
    chip._status = lambda: (reads.append(1), real())[1]
    chip.place(SimNTAG(UID7, CODE))
    for t in range(1, 6):
        assert r.poll(now=t) == 7 and r.polled
    assert bytes(r.uid[:7]) == UID7
    assert reads == []                                             # no SPI status read at all
    chip.lift()
    assert r.poll(now=7) == 0 and r.polled and r.failures == 0


def test_pn532_model_irq_line_low_while_a_frame_waits():
    chip = world.add_reader(17, name="seat0", irq=20)
    assert chip.irq_level() == 1
    chip.alive = False
    assert chip.irq_level() == 1                                   # an absent chip: the pull-up
