"""The scan timing budget of a table (pure: no I/O beyond reading the firmware's constants).

How often each seat's reader is polled, and how long a card waits between landing on a reader and
its TAP leaving the Pico, computed step by step the way ``firmware/pn532.py`` runs a command:

1. chip-select low, the command frame out, CS high (the driver's CS setup delay applies only while
   the chip wakes — power-up, a recovery — not to a running table's polls; ``cs_setup_every_transfer``
   models the older driver that waited before every transfer);
2. the wait before the ACK (``ACK_GAP_MS``), then status reads (prefix 0x02) every ``POLL_INTERVAL_MS`` until
   the chip is ready; the ACK read (prefix 0x03, 6 bytes);
3. the chip's own time for the command (below), seen at the next status read; the reply read.

Each CS-low transfer also pays the interpreter's time to make it (an estimate for a 125 MHz RP2040
running MicroPython bytecode: about 35 loop iterations and 15 calls per command, 0.2-0.4 ms).

The chip's time per command comes from the radio protocol the PN532 runs (ISO/IEC 14443-2/-3 type
A at 106 kbit/s, the mode ``InListPassiveTarget 01 00`` asks for, UM0701-02 §7.3.5): one bit is
128/fc = 9.44 us, a byte on air is 9 bits (8 + odd parity), and the PICC answers after a frame
delay time of 1236/fc = 91 us (ISO 14443-3 §6.2.1.1).  What UM0701-02 does not give — the PN532's
own processing between radio frames, and how long it listens for an ATQA with no card — is an
estimate named as such; ``shengji-table selftest --measure`` measures what these figures predict
(docs/build.md, "Measuring a real table").

A poll is InListPassiveTarget for up to two cards, then, for a card the reader does not know yet,
an NTAG READ of its code (a card lying there is not read again), then the field off (which unpowers
the card: no InRelease).  A card is a TAP at the first poll at least ``timing.dwell_ms`` after the one
that first saw it (two polls at least).  The seat on turn gets an extra poll after every
``_TURN_EVERY`` others (``firmware/scan.py``), so its polls come closer together than a lap.

    >>> b = table_budget(load_board("boards/table-6.json"))
    >>> b.polls_per_s_per_seat_cards, b.turn_latency_ms
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..board import Board
from ..firmware_src import FIRMWARE_DIR

__all__ = ["DriverTimes", "Command", "CommandTime", "Budget", "driver_times", "command_time", "table_budget",
           "COMMANDS", "air_ms", "ETU_US", "FDT_US", "INTERPRETER_MS_PER_TRANSFER", "STEP_OVERHEAD_MS",
           "FIELD_ON_GUARD_MS", "WS2812_US_PER_LED", "FRAME_MS", "turn_every"]

# --- ISO/IEC 14443 type A at 106 kbit/s (the figures UM0701-02 refers to for 106 kbps type A) ---------
ETU_US = 128 / 13.56          # one bit on air
FDT_US = 1236 / 13.56         # PCD frame end -> PICC answer (ISO 14443-3 §6.2.1.1, n = 9)
# ISO 14443-3 §5 and the NTAG21x datasheet: a tag is ready at most 5 ms after the field comes on.  The
# firmware switches the field off after every poll (reader.py), so every poll starts with field-on.
FIELD_ON_GUARD_MS = 5.0
# Estimates (not in UM0701-02; measured by selftest --measure): the PN532's processing per radio
# frame exchange, its ATQA listen window per activation attempt with nothing in the field, and its
# handling of a command with no radio work (GetFirmwareVersion, RFConfiguration, InRelease).
CHIP_PER_EXCHANGE_MS = 0.2
ATTEMPT_NO_CARD_MS = 1.0
CHIP_COMMAND_MS = 0.5
# Estimates for MicroPython on the RP2040 at 125 MHz (docs/build.md, "Measuring a real table").
INTERPRETER_MS_PER_TRANSFER = 0.06
STEP_OVERHEAD_MS = 0.3        # link poll, button sampling, the step's own bookkeeping
WS2812_US_PER_LED = 30        # neopixel.write with interrupts off (docs/hardware-notes.md)
FRAME_MS = 40                 # firmware/scan.py _FRAME_MS: a ring frame at most every 40 ms

_CONSTANTS = {"ACK_GAP_MS": 1, "ACK_TIMEOUT_MS": 15, "REPLY_TIMEOUT_MS": 50, "POLL_INTERVAL_MS": 1,
              "MAX_RETRIES_DEFAULT": 1, "CS_SETUP_US": 0}


@dataclass(frozen=True)
class DriverTimes:
    """The driver's waits, as ``firmware/pn532.py`` defines them (ms unless named otherwise)."""
    ack_gap_ms: float
    ack_timeout_ms: float
    reply_timeout_ms: float
    poll_interval_ms: float
    max_retries: int            # MxRtyPassiveActivation: tries = max_retries + 1
    cs_setup_us: float          # delay after CS low before the first clock while the chip wakes
    cs_setup_every_transfer: bool = False   # the older driver: that delay before every transfer


def driver_times(source: str | None = None, cs_setup_us: float | None = None) -> DriverTimes:
    """The constants of ``firmware/pn532.py`` (or ``source``), read from its text: the host never
    imports firmware modules that are not shared (``firmware_src``).  A constant the file lacks keeps
    its documented default; ``cs_setup_us`` (a board setting) overrides the driver's."""
    text = (FIRMWARE_DIR / "pn532.py").read_text(encoding="utf-8") if source is None else source
    found = dict(_CONSTANTS)
    for name in found:
        m = re.search(rf"^{name}\s*=\s*(?:const\()?\s*(\d+)", text, re.M)
        if m:
            found[name] = int(m.group(1))
    return DriverTimes(ack_gap_ms=found["ACK_GAP_MS"], ack_timeout_ms=found["ACK_TIMEOUT_MS"],
                       reply_timeout_ms=found["REPLY_TIMEOUT_MS"], poll_interval_ms=found["POLL_INTERVAL_MS"],
                       max_retries=found["MAX_RETRIES_DEFAULT"],
                       cs_setup_us=found["CS_SETUP_US"] if cs_setup_us is None else cs_setup_us)


def air_ms(pcd_bits: int, picc_bits: int) -> float:
    """One radio exchange: the reader's frame, the frame delay, the tag's answer (ms)."""
    return ((pcd_bits + picc_bits) * ETU_US + FDT_US) / 1000


def _bytes(n: int) -> int:
    return 9 * n + 2          # 9 bits a byte (parity) plus start and end of frame


@dataclass(frozen=True)
class Command:
    """A PN532 command: parameter bytes sent, reply LEN (TFI + code + data), chip time (ms)."""
    name: str
    nparams: int
    reply_len: int
    chip_ms: float
    source: str


def _activation_ms(uid_len: int) -> float:
    """REQA/ATQA, then per cascade level ANTICOLLISION (2 bytes -> 5) and SELECT (9 -> 3 with CRC)."""
    levels = 1 if uid_len == 4 else 2 if uid_len == 7 else 3
    ms = air_ms(9, _bytes(2)) + CHIP_PER_EXCHANGE_MS            # REQA is a 7-bit short frame
    ms += levels * (air_ms(_bytes(2), _bytes(5)) + air_ms(_bytes(9), _bytes(3)) + 2 * CHIP_PER_EXCHANGE_MS)
    return FIELD_ON_GUARD_MS + ms


def commands(tries: int) -> dict[str, Command]:
    """The commands of one poll, with ``tries`` activation attempts when no card answers."""
    iso = "ISO 14443-3 frames at 106 kbit/s + estimated chip time"
    return {
        "list_empty": Command(f"InListPassiveTarget, no card ({tries} tries)", 2, 3,
                              FIELD_ON_GUARD_MS + tries * ATTEMPT_NO_CARD_MS,
                              "field-on guard + tries x ATQA listen window (estimate)"),
        # two targets asked: after the card is selected, one more attempt finds no second one
        "list_card": Command("InListPassiveTarget, NTAG (7-byte UID), 2 asked", 2, 2 + 13,
                             _activation_ms(7) + ATTEMPT_NO_CARD_MS, iso + " + a second attempt, no card"),
        "read": Command("InDataExchange NTAG READ (16 bytes)", 3, 3 + 16,
                        air_ms(_bytes(4), _bytes(18)) + CHIP_PER_EXCHANGE_MS, iso),
        "release": Command("InRelease", 1, 3, CHIP_COMMAND_MS + air_ms(_bytes(4), 0), iso + " (HLTA)"),
        "field_off": Command("RFConfiguration, field off", 2, 2, CHIP_COMMAND_MS, "estimate"),
    }


COMMANDS = commands(2)


@dataclass(frozen=True)
class CommandTime:
    """One command's time on the bus (ms): typical and with every wait timing out."""
    command: Command
    typical_ms: float
    worst_ms: float
    transfers: int            # CS-low transfers in the typical case


def command_time(cmd: Command, baud: int, drv: DriverTimes) -> CommandTime:
    """Typical and worst time of ``cmd`` as ``PN532._call`` runs it at ``baud``."""
    byte_ms = 8 * 1000 / baud
    per_transfer = (drv.cs_setup_us / 1000 if drv.cs_setup_every_transfer else 0.0) + INTERPRETER_MS_PER_TRANSFER
    send = (1 + 8 + cmd.nparams) * byte_ms + per_transfer          # prefix, 00 00 FF LEN LCS D4 cmd .. DCS 00
    status = 2 * byte_ms + per_transfer                             # one ready() read
    ack = 7 * byte_ms + per_transfer                                # prefix + 00 00 FF 00 FF 00
    reply = (1 + 6 + cmd.reply_len + 1) * byte_ms + per_transfer    # prefix, head, rest of LEN, DCS, 00
    # After the ACK, status reads a poll interval apart until the chip is done with the command.
    grid = drv.poll_interval_ms + status
    extra = math.ceil(max(0.0, cmd.chip_ms - status) / grid)
    typical = send + drv.ack_gap_ms + status + ack + status + extra * grid + reply
    worst = send + drv.ack_gap_ms + drv.ack_timeout_ms + ack + drv.reply_timeout_ms + reply
    return CommandTime(cmd, typical, worst, transfers=5 + extra)


def turn_every(source: str | None = None) -> int:
    """``_TURN_EVERY`` of ``firmware/scan.py``: the seat on turn is polled once more after that many
    other polls (0: no such priority)."""
    text = (FIRMWARE_DIR / "scan.py").read_text(encoding="utf-8") if source is None else source
    m = re.search(r"^_TURN_EVERY\s*=\s*(?:const\()?\s*(\d+)", text, re.M)
    return int(m.group(1)) if m else 0


@dataclass(frozen=True)
class Budget:
    """The timing budget of one board (ms, per second)."""
    board: str
    readers: int
    seats: int
    baudrate: int
    driver: DriverTimes
    rows: tuple[CommandTime, ...]
    empty_ms: float                  # one reader's poll, no card (typical)
    card_ms: float                   # one reader's poll with a new card (its code read, field off)
    empty_worst_ms: float
    card_worst_ms: float
    led_frame_ms: float              # one ring frame written (interrupts off)
    held_ms: float = 0.0             # a poll with a card the reader knows (no READ)
    dwell_ms: float = 0.0            # board timing.dwell_ms
    turn_every: int = 0              # firmware/scan.py _TURN_EVERY (0: no priority)
    confirm: bool = True             # a TAP waits for a second poll (False: the older firmware's first)

    def _with_leds(self, base: float) -> float:
        return base + self.led_frame_ms * base / FRAME_MS

    @property
    def lap_ms(self) -> float:
        """Every reader polled once, no card anywhere, plus the LED frames that fall in the lap."""
        return self._with_leds(self.readers * (self.empty_ms + STEP_OVERHEAD_MS))

    @property
    def turn_polls(self) -> float:
        """Extra polls of the seat on turn in a lap (every reader polled once between them)."""
        return self.readers / self.turn_every if self.turn_every else 0.0

    @property
    def lap_cards_ms(self) -> float:
        """A lap with a card lying on every seat's reader (a trick on the table), the centre empty,
        and the seat on turn polled its extra times."""
        held = self.held_ms + STEP_OVERHEAD_MS
        base = (self.seats * held + (self.readers - self.seats) * (self.empty_ms + STEP_OVERHEAD_MS)
                + self.turn_polls * held)
        return self._with_leds(base)

    @property
    def polls_per_s_per_seat(self) -> float:
        """How often one seat's reader is polled with no card on the table."""
        return 1000 / self.lap_ms

    @property
    def polls_per_s_per_seat_cards(self) -> float:
        """How often a seat not on turn is polled with a card on every pad."""
        return 1000 / self.lap_cards_ms

    @property
    def turn_interval_ms(self) -> float:
        """Between two polls of the seat on turn, a card on every pad."""
        return self.lap_cards_ms / (self.turn_polls + 1)

    def _latency(self, interval: float) -> tuple[float, float]:
        """(mean, worst) card down -> TAP sent, polls ``interval`` apart: the wait for the next
        poll (half an interval on average, a whole one at worst), which sees the card and reads its
        code, then the first poll at least the dwell later, which confirms it."""
        if not self.confirm:
            return interval / 2 + self.card_ms, interval + self.card_ms
        k = max(1, math.ceil(self.dwell_ms / interval - 1e-9))
        rest = k * interval + self.card_ms       # the first poll's READ, then k intervals to the confirming poll
        return interval / 2 + rest, interval + rest

    @property
    def tap_latency_ms(self) -> float:
        """Mean card down -> TAP on an empty table, nobody on turn (a lap between polls)."""
        return self._latency(self.lap_ms)[0]

    @property
    def tap_latency_max_ms(self) -> float:
        """At most, nobody on turn, a card on every other pad."""
        return self._latency(self.lap_cards_ms)[1]

    @property
    def turn_latency_ms(self) -> float:
        """Mean tap-to-TAP of the seat on turn with a card on every pad (the play the table waits for)."""
        return self._latency(self.turn_interval_ms)[0]

    @property
    def turn_latency_max_ms(self) -> float:
        return self._latency(self.turn_interval_ms)[1]

    @property
    def worst_lap_ms(self) -> float:
        """Every command of every reader timing out (all cards down): what the watchdog must allow."""
        return (self.readers + self.turn_polls) * (self.card_worst_ms + STEP_OVERHEAD_MS) + self.led_frame_ms

    def lines(self) -> list[str]:
        """The arithmetic, one line a figure (``make bench``)."""
        d = self.driver
        setup = (f"CS setup {d.cs_setup_us:g} us every transfer" if d.cs_setup_every_transfer
                 else f"CS setup {d.cs_setup_us:g} us only while a chip wakes")
        out = [f"{self.board}: {self.readers} readers at {self.baudrate / 1e6:g} MHz SPI; driver ACK wait "
               f"{d.ack_gap_ms:g} ms, status poll every {d.poll_interval_ms:g} ms, {setup}, "
               f"{d.max_retries + 1} activation tries, reply timeout {d.reply_timeout_ms:g} ms; dwell "
               f"{self.dwell_ms:g} ms; seat on turn polled once more every {self.turn_every or '-'} polls"]
        for r in self.rows:
            out.append(f"  {r.command.name:<48} {r.typical_ms:6.2f} ms typical (chip {r.command.chip_ms:5.2f} ms, "
                       f"{r.transfers} transfers)  {r.worst_ms:6.1f} ms worst")
        out += [
            f"  poll of one reader: no card {self.empty_ms:.1f} ms, a card held {self.held_ms:.1f} ms, a new card "
            f"{self.card_ms:.1f} ms (+{STEP_OVERHEAD_MS:g} ms a scan step; LED frame {self.led_frame_ms:.1f} ms "
            f"every {FRAME_MS} ms)",
            f"  empty table: lap {self.lap_ms:.0f} ms -> {self.polls_per_s_per_seat:.1f} polls/s per seat; "
            f"tap latency {self.tap_latency_ms:.0f} ms mean",
            f"  a card on every pad, a seat on turn: lap {self.lap_cards_ms:.0f} ms -> "
            f"{self.polls_per_s_per_seat_cards:.1f} polls/s per seat; the seat on turn every "
            f"{self.turn_interval_ms:.0f} ms ({1000 / self.turn_interval_ms:.1f} polls/s) -> tap-to-TAP "
            f"{self.turn_latency_ms:.0f} ms mean, {self.turn_latency_max_ms:.0f} ms worst",
            f"  worst lap, every command timing out: {self.worst_lap_ms:.0f} ms (watchdog 5000 ms)",
        ]
        return out


def _sum(rows: list[CommandTime], attr: str) -> float:
    return sum(getattr(r, attr) for r in rows)


def table_budget(board: Board, drv: DriverTimes | None = None, baudrate: int | None = None,
                 turn: int | None = None, old_poll: bool = False) -> Budget:
    """The budget of ``board`` (its SPI clock, its readers and LEDs) with the driver's times.
    ``turn``: the seat-on-turn priority (default the firmware's); ``old_poll``: a poll as the older
    firmware ran it (InRelease before the field went off, the held card's code read every poll)."""
    if drv is None:
        drv = driver_times(cs_setup_us=getattr(board.timing, "cs_setup_us", None))
    baud = baudrate or board.spi.baudrate
    cmds = commands(drv.max_retries + 1)
    rows = {k: command_time(c, baud, drv) for k, c in cmds.items()}
    empty = [rows["list_empty"], rows["field_off"]]
    card = [rows["list_card"], rows["read"], rows["field_off"]] + ([rows["release"]] if old_poll else [])
    held = card if old_poll else [rows["list_card"], rows["field_off"]]
    pixels = sum(r.count for r in board.leds.rings)
    return Budget(board=board.name, readers=len(board.readers), seats=board.seats, baudrate=baud, driver=drv,
                  rows=tuple(rows.values()), empty_ms=_sum(empty, "typical_ms"), card_ms=_sum(card, "typical_ms"),
                  empty_worst_ms=_sum(empty, "worst_ms"), card_worst_ms=_sum(card, "worst_ms"),
                  led_frame_ms=pixels * WS2812_US_PER_LED / 1000, held_ms=_sum(held, "typical_ms"),
                  dwell_ms=board.timing.dwell_ms, turn_every=turn_every() if turn is None else turn,
                  confirm=not old_poll)
