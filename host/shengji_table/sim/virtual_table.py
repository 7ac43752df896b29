"""The virtual table: the real firmware (``firmware/main.py``, sim build) under the real MicroPython
interpreter, reached by the host through a pseudo-terminal, exactly as a Pico on USB would be.

::

    host (pyserial) ── /dev/pts/N ══ pty master ── relay ── pipes ── micropython firmware/main.py
                         ▲ device: <workdir>/ttyTABLE (a symlink, like /dev/serial/by-id)

The firmware runs with ``build.json`` ``{"sim": true}``: its PN532 readers are the simulated chips
of ``firmware/pn532_model.py`` behind the real driver, scan loop and debounce; the host puts cards on them and
presses buttons with SIM frames over the same link (``HostSession.sim_place`` …).

The relay between the pseudo-terminal and the firmware's pipes is where faults are made:
:meth:`VirtualTable.pull_cable` closes the pseudo-terminal (the host's port fails like a pulled USB
cable) and :meth:`plug_cable` makes a new one behind the same device name; :meth:`inject` writes raw
bytes (garbage, corrupted frames) towards either end; ``faults`` passes a direction's traffic through
a :class:`~shengji_table.sim.line_faults.FaultyLine`; :meth:`restart_firmware` kills the MicroPython
process and boots a new one (a new boot id; the firmware's queue and the cards on its readers are
gone, as after a power cut).

:func:`sim_deck_set` makes the deck set of the virtual cards: one NTAG UID per physical card and its
card code (``card_code.py``) in the tag's memory.
"""
from __future__ import annotations

import json
import os
import pathlib
import select
import subprocess
import tempfile
import threading
from typing import Any
from collections.abc import Iterable

from ..board import DEFAULT_BOARD
from ..firmware_src import FIRMWARE_DIR
from ..micropython import spawn_micropython
from ..rules.cards import CardCopy, all_copies
from ..table.card_code import encode_card_code
from ..table.registry import DeckSet
from .hw import HW_DIR
from . import pty_cable
from .line_faults import FaultyLine

__all__ = ["VirtualTable", "sim_deck_set", "sim_uid", "DEFAULT_BOARD", "SIM_DECK_SET_ID"]

SIM_DECK_SET_ID = 0x53494D31          # "SIM1"

_FIRMWARE_SCRIPT = """
import main
main.main({board!r}, {build!r})
"""


def sim_uid(copy: CardCopy, deck_set_id: int = SIM_DECK_SET_ID) -> bytes:
    """A 7-byte NTAG-like UID for a virtual card (0x04 = NXP), unique per deck set and card."""
    return bytes([0x04, (deck_set_id >> 8) & 0xFF, deck_set_id & 0xFF, 0x5A, copy.deck, copy.card.index, 0x80])


def sim_deck_set(decks: int, deck_set_id: int = SIM_DECK_SET_ID, name: str = "virtual") -> DeckSet:
    """The registry of the virtual cards: every copy of ``decks`` decks with its :func:`sim_uid`."""
    return DeckSet(name, deck_set_id, decks, {sim_uid(c, deck_set_id).hex(): c for c in all_copies(decks)})


def sim_pages(copy: CardCopy, deck_set_id: int = SIM_DECK_SET_ID) -> bytes:
    """The tag's user memory (page 4 on): its card code."""
    return encode_card_code(copy, deck_set_id)


# The chip model's fault knobs (firmware/simboard.py FAULT_KNOBS, and coupling), as the command line
# names them, with their attribute and range.
FAULTS = {"drop-acks": ("drop_acks", 0, 10_000), "corrupt-replies": ("corrupt_replies", 0, 10_000),
          "corrupt-commands": ("corrupt_commands", 0, 10_000), "ack-settle-us": ("ack_gap_us", 0, 100_000),
          "reply-delay-polls": ("reply_delay_polls", 0, 10_000), "coupling": ("coupling", 1, 100)}


def parse_fault(text: str, readers: Iterable[str]) -> tuple:
    """``READER:KNOB=VALUE`` (``seat2:drop-acks=3``) -> (reader name, model attribute, value);
    ValueError naming what is wrong."""
    names = list(readers)
    where, _, rest = text.partition(":")
    knob, _, value = rest.partition("=")
    if not rest or not value:
        raise ValueError(f"{text!r}: write READER:KNOB=VALUE, e.g. seat2:drop-acks=3")
    if where not in names:
        raise ValueError(f"{text!r}: no reader {where!r}; readers: {', '.join(names)}")
    if knob not in FAULTS:
        raise ValueError(f"{text!r}: no fault {knob!r}; faults: {', '.join(FAULTS)}")
    attr, low, high = FAULTS[knob]
    if not value.isdigit() or not low <= int(value) <= high:
        raise ValueError(f"{text!r}: {knob} is a whole number from {low} to {high}")
    return where, attr, int(value)


class VirtualTable:
    """A running virtual table (see the module docstring).  Use as a context manager.

    ``board``: a board file (default ``boards/table-4.json``); ``dead_readers``: names of readers
    whose simulated PN532 never answers; ``faults``: the chip models' fault knobs per reader
    (:func:`parse_fault`); ``workdir``: where the device link
    and ``build.json`` go (a temporary folder by default).
    """

    def __init__(self, board: str | os.PathLike = DEFAULT_BOARD, workdir: str | os.PathLike | None = None,
                 faults_to_host: FaultyLine | None = None, faults_to_pico: FaultyLine | None = None,
                 dead_readers: Iterable[str] = (), faults: dict | None = None) -> None:
        self.board_path = pathlib.Path(board).resolve()
        self.board = json.loads(self.board_path.read_text())
        names = [r["name"] for r in self.board["readers"]]
        unknown = [n for n in dead_readers if n not in names]
        if unknown:
            raise ValueError(f"no reader named {', '.join(unknown)} on {self.board['name']}; "
                             f"readers: {', '.join(names)}")
        self._tmp = None
        if workdir is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="shengji-vt-")
            workdir = self._tmp.name
        self.workdir = pathlib.Path(workdir)
        self.device = str(self.workdir / "ttyTABLE")
        self.build_path = self.workdir / "build.json"
        # ``dead``: readers whose simulated PN532 never answers (firmware/simboard.py)
        # ``faults``: {reader name: {knob: value}} for the chip models (parse_fault)
        self.build_path.write_text(json.dumps({"sim": True, "board": self.board["name"],
                                               "dead": list(dead_readers), "faults": faults or {}}))
        self.faults_to_host = faults_to_host
        self.faults_to_pico = faults_to_pico
        self.proc: Any = None              # the MicroPython subprocess.Popen
        self.master: int | None = None
        self.slave: int | None = None
        self.plugged = False
        self.boots = 0
        self.bytes_to_host = 0
        self.bytes_to_pico = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._relay: threading.Thread | None = None
        self._wake_r, self._wake_w = os.pipe()

    # ---- lifetime ----------------------------------------------------------------------------
    def start(self) -> VirtualTable:
        self._spawn_firmware()
        self.plug_cable()
        self._relay = threading.Thread(target=self._run_relay, name="virtual-table-relay", daemon=True)
        self._relay.start()
        return self

    def close(self) -> None:
        self._stop.set()
        os.write(self._wake_w, b"x")
        if self._relay is not None:
            self._relay.join(timeout=2)
        self._kill_firmware()
        self.pull_cable()
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        if self._tmp is not None:
            self._tmp.cleanup()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    # ---- the firmware ------------------------------------------------------------------------
    def _spawn_firmware(self) -> None:
        script = _FIRMWARE_SCRIPT.format(board=str(self.board_path), build=str(self.build_path))
        proc: Any = spawn_micropython(script, path=[HW_DIR, FIRMWARE_DIR], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        os.set_blocking(proc.stdout.fileno(), False)
        with self._lock:
            self.proc = proc
            self.boots += 1
        self._wake()

    def _kill_firmware(self) -> None:
        with self._lock:
            proc, self.proc = self.proc, None
        if proc is not None:
            proc.kill()
            proc.wait(timeout=5)
            for f in (proc.stdin, proc.stdout):
                try:
                    f.close()
                except OSError:
                    pass

    def restart_firmware(self) -> None:
        """Kill the MicroPython process and boot a new one (a power cut on the Pico)."""
        self._kill_firmware()
        self._spawn_firmware()

    @property
    def firmware_alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    # ---- the cable ---------------------------------------------------------------------------
    def plug_cable(self) -> None:
        """A new pseudo-terminal behind the stable device name (like a USB re-enumeration)."""
        master, slave = pty_cable.plug(self.device)
        with self._lock:
            self.master, self.slave = master, slave
            self.plugged = True
        self._wake()

    def pull_cable(self) -> None:
        """Close the pseudo-terminal: the host's reads and writes fail, its device name vanishes."""
        with self._lock:
            master, slave = self.master, self.slave
            self.master = self.slave = None
            self.plugged = False
        pty_cable.pull(self.device, master, slave)
        self._wake()

    def inject(self, data: bytes, towards: str = "host") -> None:
        """Write raw bytes into the line towards ``host`` or ``pico`` (garbage, broken frames)."""
        with self._lock:
            if towards == "host" and self.master is not None:
                os.write(self.master, data)
            elif towards == "pico" and self.proc is not None:
                try:
                    self.proc.stdin.write(data)
                except OSError:
                    pass

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass

    # ---- the relay -------------------------------------------------------------------------
    def _run_relay(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                proc, master = self.proc, self.master
            fds = [self._wake_r]
            fw_out = proc.stdout.fileno() if proc is not None and not proc.stdout.closed else None
            if fw_out is not None:
                fds.append(fw_out)
            if master is not None:
                fds.append(master)
            try:
                ready, _, _ = select.select(fds, [], [], 0.5)
            except (OSError, ValueError):
                continue
            if self._wake_r in ready:
                os.read(self._wake_r, 4096)
            if fw_out is not None and fw_out in ready:
                try:
                    data = os.read(fw_out, 4096)
                except (BlockingIOError, OSError):
                    data = b""
                if data and self.faults_to_host is not None:
                    data = self.faults_to_host.carry(data)
                if data:
                    self._to_host(data)
            if master is not None and master in ready:
                try:
                    data = os.read(master, 4096)
                except (BlockingIOError, OSError):
                    data = b""
                if data and self.faults_to_pico is not None:
                    data = self.faults_to_pico.carry(data)
                if data:
                    self._to_pico(data)

    def _to_host(self, data: bytes) -> None:
        with self._lock:
            master = self.master
            if master is None:
                return                       # cable out: the bytes are lost, as on a real line
            try:
                os.write(master, data)
                self.bytes_to_host += len(data)
            except OSError:
                pass

    def _to_pico(self, data: bytes) -> None:
        with self._lock:
            proc = self.proc
            if proc is None:
                return
            try:
                proc.stdin.write(data)
                self.bytes_to_pico += len(data)
            except OSError:
                pass
