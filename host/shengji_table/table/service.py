"""The serve loop: serial link → controller → event log, then rings and ACKs.

One iteration (:meth:`TableService.step`)::

    events = link.poll()                  # Pico events, each once (session), port up/down notes
    for e in events:
        outcome = controller.on_…(e)      # game events, rulings, effects, ring commands
        log: one transaction = the physical row (boot, seq) + every game/ruling/effect row
             + the controller's pending-entry state
        session.set_ring(…)               # rings are queued only after the transaction committed
    link.flush()                          # ACKs and ring frames leave together, after the log

So nothing is shown and nothing acknowledged before it is durable.

The referee's console (``face/web``) runs in another thread of the same process: every step of the
loop, every referee action (:meth:`TableService.referee`, :meth:`~TableService.pause`,
:meth:`~TableService.resume`) and every reader of the state (:attr:`TableService.lock`) holds the
service's lock, so the two never race.  A paused table refuses every tap and press
(``table.paused``, logged like any refusal) until the referee resumes it.  A host killed at any moment
restarts with :meth:`TableService.restore`: the log's game events are replayed into a fresh match
(the same state), the controller's last saved entry state is taken back, and the link resumes at
the last physical event logged — the Pico resends everything after it, and nothing before it is
delivered twice (the row with that link identity is in the same transaction as its game events).
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from collections.abc import Callable

from ..game.effects import Announce, Line, Refusal
from ..store.log import EventLog
from . import protocol as P
from .controller import Controller, Outcome
from .serial_link import Disconnected, Reconnected, SerialLink
from .session import (Button, Hello, LinkDown, LinkPosition, LinkStack, LinkTakeBack, LinkTap, LinkUp, Log,
                      Lost, ReaderStatus,
                      Rebooted, Snapshot)

__all__ = ["TableService", "last_position", "controller_state", "ServiceStats", "PAUSED_RULE", "paused_reason"]

PAUSED_RULE = "table.paused"


def paused_reason(log: EventLog, match: str) -> str | None:
    """The reason of the referee's pause in force at the end of the log (None: not paused)."""
    reason = None
    for e in log.entries(match=match, kind="meta"):
        act = e.payload.get("referee") if isinstance(e.payload, dict) else None
        if isinstance(act, dict) and act.get("accepted"):
            if act.get("action") == "pause":
                reason = act.get("reason") or "paused by the referee"
            elif act.get("action") == "resume":
                reason = None
    return reason


def last_position(log: EventLog, match: str) -> LinkPosition | None:
    """The link identity of the last physical event logged for ``match`` (None: none yet)."""
    last = None
    for e in log.entries(match=match, kind="physical"):
        if e.boot is not None and e.seq is not None:
            last = e
    if last is None or last.boot is None or last.seq is None:
        return None
    return LinkPosition(last.boot, last.seq)


def controller_state(log: EventLog, match: str) -> dict | None:
    """The controller's entry state as last saved for ``match``."""
    state = None
    for e in log.entries(match=match, kind="meta"):
        if isinstance(e.payload, dict) and "controller" in e.payload:
            state = e.payload["controller"]
    return state


@dataclass
class ServiceStats:
    physical: int = 0
    game: int = 0
    refusals: int = 0
    latencies_ms: list = field(default_factory=list)    # event decoded -> ring frame written


def _physical_json(e) -> dict:
    if isinstance(e, LinkTap):
        return {"type": "tap", "reader": e.reader, "uid": e.uid.hex(), "code": e.code.hex() if e.code else None}
    if isinstance(e, LinkTakeBack):
        return {"type": "take_back", "reader": e.reader, "uid": e.uid.hex(),
                "code": e.code.hex() if e.code else None}
    if isinstance(e, LinkStack):
        return {"type": "stack", "reader": e.reader, "cards": e.cards}
    if isinstance(e, Button):
        return {"type": "button", "seat": e.seat, "kind": e.kind_name}
    if isinstance(e, ReaderStatus):
        return {"type": "reader", "reader": e.reader, "alive": e.alive, "firmware": e.firmware.hex()}
    if isinstance(e, Hello):
        return {"type": "hello", "protocol": e.protocol, "firmware": e.firmware, "board": e.board}
    if isinstance(e, Log):
        return {"type": "log", "text": e.text}
    raise TypeError(e)


def _link_json(e) -> dict:
    if isinstance(e, Snapshot):
        return {"link": "snapshot", "boot": e.boot_id, "last_acked": e.last_acked, "next_seq": e.next_seq,
                "dropped": e.dropped, "readers": e.readers.hex(), "buttons": e.buttons.hex()}
    if isinstance(e, Lost):
        return {"link": "lost", "boot": e.boot_id, "first": e.first, "count": e.count}
    if isinstance(e, Rebooted):
        return {"link": "rebooted", "old_boot": e.old_boot_id, "boot": e.boot_id}
    if isinstance(e, LinkUp):
        return {"link": "up"}
    if isinstance(e, LinkDown):
        return {"link": "down"}
    if isinstance(e, Disconnected):
        return {"link": "port-lost", "reason": e.reason}
    if isinstance(e, Reconnected):
        return {"link": "port-open", "device": e.device, "first": e.first}
    return {"link": type(e).__name__}


class TableService:
    """One table: a :class:`SerialLink`, a :class:`Controller` and an :class:`EventLog`.

    ``match`` names the match in the log.  ``on_text(text)`` receives every announcement and
    refusal sentence (screen, voice); ``on_outcome(event, outcome)`` sees every handled physical
    event (the virtual table's players and the terminal view use it).
    """

    def __init__(self, link: SerialLink, controller: Controller, log: EventLog, *, match: str = "default",
                 on_text: Callable[[str], None] | None = None,
                 on_outcome: Callable | None = None, meta: dict | None = None):
        self.link = link
        self.controller = controller
        self.log = log
        self.match = match
        self.on_text = on_text
        self.on_outcome = on_outcome
        # the program's own news, shown and not spoken: the log's head hash after each hand
        self.on_note: Callable[[str], None] | None = None
        self._hands_noted: int | None = None
        self.meta = meta or {}
        self.stats = ServiceStats()
        # the serve loop, the referee's actions and every reader of the state from another thread
        self.lock = threading.RLock()
        self.paused: str | None = None          # the referee's reason while the table is paused
        self._paused_presses: set = set()       # seats whose press was refused by the pause
        self._listeners: list = []

    # ---- start and restart -------------------------------------------------------------------
    def restore(self) -> bool:
        """Rebuild the match and the link position from the log; True when there was something to
        resume.  A fresh log gets a ``meta`` row describing the match first."""
        games = self.log.game_events(self.match)
        pos = last_position(self.log, self.match)
        if not games and pos is None and not any(True for _ in self.log.entries(match=self.match)):
            self.log.append("meta", {"start": self.meta, "ruleset": self.controller.ruleset.to_json(),
                                     "mode": self.controller.mode}, match=self.match)
            self._commit([], None, self.controller.start(), time.monotonic())
            return False
        start = next((e.payload for e in self.log.entries(match=self.match, kind="meta")
                      if isinstance(e.payload, dict) and "start" in e.payload), None)
        if start is not None and (start.get("ruleset") != self.controller.ruleset.to_json()
                                  or start.get("mode") != self.controller.mode):
            raise ValueError(f"match {self.match!r} in this log was started with preset "
                             f"{start.get('ruleset', {}).get('preset')!r} and {start.get('mode')} hands, not "
                             f"{self.controller.ruleset.preset!r} and {self.controller.mode} hands")
        self.controller.restore(games, controller_state(self.log, self.match))
        self.paused = paused_reason(self.log, self.match)
        if pos is not None and self.link.session.position != pos:
            raise ValueError(f"the link must resume at {pos} "
                             f"(build it with SerialLink(resume=last_position(log, match)))")
        # put every ring back as it was, then deal if the last hand ended just before the kill
        for rc in self.controller.rings.values():
            self.link.session.set_ring(rc.ring, *rc.state())
        self._commit([], None, self.controller.start(), time.monotonic())
        return True

    # ---- the loop ---------------------------------------------------------------------------
    def step(self) -> list:
        """One iteration (see the module docstring); returns the events handled."""
        with self.lock:
            events = self.link.poll()
            for e in events:
                t0 = time.perf_counter()
                self.handle(e, t0)
            self.tick(time.monotonic())
            self.link.flush()
        return events

    def tick(self, now: float) -> Outcome:
        """The play clock (``table/clock.py``) at ``now``: an expiry's ruling row is logged, its text
        shown.  While the table is paused the clock stands still."""
        out = self.controller.tick(now, held=self.paused is not None)
        self._commit([], None, out, 0.0)
        return out

    def add_listener(self, fn: Callable) -> None:
        """``fn(event, outcome)`` sees every outcome written to the log (``event`` None for an
        automatic step or a referee action), under :attr:`lock`, after the rows are durable."""
        self._listeners.append(fn)

    def handle(self, e, t0: float = 0.0) -> Outcome:
        c = self.controller
        if self.paused is not None and isinstance(e, (LinkTap, LinkTakeBack, Button)):
            out = self._refuse_paused(e)
        elif isinstance(e, LinkTap):
            out = c.on_tap(e.reader, e.uid, e.code)
        elif isinstance(e, LinkTakeBack):
            out = c.on_take_back(e.reader, e.uid, e.code)
        elif isinstance(e, LinkStack):
            out = c.on_stack(e.reader, e.cards)
        elif isinstance(e, Button):
            out = c.on_button(e.seat, e.kind)
        elif isinstance(e, ReaderStatus):
            out = c.on_reader(e.reader, e.alive)
        elif isinstance(e, (Hello, Log)):
            out = Outcome()
        else:
            self.log.append("meta", _link_json(e), match=self.match)
            if isinstance(e, (Rebooted, Reconnected)):
                # a restarted Pico or a re-plugged cable: put every ring back
                for rc in c.rings.values():
                    self.link.session.set_ring(rc.ring, *rc.state())
            if self.on_outcome is not None:
                self.on_outcome(e, Outcome())
            return Outcome()
        self._commit([("physical", _physical_json(e), e.boot_id, e.seq)], e, out, t0)
        return out

    def _commit(self, head: list, e, out: Outcome, t0: float) -> None:
        """Write ``head`` + the outcome's rows + the controller state in ONE transaction, then queue
        the rings (the caller's flush sends them with the ACK)."""
        rows = list(head) + [(k, p, None, None) for k, p in out.rows]
        if not rows:
            return
        rows.append(("meta", {"controller": self.controller.state_json()}, None, None))
        self.log.append_many(rows, match=self.match)
        self.stats.physical += 1 if head and e is not None else 0
        self.stats.game += len(out.game_events)
        self.stats.refusals += len(out.refusals)
        for rc in out.rings:
            self.link.session.set_ring(rc.ring, *rc.state())
        if out.rings and e is not None and t0:
            self.stats.latencies_ms.append((time.perf_counter() - t0) * 1000.0)
        if self.on_text is not None:
            for text in out.texts:
                self.on_text(text)
        self._note_head()                    # after the hand's last words: the settlement, the levels
        if self.on_outcome is not None and e is not None:
            self.on_outcome(e, out)
        for fn in self._listeners:
            fn(e, out)

    # ---- the referee ------------------------------------------------------------------------
    def _refuse_paused(self, e) -> Outcome:
        """A tap or a press while the referee has paused the table: refused with the reason (the
        release and long press of a refused press are swallowed: that push never happened)."""
        c = self.controller
        out = Outcome()
        why = f"the referee paused the table: {self.paused}"
        if isinstance(e, (LinkTap, LinkTakeBack)):
            if isinstance(e, LinkTakeBack):
                self._paused_presses.add(e.reader)     # its release is swallowed, as a press's
            where = c.readers.get(e.reader)
            c.refuse(out, where if isinstance(where, int) else None, "tap", PAUSED_RULE, why, ring=e.reader)
        elif e.kind == P.PRESS:
            self._paused_presses.add(e.seat)
            c.refuse(out, e.seat if 0 <= e.seat < c.seats else None, "confirm", PAUSED_RULE, why, ring=e.seat)
        elif e.seat in self._paused_presses and e.kind == P.RELEASE:
            self._paused_presses.discard(e.seat)
        elif e.seat not in self._paused_presses:
            # the release or long press of a push that began before the pause
            return c.on_button(e.seat, e.kind)
        return out

    def _referee_row(self, action: str, accepted: bool, by: str, **fields) -> tuple:
        act = {"action": action, "accepted": accepted, "by": by,
               "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        act.update(fields)
        return ("meta", {"referee": act}, None, None)

    def note_referee(self, action: str, accepted: bool, by: str = "referee", **fields) -> None:
        """Log something the referee's console did or was refused that is no game event (a login,
        a wrong PIN, a malformed action), with the time."""
        with self.lock:
            self.log.append_many([self._referee_row(action, accepted, by, **fields)[:2]], match=self.match)

    def referee(self, event, *, by: str = "referee") -> Outcome:
        """Apply a referee's game event (``RefereeUndo``, ``RefereePenalty``, ``RefereeEndHand``)
        from any thread: logged with the time and who asked, the refusal too (``outcome.refusals``,
        nothing changed); the rings follow at the loop's next flush."""
        with self.lock:
            out = self.controller.apply_event(event)
            accepted = not out.refusals
            if not accepted:
                out.texts = []              # the referee's console shows it; the table hears nothing
            self._commit([self._referee_row(event.type, accepted, by, event=event.to_json())], None, out, 0.0)
            return out

    def pause(self, reason: str, *, by: str = "referee") -> Outcome:
        """Stop taking taps and presses: each is refused (``table.paused``) until :meth:`resume`."""
        return self._pause_or_resume("pause", reason, by)

    def resume(self, *, by: str = "referee") -> Outcome:
        return self._pause_or_resume("resume", "", by)

    def _pause_or_resume(self, action: str, reason: str, by: str) -> Outcome:
        with self.lock:
            out = Outcome()
            if (action == "pause") == (self.paused is not None):
                why = "the table is paused already" if self.paused is not None else "the table is not paused"
                out.refusals.append(Refusal(None, action, "table.referee", why))
                out.rows.append(("ruling", {**out.refusals[0].to_json(), "attempted": {"type": action}}))
                self._commit([self._referee_row(action, False, by, reason=reason)], None, out, 0.0)
                return out
            self.paused = (reason or "paused by the referee") if action == "pause" else None
            self._paused_presses.clear()
            text = (Line(f"Referee: the table is paused — {self.paused}.", "referee.pause", {"reason": self.paused},
                         "referee") if action == "pause" else Line("Referee: play resumes.", "referee.resume", {},
                                                                   "referee"))
            out.texts.append(text)
            out.rows.append(("effect", Announce("referee", text).to_json()))
            self._commit([self._referee_row(action, True, by, reason=reason)], None, out, 0.0)
            return out

    # ---- reading the record -----------------------------------------------------------------
    def _note_head(self) -> None:
        """After each hand settled: the log's row count and head hash (``log verify`` prints the
        same head while nothing was added or changed), to the screen and in the record."""
        settled = len(self.controller.match.summaries)
        if self._hands_noted is None:
            self._hands_noted = settled          # resumed: only hands settled from now on
        if settled > self._hands_noted:
            self._hands_noted = settled
            self.log.checkpoint()                # a lost -wal or a plain copy then misses one hand at most
            rows, head = self.log.last_id(), self.log.head()[:16]
            text = Line(f"Hand {settled} is in the log: {rows} rows, head {head}… (shengji-table log verify)",
                        "note.log-head", {"hand": settled, "rows": rows, "head": head}, "note")
            (self.on_note or self.on_text or (lambda _t: None))(text)

    def record(self, seats=None) -> dict:
        """The match record, with the log's head hash and row count when it was written (a later
        ``log verify`` printing the same head proves those rows unchanged)."""
        from ..game.record import to_record
        out = to_record(self.controller.match, seats=seats)
        out["log"] = {"rows": self.log.last_id(), "head": self.log.head()}
        return out
