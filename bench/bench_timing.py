"""The scan timing budget from the datasheets (``hardware/timing.py``): per command, per reader, per
lap; polls per second per seat and the tap latency they imply, for table-4 and table-6 at their
SPI clock, at 500 kHz (the clock for long cables, docs/hardware.md) and with a 1 ms CS setup delay.

Computed, not measured: there is no Pico here.  ``shengji-table selftest --measure N`` measures the
same figures on a real table (docs/build.md, "Measuring a real table")."""
import dataclasses
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "host"))

from shengji_table.board import load_board  # noqa: E402
from shengji_table.hardware.timing import driver_times, table_budget  # noqa: E402

TARGET_POLLS_PER_S = 10      # a seat polled at least 10 times a second with no card down
TARGET_TAP_MS = 100          # mean card-down -> TAP within 100 ms


def main():
    for name in ("table-4", "table-6"):
        board = load_board(ROOT / "boards" / f"{name}.json")
        b = table_budget(board)
        for line in b.lines():
            print(f"   {line}")
        print(f"   -> {b.polls_per_s_per_seat:.1f} polls/s per seat (target >= {TARGET_POLLS_PER_S}), "
              f"tap latency {b.tap_latency_ms:.0f} ms mean (target <= {TARGET_TAP_MS} ms)")
        drv = driver_times()
        for label, budget in (
                ("at 500 kHz", table_budget(board, baudrate=500_000)),
                ("with CS setup 1000 us", table_budget(board, dataclasses.replace(drv, cs_setup_us=1000))),
                ("with 5 activation tries", table_budget(board, dataclasses.replace(drv, max_retries=4)))):
            print(f"   {name} {label}: lap {budget.lap_ms:.0f} ms, {budget.polls_per_s_per_seat:.1f} polls/s per "
                  f"seat, tap latency {budget.tap_latency_ms:.0f} ms mean")


if __name__ == "__main__":
    main()
