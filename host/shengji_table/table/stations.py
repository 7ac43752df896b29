"""Enrolment stations: where the enrol and deck-check commands get their taps from.

A station reports what a person does with cards — a :class:`StationTap` (a tag's UID and, when the tag
holds one, the 16 bytes of its card code, and when the station reads it, the tag's 32-byte NTAG21x
originality signature) — and, if it can, writes a card code into a tag.  Three kinds:

* :class:`BlinkaStation`: a PN532 on a Linux host through Adafruit Blinka (an FT232H on USB, or a
  Raspberry Pi's pins), driven by ``adafruit_pn532`` over SPI, I2C or UART.  Reads and writes, and
  reads each tag's originality signature (READ_SIG).
* :class:`TableStation`: the table's own readers, taps arriving through the table's serial link
  as ``(reader, uid, code)``.  Read-only: the wire protocol has no tag-write message, and the
  firmware reads no signatures (a set that requires them is enrolled at a Blinka station).
* :class:`TapsFileStation`: a text file, one UID a line (``uid[,codehex[,sighex]]``), ``u`` to
  undo; for tests and scripts, and for taps captured elsewhere.

All three answer :meth:`Station.poll`: a :class:`StationTap`, :data:`UNDO`, ``None`` (nothing yet) or
:data:`END` (no more will come), so the commands' loop is the same for each and can still read the
keyboard between polls.
"""
from __future__ import annotations

import pathlib
import queue
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable, Iterable, Iterator

from .card_code import CODE_BYTES, CardCodeError, decode_card_code
from .registry import RegistryError, uid_hex

__all__ = ["StationTap", "UNDO", "END", "StationError", "Station", "TapsFileStation", "TableStation",
           "BlinkaStation", "open_blinka_station", "link_taps", "parse_taps", "CODE_FIRST_PAGE"]

CODE_FIRST_PAGE = 4          # NTAG21x user memory starts at page 4; the code fills pages 4..7
_IN_DATA_EXCHANGE = 0x40     # PN532 command: pass a command on to the selected tag
_CODE_PAGES = CODE_BYTES // 4


class StationError(RuntimeError):
    """A station that cannot be opened or a tag operation that failed; the message says what to do."""


@dataclass(frozen=True)
class StationTap:
    """A tag arrived.  ``uid`` is canonical hex; ``code`` the raw 16 bytes of pages 4–7 if read."""

    uid: str
    code: bytes | None = None
    reader: int | None = None
    # READ_SIG's 32 bytes, when the station read them; not part of a tap's identity (UID and code)
    signature: bytes | None = field(default=None, compare=False)

    def card_code(self):
        """``(deck_set, CardCopy)`` from the tag's memory, or ``None`` for a blank/unreadable tag."""
        if self.code is None:
            return None
        try:
            return decode_card_code(self.code)
        except CardCodeError:
            return None


class _Marker:
    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


UNDO = _Marker("UNDO")     # take the last enrolled card back (a `u` line in a taps file)
END = _Marker("END")       # the station will report nothing more


class Station:
    """What the enrol and check commands use.  Subclasses implement :meth:`poll`."""

    name = "station"
    can_write = False
    reads_signatures = False

    def poll(self, timeout: float):
        """Wait up to ``timeout`` s for the next thing: :class:`StationTap`, :data:`UNDO`, ``None`` or :data:`END`."""
        raise NotImplementedError

    def write_code(self, uid: str, code: bytes) -> None:
        """Write ``code`` into the tag ``uid`` (still on the reader) and read it back; raise on failure."""
        raise StationError(f"the {self.name} station cannot write card codes")

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# ---- taps file ------------------------------------------------------------------------------

_COMMENT = re.compile(r"(?:^|\s)#")      # '#' opening a line or after a space: S2#1 is not a comment


def parse_taps(text: str, source: str = "taps file") -> list:
    """The items of a taps file; :class:`StationError` naming the first bad line.

    Format: one tap a line, ``UID``, ``UID,CODEHEX`` or ``UID,CODEHEX,SIGHEX`` (UID as 4/7/10 bytes of
    hex, ``:`` or spaces allowed; CODEHEX the tag's 16 bytes from page 4, may be empty; SIGHEX its
    32-byte originality signature, as READ_SIG gave it); ``u`` or ``undo`` takes the last card back;
    blank lines and comments (``#`` at the start of a line or after a space) are ignored.  The whole
    file is checked before any tap is used, so a bad file changes nothing.
    """
    items: list = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = _COMMENT.split(raw, 1)[0].strip()
        if not line:
            continue
        if line.lower() in ("u", "undo"):
            items.append(UNDO)
            continue
        uid_text, _, rest = line.partition(",")
        code_text, _, sig_text = rest.partition(",")
        try:
            uid = uid_hex(uid_text.strip())
        except RegistryError as exc:
            raise StationError(f"{source} line {n}: {exc}") from None
        code = _hex_field(code_text, CODE_BYTES, "card code", f"{source} line {n}")
        signature = _hex_field(sig_text, 32, "signature", f"{source} line {n}")
        items.append(StationTap(uid, code, signature=signature))
    return items


def _hex_field(text: str, size: int, what: str, where: str) -> bytes | None:
    text = text.strip()
    if not text:
        return None
    try:
        value = bytes.fromhex(text)
    except ValueError:
        raise StationError(f"{where}: the {what} after ',' is hex, not {text!r}") from None
    if len(value) != size:
        raise StationError(f"{where}: a {what} is {size} bytes of hex, not {len(value)}")
    return value


class TapsFileStation(Station):
    """Taps read from a file (see :func:`parse_taps`); read-only, ends at the end of the file."""

    name = "taps-file"

    def __init__(self, path):
        self.path = str(path)
        try:
            text = pathlib.Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise StationError(f"cannot read taps file {path}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise StationError(f"{path} is not a text file of tag UIDs") from None
        self._items = parse_taps(text, str(path))
        self._next = 0
        # a file that carries signatures was captured at a station that reads them
        self.reads_signatures = any(isinstance(t, StationTap) and t.signature is not None for t in self._items)

    def poll(self, timeout: float):
        if self._next >= len(self._items):
            return END
        item = self._items[self._next]
        self._next += 1
        return item


# ---- the table's own readers ----------------------------------------------------------------

class TableStation(Station):
    """Taps from the table's readers: any iterable of ``(reader, uid, code)``.

    ``code`` is the tag's memory from page 4 as the firmware read it (bytes, possibly longer than
    a card code) or ``None``.  ``reader`` restricts the station to one reader (e.g. the centre
    one); taps on the others are ignored.  The iterable is consumed on a background thread so a
    blocking serial read never stops the keyboard (``u`` to undo) from being read.
    """

    name = "table"

    def __init__(self, taps: Iterable, reader: int | None = None, on_close: Callable[[], Any] | None = None):
        self.reader = reader
        self._on_close = on_close
        self._queue: queue.Queue = queue.Queue()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._pump, args=(iter(taps),), daemon=True)
        self._thread.start()

    def _pump(self, it: Iterator) -> None:
        try:
            for reader, uid, code in it:
                if self.reader is not None and reader != self.reader:
                    continue
                code = bytes(code[:CODE_BYTES]) if code is not None and len(code) >= CODE_BYTES else None
                self._queue.put(StationTap(uid_hex(uid), code, reader))
        except BaseException as exc:  # handed to the reading thread; a thread must not die silently
            self._error = exc
        self._queue.put(END)

    def poll(self, timeout: float):
        try:
            item = self._queue.get(timeout=timeout) if timeout > 0 else self._queue.get_nowait()
        except queue.Empty:
            return None
        if item is END:
            self._queue.put(END)       # stays ended for every later poll
            if self._error is not None:
                error, self._error = self._error, None
                raise StationError(f"the table link stopped: {error}") from error
        return item

    def close(self) -> None:
        """Ask the tap source to stop (``on_close``) and give its thread a moment to finish."""
        if self._on_close is not None:
            self._on_close()
        self._thread.join(timeout=2.0)


def link_taps(link, *, stop: threading.Event | None = None, idle_s: float = 0.0) -> Iterator[tuple]:
    """``(reader, uid, code)`` for every tap a table link delivers (``SerialLink``-like: ``poll()``
    returns events, ``flush()`` sends their acknowledgements).  Taps are acknowledged before they are
    handed on: an enrolment keeps its own progress file, and a tap lost in a crash is simply tapped
    again.  Other events (buttons, heartbeats, reconnects) are skipped.  Ends when ``stop`` is set,
    closing the link from the thread that uses it (a link is not shared between threads)."""
    from .session import LinkTap
    try:
        while stop is None or not stop.is_set():
            events = link.poll()
            taps = [(e.reader, e.uid, e.code) for e in events if isinstance(e, LinkTap)]
            link.flush()
            yield from taps
            if not events and idle_s:
                time.sleep(idle_s)
    finally:
        link.close()


# ---- a PN532 through Adafruit Blinka ----------------------------------------------------------

def _driver_errors() -> tuple:
    """What ``adafruit_pn532`` raises on a garbled exchange: RuntimeError (bad frame, no ACK),
    its BusyError (I2C/UART not ready), OSError (the bus itself)."""
    try:
        from adafruit_pn532.adafruit_pn532 import BusyError  # type: ignore[import-untyped]
    except ImportError:
        return (RuntimeError, OSError)
    return (RuntimeError, OSError, BusyError)


class BlinkaStation(Station):
    """A PN532 driven by ``adafruit_pn532`` (``PN532_SPI``, ``PN532_I2C`` or ``PN532_UART``).

    A card resting on the antenna is reported once; it must leave the field (``lift_polls``
    empty polls in a row) before it can be reported again, so a card held a moment too long is
    not a second tap.  The card code is read with ``ntag2xx_read_block`` (pages 4–7) at every tap;
    a tag whose memory the tag itself refuses to read (not an NTAG) is reported with ``code=None``;
    a garbled exchange is retried at the next poll instead, and ``max_errors`` of them in a row
    raise :class:`StationError`, as does a chip that stops answering (checked every
    ``health_every`` empty polls).
    """

    name = "blinka"
    can_write = True
    reads_signatures = True

    def __init__(self, pn532, *, lift_polls: int = 2, read_codes: bool = True, max_errors: int = 5,
                 health_every: int = 50):
        self.pn532 = pn532
        self.health_every = health_every
        self.lift_polls = lift_polls
        self.read_codes = read_codes
        self.max_errors = max_errors
        self.errors = 0                # garbled exchanges in a row (a good one resets it)
        self._driver_errors = _driver_errors()   # imported here: the driver is loaded by now anyway
        self._present: str | None = None
        self._empty = 0

    def _check_alive(self) -> None:
        """No card for a while: a dead or unplugged PN532 looks the same to the driver (its polls
        just time out), so ask for the firmware version, which fails loudly."""
        try:
            # a property of the driver: reading it is a GetFirmwareVersion exchange with the chip
            _ = self.pn532.firmware_version
        except self._driver_errors as exc:
            raise StationError(f"the PN532 does not answer ({exc}); check its wiring, power and "
                               f"interface switches") from exc

    def _driver_error(self, exc: Exception) -> None:
        """A garbled exchange (line noise, a card leaving mid-read): retried on the next poll; only
        ``max_errors`` in a row mean the reader is gone."""
        self.errors += 1
        self._present = None           # whatever was on the reader is read again from scratch
        if self.errors >= self.max_errors:
            raise StationError(f"the PN532 keeps failing ({self.errors} exchanges in a row, last: {exc}); "
                               f"check its wiring and power") from exc

    def _read_pages(self, first: int, count: int) -> bytes | None:
        out = bytearray()
        for page in range(first, first + count):
            block = self.pn532.ntag2xx_read_block(page)
            if block is None or len(block) != 4:
                return None
            out += bytes(block)
        return bytes(out)

    def poll(self, timeout: float):
        try:
            raw = self.pn532.read_passive_target(timeout=max(timeout, 0.01))
        except self._driver_errors as exc:
            self._driver_error(exc)
            return None
        if raw is None:
            self._empty += 1
            if self._empty >= self.lift_polls:
                self._present = None
            if self._empty % self.health_every == 0:
                self._check_alive()
            return None
        self._empty = 0
        uid = bytes(raw).hex()
        if uid == self._present:
            return None                # still the same card resting on the reader
        try:
            code = self._read_pages(CODE_FIRST_PAGE, _CODE_PAGES) if self.read_codes else None
            signature = self._read_signature()
        except self._driver_errors as exc:
            # Not reported with code=None: a foreign card's code must not go unseen (and be
            # overwritten) because one read was garbled.  The next poll reads it again.
            self._driver_error(exc)
            return None
        self.errors = 0
        self._present = uid
        return StationTap(uid, code, signature=signature)

    def _read_signature(self) -> bytes | None:
        """The tag's NTAG21x originality signature: READ_SIG (0x3C, address 00) through the PN532's
        InDataExchange (the driver has no call of its own for it); None when the tag refuses it
        (not an NTAG21x)."""
        response = self.pn532.call_function(_IN_DATA_EXCHANGE, params=[0x01, 0x3C, 0x00], response_length=33)
        if response is None or len(response) != 33 or response[0] != 0x00:
            return None
        return bytes(response[1:])

    def write_code(self, uid: str, code: bytes) -> None:
        """Write the code into pages 4–7 of tag ``uid`` and verify by reading it back.

        The tag is selected again first, so a card swapped for another in the meantime is never
        written; any failure raises :class:`StationError` and the caller keeps nothing.
        """
        if len(code) != CODE_BYTES:
            raise StationError(f"a card code is {CODE_BYTES} bytes, not {len(code)}")
        try:
            self._write_and_verify(uid, code)
        except self._driver_errors as exc:
            raise StationError(f"the PN532 garbled an exchange while writing tag {uid} ({exc}); "
                               f"tap it again") from exc

    def _write_and_verify(self, uid: str, code: bytes) -> None:
        raw = self.pn532.read_passive_target(timeout=0.5)
        if raw is None or bytes(raw).hex() != uid:
            raise StationError(f"tag {uid} left the reader before its code was written; tap it again")
        for i in range(_CODE_PAGES):
            if not self.pn532.ntag2xx_write_block(CODE_FIRST_PAGE + i, code[4 * i:4 * i + 4]):
                raise StationError(f"writing page {CODE_FIRST_PAGE + i} of tag {uid} failed "
                                   f"(locked page, or the card moved); tap it again")
        back = self._read_pages(CODE_FIRST_PAGE, _CODE_PAGES)
        if back != code:
            raise StationError(f"tag {uid} reads back {back.hex() if back else 'nothing'} instead of the "
                               f"code written; tap it again")


def _configured(pn532):
    """Adafruit's constructor sends SAMConfiguration first of all; a PN532 just powered up may
    lose its first command while it wakes, so it is sent again, as Adafruit's examples do."""
    pn532.SAM_configuration()
    return pn532


def open_blinka_station(kind: str, device: str | None = None) -> BlinkaStation:
    """A :class:`BlinkaStation` on real hardware: ``kind`` is ``spi``, ``i2c`` or ``uart``.

    ``device``: for SPI the chip-select pin name on ``board`` (default ``D5``; ``C0`` … on an
    FT232H), for UART the serial port (default ``/dev/ttyUSB0``), unused for I2C (the PN532's
    address is fixed at 0x24).  Blinka needs to know the board: on an FT232H set
    ``BLINKA_FT232H=1`` before running.
    """
    try:
        if kind == "uart":
            import serial  # PN532_UART needs read/write/in_waiting/reset_input_buffer
            from adafruit_pn532.uart import PN532_UART  # type: ignore[import-untyped]
            port = device or "/dev/ttyUSB0"
            try:
                uart = serial.Serial(port, 115200, timeout=0.1)
            except serial.SerialException as exc:
                raise StationError(f"cannot open {port}: {exc}") from None
            return BlinkaStation(_configured(PN532_UART(uart)))
        import board  # type: ignore[import-untyped]  # Blinka: raises when it cannot tell the board
        import busio  # type: ignore[import-untyped]
        import digitalio  # type: ignore[import-untyped]
        if kind == "spi":
            from adafruit_pn532.spi import PN532_SPI  # type: ignore[import-untyped]
            pin = device or "D5"
            if not hasattr(board, pin):
                raise StationError(f"board {getattr(board, 'board_id', '?')} has no pin {pin!r} for chip select")
            cs = digitalio.DigitalInOut(getattr(board, pin))
            return BlinkaStation(_configured(PN532_SPI(board.SPI(), cs)))
        if kind == "i2c":
            from adafruit_pn532.i2c import PN532_I2C  # type: ignore[import-untyped]
            return BlinkaStation(_configured(PN532_I2C(busio.I2C(board.SCL, board.SDA))))
    except StationError:
        raise
    except (ImportError, RuntimeError, OSError, ValueError, AttributeError) as exc:
        hint = ("no FT232H found on USB (is it plugged in, is libusb-1.0 installed, may this user open "
                "it?)" if "No backend" in str(exc) or "No USB device" in str(exc)
                else "on an FT232H set BLINKA_FT232H=1")
        raise StationError(f"cannot open the PN532 through Blinka ({kind}): {exc}; {hint}; see docs/table.md") from None
    raise StationError(f"unknown Blinka bus {kind!r}: spi, i2c or uart")

