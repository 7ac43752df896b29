"""The stricter PN532 model (firmware/pn532_model.py) and the driver's robustness against it
(firmware/pn532.py): a reply continued across reads, the short and the long preamble, the chip's
own time per command, the lost first command after power-up, a CS setup time, reads that show only
00s before the frame; the board file's timings reach the driver; ``"rst": null`` works."""
import json
import pathlib
import sys

import pytest

from shengji_table.firmware_src import FIRMWARE_DIR, pn532_model
from shengji_table.sim.hw import machine, world

REV, SimNTAG, SimPN532 = pn532_model.REV, pn532_model.SimNTAG, pn532_model.SimPN532

if str(FIRMWARE_DIR) not in sys.path:
    sys.path.append(str(FIRMWARE_DIR))
import pn532  # noqa: E402

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
UID7 = bytes.fromhex("04a1b2c3d4e5f6")
CODE = b"SJ01S-A1" + bytes(8)
ACK = bytes.fromhex("0000ff00ff00")


def frame(*body):
    data = bytes([0xD4, *body])
    return bytes([0, 0, 0xFF, len(data), (-len(data)) & 0xFF, *data, (-sum(data)) & 0xFF, 0])


def txn(chip, prefix, data=b"", nread=0):
    """One CS-low transaction; every MISO byte, the one clocked during the prefix first."""
    chip.select()
    got = [chip.exchange(REV[b]) for b in bytes([prefix]) + bytes(data) + bytes(nread)]
    chip.deselect()
    return bytes(0 if r is None else REV[r] for r in got)


def wait_ready(chip, limit=2000):
    for _ in range(limit):
        if txn(chip, 0x02, nread=1)[1] == 0x01:
            return True
    return False


@pytest.fixture(autouse=True)
def clean_world():
    world.reset()
    yield
    world.reset()


# ---- the model ---------------------------------------------------------------------------------

def test_pn532_strict_model_loses_the_first_command_after_power_up():
    chip = SimPN532(lose_first=True)
    txn(chip, 0x01, frame(0x02))
    assert not wait_ready(chip, 20) and chip.lost == 1       # no ACK: lost
    txn(chip, 0x01, frame(0x02))
    assert wait_ready(chip) and txn(chip, 0x03, nread=6)[1:] == ACK
    chip.set_rst(0)
    chip.set_rst(1)                                           # power-up again: lost again
    txn(chip, 0x01, frame(0x02))
    assert not wait_ready(chip, 20) and chip.lost == 2


def test_pn532_strict_model_continues_a_reply_across_reads():
    """Read 00 00 FF LEN LCS in one CS cycle, the rest in the next: the chip goes on where it
    stopped, sending the next byte already during the second read's prefix (pn532pi reads so)."""
    chip = SimPN532(strict=False)
    txn(chip, 0x01, frame(0x02))
    assert wait_ready(chip)
    assert txn(chip, 0x03, nread=6)[1:] == ACK
    assert wait_ready(chip)
    head = txn(chip, 0x03, nread=5)[1:]
    assert head == bytes.fromhex("0000ff06fa")
    rest = txn(chip, 0x03, nread=7)
    assert rest == bytes.fromhex("d50332010607e800")          # D5 03 IC Ver Rev Support DCS 00
    assert not wait_ready(chip, 5)                            # consumed: nothing more to say


def test_pn532_strict_model_short_and_long_preamble():
    chip = SimPN532(strict=False)
    chip.short_preamble = True
    txn(chip, 0x01, frame(0x02))
    wait_ready(chip)
    assert txn(chip, 0x03, nread=5)[1:] == bytes.fromhex("00ff00ff00")       # ACK, short preamble
    wait_ready(chip)
    assert txn(chip, 0x03, nread=4)[1:] == bytes.fromhex("00ff06fa")
    chip = SimPN532(strict=False)
    chip.extra_zeros = 3
    txn(chip, 0x01, frame(0x02))
    wait_ready(chip)
    assert txn(chip, 0x03, nread=9)[1:] == bytes.fromhex("000000") + ACK


def test_pn532_strict_model_takes_the_chip_time_per_command():
    chip = SimPN532()
    chip.lose_first_command = False
    chip.place(SimNTAG(UID7, CODE))
    txn(chip, 0x01, frame(0x14, 0x01, 0x14, 0x01))
    wait_ready(chip)
    txn(chip, 0x03, nread=6)
    wait_ready(chip)
    txn(chip, 0x03, nread=9)
    txn(chip, 0x01, frame(0x32, 0x05, 0xFF, 0x01, 0x01))
    wait_ready(chip)
    txn(chip, 0x03, nread=6)
    wait_ready(chip)
    txn(chip, 0x03, nread=9)
    # InListPassiveTarget with a card, the field off: guard time + activation
    txn(chip, 0x01, frame(0x4A, 0x01, 0x00))
    wait_ready(chip)
    txn(chip, 0x03, nread=6)                                  # the ACK comes at once
    assert txn(chip, 0x02, nread=1)[1] == 0x00                # the reply does not
    expected = pn532_model.CHIP_US_COMMAND + pn532_model.CHIP_US_FIELD_ON + pn532_model.CHIP_US_ACTIVATE
    assert chip._ready_at - chip._cmd_end == expected
    assert wait_ready(chip, 100000)


def test_pn532_strict_model_loses_bytes_clocked_before_its_cs_setup_time():
    chip = SimPN532(strict=False)
    chip.cs_setup_us = 100_000
    txn(chip, 0x01, frame(0x02))
    assert chip.missed_prefixes == 1 and chip.frames == 0


# ---- the driver against it ---------------------------------------------------------------------

def make(chip_knobs=None, **kw):
    chip = world.add_reader(17, rst=20, name="seat0")
    for k, v in (chip_knobs or {}).items():
        setattr(chip, k, v)
    spi = machine.SPI(0)
    d = pn532.PN532(spi, machine.Pin(17, machine.Pin.OUT, value=1), machine.Pin(20, machine.Pin.OUT, value=1), **kw)
    return chip, d


def poll_card(chip, d):
    d.begin()
    chip.place(SimNTAG(UID7, CODE))
    uid = bytearray(pn532.UID_MAX)
    page = bytearray(16)
    n = d.list_passive_target(uid)
    d.read_pages(4, page)
    d.release()
    return bytes(uid[:n]), bytes(page)


@pytest.mark.parametrize("knobs", [{"short_preamble": True}, {"extra_zeros": 4}, {"extra_zeros": 9},
                                   {"zero_reads": 2}])
def test_pn532_strict_driver_takes_every_preamble_and_late_frames(knobs):
    chip, d = make(knobs)
    assert poll_card(chip, d) == (UID7, CODE)


def test_pn532_strict_driver_waits_its_cs_setup_time():
    chip, d = make({"cs_setup_us": 500})
    assert poll_card(chip, d) == (UID7, CODE)                 # the default 1000 µs
    world.reset()
    chip, d = make({"cs_setup_us": 500}, cs_setup_us=0)
    with pytest.raises(pn532.PN532Timeout):                   # clocking at once: every prefix lost
        d.begin()


def test_pn532_strict_driver_waits_only_while_the_chip_wakes():
    """UM0701-02 §6.3.2.3: the setup wait is for waking the chip (begin: power-up, a recovery),
    not for every transfer: once up, the driver clocks at once, and a chip reset (power-up
    again) gets the wait again."""
    chip, d = make({"cs_setup_us": 500})
    waits = []
    real = pn532.sleep_us
    pn532.sleep_us = lambda us: (waits.append(us), real(us))
    try:
        d.begin()
        assert not d.waking and waits
        waits.clear()
        assert poll_card(chip, d) == (UID7, CODE)              # begin() again: it waits ...
        n = len(waits)
        uid = bytearray(pn532.UID_MAX)
        for _ in range(5):
            d.list_passive_target(uid)
            d.rf_field(False)
        assert len(waits) == n and chip.missed_prefixes == 0   # ... and then no more
        chip.power_cycle()
        d.begin()
        assert len(waits) > n and chip.missed_prefixes == 0
    finally:
        pn532.sleep_us = real


def test_pn532_strict_driver_reply_timeout_is_its_own():
    chip, d = make({"reply_delay_polls": 10_000}, reply_timeout_ms=30)
    chip.lose_first_command = False
    with pytest.raises(pn532.PN532Timeout):
        d.firmware_version()
    assert d.reply_timeout_ms == 30 and chip.aborts == 1


# ---- the board file's timings reach the firmware ------------------------------------------------

def _firmware_board():
    """firmware/board.py by path: CPython may already have Blinka's ``board`` module."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("firmware_board", FIRMWARE_DIR / "board.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _board(tmp_path, **changes):
    raw = json.loads((REPO_ROOT / "boards" / "table-4.json").read_text())
    raw.update(changes)
    path = tmp_path / "board.json"
    path.write_text(json.dumps(raw))
    return raw, path


def test_pn532_strict_board_timing_and_rst_null_reach_the_readers(tmp_path):
    board_file = _firmware_board()
    import main as fw
    raw, path = _board(tmp_path, timing={"lift_ms": 900, "cs_setup_us": 1500, "reply_timeout_ms": 150,
                                         "activation_ms": 80})
    raw["readers"][1]["rst"] = None                          # a module without a usable reset pin
    path.write_text(json.dumps(raw))
    world.setup_board(raw)
    b = board_file.load(str(path))
    readers, _buttons, _ = fw.build(machine, b, False)
    r = readers[1]
    assert r.pn.rst is None and readers[0].pn.rst is not None
    assert (r.pn.cs_setup_us, r.pn.reply_timeout_ms, r.activation_ms) == (1500, 150, 80)
    assert b.lift_ms == 900
    assert r.start(0)                                        # it comes up without a reset pulse
    world.reader("seat1").alive = False
    for now in range(0, 100, 10):
        r.poll(now)
    assert not r.alive
    world.reader("seat1").alive = True
    now = 100
    while not r.alive and now < 5000:
        now += 50
        r.poll(now)
    assert r.alive and r.recoveries == 1                     # begin() alone brought it back


def test_pn532_strict_board_defaults_without_timing(tmp_path):
    board_file = _firmware_board()
    b = board_file.load(str(REPO_ROOT / "boards" / "table-4.json"))
    assert (b.lift_ms, b.cs_setup_us, b.reply_timeout_ms, b.activation_ms) == (600, 1000, 100, 100)
