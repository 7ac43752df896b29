"""Table host benchmark: tap-to-ring latency through the real serial stack, and events per second.

The Pico is the firmware's own link code (``firmware/link.py``) run by CPython on a pseudo-terminal
(``sim/cpython_pico.py``), so it answers at once and only the host is measured: pyserial reads the
TAP frame, the session decodes it, the controller rules on it, the event log (SQLite, WAL,
synchronous=FULL, in the temporary folder) commits it, and the RING frame is written back.

* latency: one tap at a time; host side, from the read that completed the event frame to the
  write of the ring frame; median and p99.  Target: p99 below 10 ms.
* throughput: the taps and presses of whole classic hands sent as fast as the Pico's queue allows
  (at most 24 unacknowledged); events handled per second.
"""
from __future__ import annotations

import json
import pathlib
import statistics
import tempfile
import time

from shengji_table.game import events as ev
from shengji_table.rules.ruleset import Ruleset
from shengji_table.sim.cpython_pico import CPythonPico
from shengji_table.sim.players import deal_for, hand_seeds, play_direct
from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set, sim_pages, sim_uid
from shengji_table.store.log import EventLog
from shengji_table.table import protocol as P
from shengji_table.table.controller import Controller
from shengji_table.table.serial_link import SerialLink
from shengji_table.table.service import TableService, last_position

PRESET = "classic"
HANDS = 2


def physical_actions(events) -> list:
    """The taps and presses that make these game events at the table (as the sim players do)."""
    out = []
    for e in events:
        if isinstance(e, (ev.Draw, ev.Tap)):
            out.append(("tap", e.seat, e.copy))
        elif isinstance(e, ev.Declare):
            # declared when the press ends (a long press would withdraw the shown cards instead)
            out += [("tap", e.seat, c) for c in e.cards] + [("press", e.seat), ("release", e.seat)]
        elif isinstance(e, ev.CloseDeclarations):
            out.append(("press", 0))
        elif isinstance(e, ev.Confirm):
            out.append(("press", e.seat))
    return out


def fs_type(path: str) -> str:
    """The filesystem type under ``path`` (fsync costs differ: tmpfs vs a disk)."""
    best, kind = "", "?"
    try:
        for line in open("/proc/mounts", encoding="utf-8"):
            parts = line.split()
            if len(parts) > 2 and path.startswith(parts[1]) and len(parts[1]) > len(best):
                best, kind = parts[1], parts[2]
    except OSError:
        pass
    return kind


def build(pico, tmp, seeds):
    board = json.loads(DEFAULT_BOARD.read_text())
    rs = Ruleset.from_preset(PRESET)
    log = EventLog(pathlib.Path(tmp) / "bench.db")
    link = SerialLink(pico.device, resume=last_position(log, "default"))
    ctl = Controller(rs, "scanned", board, sim_deck_set(rs.decks), deal_for("scanned", seeds))
    svc = TableService(link, ctl, log)
    link.open()
    svc.restore()
    return svc


def instrument(svc):
    """Stamp every completed read and every write of the host's port."""
    port = svc.link.port
    stamps = {"read": 0.0, "writes": []}
    real_read, real_write = port.read, port.write

    def read(n=1):
        data = real_read(n)
        if data:
            stamps["read"] = time.perf_counter()
        return data

    def write(data):
        k = real_write(data)
        stamps["writes"].append(time.perf_counter())
        return k
    port.read, port.write = read, write
    return stamps


def send(pico, action):
    if action[0] == "tap":
        pico.tap(action[1], sim_uid(action[2]), sim_pages(action[2]))
    elif action[0] == "release":
        pico.button(action[1], P.RELEASE)
    else:
        pico.button(action[1])


def wait_ready(svc, seconds=3):
    end = time.monotonic() + seconds
    while time.monotonic() < end and not svc.link.caught_up():
        svc.step()


def latency(actions, seeds) -> list:
    out = []
    with tempfile.TemporaryDirectory() as tmp, CPythonPico() as pico:
        svc = build(pico, tmp, seeds)
        wait_ready(svc)
        stamps = instrument(svc)
        for action in actions:
            before = svc.stats.physical
            send(pico, action)
            while svc.stats.physical == before:
                stamps["writes"].clear()
                read_at = None
                events = svc.link.poll()
                if events:
                    read_at = stamps["read"]
                for e in events:
                    svc.handle(e)
                svc.link.flush()
                if read_at is not None and svc.stats.physical > before and stamps["writes"]:
                    out.append((stamps["writes"][-1] - read_at) * 1000.0)
        svc.link.close()
        svc.log.close()
    return out


def throughput(actions, seeds) -> tuple:
    with tempfile.TemporaryDirectory() as tmp, CPythonPico() as pico:
        svc = build(pico, tmp, seeds)
        wait_ready(svc)
        start_phys = svc.stats.physical
        t0 = time.perf_counter()
        i = 0
        while svc.stats.physical - start_phys < len(actions):
            while i < len(actions) and pico.pending < 24:
                send(pico, actions[i])
                i += 1
            svc.step()
        dt = time.perf_counter() - t0
        n = svc.stats.physical - start_phys
        games = len(svc.controller.match.events)
        svc.link.close()
        svc.log.close()
    return n, dt, games


def virtual_table_latency(preset: str = "one-deck") -> list:
    """The same host-side latency while the real firmware runs under MicroPython on the virtual
    table (both share this machine's cores), one hand played by the bots."""
    from shengji_table.sim.match_runner import SimHost
    from shengji_table.sim.virtual_table import VirtualTable
    out: list = []
    with tempfile.TemporaryDirectory() as tmp, VirtualTable() as vt:
        host = SimHost(vt.device, pathlib.Path(tmp) / "vt.db", preset=preset, mode="scanned", seed=7, hands=1)
        host.start()
        stamps = instrument(host.service)
        step = host.service.step

        def timed_step():
            stamps["writes"].clear()
            before = host.service.stats.physical
            events = step()
            read_at = stamps["read"]
            if host.service.stats.physical > before and stamps["writes"]:
                out.append((stamps["writes"][-1] - read_at) * 1000.0)
            return events
        host.service.step = timed_step
        host.run(timeout=120)
        host.close()
    return out


def main():
    rs = Ruleset.from_preset(PRESET)
    seeds = hand_seeds(7, HANDS)
    ref = play_direct(rs, "scanned", 7, HANDS)
    actions = physical_actions(ref.events)
    lat = sorted(latency(actions, seeds))
    p99 = lat[min(len(lat) - 1, int(round(0.99 * (len(lat) - 1))))]
    print(f"tap-to-ring latency, host side (event frame read -> ring frame written), {len(lat)} events "
          f"of {HANDS} {PRESET} hands, SQLite log in {tempfile.gettempdir()} ({fs_type(tempfile.gettempdir())}):")
    print(f"   median {statistics.median(lat):6.2f} ms   p99 {p99:6.2f} ms   max {lat[-1]:6.2f} ms   "
          f"target p99 < 10 ms: {'met' if p99 < 10 else 'NOT met'}")
    vt = sorted(virtual_table_latency())
    p99v = vt[min(len(vt) - 1, int(round(0.99 * (len(vt) - 1))))]
    print(f"   with the real firmware running (virtual table, one-deck hand, {len(vt)} events): "
          f"median {statistics.median(vt):.2f} ms   p99 {p99v:.2f} ms")
    n, dt, games = throughput(actions, seeds)
    print(f"sustained: {n} table events in {dt:.2f} s = {n / dt:,.0f} events/s "
          f"({games} game events; each logged in its own durable transaction before its ACK)")


if __name__ == "__main__":
    main()
