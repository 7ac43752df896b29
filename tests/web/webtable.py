"""Test helper (not a test): a table without a link — a real controller, service and SQLite event
log, fed the game events of a bot match (``sim.players.play_direct``) as a table would report them —
and the web face on it."""
from __future__ import annotations

import json
import threading
import time

from shengji_table.game import events as ev
from shengji_table.rules.ruleset import Ruleset
from shengji_table.sim.players import play_direct
from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set
from shengji_table.store.log import EventLog
from shengji_table.table.controller import Controller, Outcome
from shengji_table.table.service import TableService

BOARD = json.loads(DEFAULT_BOARD.read_text())
PIN = "2468-1357"


class Clock:
    """A clock the tests move by hand (``clock.now += 61``): the PIN gate's lockouts."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class NullSession:
    position = None

    def set_ring(self, *args, **kwargs) -> None:
        pass


class NullLink:
    """A serial link with no Pico: nothing arrives, rings go nowhere."""

    def __init__(self):
        self.session = NullSession()
        self.is_open = True

    def poll(self) -> list:
        time.sleep(0.002)
        return []

    def flush(self) -> int:
        return 0

    def close(self) -> None:
        pass


def make_table(path, preset: str = "one-deck", seed: int = 7, hands: int = 1, **options):
    """``(service, events)``: a fresh table and the game events of a bot match to feed it."""
    ruleset = Ruleset.from_preset(preset, **options)
    events = list(play_direct(ruleset, "scanned", seed, hands).events)
    controller = Controller(ruleset, "scanned", BOARD, sim_deck_set(ruleset.decks), lambda number: None)
    svc = TableService(NullLink(), controller, EventLog(path))
    svc.restore()
    return svc, events


def feed(svc: TableService, event) -> Outcome:
    """One game event as the table would have made it from taps: applied, logged, shown."""
    with svc.lock:
        out = Outcome()
        svc.controller._game(event, out)
        svc._commit([], event, out, 0.0)
        return out


def feed_until(svc, events: list, start: int, stop) -> int:
    """Feed ``events[start:]`` until ``stop(svc)``; the index of the next event."""
    i = start
    while i < len(events) and not stop(svc):
        feed(svc, events[i])
        i += 1
    return i


def in_play(svc) -> bool:
    hand = svc.controller.match.hand
    return hand is not None and hand.phase == "playing"


def tricks(n: int):
    def stop(svc) -> bool:
        hand = svc.controller.match.hand
        return hand is not None and len(hand.tricks) >= n
    return stop


def is_play(e) -> bool:
    return isinstance(e, (ev.Tap, ev.Confirm))


class Feeder(threading.Thread):
    """Feeds events in a thread, ``pace`` seconds apart, as a demo's bots would (stop() ends it)."""

    def __init__(self, svc, events: list, start: int = 0, pace: float = 0.05):
        super().__init__(daemon=True)
        self.svc, self.events, self.i, self.pace = svc, events, start, pace
        self._halt = threading.Event()  # not _stop: Thread has a _stop method

    def run(self) -> None:
        while self.i < len(self.events) and not self._halt.is_set():
            feed(self.svc, self.events[self.i])
            self.i += 1
            self._halt.wait(self.pace)

    def stop(self) -> None:
        self._halt.set()
        self.join(5)
