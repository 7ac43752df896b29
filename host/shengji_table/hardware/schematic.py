"""A table's circuit, generated from its board file with skidl.

    >>> sch = build_schematic(load_board("boards/table-4.json"))
    >>> sch.parts_in("readers")          # the PN532 modules, their caps and pull-ups

What is built (see ``docs/hardware.md`` for why):

* the Pico (U1), powered by USB from the host and, through a Schottky diode, from the 5 V supply;
* each PN532 module on the shared SPI bus (SCK/MOSI/MISO) with its own chip-select (10 k pull-up to
  the Pico's 3.3 V so a reader stays deselected while the Pico boots and an unpowered reader is not
  fed through it), reset and IRQ where the board file wires them (an unwired reset is tied high:
  low means power-down), 100 n + 10 u at its supply pins; 33 R in series at the Pico on SCK, MOSI
  and every chip select; a 2x6 seat cable connector at both ends of each reader's cable;
* a separate 3.3 V regulator for the readers, chosen by the power budget, with its input/output caps;
* the LED rings chained DIN -> DOUT in the order of their first pixel, fed through one gate of a
  74AHCT125 (3.3 V -> 5 V) and a 330 R series resistor, with 100 u at each ring's supply;
* one button per seat between its GPIO and ground (active low) or 3.3 V (active high), behind 1 k
  in series with a TVS clamp and 100 n at the line (players touch it), with an external pull
  resistor only where the board file asks for none inside the RP2040;
* a 3-pin input connector at each ring (5 V, data, ground);
* the 5 V input with a 1000 u bulk capacitor.

Every part carries the fields ``Group`` (power, mcu, readers, leds, buttons) and, where it belongs
to one, ``Seat`` (``0``.. or ``centre``) and ``Role``; the netlist carries them, and the pin check
(:mod:`.check`) reads the wiring back from the netlist through them.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from . import eda
from ..board import CENTRE, Board, Seat
from .parts import (BUTTON, CAPACITOR, CAPACITOR_POLARISED, CAPACITOR_TANTALUM, LED_RING, LEVEL_SHIFTER, PICO,
                    PN532, POWER_IN, RESISTOR, RING_CABLE_AWG, RING_CONNECTOR, SCHOTTKY, SEAT_CABLE_PINS,
                    SEAT_CONNECTOR, TVS, PartSpec, pico_pin_of_gpio)
from .power import PowerBudget, budget

__all__ = ["Schematic", "SchematicError", "build_schematic", "seat_label", "GROUPS"]

GROUPS = ("power", "mcu", "readers", "leds", "buttons")


class SchematicError(ValueError):
    """The board file asks for wiring that cannot work (e.g. unused pixels between two rings of the LED chain)."""


def seat_label(seat: Seat) -> str:
    """``"seat0"`` .. or ``"centre"``: how nets and fields name a seat."""
    return CENTRE if seat == CENTRE else f"seat{seat}"


@dataclass
class Schematic:
    """A board's circuit: the skidl ``Circuit`` plus the board and power budget it came from."""
    board: Board
    budget: PowerBudget
    circuit: Any
    parts: list[Any] = field(default_factory=list)   # skidl Parts in the order they were placed

    def parts_in(self, group: str) -> list[Any]:
        """The parts of one group (``power``, ``mcu``, ``readers``, ``leds``, ``buttons``)."""
        return [p for p in self.parts if p.fields.get("Group") == group]

    def part(self, ref: str) -> Any:
        """The part with reference ``ref`` (``KeyError`` if none)."""
        for p in self.parts:
            if p.ref == ref:
                return p
        raise KeyError(ref)


class _Builder:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.sk = eda.skidl()
        self.circuit = self.sk.Circuit()
        self.circuit.no_files = True
        self.counters: Counter[str] = Counter()
        self.parts: list[Any] = []
        self.nets: dict[str, Any] = {}

    def net(self, name: str) -> Any:
        if name not in self.nets:
            self.nets[name] = self.sk.Net(name, circuit=self.circuit)
        return self.nets[name]

    def part(self, spec: PartSpec, group: str, *, value: str | None = None, seat: Seat | None = None,
             role: str = "", **fields: str) -> Any:
        self.counters[spec.ref_prefix] += 1
        ref = f"{spec.ref_prefix}{self.counters[spec.ref_prefix]}"
        Pin = self.sk.Pin
        pins = [Pin(num=p.num, name=p.name, func=getattr(Pin.types, p.type)) for p in spec.pins]
        part = self.sk.Part(tool=self.sk.SKIDL, name=spec.name, ref=ref, tag=ref, circuit=self.circuit,
                            value=value or spec.value, footprint=spec.footprint, pins=pins,
                            description=spec.description)
        part.fields["Group"] = group
        if seat is not None:
            part.fields["Seat"] = seat_label(seat)
        if role:
            part.fields["Role"] = role
        part.fields["Buy"] = spec.buy
        part.fields.update(fields)
        self.parts.append(part)
        return part

    def connect(self, net_name: str, *pins: Any) -> None:
        net = self.net(net_name)
        for pin in pins:
            net += pin

    def no_connect(self, *pins: Any) -> None:
        for pin in pins:
            self.circuit.NC += pin

    def decouple(self, group: str, rail: str, value: str, seat: Seat | None = None, role: str = "decoupling",
                 polarised: bool = False, spec: PartSpec | None = None) -> None:
        spec = spec or (CAPACITOR_POLARISED if polarised else CAPACITOR)
        c = self.part(spec, group, value=value, seat=seat, role=role)
        self.connect(rail, c[1])
        self.connect("GND", c[2])


def build_schematic(board: Board) -> Schematic:
    """The circuit of ``board``; raises :class:`SchematicError` for wiring that cannot work."""
    _check_buildable(board)
    power = budget(board)
    b = _Builder(board)
    sk = b.sk

    pico = b.part(PICO, "mcu", role="controller")   # placed first: U1

    def gp(gpio: int) -> Any:
        return pico.p[pico_pin_of_gpio(gpio)]

    # The sections in this order: the parts' reference numbers follow it.
    _power_section(b, power)
    _pico_section(b, pico)
    _reader_section(b, board, gp)
    _led_section(b, board, gp)
    _button_section(b, board, gp, pico)
    _cable_section(b, board)
    # Power enters at J1 (+5V, GND) and through D1 (VSYS): the skidl equivalent of KiCad's PWR_FLAG.
    for name in ("+5V", "GND", "VSYS"):
        b.net(name).drive = sk.POWER
    return Schematic(board=board, budget=power, circuit=b.circuit, parts=b.parts)


def _power_section(b: _Builder, power) -> None:
    """5 V in, bulk capacitor, Pico supply through D1, reader regulator."""
    j1 = b.part(POWER_IN, "power", role="5 V supply input",
                Rating=f"{power.supply_a} A ({power.uncapped_ma} mA worst case, LEDs uncapped)")
    b.connect("+5V", j1[1])
    b.connect("GND", j1[2])
    b.decouple("power", "+5V", "1000u", role="bulk capacitor at the 5 V input", polarised=True)
    reg = power.regulator
    u_reg = b.part(reg.spec, "power", role="3.3 V regulator for the readers")
    b.connect("+5V", u_reg["VIN"])
    b.connect("+3V3_RDR", u_reg["VOUT"])
    b.connect("GND", u_reg["GND"])
    b.decouple("power", "+5V", reg.in_cap, role="regulator input")
    b.decouple("power", "+3V3_RDR", reg.out_cap, role="regulator output (stability)", spec=CAPACITOR_TANTALUM)
    d_sys = b.part(SCHOTTKY, "power", role="5 V supply -> Pico VSYS")
    b.connect("+5V", d_sys["A"])
    b.connect("VSYS", d_sys["K"])


def _pico_section(b: _Builder, pico) -> None:
    """The Pico's ground and supply pins."""
    for pin in pico.pins:
        if pin.name in ("GND", "AGND"):
            b.connect("GND", pin)
    b.connect("VSYS", pico["VSYS"])
    # VBUS stays off the 5 V rail: the host's USB never powers the rings, the supply never feeds USB.
    # RUN and 3V3_EN have pull-ups inside the module; ADC_VREF is filtered inside it.
    b.no_connect(pico["VBUS"], pico["RUN"], pico["3V3_EN"], pico["ADC_VREF"])


SERIES_SPI = "33"     # ohms, at the Pico: damps the edges on a long star of SPI cables


def _series(b: _Builder, group: str, value: str, mcu_net: str, far_net: str, role: str,
            seat: Seat | None = None) -> None:
    """A series resistor between the Pico's side of a line and the cable's."""
    r = b.part(RESISTOR, group, value=value, seat=seat, role=role)
    b.connect(mcu_net, r[1])
    b.connect(far_net, r[2])


def _reader_section(b: _Builder, board: Board, gp) -> None:
    """The PN532 readers on one SPI bus, each with its chip select, reset, IRQ, decoupling and cable."""
    spi = board.spi
    for name, gpio in (("SCK", spi.sck), ("MOSI", spi.mosi)):
        b.connect(f"SPI_{name}_MCU", gp(gpio))
        _series(b, "readers", SERIES_SPI, f"SPI_{name}_MCU", f"SPI_{name}",
                f"series resistor (SPI {name}, at the Pico)")
    b.connect("SPI_MISO", gp(spi.miso))
    for reader in board.readers:
        label = seat_label(reader.seat).upper()
        u = b.part(PN532, "readers", seat=reader.seat, role="reader", Reader=reader.name)
        b.connect("+3V3_RDR", u["VCC"])
        b.connect("GND", u["GND"])
        for name in ("SCK", "MOSI", "MISO"):
            b.connect(f"SPI_{name}", u[name])
        cs_net = f"CS_{label}"
        b.connect(f"{cs_net}_MCU", gp(reader.cs))
        # The pull-up hangs on the Pico's own 3.3 V: an unpowered reader is never fed through it.
        r_cs = b.part(RESISTOR, "readers", value="10k", seat=reader.seat, role="chip-select pull-up")
        b.connect(f"{cs_net}_MCU", r_cs[1])
        b.connect("+3V3", r_cs[2])
        _series(b, "readers", SERIES_SPI, f"{cs_net}_MCU", cs_net, "series resistor (chip select, at the Pico)",
                reader.seat)
        b.connect(cs_net, u["NSS"])
        if reader.rst is not None:
            b.connect(f"RST_{label}", gp(reader.rst), u["RSTPDN"])
        else:
            b.connect("+3V3_RDR", u["RSTPDN"])   # low = power-down: an unwired reset must be held high
        if reader.irq is not None:
            b.connect(f"IRQ_{label}", gp(reader.irq), u["IRQ"])
        else:
            b.no_connect(u["IRQ"])
        b.decouple("readers", "+3V3_RDR", "100n", seat=reader.seat)
        b.decouple("readers", "+3V3_RDR", "10u", seat=reader.seat, role="local reservoir (RF bursts)")


def _cable_section(b: _Builder, board: Board) -> None:
    """A seat cable per reader: the same 2x6 connector at the Pico's end and at the seat's."""
    for reader in board.readers:
        label = seat_label(reader.seat).upper()
        wired = {"+3V3_RDR": "+3V3_RDR", "GND": "GND", "SCK": "SPI_SCK", "MOSI": "SPI_MOSI", "MISO": "SPI_MISO",
                 "NSS": f"CS_{label}", "RSTPDN": f"RST_{label}" if reader.rst is not None else None,
                 "IRQ": f"IRQ_{label}" if reader.irq is not None else None,
                 "BUTTON": f"BTN_{label}" if reader.seat != CENTRE else None}
        for end in ("Pico", "seat"):
            j = b.part(SEAT_CONNECTOR, "readers", seat=reader.seat, role=f"seat cable, {end} end")
            for num, name in SEAT_CABLE_PINS.items():
                net = wired[name]
                if net is None:
                    b.no_connect(j[num])
                else:
                    b.connect(net, j[num])


def _led_section(b: _Builder, board: Board, gp) -> None:
    """The LED rings in one chain behind a level shifter and a series resistor."""
    shifter = b.part(LEVEL_SHIFTER, "leds",
                     role="LED data level shifter (on the Pico board, beside the ring connectors)")
    b.connect("+5V", shifter["VCC"])
    b.connect("GND", shifter["GND"], shifter["1OE"])
    b.connect("LED_DATA_3V3", gp(board.leds.pin), shifter["1A"])
    # Unused gates: inputs to ground, outputs disabled (OE high) and left open.
    b.connect("GND", shifter["2A"], shifter["3A"], shifter["4A"])
    b.connect("+5V", shifter["2OE"], shifter["3OE"], shifter["4OE"])
    b.no_connect(shifter["2Y"], shifter["3Y"], shifter["4Y"])
    b.decouple("leds", "+5V", "100n")
    r_series = b.part(RESISTOR, "leds", value="330", role="LED data series resistor")
    b.connect("LED_DATA_5V", shifter["1Y"], r_series[1])
    rings = board.leds.rings   # sorted by first pixel = position in the chain
    data_net = "LED_DIN_" + seat_label(rings[0].seat).upper()
    b.connect(data_net, r_series[2])
    for i, ring in enumerate(rings):
        d = b.part(LED_RING, "leds", value=f"WS2812B ring, {ring.count} LEDs", seat=ring.seat, role="ring",
                   Pixels=f"{ring.first}-{ring.end - 1}", Chain=str(i))
        b.connect(data_net, d["DIN"])
        b.connect("+5V", d["VDD"])
        b.connect("GND", d["GND"])
        j = b.part(RING_CONNECTOR, "leds", seat=ring.seat, role="ring input connector",
                   Cable=f"AWG {RING_CABLE_AWG}")
        b.connect("+5V", j["+5V"])
        b.connect(data_net, j["DIN"])
        b.connect("GND", j["GND"])
        b.decouple("leds", "+5V", "100u", seat=ring.seat, role="ring supply reservoir", polarised=True)
        if i + 1 < len(rings):
            data_net = "LED_DIN_" + seat_label(rings[i + 1].seat).upper()
            b.connect(data_net, d["DOUT"])
        else:
            b.no_connect(d["DOUT"])


BUTTON_SERIES = "1k"      # limits the current of a discharge into the GPIO, with the TVS at the line


def _button_section(b: _Builder, board: Board, gp, pico) -> None:
    """The seat buttons with their ESD parts, the Pico's 3.3 V output, the unused GPIOs left open."""
    for button in sorted(board.buttons, key=lambda x: x.seat):
        label = seat_label(button.seat).upper()
        sw = b.part(BUTTON, "buttons", seat=button.seat, role=f"button, active {button.active}")
        net = f"BTN_{label}"
        b.connect(f"{net}_MCU", gp(button.pin))
        _series(b, "buttons", BUTTON_SERIES, f"{net}_MCU", net, "series resistor (button, ESD)", button.seat)
        b.connect(net, sw[1])
        b.connect("GND" if button.active == "low" else "+3V3", sw[2])
        tvs = b.part(TVS, "buttons", seat=button.seat, role="button ESD clamp")
        b.connect(net, tvs["K"])
        b.connect("GND", tvs["A"])
        b.decouple("buttons", net, "100n", seat=button.seat, role="button filter (ESD, RF pick-up)")
        if button.pull == "none":   # nothing inside the RP2040: pull to the idle level outside
            r = b.part(RESISTOR, "buttons", value="10k", seat=button.seat,
                       role="button pull-" + ("up" if button.active == "low" else "down"))
            b.connect(f"{net}_MCU", r[1])
            b.connect("+3V3" if button.active == "low" else "GND", r[2])
    # The chip-select pull-ups always use the Pico's 3.3 V.
    b.connect("+3V3", pico["3V3_OUT"])
    # Unused GPIOs are deliberately open.
    for pin in pico.pins:
        if pin.net is None:
            b.no_connect(pin)


def _check_buildable(board: Board) -> None:
    """Wiring the validator accepts but a circuit cannot realise."""
    rings = board.leds.rings
    expected = 0
    for ring in rings:
        if ring.first != expected:
            raise SchematicError(
                f"leds.rings: the ring of {seat_label(ring.seat)} starts at pixel {ring.first}, but the chain "
                f"before it ends at pixel {expected - 1}: rings are chained DOUT -> DIN, so the next ring "
                f"starts at pixel {expected}")
        expected = ring.end
    for button in board.buttons:
        if (button.pull, button.active) in (("up", "high"), ("down", "low")):
            raise SchematicError(
                f"buttons (seat {button.seat}, GP{button.pin}): pull {button.pull} with active {button.active} "
                f"reads 'pressed' while the button is released")
