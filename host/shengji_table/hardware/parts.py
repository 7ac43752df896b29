"""The parts of a table's circuit, defined in code: pins, electrical types, footprints, what to buy.

Each :class:`PartSpec` lists its pins with the electrical type the rules check (ERC) needs and the
side of the symbol the drawing puts them on, so no KiCad symbol library is needed at run time.
Pin numbers are those printed on the part or module (the Pico's are its 40 header pins).
"""
from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["PinSpec", "PartSpec", "PICO", "PN532", "LED_RING", "LEVEL_SHIFTER", "BUTTON", "RESISTOR",
           "CAPACITOR", "CAPACITOR_POLARISED", "SCHOTTKY", "POWER_IN", "REGULATORS", "Regulator", "TVS",
           "SEAT_CONNECTOR", "SEAT_CABLE_PINS", "RING_CONNECTOR", "pico_pin_of_gpio", "gpio_of_pico_pin", "SPECS"]

# Electrical pin types, named as skidl's ``Pin.types`` members (resolved when the circuit is built).
IN, OUT, BIDIR, TRI, PASSIVE, PWRIN, PWROUT, NC = ("INPUT", "OUTPUT", "BIDIR", "TRISTATE", "PASSIVE",
                                                  "PWRIN", "PWROUT", "NOCONNECT")


@dataclass(frozen=True)
class PinSpec:
    """One pin: number on the part, name, electrical type, and the drawing side (L, R, T, B)."""
    num: int
    name: str
    type: str
    side: str = "L"


@dataclass(frozen=True)
class PartSpec:
    """A kind of part: what the schematic instantiates and the bill of materials lists."""
    name: str           # symbol name in the netlist (libsource part)
    ref_prefix: str     # reference designator letter(s): U, R, C, …
    value: str          # default value
    footprint: str      # KiCad footprint name (for a PCB; modules are hand-wired on headers)
    description: str
    buy: str            # what to order (part number or module), for the BOM
    pins: tuple[PinSpec, ...] = field(default=())
    awg: tuple[int, int] | None = None   # a wire connector: the gauges it takes (thinnest, thickest)


def _pins(*rows: tuple) -> tuple[PinSpec, ...]:
    return tuple(PinSpec(*row) for row in rows)


# --- Raspberry Pi Pico (RP2040 module).  Header pin numbers per the Pico datasheet, fig. 2. -------
# GPIO -> header pin.  GP23/24/25/29 are inside the module (see board.INTERNAL_PINS).
_PICO_GPIO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
                  12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
                  22: 29, 26: 31, 27: 32, 28: 34}
_PICO_OTHER = {3: ("GND", PWRIN), 8: ("GND", PWRIN), 13: ("GND", PWRIN), 18: ("GND", PWRIN),
               23: ("GND", PWRIN), 28: ("GND", PWRIN), 38: ("GND", PWRIN), 33: ("AGND", PWRIN),
               30: ("RUN", IN), 35: ("ADC_VREF", PWRIN), 36: ("3V3_OUT", PWROUT), 37: ("3V3_EN", IN),
               # VSYS is the module's supply input (fed through a Schottky diode, Pico datasheet 4.5);
               # VBUS is the USB 5 V, an output of the module when the USB cable powers it.
               39: ("VSYS", PWRIN), 40: ("VBUS", PWROUT)}


def pico_pin_of_gpio(gpio: int) -> int:
    """The Pico header pin (1..40) that carries ``gpio``; ``KeyError`` for an internal GPIO."""
    return _PICO_GPIO_PIN[gpio]


def gpio_of_pico_pin(pin: int) -> int | None:
    """The GPIO on Pico header pin ``pin``, or ``None`` for a power/control pin."""
    return next((g for g, p in _PICO_GPIO_PIN.items() if p == pin), None)


def _pico_pins() -> tuple[PinSpec, ...]:
    rows = []
    for num in range(1, 41):
        side = "L" if num <= 20 else "R"   # the module's two rows, as it lies on the drawing
        gpio = gpio_of_pico_pin(num)
        if gpio is not None:
            name = f"GP{gpio}" + (f"_ADC{gpio - 26}" if gpio >= 26 else "")
            rows.append(PinSpec(num, name, BIDIR, side))
        else:
            name, kind = _PICO_OTHER[num]
            rows.append(PinSpec(num, name, kind, side))
    return tuple(rows)


PICO = PartSpec(
    name="RaspberryPi_Pico", ref_prefix="U", value="Raspberry Pi Pico",
    footprint="Module:RaspberryPi_Pico_Common_THT",
    description="RP2040 microcontroller module, runs the MicroPython firmware; USB to the host",
    buy="Raspberry Pi Pico (SC0915) with headers", pins=_pico_pins())

# --- PN532 NFC reader module, SPI mode.  Pin names are the PN532's (UM0701-02); breakouts print
# NSS as SS/SSEL and RSTPDN as RST.  The interface is chosen by the module's switches/jumpers:
# SPI = I0 low, I1 high (PN532 datasheet, table "interface selection").  Some modules bring out
# RSTO (a reset *output*) instead of RSTPDN: wire nothing there and use "rst": null (the per-module
# table in docs/hardware.md says which pin is which).
PN532 = PartSpec(
    name="PN532_Module", ref_prefix="U", value="PN532 module (SPI)",
    footprint="Connector_PinHeader_2.54mm:PinHeader_1x08_P2.54mm_Vertical",
    description="NFC reader for the NTAG card stickers; set its interface switches to SPI (I0=L, I1=H)",
    buy="PN532 NFC module, 3.3 V, SPI (e.g. Elechouse PN532 V3 or Adafruit 364)",
    pins=_pins((1, "VCC", PWRIN, "T"), (2, "GND", PWRIN, "B"), (3, "SCK", IN, "L"), (4, "MOSI", IN, "L"),
               (5, "MISO", TRI, "L"), (6, "NSS", IN, "L"), (7, "IRQ", OUT, "R"), (8, "RSTPDN", IN, "R")))

# --- WS2812B ring: one module with DIN/DOUT so rings chain on one data line.
LED_RING = PartSpec(
    name="WS2812B_Ring", ref_prefix="D", value="WS2812B ring",
    footprint="Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical",
    description="seat ring of addressable RGB LEDs, 5 V, chained DIN -> DOUT",
    buy="WS2812B LED ring, 5 V",
    pins=_pins((1, "DIN", IN, "L"), (2, "DOUT", OUT, "R"), (3, "VDD", PWRIN, "T"), (4, "GND", PWRIN, "B")))

# --- 74AHCT125: quad buffer with TTL-level inputs, so 3.3 V logic drives it on a 5 V supply and
# its 5 V outputs meet the WS2812's VIH (0.7 VDD).  Output enables are active low.
LEVEL_SHIFTER = PartSpec(
    name="74AHCT125", ref_prefix="U", value="74AHCT125",
    footprint="Package_SO:SOIC-14_3.9x8.7mm_P1.27mm",
    description="3.3 V -> 5 V level shifter for the LED data line (quad buffer, TTL inputs)",
    buy="74AHCT125 (SOIC-14 or DIP-14, e.g. SN74AHCT125N)",
    pins=_pins((1, "1OE", IN, "L"), (2, "1A", IN, "L"), (3, "1Y", TRI, "R"), (4, "2OE", IN, "L"),
               (5, "2A", IN, "L"), (6, "2Y", TRI, "R"), (7, "GND", PWRIN, "B"), (8, "3Y", TRI, "R"),
               (9, "3A", IN, "L"), (10, "3OE", IN, "L"), (11, "4Y", TRI, "R"), (12, "4A", IN, "L"),
               (13, "4OE", IN, "L"), (14, "VCC", PWRIN, "T")))

BUTTON = PartSpec(
    name="SW_Push", ref_prefix="SW", value="seat button",
    footprint="Button_Switch_THT:SW_PUSH_6mm", description="seat button (momentary, normally open)",
    buy="momentary push button, normally open (panel mount)",
    pins=_pins((1, "1", PASSIVE, "L"), (2, "2", PASSIVE, "R")))

RESISTOR = PartSpec(
    name="R", ref_prefix="R", value="10k", footprint="Resistor_SMD:R_0805_2012Metric",
    description="resistor", buy="resistor 0805 1 %", pins=_pins((1, "1", PASSIVE, "L"), (2, "2", PASSIVE, "R")))

CAPACITOR = PartSpec(
    name="C", ref_prefix="C", value="100n", footprint="Capacitor_SMD:C_0805_2012Metric",
    description="ceramic capacitor", buy="ceramic capacitor 0805, X7R or X5R, 16 V",
    pins=_pins((1, "1", PASSIVE, "T"), (2, "2", PASSIVE, "B")))

# The LDOs' output capacitor: AMS1117 and LM1085 are stable with a tantalum of 22 uF (an ESR the
# datasheets give a range for); a ceramic alone has too little ESR.
CAPACITOR_TANTALUM = PartSpec(
    name="CP_Tantalum", ref_prefix="C", value="22u", footprint="Capacitor_Tantalum_SMD:CP_EIA-3528-21_Kemet-B",
    description="tantalum capacitor (LDO output stability)", buy="tantalum capacitor 22 uF, 10 V, case B",
    pins=_pins((1, "+", PASSIVE, "T"), (2, "-", PASSIVE, "B")))

CAPACITOR_POLARISED = PartSpec(
    name="CP", ref_prefix="C", value="1000u", footprint="Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
    description="electrolytic capacitor", buy="electrolytic capacitor, 10 V or more",
    pins=_pins((1, "+", PASSIVE, "T"), (2, "-", PASSIVE, "B")))

SCHOTTKY = PartSpec(
    name="D_Schottky", ref_prefix="D", value="1N5819", footprint="Diode_THT:D_DO-41_SOD81_P10.16mm_Horizontal",
    description="Schottky diode: the 5 V supply feeds the Pico's VSYS without back-feeding USB",
    buy="1N5819 Schottky diode (1 A, 40 V)",
    pins=_pins((1, "K", PASSIVE, "R"), (2, "A", PASSIVE, "L")))

# A keyed connector: the supply lead cannot go in the wrong way round (a screw terminal can), and it
# carries the uncapped worst case (8 A on table-6; a barrel jack is rated 5 A at most).
POWER_IN = PartSpec(
    name="Conn_Power_5V", ref_prefix="J", value="5 V in",
    footprint="Connector_AMASS:AMASS_XT30U-M_1x02_P5.0mm_Vertical",
    description="5 V supply input (keyed: it cannot be plugged in reversed)",
    buy="XT30 male PCB connector (keyed, 15 A) and an XT30 female on the supply lead, after its fuse",
    pins=_pins((1, "+5V", PASSIVE, "R"), (2, "GND", PASSIVE, "R")))


# --- ESD protection where players touch: the seat buttons and their leads.  A unidirectional TVS
# with a 3.3 V working voltage clamps a discharge before the 1 k series resistor and the GPIO.
TVS = PartSpec(
    name="D_TVS", ref_prefix="D", value="PESD3V3S1UL", footprint="Diode_SMD:D_SOD-323",
    description="ESD protection of a button line (3.3 V working voltage, to ground)",
    buy="ESD protection diode 3.3 V, SOD-323 (e.g. Nexperia PESD3V3S1UL)",
    pins=_pins((1, "K", PASSIVE, "T"), (2, "A", PASSIVE, "B")))

# --- The seat cable: one 12-way ribbon from the Pico's board to each seat (reader and button), a
# ground wire between the fast SPI lines (SCK, MOSI, MISO) so each has its own return path.  The
# same pinout at both ends; pin -> signal:
SEAT_CABLE_PINS = {1: "+3V3_RDR", 2: "GND", 3: "SCK", 4: "GND", 5: "MOSI", 6: "GND", 7: "MISO", 8: "GND",
                   9: "NSS", 10: "RSTPDN", 11: "IRQ", 12: "BUTTON"}
SEAT_CONNECTOR = PartSpec(
    name="Conn_02x06_Seat", ref_prefix="J", value="seat cable 2x6",
    footprint="Connector_IDC:IDC-Header_2x06_P2.54mm_Vertical",
    description="seat cable connector (reader SPI, reset, IRQ, button; grounds between the SPI lines)",
    buy="2x6 IDC box header 2.54 mm (and a 12-way IDC socket on the cable)",
    pins=_pins(*((n, name, PASSIVE, "L" if n % 2 else "R") for n, name in SEAT_CABLE_PINS.items())))

# --- A ring's input: 5 V, ground and its data line (from the level shifter or the ring before).
# The ring cable carries a ring's uncapped full white (16 LEDs: about 1 A) in 0.75 mm2 (AWG 18),
# which JST-XH crimps do not take (AWG 28-22): JST-VH (AWG 22-16, 10 A).
RING_CABLE_AWG = 18
RING_CONNECTOR = PartSpec(
    name="Conn_01x03_Ring", ref_prefix="J", value="ring input 1x3",
    footprint="Connector_JST:JST_VH_B3P-VH_1x03_P3.96mm_Vertical",
    description="LED ring input: 5 V, data in, ground (5 V and ground in 0.75 mm2 wire)",
    buy="JST-VH 3-pin header B3P-VH + VHR-3N housing and SVH crimps (AWG 22-16, 10 A)",
    pins=_pins((1, "+5V", PASSIVE, "R"), (2, "DIN", PASSIVE, "R"), (3, "GND", PASSIVE, "R")),
    awg=(22, 16))


@dataclass(frozen=True)
class Regulator:
    """A 3.3 V linear regulator for the readers: what it can deliver and what its package sheds."""
    spec: PartSpec
    max_ma: int        # rated output current
    max_watts: float   # dissipation the package handles as wired (see docs/hardware.md)
    dropout_v: float   # at max_ma
    in_cap: str
    out_cap: str


def _regulator(name: str, footprint: str, description: str, buy: str) -> PartSpec:
    # Both candidates share the 1117/1085 pinout: 1 GND(ADJ), 2 VOUT (and tab), 3 VIN.
    return PartSpec(name=name, ref_prefix="U", value=name, footprint=footprint, description=description,
                    buy=buy, pins=_pins((1, "GND", PWRIN, "B"), (2, "VOUT", PWROUT, "R"),
                                        (3, "VIN", PWRIN, "L")))


# Smallest first: the power budget picks the first one that fits (power.choose_regulator).
REGULATORS = (
    Regulator(_regulator("AMS1117-3.3", "Package_TO_SOT_SMD:SOT-223-3_TabPin2",
                         "3.3 V LDO for the PN532 readers (1 A)", "AMS1117-3.3 (SOT-223)"),
              max_ma=1000, max_watts=1.0, dropout_v=1.3, in_cap="10u", out_cap="22u"),
    Regulator(_regulator("LM1085IT-3.3", "Package_TO_SOT_THT:TO-220-3_Vertical",
                         "3.3 V LDO for the PN532 readers (3 A), on a small heatsink",
                         "LM1085IT-3.3 (TO-220) + clip-on heatsink <= 10 K/W"),
              max_ma=3000, max_watts=5.0, dropout_v=1.3, in_cap="10u", out_cap="22u"),
)


# Every kind of part by its symbol name (the netlist's ``libsource part``), for the drawing and BOM.
SPECS: dict[str, PartSpec] = {spec.name: spec for spec in (
    PICO, PN532, LED_RING, LEVEL_SHIFTER, BUTTON, RESISTOR, CAPACITOR, CAPACITOR_POLARISED, CAPACITOR_TANTALUM,
    SCHOTTKY, POWER_IN, TVS, SEAT_CONNECTOR, RING_CONNECTOR, *(reg.spec for reg in REGULATORS))}

