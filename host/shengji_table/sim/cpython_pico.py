"""A Pico stand-in in CPython: the firmware's own link (``firmware/link.py``) on a pseudo-terminal,
without MicroPython, readers or a scan loop — for the transport tests and the latency benchmark,
where the host side is what is measured and the Pico must answer at once.

    with CPythonPico() as pico:          # pico.device: the pseudo-terminal the host opens
        pico.tap(2, uid, code)           # queued and sent as the scan loop would
        pico.rings[2]                    # the last ring state the host commanded
        pico.pull_cable(); pico.plug_cable()

The link runs in its own thread; ``on_ring`` records every RING frame with its arrival time.
``version`` other than the protocol's makes it speak another protocol version (frames the host
must refuse).

The Pico's modules are its own (:class:`~shengji_table.firmware_src.FirmwareModules`), as a real
Pico's are: what it does to its ``protocol`` never touches the host's.
"""
from __future__ import annotations

import os
import tempfile
import threading
import time
from typing import Any

from ..firmware_src import FirmwareModules
from . import pty_cable

_PICO = FirmwareModules()
firmware_link = _PICO.load("link")          # the firmware module, run by CPython
firmware_protocol = _PICO.load("protocol")  # the one firmware_link imports

__all__ = ["CPythonPico"]


class _PtyStream:
    def __init__(self, fd):
        self.fd = fd

    def readinto(self, buf):
        try:
            data = os.read(self.fd, len(buf))
        except (BlockingIOError, OSError):
            return 0
        buf[:len(data)] = data
        return len(data)

    def write(self, buf, off, n):
        data = bytes(buf[off:off + n])
        while data:
            try:
                k = os.write(self.fd, data)
            except BlockingIOError:
                time.sleep(0.0005)
                continue
            data = data[k:]


class CPythonPico:
    """The firmware link in a thread on a pty master (see the module docstring)."""

    def __init__(self, boot_id: bytes = b"\x11\x22\x33\x44", rings: int = 5, queue: int = 32, version: int = 0):
        self._tmp = tempfile.TemporaryDirectory(prefix="shengji-pico-")
        self.device = os.path.join(self._tmp.name, "ttyPICO")
        self.boot_id = boot_id
        self.n_rings = rings
        self.queue = queue
        self.version = version
        self.rings: dict = {}
        self.ring_log: list = []            # (perf_counter, ring, state)
        self.sim: list = []                 # SIM frames received (type, fields)
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.master: int | None = None
        self.slave: int | None = None
        self.link: Any = None

    def _make_link(self):
        writer = firmware_protocol.Writer
        if self.version:
            version = self.version

            class OtherVersionWriter(writer):      # every frame in another protocol version
                def begin(self, typ, seq):
                    writer.begin(self, typ, seq)
                    self.body[0] = version
            firmware_link.P.Writer = OtherVersionWriter
        try:
            lk = firmware_link.Link(_PtyStream(self.master), lambda: int(time.monotonic() * 1000) & 0x3FFFFFFF,
                                    self._on_ring, self._on_sim, firmware=b"0.1.0", board=b"table-4",
                                    boot_id=self.boot_id, queue=self.queue, rings=self.n_rings)
        finally:
            firmware_link.P.Writer = writer
        lk.snapshot_provider = lambda: (bytes([1] * self.n_rings), bytes(self.n_rings - 1))
        return lk

    def _on_ring(self, ring, pattern, r, g, b, count, arg):
        state = (pattern, r, g, b, count, arg)
        self.rings[ring] = state
        self.ring_log.append((time.perf_counter(), ring, state))

    def _on_sim(self, typ, fields):
        self.sim.append((typ, fields))

    # ---- lifetime ------------------------------------------------------------------------------
    def start(self) -> CPythonPico:
        self.plug_cable()
        with self._lock:
            self.link = self._make_link()
        self._thread = threading.Thread(target=self._run, name="cpython-pico", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self.pull_cable()
        self._tmp.cleanup()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                if self.link is not None and self.master is not None:
                    self.link.poll()
            time.sleep(0.0002)

    # ---- the table ------------------------------------------------------------------------------
    def tap(self, reader: int, uid: bytes, code: bytes | None = None) -> int:
        with self._lock:
            return self.link.send_tap(reader, uid, code)

    def button(self, seat: int, kind: int = firmware_protocol.PRESS) -> int:
        with self._lock:
            return self.link.send_button(seat, kind)

    def reboot(self, boot_id: bytes) -> None:
        with self._lock:
            self.boot_id = boot_id
            self.link = self._make_link()

    @property
    def pending(self) -> int:
        return self.link.pending

    def plug_cable(self) -> None:
        master, slave = pty_cable.plug(self.device)
        with self._lock:
            self.master, self.slave = master, slave
            if self.link is not None:
                self.link.stream = _PtyStream(master)

    def pull_cable(self) -> None:
        with self._lock:
            master, slave = self.master, self.slave
            self.master = self.slave = None
        pty_cable.pull(self.device, master, slave)
