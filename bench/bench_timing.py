"""The scan timing budget from the datasheets (``hardware/timing.py``): per command, per reader, per
lap; polls per second per seat and the tap latency they imply, for table-4 and table-6 at their
SPI clock — with an empty table, and with a card on every pad and a seat on turn (a trick on the
table) — beside the targets; then the same with the older poll (CS setup on every transfer,
InRelease, the held card's code read every poll, no turn priority) and at 500 kHz.

Computed, not measured: there is no Pico here.  ``shengji-table selftest --measure N`` measures the
same figures on a real table (docs/build.md, "Measuring a real table")."""
import dataclasses
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "host"))

from shengji_table.board import load_board  # noqa: E402
from shengji_table.hardware.timing import driver_times, table_budget  # noqa: E402

# the targets (a card on every pad, the seat on turn): polls/s per seat on table-6, tap-to-TAP
TARGET_POLLS_PER_S = 20
TARGET_TAP_MEAN_MS = 60
TARGET_TAP_WORST_MS = 120


def _meets(ok: bool) -> str:
    return "meets" if ok else "MISSES"


def main():
    for name in ("table-4", "table-6"):
        board = load_board(ROOT / "boards" / f"{name}.json")
        b = table_budget(board)
        for line in b.lines():
            print(f"   {line}")
        print(f"   -> {name} empty table: {b.polls_per_s_per_seat:.1f} polls/s per seat, tap latency "
              f"{b.tap_latency_ms:.0f} ms mean")
        pps, mean, worst = b.polls_per_s_per_seat_cards, b.turn_latency_ms, b.turn_latency_max_ms
        print(f"   -> {name} a card on every pad: {pps:.1f} polls/s per seat (target >= {TARGET_POLLS_PER_S}: "
              f"{_meets(pps >= TARGET_POLLS_PER_S)}), seat on turn tap-to-TAP {mean:.0f} ms mean (target <= "
              f"{TARGET_TAP_MEAN_MS}: {_meets(mean <= TARGET_TAP_MEAN_MS)}), {worst:.0f} ms worst (target <= "
              f"{TARGET_TAP_WORST_MS}: {_meets(worst <= TARGET_TAP_WORST_MS)})")
        drv = driver_times(cs_setup_us=board.timing.cs_setup_us)
        old = dataclasses.replace(drv, cs_setup_every_transfer=True)
        for label, budget in (
                ("the older poll", table_budget(board, old, turn=0, old_poll=True)),
                ("no turn priority", table_budget(board, turn=0)),
                ("at 500 kHz", table_budget(board, baudrate=500_000)),
                ("with 5 activation tries", table_budget(board, dataclasses.replace(drv, max_retries=4)))):
            print(f"   {name} {label}: empty {budget.polls_per_s_per_seat:.1f} polls/s per seat; a card on every "
                  f"pad {budget.polls_per_s_per_seat_cards:.1f} polls/s per seat, seat on turn tap-to-TAP "
                  f"{budget.turn_latency_ms:.0f} ms mean, {budget.turn_latency_max_ms:.0f} ms worst")


if __name__ == "__main__":
    main()
