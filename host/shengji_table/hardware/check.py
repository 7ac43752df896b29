"""Do the schematic, the board file and the firmware agree on every pin?

Three views of the same table, each reduced to "GPIO -> what it does" (a *role*, e.g.
``"seat0 reader CS"``, ``"SPI0 MOSI"``, ``"LED data"``, ``"seat2 button, active low, pull up"``):

* the **board file**, as the host's validator reads it (:func:`board_roles`);
* the **schematic**, read back from its KiCad netlist: which reader/button/level-shifter pin each
  Pico header pin is wired to (:func:`schematic_roles`);
* the **firmware**: the pins ``firmware/main.py`` configures (``build()`` with a recording stand-in
  for ``machine``) after ``firmware/board.py`` decoded the same file, run under the real
  MicroPython interpreter (:func:`firmware_dump`, :func:`firmware_roles`).

:func:`compare` walks the GPIOs in order and raises :class:`PinMismatch` at the first one where the
views differ, naming the pin, its Pico header pin and what each view says.  The LED chain order
(which ring comes first on the data line) is compared the same way.
"""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
from dataclasses import dataclass
from collections.abc import Mapping

from ..board import CENTRE, SPI_PINS, Board
from .netlist import Netlist
from .parts import LEVEL_SHIFTER, PN532, gpio_of_pico_pin, pico_pin_of_gpio

__all__ = ["Roles", "PinMismatch", "board_roles", "schematic_roles", "reach", "firmware_roles", "compare",
           "Agreement", "firmware_dump", "check_board", "CheckResult", "StaleOutput",
           "default_schematic", "led_chain_of_board", "led_chain_of_netlist", "led_chain_of_firmware"]

Roles = dict[int, str]   # GPIO -> role



class PinMismatch(AssertionError):
    """The views disagree; ``pin`` is the GPIO (or ``None`` for the LED chain order)."""

    def __init__(self, pin: int | None, message: str):
        self.pin = pin
        super().__init__(message)


def _seat(seat: object) -> str:
    return CENTRE if seat == CENTRE else f"seat{seat}"


def _spi_bus_of(role: str, pin: int) -> int | None:
    return next((bus for bus, roles in SPI_PINS.items() if pin in roles[role]), None)


# --- the board file ------------------------------------------------------------------------------

def board_roles(board: Board) -> Roles:
    """GPIO -> role as the board file says."""
    roles: Roles = {}
    spi = board.spi
    for name, pin in (("SCK", spi.sck), ("MOSI", spi.mosi), ("MISO", spi.miso)):
        roles[pin] = f"SPI{spi.bus} {name}"
    for r in board.readers:
        for name, wired in (("CS", r.cs), ("RST", r.rst), ("IRQ", r.irq)):
            if wired is not None:
                roles[wired] = f"{_seat(r.seat)} reader {name}"
    roles[board.leds.pin] = "LED data"
    for b in board.buttons:
        roles[b.pin] = f"{_seat(b.seat)} button, active {b.active}, pull {b.pull}"
    return roles


def led_chain_of_board(board: Board) -> list[str]:
    """The rings in chain order, ``"seat0 x12"``."""
    return [f"{_seat(r.seat)} x{r.count}" for r in board.leds.rings]


# --- the schematic (its netlist) ---------------------------------------------------------------

_PN532_ROLE = {"SCK": "SPI {bus} SCK", "MOSI": "SPI {bus} MOSI", "MISO": "SPI {bus} MISO",
               "NSS": "{seat} reader CS", "RSTPDN": "{seat} reader RST", "IRQ": "{seat} reader IRQ"}


def _pin_name(spec_pins, num: str) -> str:
    return next((p.name for p in spec_pins if str(p.num) == num), "?")


def reach(netlist: Netlist, net_name: str) -> list[tuple[str, str]]:
    """The nodes of ``net_name`` and of the nets behind its series resistors (a resistor whose Role
    starts with "series"): what a Pico pin drives through its 33 R or 1 k."""
    nodes = list(netlist.nets.get(net_name, ()))
    for ref, num in list(nodes):
        comp = netlist.components[ref]
        if comp.part == "R" and comp.fields.get("Role", "").startswith("series"):
            far = netlist.net_of(ref, "2" if num == "1" else "1")
            if far and far != net_name:
                nodes += [n for n in netlist.nets.get(far, ()) if n[0] != ref]
    return nodes


def _button_role(netlist: Netlist, nodes, other_ref: str, other_num: str, seat: str) -> str:
    other = "2" if other_num == "1" else "1"
    level = {"GND": "low", "+3V3": "high"}.get(netlist.net_of(other_ref, other) or "", "?")
    # An external pull resistor on the button's line means "no pull inside the RP2040"; without one
    # the RP2040 must pull towards the idle level.
    external = any(netlist.components[ref].part == "R" and
                   netlist.components[ref].fields.get("Role", "").startswith("button pull") for ref, _ in nodes)
    pull = "none" if external else {"low": "up", "high": "down"}.get(level, "?")
    return f"{seat} button, active {level}, pull {pull}"


def schematic_roles(netlist: Netlist) -> Roles:
    """GPIO -> role as the schematic wires it: what sits on the net of each Pico header pin (through
    its series resistor, where it has one)."""
    picos = netlist.by_part("RaspberryPi_Pico")
    if len(picos) != 1:
        raise PinMismatch(None, f"the schematic has {len(picos)} Picos (one expected)")
    pico = picos[0].ref
    roles: Roles = {}
    for net_name, net_nodes in netlist.nets.items():
        if net_name == "__NOCONNECT":
            continue
        for ref, num in net_nodes:
            if ref != pico:
                continue
            gpio = gpio_of_pico_pin(int(num))
            if gpio is None:
                continue
            nodes = reach(netlist, net_name)
            found = set()
            for other_ref, other_num in nodes:
                comp = netlist.components[other_ref]
                seat = comp.fields.get("Seat", "?")
                if comp.part == PN532.name:
                    pin = _pin_name(PN532.pins, other_num)
                    if pin in _PN532_ROLE:
                        role = _PN532_ROLE[pin].format(seat=seat, bus="{bus}")
                        if "{bus}" in role:
                            bus = _spi_bus_of(pin.lower(), gpio)
                            role = role.replace("SPI {bus}", f"SPI{bus}" if bus is not None else "SPI?")
                        found.add(role)
                elif comp.part == LEVEL_SHIFTER.name and _pin_name(LEVEL_SHIFTER.pins, other_num).endswith("A"):
                    found.add("LED data")
                elif comp.part == "SW_Push":
                    found.add(_button_role(netlist, nodes, other_ref, other_num, seat))
            roles[gpio] = " + ".join(sorted(found)) if found else f"net {net_name} (no reader, button or LED)"
    return roles


def led_chain_of_netlist(netlist: Netlist) -> list[str]:
    """The rings in the order the data line passes through them (following DOUT -> DIN)."""
    rings = {c.ref: c for c in netlist.by_part("WS2812B_Ring")}
    shifters = netlist.by_part(LEVEL_SHIFTER.name)
    if not rings or not shifters:
        return []
    # From the level shifter's 1Y, through the series resistor, to the first ring's DIN.
    net = netlist.net_of(shifters[0].ref, 3)
    seen: list[str] = []
    for _ in range(len(rings) + 2):
        nodes = netlist.nets.get(net or "", ())
        nxt = next((ref for ref, pin in nodes if ref in rings and pin == "1"), None)
        if nxt is None:   # pass through a series resistor
            res = next(((ref, pin) for ref, pin in nodes if netlist.components[ref].part == "R"), None)
            if res is None:
                break
            net = netlist.net_of(res[0], "2" if res[1] == "1" else "1")
            continue
        if nxt in seen:
            break
        seen.append(nxt)
        net = netlist.net_of(nxt, 2)
    out = []
    for ref in seen:
        c = rings[ref]
        count = c.value.split(",")[-1].strip().split(" ")[0]
        out.append(f"{c.fields.get('Seat', '?')} x{count}")
    return out


# --- the firmware --------------------------------------------------------------------------------
# The firmware's view is what it *configures*: ``main.build(machine, board, sim=False)`` is called
# with a recording stand-in for ``machine`` (the real module exists only on the Pico), after
# ``board.load`` has decoded the file.  The SPI bus, every chip-select and reset, and every button
# pin with its pull come from the Pin/SPI objects the firmware made; the LED data pin and the
# ring spans from the decoded board (``main.main`` hands them to ``neopixel``); IRQ pins from the
# decoded board (the firmware polls and never opens them).  The same script runs under the real
# MicroPython interpreter or under CPython.

_FIRMWARE_DUMP = """
import json
import board
import main


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    made = []

    def __init__(self, id, mode=-1, pull=None, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        self.level = value
        Pin.made.append(self)

    def value(self, v=None):
        if v is None:
            return 1 if self.level is None else self.level
        self.level = v


class SPI:
    made = []

    def __init__(self, bus, baudrate=0, polarity=0, phase=0, sck=None, mosi=None, miso=None, **kw):
        self.bus = bus
        self.pins = (sck, mosi, miso)
        SPI.made.append(self)


class machine:
    Pin = Pin
    SPI = SPI


def pid(p):
    return None if p is None else p.id


PULL = {None: "none", Pin.PULL_UP: "up", Pin.PULL_DOWN: "down"}
b = board.load(BOARD_PATH)
readers, buttons, _ = main.build(machine, b, False)
spi = SPI.made
out = {"seats": b.seats, "spi": [[s.bus] + [pid(p) for p in s.pins] for s in spi],
       "readers": [None if r is None else [r.name, pid(r.pn._cs), pid(r.pn.rst),
                                           None if b.readers[i] is None else b.readers[i].irq]
                   for i, r in enumerate(readers)],
       "led_pin": b.led_pin,
       "rings": [None if x is None else list(x) for x in b.rings],
       "buttons": [None if x is None else [x.pin.id, PULL.get(x.pin.pull, "?"), x.active_low] for x in buttons],
       "pins": [[p.id, p.mode] for p in Pin.made]}
print(json.dumps(out))
"""


def firmware_dump(board_path: str, interpreter: str = "micropython",
                  firmware_dir: str | os.PathLike[str] | None = None) -> dict:
    """What the firmware configures for the board file, as plain data (see the note above).

    ``interpreter`` is ``"micropython"`` (the real unix port, as on the Pico) or ``"cpython"``;
    ``firmware_dir`` defaults to the firmware installed with the host (``firmware_src``).
    """
    from ..firmware_src import FIRMWARE_DIR
    from ..micropython import run_micropython
    folder = pathlib.Path(firmware_dir) if firmware_dir is not None else FIRMWARE_DIR
    script = f"BOARD_PATH = {os.path.abspath(board_path)!r}\n" + _FIRMWARE_DUMP
    if interpreter == "micropython":
        proc = run_micropython(script, path=[folder], timeout=30)
        stdout = proc.stdout
    elif interpreter == "cpython":
        env = dict(os.environ, PYTHONPATH=str(folder))
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=30, env=env,
                              cwd=str(folder))
        if done.returncode != 0:
            raise AssertionError(f"firmware under CPython exited {done.returncode}\n"
                                 f"{done.stderr.decode(errors='replace')}")
        stdout = done.stdout
    else:
        raise ValueError(f"unknown interpreter {interpreter!r} (micropython or cpython)")
    return json.loads(stdout.decode().strip().splitlines()[-1])


def firmware_roles(dump: Mapping) -> Roles:
    """GPIO -> role as the firmware configured it."""
    seats = dump["seats"]

    def seat_of(index: int) -> str:   # the firmware's convention: index ``seats`` is the centre
        return CENTRE if index == seats else f"seat{index}"

    roles: Roles = {}
    for bus, *pins in dump["spi"]:
        for name, pin in zip(("SCK", "MOSI", "MISO"), pins):
            roles[pin] = f"SPI{bus} {name}"
    for i, r in enumerate(dump["readers"]):
        if r is None:
            continue
        for name, pin in zip(("CS", "RST", "IRQ"), r[1:]):
            if pin is not None:
                roles[pin] = f"{seat_of(i)} reader {name}"
    roles[dump["led_pin"]] = "LED data"
    for i, b in enumerate(dump["buttons"]):
        if b is not None:
            roles[b[0]] = f"{seat_of(i)} button, active {'low' if b[2] else 'high'}, pull {b[1]}"
    for pin, _mode in dump["pins"]:
        roles.setdefault(pin, "configured by the firmware, no role in the board file")
    return roles


def led_chain_of_firmware(dump: Mapping) -> list[str]:
    """The rings in chain order as the firmware addresses them (by first pixel)."""
    seats = dump["seats"]
    rings = [(r[0], r[1], i) for i, r in enumerate(dump["rings"]) if r is not None]
    return [f"{CENTRE if i == seats else f'seat{i}'} x{count}" for first, count, i in sorted(rings)]


# --- the comparison ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Agreement:
    """Every pin the three views agree on, GPIO -> role (for the report)."""
    roles: Roles
    chain: list[str]


def compare(views: Mapping[str, Roles], chains: Mapping[str, list[str]] | None = None) -> Agreement:
    """Raise :class:`PinMismatch` at the first GPIO where the named views differ; else the roles."""
    names = list(views)
    pins = sorted(set().union(*(set(v) for v in views.values())))
    for pin in pins:
        said = {name: views[name].get(pin, "unused") for name in names}
        if len(set(said.values())) > 1:
            where = f"Pico pin {pico_pin_of_gpio(pin)}" if _on_header(pin) else "not on the header"
            detail = "; ".join(f"{name} says {role!r}" for name, role in said.items())
            raise PinMismatch(pin, f"GP{pin} ({where}): {detail}")
    chain: list[str] = []
    if chains:
        said_chain = {name: " -> ".join(c) for name, c in chains.items()}
        if len(set(said_chain.values())) > 1:
            detail = "; ".join(f"{name} says {c!r}" for name, c in said_chain.items())
            raise PinMismatch(None, f"LED chain order (data line GP{_led_pin(views)}): {detail}")
        chain = next(iter(chains.values()))
    return Agreement(roles=dict(views[names[0]]), chain=chain)


def _on_header(pin: int) -> bool:
    try:
        pico_pin_of_gpio(pin)
        return True
    except KeyError:
        return False


def _led_pin(views: Mapping[str, Roles]) -> str:
    for roles in views.values():
        for pin, role in roles.items():
            if role == "LED data":
                return str(pin)
    return "?"



# --- the whole check of one board ----------------------------------------------------------------

class StaleOutput(AssertionError):
    """A committed output (netlist, drawing, BOM) differs from a fresh generation."""


@dataclass(frozen=True)
class CheckResult:
    """A passed check: the agreed pins and chain, the ERC report, the files found up to date."""
    board: Board
    schematic: pathlib.Path
    agreement: Agreement
    erc_summary: str
    fresh_files: tuple[str, ...]


def default_schematic(board: Board) -> pathlib.Path:
    """Where the committed netlist of ``board`` lives: ``schematics/<name>.net`` of the repository.

    ``FileNotFoundError`` outside a checkout (an installed package has no committed schematics)."""
    from .build import SCHEMATICS_DIR, output_names
    if SCHEMATICS_DIR is None:
        raise FileNotFoundError("no committed schematics: this is an installed package, not the repository; "
                                "give the netlist with --schematic")
    return SCHEMATICS_DIR / output_names(board.name)["netlist"]


def check_board(board_path: str | os.PathLike[str], schematic_path: str | os.PathLike[str] | None = None,
                interpreter: str = "micropython") -> CheckResult:
    """The full check, stopping at the first failure.

    1. pins: board file, schematic netlist and firmware agree GPIO by GPIO (:class:`PinMismatch`);
    2. the LED chain order agrees (:class:`PinMismatch` with ``pin=None``);
    3. a fresh circuit from the board file passes ERC (:class:`~.build.ErcFailed`);
    4. the netlist (and the drawing and BOM beside it, where present) equal a fresh generation
       (:class:`StaleOutput`).

    A bad board file raises :class:`~shengji_table.board.BoardError`; a missing or unreadable netlist raises
    ``FileNotFoundError`` or :class:`~.netlist.NetlistError`.
    """
    from ..board import load_board
    from .build import generate, output_names
    from .netlist import parse_netlist

    board = load_board(board_path)
    net_path = pathlib.Path(schematic_path) if schematic_path is not None else default_schematic(board)
    try:
        net_text = net_path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(
            f"no schematic netlist at {net_path}; generate it with "
            f"`shengji-table hardware build --board {board_path} --out {net_path.parent}`") from None
    netlist = parse_netlist(net_text, str(net_path))
    dump = firmware_dump(os.fspath(board_path), interpreter)
    agreement = compare(
        {"board file": board_roles(board), f"schematic ({net_path.name})": schematic_roles(netlist),
         f"firmware ({interpreter})": firmware_roles(dump)},
        {"board file": led_chain_of_board(board), f"schematic ({net_path.name})": led_chain_of_netlist(netlist),
         f"firmware ({interpreter})": led_chain_of_firmware(dump)})
    outputs = generate(board)
    fresh = []
    names = output_names(board.name)
    for kind, name in names.items():
        path = net_path if kind == "netlist" else net_path.parent / name
        if kind != "netlist" and not path.exists():
            continue
        if path.read_text(encoding="utf-8") != outputs.files[name]:
            raise StaleOutput(f"{path} is not what {board_path} generates now: regenerate it with "
                              f"`shengji-table hardware build --board {board_path} --out {path.parent}`")
        fresh.append(str(path))
    return CheckResult(board=board, schematic=net_path, agreement=agreement, erc_summary=outputs.erc.summary(),
                       fresh_files=tuple(fresh))
