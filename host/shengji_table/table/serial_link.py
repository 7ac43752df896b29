"""The host's serial transport: pyserial around the pure link state machine (:class:`HostSession`).

    link = SerialLink("auto" | "/dev/ttyACM0" | "loop://" | "socket://host:port", resume=position)
    link.open()                          # False (and retried later) when the port is not there
    while True:
        events = link.poll()             # decoded Pico events, each exactly once, in order
        for e in events: persist(e)      # the log FIRST ...
        link.flush()                     # ... THEN the bytes go out: ACKs, ring states, requests

Why ``flush`` is separate: the session puts the ACK of an event into its output as soon as it has
decoded it; nothing may reach the Pico before the caller has made that event durable, so the
transport writes only when told to.  :meth:`SerialLink.poll` refuses to run again while events it
returned are not flushed (``LinkError``), so a caller cannot skip the step by mistake.

The port is opened with ``serial.serial_for_url``: a device path, a pseudo-terminal, ``loop://``
and ``socket://`` all take the same code path.  When the port vanishes (the cable is pulled, the
pseudo-terminal closes) every read/write error closes it and :meth:`poll` reopens it with a
growing back-off; on the way back it asks the Pico for a snapshot, which resends what was missed.
Handshake: the first valid frame (normally the Pico's HELLO or a heartbeat) brings the link up; a
HELLO with another protocol version, or frames rejected only for their version byte, raise
:class:`ProtocolMismatch` with the versions in the message.
"""
from __future__ import annotations

import errno
import time
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

import serial

from .. import locks
from . import protocol as P
from .discovery import find_table
from .session import Event, Hello, HostSession, LinkPosition, Snapshot

__all__ = ["SerialLink", "LinkError", "ProtocolMismatch", "Disconnected", "Reconnected"]


class LinkError(RuntimeError):
    """A misuse of the link or a port that cannot be used at all."""


class ProtocolMismatch(LinkError):
    """The Pico speaks another version of the wire protocol: flash matching firmware."""


@dataclass(frozen=True)
class Disconnected:
    """The port failed (cable pulled, device gone); the link retries on its own."""
    reason: str


@dataclass(frozen=True)
class Reconnected:
    """The port is open again after ``Disconnected`` (or for the first time: ``first``)."""
    device: str
    first: bool = False


def _wire(u: int) -> int:
    return (u - 1) % 65535 + 1


class SerialLink:
    """One table's serial link (see the module docstring).

    ``device``: ``auto`` (find the Pico by USB id, :func:`find_table`), a path or a pyserial URL.
    ``resume``: the :class:`LinkPosition` a restarted host read back from its log, so nothing the
    log already holds is delivered again.  ``clock`` returns seconds (monotonic).
    """

    def __init__(self, device: str = "auto", *, resume: LinkPosition | None = None,
                 session: HostSession | None = None, baudrate: int = 115200, read_timeout: float = 0.005,
                 backoff: tuple = (0.05, 2.0), clock: Callable[[], float] = time.monotonic,
                 open_port: Callable[[str], object] | None = None):
        self.spec = device
        self.device: str | None = None
        self.session = session or HostSession(resume=resume)
        self.baudrate = baudrate
        self.read_timeout = read_timeout
        self.backoff_min, self.backoff_max = backoff
        self.clock = clock
        self._open_port = open_port or self._serial_for_url
        self.port: Any = None
        self._retry_at = 0.0
        self._delay = self.backoff_min
        self._opened_once = False
        self._unflushed = False
        self._notes: list = []          # Disconnected / Reconnected, returned by the next poll
        self.pico_next_seq: int | None = None     # from the last snapshot: the Pico's next seq
        self.pico_boot: int | None = None
        self.reconnects = 0
        self.bytes_in = 0
        self.bytes_out = 0
        self.hello: Hello | None = None
        self.snapshot_at = 0.0          # clock time of the last snapshot received
        self.last_error = ""
        self.busy: locks.Busy | None = None   # the port is held by another program (exclusive lock)

    # ---- the port ----------------------------------------------------------------------------
    def _serial_for_url(self, device: str):
        # A device (or pty) path is opened exclusively: a second program on the same table is refused
        # (``busy``) instead of sharing its taps.  URLs (loop://, socket://) have no such lock.
        exclusive = True if "://" not in device else None
        try:
            return serial.serial_for_url(device, baudrate=self.baudrate, timeout=self.read_timeout,
                                         write_timeout=1.0, exclusive=exclusive)
        except serial.SerialException as exc:
            if exclusive and exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
                self.busy = locks.Busy(device, locks.holder_of(device))
                raise self.busy from None
            raise

    @property
    def is_open(self) -> bool:
        return self.port is not None

    def now_ms(self) -> float:
        return self.clock() * 1000.0

    def open(self) -> bool:
        """Try to open the port once; True on success.  ``auto`` is resolved at every attempt (the
        Pico may come back on another USB socket)."""
        if self.port is not None:
            return True
        try:
            self.device = find_table(self.spec)
            self.port = self._open_port(self.device)
        except Exception as exc:  # noqa: BLE001 - serial.SerialException, OSError, DiscoveryError
            self._schedule_retry(f"cannot open {self.device or self.spec}: {exc}")
            return False
        self._delay = self.backoff_min
        self._notes.append(Reconnected(self.device, first=not self._opened_once))
        if self._opened_once:
            self.reconnects += 1
        self._opened_once = True
        # whatever happened while the port was away: ask for the present state
        self.session.request_snapshot(self.now_ms())
        return True

    def _schedule_retry(self, reason: str) -> None:
        self._retry_at = self.clock() + self._delay
        self._delay = min(self._delay * 2, self.backoff_max)
        self.last_error = reason

    def _lost(self, exc: BaseException) -> None:
        reason = f"{type(exc).__name__}: {exc}"
        try:
            self.port.close()
        except Exception:  # noqa: BLE001 - it is already broken
            pass
        self.port = None
        self._notes.append(Disconnected(reason))
        self._schedule_retry(reason)

    def close(self) -> None:
        if self.port is not None:
            try:
                self.port.close()
            finally:
                self.port = None

    # ---- reading -----------------------------------------------------------------------------
    def poll(self) -> list:
        """Read what arrived (waiting at most ``read_timeout``), run the session's timers and return
        the events: the session's (:mod:`.session`) and this transport's :class:`Disconnected` /
        :class:`Reconnected`.  Call :meth:`flush` after persisting them."""
        if self._unflushed:
            raise LinkError("poll() again before flush(): events were returned but their ACKs not sent")
        if self.port is None and self.clock() >= self._retry_at:
            self.open()
        events: list = []
        if self.port is not None:
            try:
                data = self.port.read(1)
                if data:
                    waiting = self.port.in_waiting
                    if waiting:
                        data += self.port.read(waiting)
            except Exception as exc:  # noqa: BLE001 - SerialException/OSError: the port went away
                self._lost(exc)
                data = b""
            if data:
                self.bytes_in += len(data)
                events = self.session.feed(data, self.now_ms())
        elif self.read_timeout:
            time.sleep(min(self.read_timeout, max(0.0, self._retry_at - self.clock())))
        events += self.session.tick(self.now_ms())
        for e in events:
            self._check(e)
        dec = self.session.decoder
        if dec.good == 0 and dec.errors[P.ERR_VERSION] >= 3:
            raise ProtocolMismatch("every frame from the port carries another protocol version: "
                                   "flash the firmware that matches this host")
        out = self._notes + events
        self._notes = []
        self._unflushed = bool(out)
        return out

    def _check(self, e: Event) -> None:
        if isinstance(e, Hello):
            self.hello = e
            if e.protocol != P.VERSION:
                raise ProtocolMismatch(f"the Pico speaks protocol {e.protocol}, this host {P.VERSION}: "
                                       "flash the firmware that matches this host")
        elif isinstance(e, Snapshot):
            self.pico_next_seq = e.next_seq
            self.pico_boot = e.boot_id
            self.snapshot_at = self.clock()

    # ---- writing -----------------------------------------------------------------------------
    def flush(self) -> int:
        """Write everything the session has queued (ACKs, rings, requests); returns bytes written.
        On a failed write the bytes are lost (ACKs and ring states are repeated anyway)."""
        self._unflushed = False
        out = self.session.outgoing()
        if not out or self.port is None:
            return 0
        try:
            self.port.write(out)
        except Exception as exc:  # noqa: BLE001 - the port went away
            self._lost(exc)
            return 0
        self.bytes_out += len(out)
        return len(out)

    # ---- conveniences ---------------------------------------------------------------------------
    def caught_up(self) -> bool:
        """True when the last snapshot's "next seq" says everything the Pico had sent before it has
        been delivered (a restarted host must not act on a table it has not heard out)."""
        pos = self.session.position
        if self.pico_next_seq is None or pos is None or self.pico_boot != pos.boot_id:
            return False
        # caught up when the Pico's next seq is not ahead of the next one we expect
        return not P.seq_after(self.pico_next_seq, _wire(pos.seq + 1))

    def request_snapshot(self) -> None:
        self.pico_next_seq = None
        self.session.request_snapshot(self.now_ms())

    @property
    def position(self) -> LinkPosition | None:
        return self.session.position
