"""The datasheet timing budget (hardware/timing.py): each figure follows from the driver's waits,
the SPI clock, the ISO 14443 frame times and the board's readers, as the module says it does."""
import dataclasses

import pytest

from shengji_table.board import load_board
from shengji_table.hardware.build import BOARDS_DIR
from shengji_table.hardware.timing import (ETU_US, FDT_US, STEP_OVERHEAD_MS, Command, air_ms, command_time,
                                           commands, driver_times, table_budget)

DRV = driver_times()


def test_driver_times_are_read_from_the_firmware_source():
    src = "ACK_GAP_MS = const(3)\nREPLY_TIMEOUT_MS = const(120)\nMAX_RETRIES_DEFAULT = const(4)\n"
    d = driver_times(src)
    assert (d.ack_gap_ms, d.reply_timeout_ms, d.max_retries) == (3, 120, 4)
    assert d.poll_interval_ms == 1 and d.ack_timeout_ms == 15       # absent: the documented defaults
    assert driver_times(src, cs_setup_us=250).cs_setup_us == 250     # the board's setting wins


def test_wire_time_scales_with_the_bytes_of_the_frames():
    """A command with no chip time: halving the clock adds exactly one more byte time per byte sent."""
    cmd = Command("GetFirmwareVersion", 0, 6, 0.0, "test")
    fast, slow = command_time(cmd, 1_000_000, DRV), command_time(cmd, 500_000, DRV)
    wire_bytes = (1 + 8) + 2 + 7 + 2 + (1 + 6 + 6 + 1)    # frame out, status, ACK, status, reply
    assert slow.typical_ms - fast.typical_ms == pytest.approx(wire_bytes * 0.008)


def test_cs_setup_delay_is_paid_once_per_transfer_by_the_older_driver_only():
    cmd = commands(2)["list_card"]
    base = command_time(cmd, 1_000_000, dataclasses.replace(DRV, cs_setup_us=0))
    slow = command_time(cmd, 1_000_000, dataclasses.replace(DRV, cs_setup_us=1000, cs_setup_every_transfer=True))
    # frame out, first status read, ACK and reply pay it in full; reads while the chip works only
    # stretch the polling grid (fewer of them fit)
    assert slow.typical_ms - base.typical_ms >= 3.5
    assert slow.transfers < base.transfers
    assert slow.worst_ms - base.worst_ms == pytest.approx(3.0)          # frame out, ACK, reply
    # the driver waits only while a chip wakes: a running table's polls do not pay it
    now = command_time(cmd, 1_000_000, dataclasses.replace(DRV, cs_setup_us=1000))
    assert now == base


def test_activation_time_follows_the_cascade_levels_of_the_uid():
    """A 7-byte UID takes one more ANTICOLLISION + SELECT exchange than a 4-byte one (ISO 14443-3)."""
    from shengji_table.hardware import timing
    one_level = timing._activation_ms(4)
    two_levels = timing._activation_ms(7)
    level = air_ms(9 * 2 + 2, 9 * 5 + 2) + air_ms(9 * 9 + 2, 9 * 3 + 2) + 2 * timing.CHIP_PER_EXCHANGE_MS
    assert two_levels - one_level == pytest.approx(level)
    assert air_ms(0, 0) == pytest.approx(FDT_US / 1000) and ETU_US == pytest.approx(9.44, abs=0.01)


def test_a_worst_command_is_its_timeouts():
    cmd = commands(2)["read"]
    t = command_time(cmd, 1_000_000, DRV)
    assert t.worst_ms > DRV.ack_timeout_ms + DRV.reply_timeout_ms > t.typical_ms


@pytest.mark.parametrize("name", ["table-4", "table-6"])
def test_budget_per_board(name):
    board = load_board(BOARDS_DIR / f"{name}.json")
    b = table_budget(board)
    n = len(board.readers)
    no_leds = n * (b.empty_ms + STEP_OVERHEAD_MS)
    assert no_leds < b.lap_ms < no_leds * 1.2                      # LED frames add a few per cent
    assert b.polls_per_s_per_seat == pytest.approx(1000 / b.lap_ms)
    assert b.card_ms > b.held_ms > b.empty_ms                      # a known card's code is not read again
    assert b.lap_cards_ms > b.lap_ms
    # a TAP needs a second poll: at least one interval more than the poll that saw the card
    assert b.lap_ms + b.card_ms < b.tap_latency_ms < 2 * b.lap_ms + b.card_ms
    assert b.worst_lap_ms < 5000                                    # the watchdog allows a lap of timeouts
    text = "\n".join(b.lines())
    assert f"{b.polls_per_s_per_seat:.1f} polls/s per seat" in text


def test_the_seat_on_turn_is_polled_more_often_at_the_others_cost():
    board = load_board(BOARDS_DIR / "table-6.json")
    flat, turn = table_budget(board, turn=0), table_budget(board)
    assert turn.turn_every == 2                                     # read from firmware/scan.py
    assert turn.turn_interval_ms < flat.turn_interval_ms == pytest.approx(flat.lap_cards_ms)
    assert turn.turn_latency_ms < flat.turn_latency_ms
    assert turn.polls_per_s_per_seat_cards < flat.polls_per_s_per_seat_cards


def test_the_new_poll_beats_the_older_one():
    """No CS setup per transfer, no InRelease, the held card's code not read again: the figures the
    review measured against (table-6, a card on every pad: 3.7 polls/s) improve."""
    board = load_board(BOARDS_DIR / "table-6.json")
    old_drv = dataclasses.replace(driver_times(cs_setup_us=1000), cs_setup_every_transfer=True)
    old = table_budget(board, old_drv, baudrate=1_000_000, turn=0, old_poll=True)
    new = table_budget(board, baudrate=1_000_000, turn=0)
    assert old.polls_per_s_per_seat_cards == pytest.approx(3.7, abs=0.1)
    assert new.polls_per_s_per_seat_cards > 2 * old.polls_per_s_per_seat_cards


def test_a_dwell_longer_than_the_interval_waits_for_a_later_poll():
    board = load_board(BOARDS_DIR / "table-4.json")
    b = table_budget(board)
    longer = dataclasses.replace(b, dwell_ms=b.turn_interval_ms * 2.5)
    assert longer.turn_latency_ms - b.turn_latency_ms == pytest.approx(2 * b.turn_interval_ms)


def test_more_readers_make_a_longer_lap():
    four = table_budget(load_board(BOARDS_DIR / "table-4.json"), baudrate=1_000_000)
    six = table_budget(load_board(BOARDS_DIR / "table-6.json"), baudrate=1_000_000)
    assert six.lap_ms > four.lap_ms and six.tap_latency_ms > four.tap_latency_ms
    # two more readers, and a longer LED chain to write in the lap
    assert six.lap_ms - four.lap_ms == pytest.approx(2 * (four.empty_ms + STEP_OVERHEAD_MS), rel=0.2)
