"""The schematic drawing (SVG) of a table, drawn from its netlist.

A net-label schematic, as KiCad draws with global labels: each part is a box with its pins, each
connected pin ends in a label naming its net, and pins with the same label are wired together;
an open pin ends in a cross.  Parts are grouped as the build guide reads them (controller, power,
readers seat by seat, the LED chain in data order, buttons).

skidl's own SVG output needs the symbol graphics of KiCad's libraries (and a place-and-route
package); our parts are defined in code without graphics, so the drawing is made here.  It is
plain text with a fixed layout, so the committed drawing can be compared with a fresh one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from xml.sax.saxutils import escape

from .netlist import Component, Netlist
from .parts import SPECS, PinSpec

__all__ = ["drawing_svg"]

FONT = 11
CW = 6.7            # width of one character of the monospace font at FONT px
PIN_DY = 18         # distance between pins on a side
STUB = 22           # pin line outside the box
HEADER = 34         # ref and value lines at the top of a box
PAGE_W = 1800
MARGIN = 30
GAP_X, GAP_Y = 26, 34

SECTIONS = (("mcu", "Controller"), ("power", "Power: 5 V in, 3.3 V for the readers, Pico supply"),
            ("readers", "Readers (PN532, SPI): one cluster per seat"),
            ("leds", "LED chain: level shifter, then the rings in data order"), ("buttons", "Seat buttons"))
_POWER_NETS = {"+5V": "#c0392b", "+3V3": "#c0392b", "+3V3_RDR": "#c0392b", "VSYS": "#c0392b", "GND": "#2c3e50"}
_KIND_ORDER = {"RaspberryPi_Pico": 0, "PN532_Module": 0, "WS2812B_Ring": 0, "SW_Push": 0, "74AHCT125": 0,
               "Conn_Power_5V": 0, "R": 2, "C": 3, "CP": 3, "CP_Tantalum": 3}


def _w(text: str) -> float:
    return len(text) * CW


@dataclass
class _Box:
    comp: Component
    pins: dict[str, list[PinSpec]]
    nets: dict[int, str | None]
    w: float
    h: float
    left: float     # extents outside the box, for labels
    right: float
    top: float
    bottom: float

    @property
    def outer_w(self) -> float:
        return self.left + self.w + self.right

    @property
    def outer_h(self) -> float:
        return self.top + self.h + self.bottom


def _title(comp: Component) -> str:
    """``U3 seat0``: the reference, and the seat for a part that belongs to one."""
    seat = comp.fields.get("Seat")
    return f"{comp.ref} {seat}" if seat else comp.ref


def _label(net: str | None) -> str:
    return "" if net is None else net


def _box(comp: Component, netlist: Netlist) -> _Box:
    spec = SPECS[comp.part]
    sides: dict[str, list[PinSpec]] = {"L": [], "R": [], "T": [], "B": []}
    for p in spec.pins:
        sides[p.side].append(p)
    nets = {p.num: netlist.net_of(comp.ref, p.num) for p in spec.pins}
    named = not all(p.name == str(p.num) for p in spec.pins)   # passives: pin names are just numbers
    inner_l = max((_w(p.name) for p in sides["L"]), default=0) if named else 0
    inner_r = max((_w(p.name) for p in sides["R"]), default=0) if named else 0
    title = max(_w(_title(comp)) * 1.1, _w(comp.value)) + 16
    w = max(70.0, inner_l + inner_r + 30, title, (max(len(sides["T"]), len(sides["B"])) + 1) * 40)
    rows = max(len(sides["L"]), len(sides["R"]))
    h = HEADER + rows * PIN_DY + (8 if rows else 0)

    def ext(side: str) -> float:
        labels = [_w(_label(nets[p.num])) for p in sides[side]]
        return STUB + (max(labels) + 12 if any(labels) else 10) if sides[side] else 4

    top = STUB + 18 if sides["T"] else 4
    bottom = STUB + 18 if sides["B"] else 4
    # A top/bottom label is centred on its pin and may be wider than the box.
    wide = max((_w(_label(nets[p.num])) + 12 for p in sides["T"] + sides["B"]), default=0)
    left, right = ext("L"), ext("R")
    if wide > w:
        left, right = max(left, (wide - w) / 2), max(right, (wide - w) / 2)
    return _Box(comp=comp, pins=sides, nets=nets, w=w, h=h, left=left, right=right, top=top, bottom=bottom)


def _seat_key(comp: Component) -> tuple[int, str]:
    seat = comp.fields.get("Seat", "")
    m = re.match(r"seat(\d+)$", seat)
    if not seat:
        return (-1, "")
    return (int(m.group(1)), "") if m else (1 << 20, seat)


def _ref_num(ref: str) -> int:
    m = re.search(r"(\d+)$", ref)
    return int(m.group(1)) if m else 0


def _order(comps: list[Component]) -> list[Component]:
    def key(c: Component):
        chain = int(c.fields.get("Chain", "-1"))
        return (_seat_key(c) if chain < 0 else (chain, ""), _KIND_ORDER.get(c.part, 1), c.ref[:1], _ref_num(c.ref))
    return sorted(comps, key=key)


def _clusters(comps: list[Component]) -> list[list[Component]]:
    """Consecutive parts of the same seat (or chain position) as one cluster; others alone."""
    out: list[list[Component]] = []
    last = None
    for comp in comps:
        key = comp.fields.get("Seat") or None
        if key is not None and key == last:
            out[-1].append(comp)
        else:
            out.append([comp])
        last = key
    return out


def _text(x: float, y: float, s: str, size: int = FONT, anchor: str = "start", weight: str = "normal",
          fill: str = "#000") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}">{escape(s)}</text>')


def _net_label(x: float, y: float, net: str, anchor: str) -> list[str]:
    colour = _POWER_NETS.get(net, "#1e6b32")
    w = _w(net) + 8
    x0 = x - w if anchor == "end" else (x - w / 2 if anchor == "middle" else x)
    return [f'<rect x="{x0:.1f}" y="{y - 9:.1f}" width="{w:.1f}" height="18" rx="3" fill="#fff" '
            f'stroke="{colour}" stroke-width="1"/>',
            _text(x0 + 4, y + 4, net, 10, "start", "normal", colour).replace("<text ", '<text class="net" ', 1)]


def _draw_box(b: _Box, ox: float, oy: float) -> list[str]:
    x, y = ox + b.left, oy + b.top
    out = [f'<g id="{escape(b.comp.ref)}">',
           f'<rect x="{x:.1f}" y="{y:.1f}" width="{b.w:.1f}" height="{b.h:.1f}" fill="#fffbe6" stroke="#7a4b00" '
           f'stroke-width="1.5"/>',
           _text(x + b.w / 2, y + 14, _title(b.comp), FONT, "middle", "bold"),
           _text(x + b.w / 2, y + 27, b.comp.value, 10, "middle")]
    named = not all(p.name == str(p.num) for side in b.pins.values() for p in side)

    def stub(x1, y1, x2, y2, net, num, anchor, lx, ly):
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#000" stroke-width="1"/>')
        if y1 == y2:   # horizontal stub: number above it; vertical: to its left
            out.append(_text((x1 + x2) / 2, y1 - 3, str(num), 8, "middle", "normal", "#666"))
        else:
            out.append(_text(x1 - 3, (y1 + y2) / 2 + 3, str(num), 8, "end", "normal", "#666"))
        if net is None:
            out.append(f'<path d="M{x2 - 4:.1f},{y2 - 4:.1f} l8,8 M{x2 - 4:.1f},{y2 + 4:.1f} l8,-8" '
                       f'stroke="#1f3a93" stroke-width="1.5"/>')
        else:
            out.extend(_net_label(lx, ly, net, anchor))

    for i, p in enumerate(b.pins["L"]):
        py = y + HEADER + 8 + i * PIN_DY
        if named:
            out.append(_text(x + 5, py + 4, p.name, 10))
        stub(x, py, x - STUB, py, b.nets[p.num], p.num, "end", x - STUB - 2, py)
    for i, p in enumerate(b.pins["R"]):
        py = y + HEADER + 8 + i * PIN_DY
        if named:
            out.append(_text(x + b.w - 5, py + 4, p.name, 10, "end"))
        stub(x + b.w, py, x + b.w + STUB, py, b.nets[p.num], p.num, "start", x + b.w + STUB + 2, py)
    for side, y_edge, sign in (("T", y, -1), ("B", y + b.h, 1)):
        pins = b.pins[side]
        for i, p in enumerate(pins):
            px = x + b.w * (i + 1) / (len(pins) + 1)
            if named and sign > 0:      # bottom pin: its name inside the box, under the rows
                out.append(_text(px, y_edge - 5, p.name, 9, "middle"))
            elif named:                 # top pin: beside its stub, clear of the ref and value
                out.append(_text(px + 4, y_edge - 5, p.name, 9, "start", "normal", "#444"))
            end = y_edge + sign * STUB
            stub(px, y_edge, px, end, b.nets[p.num], p.num, "middle", px, end + sign * 9)
    out.append("</g>")
    return out


def drawing_svg(netlist: Netlist, title: str, subtitle: str = "") -> str:
    """The drawing of ``netlist`` as an SVG document (text)."""
    body: list[str] = []
    y: float = MARGIN + 46
    for group, heading in SECTIONS:
        comps = _order([c for c in netlist.components.values() if c.fields.get("Group") == group])
        if not comps:
            continue
        body.append(_text(MARGIN, y + 14, heading, 14, "start", "bold", "#333"))
        body.append(f'<line x1="{MARGIN}" y1="{y + 20}" x2="{PAGE_W - MARGIN}" y2="{y + 20}" stroke="#bbb"/>')
        y += 30
        x: float = MARGIN
        row_h = 0.0
        for cluster in _clusters(comps):
            boxes = [_box(comp, netlist) for comp in cluster]
            # A seat's parts stay on one row when they fit on one.
            width = sum(b.outer_w + GAP_X for b in boxes) - GAP_X
            if x + width > PAGE_W - MARGIN and x > MARGIN:
                x, y, row_h = float(MARGIN), y + row_h + GAP_Y, 0.0
            for b in boxes:
                if x + b.outer_w > PAGE_W - MARGIN and x > MARGIN:
                    x, y, row_h = float(MARGIN), y + row_h + GAP_Y, 0.0
                body.extend(_draw_box(b, x, y))
                x += b.outer_w + GAP_X
                row_h = max(row_h, b.outer_h)
        y += row_h + GAP_Y + 10
    height = y + MARGIN
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{PAGE_W}" height="{height:.0f}" '
            f'viewBox="0 0 {PAGE_W} {height:.0f}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace">',
            f'<title>{escape(title)}</title>',
            f'<rect x="0" y="0" width="{PAGE_W}" height="{height:.0f}" fill="#fff"/>',
            _text(MARGIN, MARGIN + 8, title, 18, "start", "bold"),
            _text(MARGIN, MARGIN + 28, subtitle, 11, "start", "normal", "#555"),
            _text(PAGE_W - MARGIN, MARGIN + 8, "pins with the same net label are connected; x = open pin;"
                  " small numbers are pin numbers", 10, "end", "normal", "#555")]
    return "\n".join(head + body + ["</svg>"]) + "\n"
