"""The power budget of a table, computed from its board file and the firmware's brightness cap.

Worst case, everything at once: every PN532 with its RF field on, every LED at the brightest the
firmware can show (full white scaled by its cap, ``_BRIGHT`` of ``firmware/scan.py`` out of ``FULL``
of ``firmware/rings.py``: a WS2812's current follows its PWM duty), plus each LED's idle draw, the
Pico running. The uncapped figure (every LED full white: what a ring shows if something else drives
its data line) is given too: the supply, its fuse, J1 and the 5 V wiring are sized for it. The
readers get their own 3.3 V regulator (their RF bursts would otherwise disturb the Pico's supply);
the rings run from the 5 V
supply directly; the regulator's input current is its output current (a linear regulator), and it
burns the difference in voltage as heat.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..board import Board, Power
from ..firmware_src import FIRMWARE_DIR
from .parts import REGULATORS, Regulator

__all__ = ["SUPPLY_V", "READER_V", "DEFAULT_POWER", "PowerBudget", "budget", "PowerError", "brightness_cap",
           "LED_IDLE_MA"]

SUPPLY_V = 5.0
READER_V = 3.3
# Figures used when a board file gives none (docs/hardware-notes.md: ~100 mA per PN532 with RF on, up to
# 60 mA per WS2812 at full white; the Pico draws ~25-50 mA running MicroPython).
DEFAULT_POWER = Power(reader_ma=100, led_ma=60, pico_ma=50)
# Margins: a regulator or supply is not run at its rating.
REGULATOR_MARGIN = 1.25
SUPPLY_MARGIN = 1.2
SUPPLY_SIZES_A = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20)
LED_IDLE_MA = 1           # a WS2812B's own draw with its LEDs dark (datasheet: about 0.5-1 mA)


def brightness_cap(scan_source: str | None = None, rings_source: str | None = None) -> tuple[int, int]:
    """``(cap, full)``: the firmware's table brightness and the scale it is a fraction of, read from
    the firmware's text (the host does not import firmware modules it does not share)."""
    scan = (FIRMWARE_DIR / "scan.py").read_text(encoding="utf-8") if scan_source is None else scan_source
    rings = (FIRMWARE_DIR / "rings.py").read_text(encoding="utf-8") if rings_source is None else rings_source
    cap = re.search(r"^_BRIGHT\s*=\s*const\((\d+)\)", scan, re.M)
    full = re.search(r"^FULL\s*=\s*const\((\d+)\)", rings, re.M)
    if not cap or not full:
        raise PowerError("cannot read the LED brightness cap (_BRIGHT in firmware/scan.py, FULL in "
                         "firmware/rings.py): the power budget needs it")
    return min(int(cap.group(1)), int(full.group(1))), int(full.group(1))


class PowerError(ValueError):
    """The board's worst-case current is more than any part in the catalogue can supply."""


@dataclass(frozen=True)
class PowerBudget:
    """Worst-case currents (mA) and the parts they call for; ``lines()`` shows the arithmetic."""
    readers: int
    reader_ma: int
    leds: int
    led_ma: int
    pico_ma: int
    regulator: Regulator
    supply_a: int
    rings: int = 0
    bright: int = 256          # the firmware's cap, out of ``full``
    full: int = 256

    @property
    def readers_ma(self) -> int:
        """3.3 V rail: all readers with RF on."""
        return self.readers * self.reader_ma

    @property
    def led_capped_ma(self) -> float:
        """One LED at the brightest the firmware shows (white at its cap), plus its idle draw."""
        return self.led_ma * self.bright / self.full + LED_IDLE_MA

    @property
    def leds_ma(self) -> int:
        """5 V rail, every LED white at the firmware's cap."""
        return math.ceil(self.leds * self.led_capped_ma)

    @property
    def leds_full_ma(self) -> int:
        """Every LED full white, uncapped: what the 5 V wiring is rated for."""
        return self.leds * self.led_ma

    @property
    def total_ma(self) -> int:
        """All drawn from the 5 V supply (the LDO passes its load current through), LEDs capped."""
        return self.readers_ma + self.leds_ma + self.pico_ma

    @property
    def uncapped_ma(self) -> int:
        """The same with every LED full white: what the supply, J1, the fuse and the 5 V wiring carry
        when something other than the firmware drives the rings' data line."""
        return self.readers_ma + self.leds_full_ma + self.pico_ma

    @property
    def fuse_a(self) -> int:
        """The fuse in the supply lead: the smallest standard rating above the uncapped draw."""
        return next(a for a in SUPPLY_SIZES_A if a * 1000 >= self.uncapped_ma)

    @property
    def regulator_watts(self) -> float:
        """Heat in the 3.3 V regulator at the worst case."""
        return (SUPPLY_V - READER_V) * self.readers_ma / 1000

    def lines(self) -> list[str]:
        """The arithmetic, one line a step, for docs and ``hardware build``."""
        r = self.regulator
        return [
            f"readers (3.3 V): {self.readers} x {self.reader_ma} mA = {self.readers_ma} mA",
            f"LED rings (5 V): {self.leds} LEDs x ({self.led_ma} mA x {self.bright}/{self.full} firmware cap + "
            f"{LED_IDLE_MA} mA idle) = {self.leds_ma} mA (uncapped full white: {self.leds_full_ma} mA; rate the 5 V "
            f"wiring for that)",
            f"Pico (VSYS): {self.pico_ma} mA",
            f"5 V supply total: {self.readers_ma} + {self.leds_ma} + {self.pico_ma} = {self.total_ma} mA",
            f"uncapped (every LED full white): {self.readers_ma} + {self.leds_full_ma} + {self.pico_ma} = "
            f"{self.uncapped_ma} mA",
            f"supply: {self.uncapped_ma} mA x {SUPPLY_MARGIN} = {self.uncapped_ma * SUPPLY_MARGIN / 1000:.2f} A "
            f"-> a regulated {SUPPLY_V:g} V {self.supply_a} A supply, behind a {self.fuse_a} A fuse",
            f"3.3 V regulator: needs {self.readers_ma} mA x {REGULATOR_MARGIN} = "
            f"{self.readers_ma * REGULATOR_MARGIN:.0f} mA and dissipates "
            f"({SUPPLY_V:g} - {READER_V:g}) V x {self.readers_ma} mA = {self.regulator_watts:.2f} W "
            f"-> {r.spec.name} ({r.max_ma} mA, {r.max_watts:g} W)",
        ]


def _choose_regulator(load_ma: int) -> Regulator:
    watts = (SUPPLY_V - READER_V) * load_ma / 1000
    for reg in REGULATORS:
        if reg.max_ma >= load_ma * REGULATOR_MARGIN and reg.max_watts >= watts \
                and SUPPLY_V - READER_V >= reg.dropout_v:
            return reg
    raise PowerError(f"the readers draw {load_ma} mA ({watts:.2f} W in a linear regulator): more than any "
                     f"3.3 V regulator in the catalogue handles; split the readers over two regulators")


def budget(board: Board, cap: tuple[int, int] | None = None) -> PowerBudget:
    """The worst-case budget of ``board`` at the firmware's brightness cap (or ``cap``, as
    ``(bright, full)``); raises :class:`PowerError` when nothing fits."""
    p = board.power or DEFAULT_POWER
    bright, full = cap or brightness_cap()
    readers = len(board.readers)
    leds = sum(r.count for r in board.leds.rings)
    regulator = _choose_regulator(readers * p.reader_ma)
    # sized for the uncapped worst case, as the 5 V wiring is: the firmware's cap is no protection
    # against a fault on the data line or another firmware
    total_ma = readers * p.reader_ma + leds * p.led_ma + p.pico_ma
    need_a = total_ma * SUPPLY_MARGIN / 1000
    supply = next((a for a in SUPPLY_SIZES_A if a >= need_a), None)
    if supply is None:
        raise PowerError(f"the table draws {total_ma} mA at worst (every LED full white): more than a "
                         f"{SUPPLY_SIZES_A[-1]} A supply; use fewer or smaller rings")
    return PowerBudget(readers=readers, reader_ma=p.reader_ma, leds=leds, led_ma=p.led_ma, pico_ma=p.pico_ma,
                       regulator=regulator, supply_a=supply, rings=len(board.leds.rings), bright=bright, full=full)
