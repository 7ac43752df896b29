"""What ``enroll`` and ``deck check`` share: the station options, opening the station, the keyboard
between taps, and the loop that feeds taps to a handler.  (Not a subcommand itself.)"""
from __future__ import annotations

import argparse
import itertools
import os
import select
import sys
import threading
import time

from ..table.stations import (END, UNDO, Station, StationError, TableStation, TapsFileStation, link_taps,
                              open_blinka_station)

STATIONS = ("blinka-spi", "blinka-i2c", "blinka-uart", "table")


def add_station_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("where the taps come from (one of)")
    group.add_argument("--station", choices=STATIONS,
                       help="blinka-spi/-i2c/-uart: a PN532 on this computer through Adafruit Blinka "
                            "(e.g. an FT232H); table: the table's own readers over its USB link")
    group.add_argument("--taps", metavar="FILE",
                       help="a text file of taps instead of a reader: one UID a line, optionally "
                            "',CODEHEX' (the tag's 16 bytes from page 4) and ',SIGHEX' (its originality "
                            "signature); 'u' undoes the last card")
    parser.add_argument("--device", default=None,
                        help="blinka-spi: chip-select pin (default D5); blinka-uart: serial port "
                             "(default /dev/ttyUSB0); table: auto, a path or a pyserial URL (default auto)")
    parser.add_argument("--reader", type=int, default=None,
                        help="table station: use only this reader (default: any)")
    parser.add_argument("--connect-timeout", type=float, default=5.0, metavar="SECONDS",
                        help="table station: how long to wait for the table to answer (default 5)")


def open_station(args) -> Station:
    """The station the options name; :class:`StationError` with the reason otherwise."""
    if args.taps and args.station:
        raise StationError("give either --station or --taps, not both")
    if args.taps:
        return TapsFileStation(args.taps)
    if args.station is None:
        raise StationError("say where the taps come from: --station blinka-spi|blinka-i2c|blinka-uart|table, "
                           "or --taps FILE")
    if args.station.startswith("blinka-"):
        return open_blinka_station(args.station.split("-", 1)[1], args.device)
    if args.connect_timeout <= 0:
        raise StationError("--connect-timeout must be positive")
    return open_table_station(args.device or "auto", args.reader, connect_timeout=args.connect_timeout)


def open_table_station(device: str, reader: int | None, *, connect_timeout: float = 5.0) -> Station:
    """The table's readers as a station, through the host's serial link (table/serial_link.py).

    Waits up to ``connect_timeout`` seconds for the Pico's snapshot (its answer to the link's
    opening request): a port where no table answers, or a ``reader`` the table does not have, is a
    :class:`StationError` instead of a prompt that waits for ever."""
    try:
        from ..table.serial_link import SerialLink
    except ImportError as exc:
        raise StationError(f"the serial link to the table is not available ({exc}); use a Blinka station "
                           f"or --taps") from None
    link = SerialLink(device)
    if not link.open():
        raise StationError(f"cannot open the table: {getattr(link, 'last_error', device)}")
    try:
        readers, early = _await_table(link, connect_timeout)
        if readers is None:
            raise StationError(f"no table answered on {link.device or device} within {connect_timeout:g} s: "
                               f"is the firmware flashed, is it the table's port?")
        if reader is not None and not 0 <= reader < readers:
            raise StationError(f"--reader {reader}: this table has readers 0..{readers - 1}")
    except BaseException:
        link.close()
        raise
    stop = threading.Event()
    return TableStation(itertools.chain(early, link_taps(link, stop=stop)), reader=reader, on_close=stop.set)


def _await_table(link, timeout: float, clock=time.monotonic) -> tuple:
    """``(number of readers, taps that arrived meanwhile)`` once the Pico's snapshot arrives, or
    ``(None, taps)`` after ``timeout`` seconds of no answer.  Taps are acknowledged and kept, as
    :func:`link_taps` does, so none is lost while waiting."""
    from ..table.serial_link import LinkError
    from ..table.session import LinkTap, Snapshot
    early: list = []
    end = clock() + timeout
    try:
        while clock() < end:
            events = link.poll()
            early += [(e.reader, e.uid, e.code) for e in events if isinstance(e, LinkTap)]
            link.flush()
            snapshot = next((e for e in events if isinstance(e, Snapshot)), None)
            if snapshot is not None:
                return len(snapshot.readers), early
    except LinkError as exc:            # e.g. the Pico speaks another protocol version
        raise StationError(f"the table on {link.device} cannot be used: {exc}") from None
    return None, early


class Keyboard:
    """Lines typed while a hardware station waits for cards (``u`` undo, ``q`` stop); never blocks."""

    def __init__(self, stream=None):
        self.stream = sys.stdin if stream is None else stream
        try:
            self.fd = self.stream.fileno()
            os.fstat(self.fd)
        except (OSError, ValueError, AttributeError):
            self.fd = None

    def poll(self) -> str | None:
        if self.fd is None:
            return None
        try:
            ready, _, _ = select.select([self.fd], [], [], 0)
        except (OSError, ValueError):
            self.fd = None
            return None
        if not ready:
            return None
        line = self.stream.readline()
        if line == "":          # end of input: stop listening, keep tapping
            self.fd = None
            return None
        return line.strip().lower()


def feed(station: Station, on_tap, on_undo, finished, *, keyboard: Keyboard | None = None,
         poll_s: float = 0.1) -> str:
    """Feed the station's taps to ``on_tap`` until ``finished()``; returns why it stopped:
    ``"done"``, ``"end"`` (station exhausted), ``"quit"`` (``q`` typed) or ``"interrupted"`` (Ctrl-C)."""
    try:
        while not finished():
            if keyboard is not None:
                key = keyboard.poll()
                if key in ("u", "undo"):
                    on_undo()
                    continue
                if key in ("q", "quit"):
                    return "quit"
            item = station.poll(poll_s)
            if item is None:
                continue
            if item is END:
                return "end"
            if item is UNDO:
                on_undo()
            else:
                on_tap(item)
    except KeyboardInterrupt:
        return "interrupted"
    return "done"


def say(*parts) -> None:
    print(*parts, flush=True)


def fail(command: str, message) -> int:
    """An error the user must fix: on stderr, exit status 2."""
    print(f"shengji-table {command}: {message}", file=sys.stderr, flush=True)
    return 2
