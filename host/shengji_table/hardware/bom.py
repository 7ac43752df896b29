"""The bill of materials of a table, read from its netlist (so it lists exactly what is wired).

One line per kind of part (same symbol, value and footprint), with the quantity, references and
seats; then the things that are not on the circuit but must be bought: the 5 V supply sized by the
power budget (every LED full white) and its fuse, the USB cable, a ferrite sheet per reader for
tables with a metal or dense top, the cables, and the NTAG stickers of the presets the table seats.
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

from .netlist import Component, Netlist
from ..rules.ruleset import PRESETS, Ruleset
from .parts import RING_CABLE_AWG
from .power import SUPPLY_V, PowerBudget

__all__ = ["BomLine", "bom_lines", "bom_csv", "COLUMNS"]

COLUMNS = ("item", "qty", "references", "value", "part", "footprint", "seats", "group", "description", "buy")
_GROUP_ORDER = {"mcu": 0, "readers": 1, "leds": 2, "buttons": 3, "power": 4, "": 5, "off-board": 6}


@dataclass(frozen=True)
class BomLine:
    """One line of the BOM."""
    qty: int
    references: tuple[str, ...]
    value: str
    part: str
    footprint: str
    seats: tuple[str, ...]
    group: str
    description: str
    buy: str


def _ref_key(ref: str) -> tuple[str, int]:
    m = re.match(r"([A-Za-z]+)(\d+)$", ref)
    return (m.group(1), int(m.group(2))) if m else (ref, 0)


def _seat_key(seat: str) -> tuple[int, str]:
    m = re.match(r"seat(\d+)$", seat)
    return (int(m.group(1)), "") if m else (1 << 30, seat)


CARDS_PER_DECK = 54
STICKER_SPARES = 0.1          # a tenth more: a sticker torn, a card replaced


def stickers(seats: int) -> tuple[int, str]:
    """(stickers to buy, the count per preset) for the presets a table of ``seats`` seats plays: one
    NTAG sticker a physical card, for the preset with the most decks, a tenth more, in tens."""
    decks: dict[int, list[str]] = {}
    for name in PRESETS:
        rs = Ruleset.from_preset(name)
        if rs.players <= seats:
            decks.setdefault(rs.decks, []).append(name)
    most = max(decks)
    buy = -(-int(most * CARDS_PER_DECK * (1 + STICKER_SPARES)) // 10) * 10
    per = "; ".join(f"{n * CARDS_PER_DECK} for {', '.join(sorted(names))}" for n, names in sorted(decks.items()))
    return buy, per


# long: the off-board items are one list, read top to bottom
def bom_lines(netlist: Netlist, power: PowerBudget | None = None, players: int | None = None) -> list[BomLine]:
    """Group the netlist's components into BOM lines; with ``power``, add the off-board items (and
    with ``players``, the table's seats, the stickers of the presets it plays)."""
    groups: dict[tuple[str, str, str], list[Component]] = {}
    for comp in netlist.components.values():
        key = (comp.part, comp.value, comp.fields.get("Footprint", ""))
        groups.setdefault(key, []).append(comp)
    lines = []
    for (part, value, footprint), comps in groups.items():
        comps.sort(key=lambda c: _ref_key(c.ref))
        first = comps[0]
        seats = sorted({c.fields["Seat"] for c in comps if c.fields.get("Seat")}, key=_seat_key)
        # Identical parts used in several places (a 10 u on the regulator and at each reader) share
        # a line; the line names every group it serves.
        group = " ".join(sorted({c.fields.get("Group", "") for c in comps}, key=lambda g: _GROUP_ORDER.get(g, 5)))
        lines.append(BomLine(qty=len(comps), references=tuple(c.ref for c in comps), value=value, part=part,
                             footprint=footprint, seats=tuple(seats), group=group,
                             description=first.fields.get("Description", ""), buy=first.fields.get("Buy", "")))
    if power is not None:
        lines += [
            BomLine(qty=1, references=(), value=f"{SUPPLY_V:g} V {power.supply_a} A", part="power supply",
                    footprint="", seats=(), group="off-board",
                    description=f"mains adapter for J1; worst case {power.uncapped_ma} mA with every LED full "
                                f"white ({power.total_ma} mA at the firmware's cap; docs/hardware.md)",
                    buy=f"regulated {SUPPLY_V:g} V DC power supply (4.9-5.1 V), at least {power.supply_a} A"),
            BomLine(qty=1, references=(), value=f"{power.fuse_a} A slow-blow", part="fuse", footprint="", seats=(),
                    group="off-board",
                    description="in the supply's + lead before J1: a short on the 5 V wiring blows it, not the "
                                "wires",
                    buy=f"{power.fuse_a} A slow-blow fuse, 5x20 mm, with an inline holder for the supply lead"),
            BomLine(qty=1, references=(), value="USB cable", part="cable", footprint="", seats=(), group="off-board",
                    description="Pico to host: serial link (and the Pico's power while flashing)",
                    buy="USB cable, micro-B to the host's port, data-capable"),
            BomLine(qty=power.readers, references=(), value="ferrite sheet", part="ferrite sheet", footprint="",
                    seats=(), group="off-board",
                    description="under each reader's antenna on a metal or dense table top (restores range)",
                    buy="NFC ferrite sheet, at least the antenna's size (optional on wood)"),
            BomLine(qty=power.readers, references=(), value="12-way ribbon + 2 IDC sockets", part="seat cable",
                    footprint="", seats=(), group="off-board",
                    description="one per reader, Pico board to seat (J seat cable); at most 50 cm at 1 MHz SPI, "
                                "1 m at 500 kHz (docs/hardware.md, cable lengths)",
                    buy="12-way 1.27 mm ribbon cable and two 2x6 IDC sockets per cable"),
            BomLine(qty=power.rings, references=(), value=f"3-core 0.75 mm2 (AWG {RING_CABLE_AWG})",
                    part="ring cable", footprint="", seats=(), group="off-board",
                    description="one per ring: 5 V, data, ground from the Pico board's ring connector to the "
                                "ring (5 V and ground rated for the uncapped worst case)",
                    buy=f"3-core flexible cable, 0.75 mm2 (AWG {RING_CABLE_AWG}), with a JST-VH VHR-3N housing "
                        f"and SVH crimps at the board end"),
            BomLine(qty=max(power.rings - 1, 0), references=(), value="1-core AWG 24", part="ring data wire",
                    footprint="", seats=(), group="off-board",
                    description="from each ring's DOUT back to the Pico board's connector of the next ring in the "
                                "chain (its DIN net; the drawing's chain order)",
                    buy="stranded hookup wire, AWG 24, with a JST-VH crimp at the board end"),
        ]
        if players is not None:
            buy, per = stickers(players)
            lines.append(BomLine(qty=buy, references=(), value="NTAG213 sticker", part="card tags", footprint="",
                                 seats=(), group="off-board",
                                 description=f"one per physical card, {CARDS_PER_DECK} a deck: {per}; a tenth "
                                             f"spare (enrol at ~2 s a card: 108 cards about 4 min)",
                                 buy="NTAG213 round stickers, 25 mm or smaller (fits a card's back)"))
    lines.sort(key=lambda l: (_GROUP_ORDER.get(l.group.split(" ")[0], 5), l.part,
                              _ref_key(l.references[0]) if l.references else ("", 0), l.value))
    return lines


def bom_csv(lines: list[BomLine]) -> str:
    """The BOM as CSV text (header row, then one row a line; ``\\n`` line ends)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for i, line in enumerate(lines, 1):
        writer.writerow([i, line.qty, " ".join(line.references), line.value, line.part, line.footprint,
                         " ".join(line.seats), line.group, line.description, line.buy])
    return out.getvalue()
