"""The board file on the Pico (``board.json``): pins, readers, rings and buttons.

The host validated this file before flashing it (``shengji_table.board``), so this loader
only decodes it into flat, index-addressed tables the scan loop reads without allocating.

Index convention used across the firmware and the wire protocol: player seat ``s`` is index ``s``;
the centre (kitty) reader and its ring are index ``seats``.
"""
import json

CENTRE = "centre"
# ``timing`` defaults, the same as the host's (shengji_table.board.Timing)
LIFT_MS = 600
CS_SETUP_US = 1000
REPLY_TIMEOUT_MS = 100
ACTIVATION_MS = 100
DWELL_MS = 30


class ReaderPins:
    """One PN532's wiring; ``rst``/``irq`` are ``None`` when not wired."""

    def __init__(self, name, cs, rst, irq):
        self.name = name
        self.cs = cs
        self.rst = rst
        self.irq = irq


class ButtonPins:
    """One seat button: its pin, the pull resistor ("up"/"down"/"none"), active level."""

    def __init__(self, pin, pull, active_low):
        self.pin = pin
        self.pull = pull
        self.active_low = active_low


class Board:
    """A decoded board file; ``readers``/``rings`` have ``seats + 1`` entries (centre last)."""

    def __init__(self, data):
        self.name = data["name"]
        self.seats = seats = data["seats"]
        spi = data["spi"]
        self.spi_bus = spi["bus"]
        self.sck = spi["sck"]
        self.mosi = spi["mosi"]
        self.miso = spi["miso"]
        self.baudrate = spi["baudrate"]
        self.readers = [None] * (seats + 1)  # type: list
        for r in data["readers"]:
            self.readers[self.index(r["seat"])] = ReaderPins(r["name"], r["cs"], r.get("rst"), r.get("irq"))
        leds = data["leds"]
        self.led_pin = leds["pin"]
        self.led_order = leds["order"]
        # (first, count) per ring index; a centre without a ring is None.
        self.rings = [None] * (seats + 1)  # type: list
        pixels = 0
        for ring in leds["rings"]:
            self.rings[self.index(ring["seat"])] = (ring["first"], ring["count"])
            pixels = max(pixels, ring["first"] + ring["count"])
        self.pixels = pixels
        t = data.get("timing", {})
        self.lift_ms = t.get("lift_ms", LIFT_MS)
        self.cs_setup_us = t.get("cs_setup_us", CS_SETUP_US)
        self.reply_timeout_ms = t.get("reply_timeout_ms", REPLY_TIMEOUT_MS)
        self.activation_ms = t.get("activation_ms", ACTIVATION_MS)
        self.dwell_ms = t.get("dwell_ms", DWELL_MS)
        self.buttons = [None] * seats  # type: list
        for b in data["buttons"]:
            self.buttons[b["seat"]] = ButtonPins(b["pin"], b["pull"], b["active"] == "low")

    def index(self, seat):
        """Reader/ring index of a board-file seat (an int, or ``"centre"``)."""
        return self.seats if seat == CENTRE else seat


def load(path="board.json"):
    """Read ``path`` (on the Pico's flash) into a :class:`Board`."""
    with open(path) as f:
        return Board(json.load(f))
