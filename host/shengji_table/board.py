"""Board files (``boards/*.json``): where they are; load, validate and expose one as a frozen, typed value.

The repository's ``boards/`` is installed with the host as package data (``shengji_table._boards``,
``pyproject.toml``): :data:`BOARDS_DIR` is that folder, :data:`DEFAULT_BOARD` its four-seat table. Board files
are read by several layers — ``table`` (the self-test), ``hardware`` (circuits, flashing), ``sim`` (the virtual
table) and ``cli`` — so this module sits below all of them, at the package root.

The format is the contract written down in ``docs/board-schema.md``: RP2040 GPIO numbers for the SPI bus, one
chip-select per PN532 reader (reset and IRQ where wired), one WS2812 chain with a ring per seat, one button per
seat. The host validates a board file before anything is flashed or wired, so the firmware's own loader
(``firmware/board.py``) can trust it: ``load_board("boards/table-4.json").reader_for(2).cs`` is 7.
"""
from __future__ import annotations

import json
import os
import pathlib
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, Literal
from collections.abc import Iterator

__all__ = ["BOARDS_DIR", "Board", "BoardError", "Button", "CENTRE", "DEFAULT_BOARD", "Leds", "PICO_PINS", "Power",
           "Reader", "Ring", "SPI_PINS", "Seat", "SpiBus", "TIMING_RANGES", "Timing", "load_board", "parse_board"]


def _boards_dir() -> pathlib.Path:
    root = files("shengji_table._boards")
    if not isinstance(root, pathlib.Path):
        raise RuntimeError(f"the board files are not a folder on disk ({root!r}): install shengji-table unzipped")
    return root


BOARDS_DIR = _boards_dir()
DEFAULT_BOARD = BOARDS_DIR / "table-4.json"

CENTRE: Literal["centre"] = "centre"
Seat = int | Literal["centre"]

SCHEMA_VERSION = 1
MCU = "raspberry-pi-pico"

# GPIOs on the Pico's header.  The other RP2040 GPIOs are used on the board itself.
PICO_PINS = frozenset(list(range(0, 23)) + [26, 27, 28])
INTERNAL_PINS = {23: "SMPS power-save control", 24: "VBUS sense", 25: "the on-board LED",
                 29: "VSYS/3 ADC"}

# Which header pins each SPI peripheral can use (RP2040 datasheet, GPIO function table F1).
SPI_PINS: dict[int, dict[str, frozenset[int]]] = {
    0: {"sck": frozenset({2, 6, 18, 22}), "mosi": frozenset({3, 7, 19}), "miso": frozenset({0, 4, 16, 20})},
    1: {"sck": frozenset({10, 14, 26}), "mosi": frozenset({11, 15, 27}), "miso": frozenset({8, 12, 28})},
}
# The PN532 talks SPI up to 5 MHz (UM0701-02); below 10 kHz a frame would take seconds.
MIN_BAUDRATE, MAX_BAUDRATE = 10_000, 5_000_000
MAX_SEATS = 8
MAX_RING_PIXELS = 64
COLOUR_ORDERS = frozenset({"RGB", "RBG", "GRB", "GBR", "BRG", "BGR"})


class BoardError(ValueError):
    """A board file that cannot be used; ``problems`` lists every reason, one a line in ``str()``."""

    def __init__(self, source: str, problems: list[str]):
        self.source = source
        self.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"bad board file {source}:\n{lines}")


@dataclass(frozen=True)
class SpiBus:
    """The SPI bus shared by all readers (mode 0)."""
    bus: int
    sck: int
    mosi: int
    miso: int
    baudrate: int


@dataclass(frozen=True)
class Reader:
    """One PN532: its seat (``"centre"`` for the kitty reader) and pins; ``None`` = not wired."""
    name: str
    seat: Seat
    cs: int
    rst: int | None
    irq: int | None


@dataclass(frozen=True)
class Ring:
    """A seat's LED ring: pixels ``first`` .. ``first + count - 1`` of the chain."""
    seat: Seat
    first: int
    count: int

    @property
    def end(self) -> int:
        """One past the ring's last pixel."""
        return self.first + self.count


@dataclass(frozen=True)
class Leds:
    """The WS2812 chain: data pin, colour order, rings sorted by position in the chain."""
    pin: int
    order: str
    rings: tuple[Ring, ...]

    @property
    def pixels(self) -> int:
        """Length of the chain (one past the last ring pixel)."""
        return max((r.end for r in self.rings), default=0)


@dataclass(frozen=True)
class Button:
    """A seat's push button."""
    seat: int
    pin: int
    pull: Literal["up", "down", "none"]
    active: Literal["low", "high"]


@dataclass(frozen=True)
class Power:
    """Current budget figures (mA) for the power design."""
    reader_ma: int
    led_ma: int
    pico_ma: int


@dataclass(frozen=True)
class Timing:
    """The scan's and the PN532 driver's timings (``timing``, all optional; docs/board-schema.md)."""
    lift_ms: int = 600
    cs_setup_us: int = 1000
    reply_timeout_ms: int = 100
    activation_ms: int = 100
    dwell_ms: int = 30


TIMING_RANGES = {"lift_ms": (100, 5000), "cs_setup_us": (0, 5000), "reply_timeout_ms": (10, 1000),
                 "activation_ms": (0, 1000), "dwell_ms": (0, 500)}


@dataclass(frozen=True)
class Board:
    """A validated board file."""
    schema: int
    name: str
    description: str
    mcu: str
    seats: int
    spi: SpiBus
    readers: tuple[Reader, ...]
    leds: Leds
    buttons: tuple[Button, ...]
    power: Power | None
    timing: Timing = Timing()

    def reader_for(self, seat: Seat) -> Reader:
        """The reader of ``seat`` (an int, or ``"centre"``)."""
        return next(r for r in self.readers if r.seat == seat)

    def ring_for(self, seat: Seat) -> Ring | None:
        """The ring of ``seat``; ``None`` only for a centre without a ring."""
        return next((r for r in self.leds.rings if r.seat == seat), None)

    def button_for(self, seat: int) -> Button:
        """The button of player seat ``seat``."""
        return next(b for b in self.buttons if b.seat == seat)

    def pin_uses(self) -> dict[int, str]:
        """Every pin the board uses, with what it does (``"readers[0] (seat0) cs"``)."""
        return dict(_pin_uses(self))


# ---------------------------------------------------------------------------------------------
# Validation.  A small checker that records problems with their path instead of stopping at the
# first, so the user fixes a file in one go.

_TOP_KEYS = {"schema": True, "name": True, "description": False, "mcu": True, "seats": True,
             "spi": True, "readers": True, "leds": True, "buttons": True, "power": False,
             "timing": False}
_SPI_KEYS = {"bus": True, "sck": True, "mosi": True, "miso": True, "baudrate": True}
_READER_KEYS = {"name": True, "seat": True, "cs": True, "rst": False, "irq": False}
_LEDS_KEYS = {"pin": True, "order": True, "rings": True}
_RING_KEYS = {"seat": True, "first": True, "count": True}
_BUTTON_KEYS = {"seat": True, "pin": True, "pull": True, "active": True}
_POWER_KEYS = {"reader_ma": True, "led_ma": True, "pico_ma": True}


class _Checker:
    def __init__(self) -> None:
        self.problems: list[str] = []

    def fail(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}" if where else message)

    def obj(self, value: Any, where: str, keys: dict[str, bool]) -> dict[str, Any] | None:
        """``value`` must be an object with exactly the known keys and all required ones."""
        if not isinstance(value, dict):
            self.fail(where, f"must be an object, not {_kind(value)}")
            return None
        for key in value:
            if key not in keys:
                known = ", ".join(sorted(keys))
                self.fail(_join(where, key), f"unknown key (known keys here: {known})")
        for key, required in keys.items():
            if required and key not in value:
                self.fail(_join(where, key), "missing")
        return value

    def int_(self, value: Any, where: str, lo: int | None = None, hi: int | None = None) -> int | None:
        # bool is an int subclass in Python; `true` is never a pin number.
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(where, f"must be an integer, not {_kind(value)}")
            return None
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            bounds = f"{lo}..{hi}" if hi is not None else f">= {lo}"
            self.fail(where, f"{value} is out of range ({bounds})")
            return None
        return value

    def str_(self, value: Any, where: str, choices: frozenset[str] | set[str] | None = None) -> str | None:
        if not isinstance(value, str):
            self.fail(where, f"must be a string, not {_kind(value)}")
            return None
        if choices is not None and value not in choices:
            self.fail(where, f"{value!r} is not one of {', '.join(sorted(choices))}")
            return None
        if not value:
            self.fail(where, "must not be empty")
            return None
        return value

    def pin(self, value: Any, where: str, optional: bool = False) -> int | None:
        if value is None and optional:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(where, f"must be a GPIO number{' or null' if optional else ''}, not {_kind(value)}")
            return None
        if value in INTERNAL_PINS:
            self.fail(where, f"GP{value} is not on the Pico's header (used inside the board for "
                             f"{INTERNAL_PINS[value]}); usable: GP0-GP22, GP26-GP28")
            return None
        if value not in PICO_PINS:
            self.fail(where, f"the Pico has no GP{value}; usable: GP0-GP22, GP26-GP28")
            return None
        return value

    def seat(self, value: Any, where: str, seats: int | None, centre_ok: bool = True) -> Seat | None:
        if value == CENTRE and centre_ok:
            return CENTRE
        if not isinstance(value, int) or isinstance(value, bool):
            allowed = 'a seat number or "centre"' if centre_ok else "a seat number"
            self.fail(where, f"must be {allowed}, not {_kind(value)}")
            return None
        if seats is not None and not 0 <= value < seats:
            self.fail(where, f"seat {value} does not exist (seats are 0..{seats - 1})")
            return None
        return value


def _join(where: str, key: str | int) -> str:
    return f"{where}[{key}]" if isinstance(key, int) else (f"{where}.{key}" if where else key)


def _kind(value: Any) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
             dict: "an object"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def _seat_label(seat: Seat) -> str:
    return "the centre" if seat == CENTRE else f"seat {seat}"


def _pin_uses(board: Board) -> Iterator[tuple[int, str]]:
    spi = board.spi
    yield from ((spi.sck, f"spi.sck (SPI{spi.bus})"), (spi.mosi, f"spi.mosi (SPI{spi.bus})"),
                (spi.miso, f"spi.miso (SPI{spi.bus})"))
    for i, r in enumerate(board.readers):
        for role in ("cs", "rst", "irq"):
            pin = getattr(r, role)
            if pin is not None:
                yield pin, f"readers[{i}] ({r.name}) {role}"
    yield board.leds.pin, "leds.pin (LED data)"
    for i, b in enumerate(board.buttons):
        yield b.pin, f"buttons[{i}] (seat {b.seat}) pin"


def parse_board(data: Any, source: str = "<board>") -> Board:
    """Validate decoded JSON ``data``; returns a :class:`Board` or raises :class:`BoardError`."""
    c = _Checker()
    top = c.obj(data, "", _TOP_KEYS)
    if top is None:
        raise BoardError(source, c.problems)

    schema = c.int_(top.get("schema"), "schema") if "schema" in top else None
    if schema is not None and schema != SCHEMA_VERSION:
        c.fail("schema", f"version {schema} is not supported (this program reads version {SCHEMA_VERSION})")
    name = c.str_(top.get("name"), "name") if "name" in top else None
    description = c.str_(top.get("description", "-"), "description")
    mcu = c.str_(top.get("mcu"), "mcu", {MCU}) if "mcu" in top else None
    seats = c.int_(top.get("seats"), "seats", 2, MAX_SEATS) if "seats" in top else None

    spi = _parse_spi(c, top.get("spi")) if "spi" in top else None
    readers = _parse_readers(c, top.get("readers"), seats) if "readers" in top else None
    leds = _parse_leds(c, top.get("leds"), seats) if "leds" in top else None
    buttons = _parse_buttons(c, top.get("buttons"), seats) if "buttons" in top else None
    power = _parse_power(c, top["power"]) if "power" in top else None
    timing = _parse_timing(c, top["timing"]) if "timing" in top else Timing()

    if c.problems or None in (schema, name, description, mcu, seats, spi, readers, leds, buttons):
        raise BoardError(source, c.problems or ["incomplete board"])
    assert (name is not None and description is not None and mcu is not None and seats is not None
            and spi is not None and readers is not None and leds is not None and buttons is not None
            and schema is not None)
    board = Board(schema=schema, name=name, description=description, mcu=mcu, seats=seats, spi=spi,
                  readers=readers, leds=leds, buttons=buttons, power=power,
                  timing=timing if timing is not None else Timing())
    _check_board(c, board)
    if c.problems:
        raise BoardError(source, c.problems)
    return board


def _parse_spi(c: _Checker, value: Any) -> SpiBus | None:
    d = c.obj(value, "spi", _SPI_KEYS)
    if d is None:
        return None
    bus = c.int_(d.get("bus"), "spi.bus", 0, 1) if "bus" in d else None
    pins = {role: c.pin(d.get(role), f"spi.{role}") if role in d else None for role in ("sck", "mosi", "miso")}
    baud = c.int_(d.get("baudrate"), "spi.baudrate", MIN_BAUDRATE, MAX_BAUDRATE) if "baudrate" in d else None
    if bus is not None:
        for role, pin in pins.items():
            if pin is not None and pin not in SPI_PINS[bus][role]:
                usable = ", ".join(f"GP{p}" for p in sorted(SPI_PINS[bus][role]))
                c.fail(f"spi.{role}", f"SPI{bus} cannot use GP{pin} as {role.upper()} (it can use {usable})")
                pins[role] = None
    sck, mosi, miso = pins["sck"], pins["mosi"], pins["miso"]
    if bus is None or sck is None or mosi is None or miso is None or baud is None:
        return None
    return SpiBus(bus=bus, sck=sck, mosi=mosi, miso=miso, baudrate=baud)


def _list(c: _Checker, value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        c.fail(where, f"must be a list, not {_kind(value)}")
        return []
    return value


def _parse_readers(c: _Checker, value: Any, seats: int | None) -> tuple[Reader, ...] | None:
    out: list[Reader] = []
    ok = isinstance(value, list)
    for i, item in enumerate(_list(c, value, "readers")):
        where = f"readers[{i}]"
        d = c.obj(item, where, _READER_KEYS)
        if d is None:
            ok = False
            continue
        name = c.str_(d.get("name"), f"{where}.name") if "name" in d else None
        seat = c.seat(d.get("seat"), f"{where}.seat", seats) if "seat" in d else None
        cs = c.pin(d.get("cs"), f"{where}.cs") if "cs" in d else None
        rst = c.pin(d.get("rst"), f"{where}.rst", optional=True)
        irq = c.pin(d.get("irq"), f"{where}.irq", optional=True)
        bad_opt = ("rst" in d and d["rst"] is not None and rst is None) or \
                  ("irq" in d and d["irq"] is not None and irq is None)
        if name is None or seat is None or cs is None or bad_opt:
            ok = False
            continue
        out.append(Reader(name=name, seat=seat, cs=cs, rst=rst, irq=irq))
    return tuple(out) if ok else None


def _parse_leds(c: _Checker, value: Any, seats: int | None) -> Leds | None:
    d = c.obj(value, "leds", _LEDS_KEYS)
    if d is None:
        return None
    pin = c.pin(d.get("pin"), "leds.pin") if "pin" in d else None
    order = c.str_(d.get("order"), "leds.order", COLOUR_ORDERS) if "order" in d else None
    rings: list[Ring] = []
    ok = "rings" in d and isinstance(d.get("rings"), list)
    for i, item in enumerate(_list(c, d.get("rings"), "leds.rings") if "rings" in d else []):
        where = f"leds.rings[{i}]"
        r = c.obj(item, where, _RING_KEYS)
        if r is None:
            ok = False
            continue
        seat = c.seat(r.get("seat"), f"{where}.seat", seats) if "seat" in r else None
        first = c.int_(r.get("first"), f"{where}.first", 0, 1023) if "first" in r else None
        count = c.int_(r.get("count"), f"{where}.count", 1, MAX_RING_PIXELS) if "count" in r else None
        if seat is None or first is None or count is None:
            ok = False
            continue
        rings.append(Ring(seat=seat, first=first, count=count))
    if pin is None or order is None or not ok:
        return None
    return Leds(pin=pin, order=order, rings=tuple(sorted(rings, key=lambda r: r.first)))


def _parse_buttons(c: _Checker, value: Any, seats: int | None) -> tuple[Button, ...] | None:
    out: list[Button] = []
    ok = isinstance(value, list)
    for i, item in enumerate(_list(c, value, "buttons")):
        where = f"buttons[{i}]"
        d = c.obj(item, where, _BUTTON_KEYS)
        if d is None:
            ok = False
            continue
        if d.get("seat") == CENTRE:
            c.fail(f"{where}.seat", "the centre has no button (only player seats do)")
            ok = False
            continue
        seat = c.seat(d.get("seat"), f"{where}.seat", seats, centre_ok=False) if "seat" in d else None
        pin = c.pin(d.get("pin"), f"{where}.pin") if "pin" in d else None
        pull = c.str_(d.get("pull"), f"{where}.pull", {"up", "down", "none"}) if "pull" in d else None
        active = c.str_(d.get("active"), f"{where}.active", {"low", "high"}) if "active" in d else None
        if seat is None or pin is None or pull is None or active is None or seat == CENTRE:
            ok = False
            continue
        out.append(Button(seat=seat, pin=pin, pull=pull, active=active))  # type: ignore[arg-type]
    return tuple(out) if ok else None


def _parse_power(c: _Checker, value: Any) -> Power | None:
    d = c.obj(value, "power", _POWER_KEYS) or {}
    vals = {k: c.int_(d.get(k), f"power.{k}", 0, 10_000) if k in d else None for k in _POWER_KEYS}
    return None if None in vals.values() else Power(**vals)  # type: ignore[arg-type]


def _parse_timing(c: _Checker, value: Any) -> Timing | None:
    d = c.obj(value, "timing", {k: False for k in TIMING_RANGES}) or {}
    vals = {k: c.int_(d[k], f"timing.{k}", *TIMING_RANGES[k]) for k in TIMING_RANGES if k in d}
    t = None if None in vals.values() else Timing(**vals)  # type: ignore[arg-type]
    if t is not None and t.dwell_ms >= t.lift_ms:     # a card must count as down before it can be lifted
        c.fail("timing.dwell_ms", f"{t.dwell_ms} must be shorter than timing.lift_ms ({t.lift_ms})")
    return None if t is None or t.dwell_ms >= t.lift_ms else t


def _check_board(c: _Checker, board: Board) -> None:
    """Cross-checks once every part is well-typed: one reader/ring/button a seat, no shared pins."""
    player_seats = list(range(board.seats))

    def per_seat(kind: str, seats_of: list[Seat], where: str, centre: str) -> None:
        for seat in player_seats:
            n = seats_of.count(seat)
            if n == 0:
                c.fail(where, f"seat {seat} has no {kind}")
            elif n > 1:
                c.fail(where, f"seat {seat} has {n} {kind}s (exactly one expected)")
        n = seats_of.count(CENTRE)
        if centre == "one" and n != 1:
            c.fail(where, f"the centre must have exactly one {kind}, found {n}")
        if centre == "optional" and n > 1:
            c.fail(where, f"the centre has {n} {kind}s (at most one)")

    per_seat("reader", [r.seat for r in board.readers], "readers", "one")
    per_seat("ring", [r.seat for r in board.leds.rings], "leds.rings", "optional")
    per_seat("button", [b.seat for b in board.buttons], "buttons", "none")

    names: dict[str, int] = {}
    for i, r in enumerate(board.readers):
        if r.name in names:
            c.fail(f"readers[{i}].name", f"{r.name!r} is already the name of readers[{names[r.name]}]")
        names.setdefault(r.name, i)

    rings = board.leds.rings  # sorted by first
    for a, b in zip(rings, rings[1:]):
        if b.first < a.end:
            c.fail("leds.rings", f"the ring of {_seat_label(b.seat)} (pixels {b.first}-{b.end - 1}) overlaps "
                                 f"the ring of {_seat_label(a.seat)} (pixels {a.first}-{a.end - 1})")

    seen: dict[int, str] = {}
    for pin, use in _pin_uses(board):
        if pin in seen:
            c.fail("", f"GP{pin} is used twice: by {seen[pin]} and by {use}")
        else:
            seen[pin] = use


def load_board(path: str | os.PathLike[str]) -> Board:
    """Read and validate a board file; raises :class:`BoardError` (a ``ValueError``) on any problem."""
    source = os.fspath(path)
    try:
        text = pathlib.Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardError(source, [f"cannot read the file: {exc.strerror or exc}"]) from exc
    except UnicodeDecodeError as exc:
        raise BoardError(source, [f"not UTF-8 text: {exc}"]) from exc
    try:
        return parse_board(json.loads(text), source)
    except json.JSONDecodeError as exc:
        raise BoardError(source, [f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"]) from exc
    except RecursionError:        # JSON nested deeper than the parser recurses
        raise BoardError(source, ["not a board: JSON nested too deeply"]) from None
