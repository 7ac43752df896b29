"""The build guide's generated parts: the wiring table per seat and the power budget of a board.

``docs/hardware.md`` holds them between markers (``<!-- generated: table-4 -->`` …
``<!-- end generated -->``); :func:`update_doc` rewrites those blocks from the board files and a
test fails when the page and the board files disagree.

    shengji-table hardware docs --update       # rewrite the blocks of docs/hardware.md
"""
from __future__ import annotations

import re

from ..board import CENTRE, Board, Seat
from .parts import pico_pin_of_gpio
from .power import budget

__all__ = ["wiring_markdown", "power_markdown", "board_section", "update_doc", "doc_blocks", "DocError"]


class DocError(ValueError):
    """The page has no block for a board, or a block is not closed."""


def _pin(gpio: int | None) -> str:
    return "—" if gpio is None else f"GP{gpio} (pin {pico_pin_of_gpio(gpio)})"


def _seat_name(seat: object) -> str:
    return "centre (kitty)" if seat == CENTRE else f"seat {seat}"


def wiring_markdown(board: Board) -> str:
    """Markdown tables: shared lines, then one row per seat (reader, ring, button)."""
    spi = board.spi
    lines = [
        "| shared line | Pico | goes to |",
        "|---|---|---|",
        f"| SPI{spi.bus} SCK | {_pin(spi.sck)} | 33 R at the Pico, then SCK of every reader (seat cable pin 3) |",
        f"| SPI{spi.bus} MOSI | {_pin(spi.mosi)} | 33 R at the Pico, then MOSI of every reader (seat cable pin 5) |",
        f"| SPI{spi.bus} MISO | {_pin(spi.miso)} | MISO of every reader (seat cable pin 7) |",
        f"| LED data | {_pin(board.leds.pin)} | 74AHCT125 1A; 1Y -> 330 R -> DIN of the first ring |",
        "| 5 V | J1 + | rings VDD, 74AHCT125 VCC, 3.3 V regulator VIN, Schottky -> Pico VSYS (pin 39) |",
        "| 3.3 V readers | regulator VOUT | VCC of every reader (seat cable pin 1) |",
        "| 3.3 V Pico | 3V3_OUT (pin 36) | the chip-select pull-ups (10 k each, at the Pico) |",
        "| GND | J1 − | every GND, the Pico's GND pins |",
        "",
        "| seat | reader CS (NSS, via 33 R) | reader RST (RSTPDN) | reader IRQ | ring (chain position: pixels) | "
        "button (via 1 k, TVS + 100 n at the line) |",
        "|---|---|---|---|---|---|",
    ]
    chain = {ring.seat: i for i, ring in enumerate(board.leds.rings)}
    seats: list[Seat] = [*range(board.seats), CENTRE]
    for seat in seats:
        reader = board.reader_for(seat)
        ring = board.ring_for(seat)
        ring_text = "—" if ring is None else f"{chain[seat] + 1}: {ring.first}–{ring.end - 1} ({ring.count} LEDs)"
        if seat == CENTRE:
            button_text = "—"
        else:
            b = board.button_for(seat)
            to = "GND" if b.active == "low" else "3.3 V"
            button_text = f"{_pin(b.pin)} to {to}, pull {b.pull}"
        rst = _pin(reader.rst) if reader.rst is not None else "tied to 3.3 V"
        lines.append(f"| {_seat_name(seat)} | {_pin(reader.cs)} | {rst} | {_pin(reader.irq)} | {ring_text} | "
                     f"{button_text} |")
    return "\n".join(lines) + "\n"


def power_markdown(board: Board) -> str:
    """The power budget, one arithmetic step a line."""
    return "".join(f"- {line}\n" for line in budget(board).lines())


def board_section(board: Board) -> str:
    """The whole generated block of one board."""
    return (f"Wiring of `boards/{board.name}.json` ({board.description}):\n\n" + wiring_markdown(board) +
            "\nPower budget (worst case: every reader's RF on, every LED white at the firmware's brightness "
            "cap):\n\n" + power_markdown(board))


_BLOCK = re.compile(r"(<!-- generated: (?P<name>[\w.-]+) -->\n)(?P<body>.*?)(<!-- end generated -->)", re.S)


def doc_blocks(text: str) -> dict[str, str]:
    """The generated blocks of a page, by board name."""
    return {m.group("name"): m.group("body") for m in _BLOCK.finditer(text)}


def update_doc(text: str, boards: list[Board]) -> str:
    """``text`` with each board's block replaced by a fresh one; :class:`DocError` if a block is missing."""
    found = doc_blocks(text)
    for board in boards:
        if board.name not in found:
            raise DocError(f"the page has no block '<!-- generated: {board.name} -->' … '<!-- end generated -->'")
    by_name = {b.name: b for b in boards}

    def repl(m: re.Match) -> str:
        board = by_name.get(m.group("name"))
        if board is None:
            return m.group(0)
        return m.group(1) + board_section(board) + m.group(4)
    return _BLOCK.sub(repl, text)
