"""From the serve loop to the browsers: every outcome the service logs is turned into the public
state at once (in the loop's thread, under the service's lock) and handed to the web server's event
loop, which wakes every open ``/events`` stream.  A slow client gets the latest state, never a
queue of old ones.  With a spectator delay the public streams (and ``GET /api/table``) run that
many seconds behind; the referee's stream never waits.
"""
from __future__ import annotations

import asyncio
import collections
import json
import time

from .state import public_state, seat_names

__all__ = ["Hub", "Subscriber"]


class Subscriber:
    """One open event stream: the latest message, and an event that says there is one."""

    def __init__(self, first: str):
        self.latest = first
        self.wake = asyncio.Event()
        self.wake.set()
        self.closed = False

    def put(self, text: str) -> None:
        self.latest = text
        self.wake.set()


class Hub:
    """The service's listener (``service.add_listener``) and the streams' fan-out."""

    def __init__(self, service, *, names=None, spectator_delay: float = 0.0, history: int = 12):
        self.service = service
        # the players' names: a sequence in seat order or {seat: name}; none: the controller's own
        self.names = seat_names(names or getattr(service.controller, "names", ()), service.controller.ruleset.players)
        self.delay = max(0.0, float(spectator_delay))
        self.announcements: collections.deque = collections.deque(maxlen=history)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.public: set = set()
        self.referee: set = set()
        self.version = 0
        self._past: collections.deque = collections.deque()      # (monotonic time, state text), delayed
        self._current = ""
        self.closed = False
        with service.lock:
            self._refresh()
        service.add_listener(self._on_outcome)

    # ---- in the serve loop's thread (holding the service's lock) ------------------------------
    def _on_outcome(self, event, outcome) -> None:
        self.announcements.extend(outcome.texts)
        self._refresh()

    def _refresh(self) -> None:
        self.version += 1
        text = json.dumps(self.state(), ensure_ascii=False, separators=(",", ":"))
        now = time.monotonic()
        self._current = text
        if self.delay:
            self._past.append((now, text))
            while len(self._past) > 1 and self._past[1][0] <= now - self.delay:
                self._past.popleft()
        loop = self.loop
        if loop is not None and not loop.is_closed():
            ping = json.dumps({"version": self.version, "log": self.service.log.last_id()})
            try:
                loop.call_soon_threadsafe(self._fan_out, text, ping)
            except RuntimeError:        # the loop closed meanwhile (the server is stopping)
                pass

    def state(self) -> dict:
        """The public state now (hold the service's lock)."""
        return public_state(self.service.controller, self.names, list(self.announcements), self.service.paused)

    # ---- in the web server's event loop --------------------------------------------------------
    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def _fan_out(self, text: str, ping: str) -> None:
        for sub in list(self.referee):
            sub.put(ping)
        if self.delay and self.loop is not None:
            self.loop.call_later(self.delay, self._send_public, text)
        else:
            self._send_public(text)

    def _send_public(self, text: str) -> None:
        for sub in list(self.public):
            sub.put(text)

    def public_text(self) -> str:
        """The public state as the spectators see it now (behind by the delay, if any)."""
        if not self.delay:
            return self._current
        now = time.monotonic()
        shown = self._past[0][1] if self._past else self._current
        for t, text in self._past:
            if t <= now - self.delay:
                shown = text
        return shown

    def subscribe(self, audience: str) -> Subscriber:
        if audience == "referee":
            sub = Subscriber(json.dumps({"version": self.version, "log": self.service.log.last_id()}))
            self.referee.add(sub)
        elif self.delay:
            sub = Subscriber(self.public_text())
        else:
            with self.service.lock:         # at most one step of the loop (a few ms)
                self._current = json.dumps(self.state(), ensure_ascii=False, separators=(",", ":"))
            sub = Subscriber(self._current)
        if audience != "referee":
            self.public.add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        self.public.discard(sub)
        self.referee.discard(sub)

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        self.closed = True
        loop = self.loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._close_all)
            except RuntimeError:
                pass

    def _close_all(self) -> None:
        for sub in list(self.public) + list(self.referee):
            sub.closed = True
            sub.wake.set()
