"""The host's end of the serial link as a pure state machine: bytes in, events and frames out.

No I/O and no clock of its own: the caller (the serial service) passes every byte it read
and the time, and writes what :meth:`HostSession.outgoing` returns::

    session = HostSession(resume=log.last_position())          # or None on a fresh log
    events = session.feed(data, now_ms)       # decoded Pico events, each exactly once, in order
    for e in events: log.append(...)          # persist FIRST (boot_id, seq) is the link identity
    port.write(session.outgoing())            # ... THEN acknowledge: the ACK is in here
    events += session.tick(now_ms)            # timers: heartbeats, liveness, snapshot retries
    session.set_ring(ring, pattern, r, g, b, count, arg)   # remembered and re-sent as needed

Exactly once: the Pico resends unacknowledged events with their seq; the session delivers only the
next seq of the current boot, keeps events that arrive after a missing one until a resend brings
it (so a lossy line wastes less of each resend round), re-acknowledges duplicates (the ACK is
cumulative: the last seq delivered in order), and learns from the Pico's
heartbeat ``base`` when events were dropped on its side (reported as :class:`Lost`, then a
snapshot is requested). Each Pico boot has a random boot id carried in every frame; a new one
means the Pico restarted and its seqs start again at 1 (reported as :class:`Rebooted`). The session
follows a new boot id only once the boot it follows has been silent for ``boot_switch_ms`` (a
restarted Pico stops talking under its old id, while a stray old frame comes from a live one), and
it remembers its position in every boot it met, so wandering off and back never redelivers.
``Event.seq`` is the seq *unwrapped* to a number that keeps growing within one boot (the wire seq
wraps after 65535), so
``(boot_id, seq)`` names a physical event for ever; :attr:`HostSession.position` is what to persist
to resume after a host restart without delivering anything twice.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from . import protocol as P
from .pad_events import LinkStack, LinkTakeBack

__all__ = ["HostSession", "LinkPosition", "Hello", "LinkTap", "LinkTakeBack", "LinkStack", "Button", "ReaderStatus",
           "Log", "Snapshot", "Lost", "Rebooted", "LinkUp", "LinkDown", "Event", "BUTTON_KINDS"]

BUTTON_KINDS = {P.PRESS: "press", P.LONG_PRESS: "long-press", P.RELEASE: "release"}
COUNTER_MODULO = 1 << 30       # the SNAPSHOT's clock and poll counters wrap here, like ticks_ms


@dataclass(frozen=True)
class LinkPosition:
    """The last event delivered: the Pico's boot id and the unwrapped seq within that boot."""
    boot_id: int
    seq: int


@dataclass(frozen=True)
class Hello:
    """The Pico (re)started: first event of every boot."""
    boot_id: int
    seq: int
    protocol: int
    firmware: str
    board: str


@dataclass(frozen=True)
class LinkTap:
    """A card arrived on ``reader``; ``code`` is the card code from NTAG user memory, if read."""
    boot_id: int
    seq: int
    reader: int
    uid: bytes
    code: bytes | None



@dataclass(frozen=True)
class Button:
    """Seat button event; ``kind`` is protocol.PRESS, LONG_PRESS or RELEASE."""
    boot_id: int
    seq: int
    seat: int
    kind: int

    @property
    def kind_name(self) -> str:
        return BUTTON_KINDS[self.kind]


@dataclass(frozen=True)
class ReaderStatus:
    """A reader came up or died; ``firmware`` is the PN532's IC, Ver, Rev, Support (zeros if unknown)."""
    boot_id: int
    seq: int
    reader: int
    alive: bool
    firmware: bytes


@dataclass(frozen=True)
class Log:
    """A short text from the firmware (errors)."""
    boot_id: int
    seq: int
    text: str


@dataclass(frozen=True)
class Snapshot:
    """The Pico's present state (answer to a SNAPSHOT_REQUEST; not a sequenced event)."""
    boot_id: int
    last_acked: int
    base: int
    next_seq: int
    dropped: int
    readers: bytes             # per reader: READER_ABSENT / READER_ALIVE / READER_DEAD
    buttons: bytes             # per button: BUTTON_UP / BUTTON_DOWN / BUTTON_HELD
    rings: tuple               # per ring: (pattern, r, g, b, count, arg)
    clock_ms: int | None = None  # the Pico's ms clock when it answered (modulo 2**30) ...
    polls: tuple | None = None   # ... and per reader its answered polls since boot (modulo 2**30);
    #                              both None from firmware that does not count polls

    def polls_per_s(self, earlier: Snapshot) -> tuple | None:
        """Per reader, answered polls per second of the Pico's clock from ``earlier`` to this one;
        None when either has no counters, they are of different boots, or no time passed."""
        if (self.polls is None or earlier.polls is None or self.clock_ms is None or earlier.clock_ms is None
                or self.boot_id != earlier.boot_id or len(self.polls) != len(earlier.polls)):
            return None
        dt = (self.clock_ms - earlier.clock_ms) % COUNTER_MODULO
        if dt == 0:
            return None
        return tuple(((b - a) % COUNTER_MODULO) * 1000 / dt for a, b in zip(earlier.polls, self.polls))


@dataclass(frozen=True)
class Lost:
    """Events ``first``..``first + count - 1`` of ``boot_id`` will never arrive (the Pico dropped them
    when its queue overflowed, or lost them in a reboot: then ``count`` is the best estimate)."""
    boot_id: int
    first: int
    count: int


@dataclass(frozen=True)
class Rebooted:
    """The Pico now runs with a new boot id (it restarted); ``old_boot_id`` None on first contact."""
    old_boot_id: int | None
    boot_id: int


@dataclass(frozen=True)
class LinkUp:
    """The Pico is heard again (first frame, or after silence)."""


@dataclass(frozen=True)
class LinkDown:
    """Nothing valid heard from the Pico for ``silence_ms``."""


Event = (Hello | LinkTap | LinkTakeBack | LinkStack | Button | ReaderStatus | Log | Snapshot | Lost | Rebooted | LinkUp
         | LinkDown)

MAX_EARLY = 256      # how far past a missing event later ones are held (the Pico's queue is far shorter)


def _wire(u: int) -> int:
    """The wire seq (1..65535) of unwrapped seq ``u`` (>= 1)."""
    return (u - 1) % 65535 + 1


@dataclass
class LinkStats:
    """Counters for the dashboard and the tests."""
    delivered: int = 0
    duplicates: int = 0      # events received again (resends, replays) and not redelivered
    early: int = 0           # events after a missing one: held until it arrives
    lost: int = 0            # events the Pico reported dropped / lost in a reboot
    reboots: int = 0
    unsynced: int = 0        # events of a boot not followed yet: left for the resend
    snapshots: int = 0
    stale: int = 0           # frames of another boot id while the followed boot is alive
    implausible: int = 0     # heartbeats/snapshots whose base jumped past what the Pico dropped


class HostSession:
    """The host link state machine (see the module docstring)."""

    def __init__(self, *, resume: LinkPosition | None = None, host_id: int | None = None,
                 heartbeat_ms: int = 1000, silence_ms: int = 3000, snapshot_retry_ms: int = 1000,
                 ring_refresh_ms: int = 2000, boot_switch_ms: int = 1500):
        if host_id is None:
            host_id = int.from_bytes(os.urandom(4), "little") | 1   # never 0: the Pico's "nobody"
        self.host_id = host_id
        self.heartbeat_ms = heartbeat_ms
        self.silence_ms = silence_ms
        self.snapshot_retry_ms = snapshot_retry_ms
        self.ring_refresh_ms = ring_refresh_ms
        self.boot_switch_ms = boot_switch_ms
        self.decoder = P.Decoder(P.TO_HOST)
        self.stats = LinkStats()
        self.boot_id: int | None = resume.boot_id if resume else None
        self._last = resume.seq if resume else 0      # unwrapped seq of the last event delivered
        self._writer = P.Writer(host_id.to_bytes(4, "little"))
        self._positions: dict[int, int] = {resume.boot_id: resume.seq} if resume else {}
        self._heard: float | None = None          # last valid frame of the boot we follow
        self._early: dict[int, tuple[int, bytes]] = {}   # wire seq -> frame, past a missing one
        self._dropped: dict[int, int] = {}        # boot -> the Pico's dropped counter last heard
        self._frame = bytearray(P.MAX_FRAME)
        self._out = bytearray()
        self._host_seq = 0
        self._rings: dict[int, tuple] = {}
        self._last_rx: float | None = None
        self._last_hb: float | None = None
        self._last_refresh: float | None = None
        self._snapshot_due: float | None = None      # time of the outstanding request, if any
        self._last_heartbeat: tuple | None = None     # the Pico's last HEARTBEAT fields
        self.alive = False

    # ---- state ------------------------------------------------------------------------------

    @property
    def position(self) -> LinkPosition | None:
        """What to persist to resume later (None before the Pico's boot id is known)."""
        return LinkPosition(self.boot_id, self._last) if self.boot_id is not None else None

    @property
    def bad_frames(self) -> int:
        """Frames rejected by the decoder (all reasons)."""
        return self.decoder.bad

    def bad_by_reason(self) -> dict[str, int]:
        return {name: self.decoder.errors[i] for i, name in enumerate(P.ERROR_NAMES)}

    # ---- output -----------------------------------------------------------------------------

    def outgoing(self) -> bytes:
        """Frames to write to the Pico (ACKs, rings, requests, heartbeats); clears the buffer."""
        out = bytes(self._out)
        self._out.clear()
        return out

    def _emit(self, n: int) -> None:
        self._out += self._frame[:n]

    def _next_host_seq(self) -> int:
        self._host_seq = P.next_seq(self._host_seq)
        return self._host_seq

    def _ack(self) -> None:
        if self._last:
            assert self.boot_id is not None
            self._emit(P.encode_ack(self._writer, self._frame, self._next_host_seq(), _wire(self._last),
                                    self.boot_id.to_bytes(4, "little")))

    def request_snapshot(self, now_ms: float) -> None:
        """Ask the Pico for a SNAPSHOT (retried every ``snapshot_retry_ms`` until one arrives)."""
        self._snapshot_due = now_ms
        self._emit(P.encode_snapshot_request(self._writer, self._frame, self._next_host_seq()))

    def _want_snapshot(self, now_ms: float) -> None:
        """Request a snapshot unless one is already on its way (tick retries it)."""
        if self._snapshot_due is None:
            self.request_snapshot(now_ms)

    def set_ring(self, ring: int, pattern: int, r: int = 0, g: int = 0, b: int = 0, count: int = 0,
                 arg: int = 0) -> None:
        """Send ring ``ring``'s whole state; it is remembered and re-sent after a Pico restart or
        reconnect, and refreshed periodically (ring states are idempotent)."""
        state = (pattern, r, g, b, count, arg)
        for v in state[:5]:
            if not 0 <= v <= 255:
                raise ValueError(f"ring state byte out of range: {state}")
        if not 0 <= arg <= 0xFFFF or not 0 <= ring <= 255:
            raise ValueError(f"ring {ring} arg {arg} out of range")
        self._rings[ring] = state
        self._send_ring(ring)

    def _send_ring(self, ring: int) -> None:
        self._emit(P.encode_ring(self._writer, self._frame, self._next_host_seq(), ring, *self._rings[ring]))

    def _send_all_rings(self) -> None:
        for ring in sorted(self._rings):
            self._send_ring(ring)

    def sim_place(self, reader: int, uid: bytes, pages: bytes = b"") -> None:
        """Virtual table: put a tag on ``reader`` (only a sim firmware build obeys)."""
        self._emit(P.encode_sim_place(self._writer, self._frame, self._next_host_seq(), reader, uid, pages))

    def sim_lift(self, reader: int) -> None:
        """Virtual table: lift the tag from ``reader``."""
        self._emit(P.encode_sim_lift(self._writer, self._frame, self._next_host_seq(), reader))

    def sim_button(self, button: int, down: bool) -> None:
        """Virtual table: press (``down``) or release button ``button``."""
        self._emit(P.encode_sim_button(self._writer, self._frame, self._next_host_seq(), button, down))

    # ---- input ------------------------------------------------------------------------------

    def feed(self, data: bytes, now_ms: float) -> list[Event]:
        """Decode ``data`` (any chunking); returns the new events in order. Never raises on garbage:
        rejected frames are counted in ``bad_frames`` / :meth:`bad_by_reason`."""
        events: list[Event] = []
        dec = self.decoder
        acked = False
        for x in data:
            if not dec.push(x):
                continue
            payload = bytes(dec.payload[:dec.length])
            if not self.alive:
                self.alive = True
                events.append(LinkUp())
                self._on_link_up(now_ms)
            self._last_rx = now_ms
            acked |= self._frame_in(dec.typ, dec.sender(), dec.seq, payload, now_ms, events)
        if acked:
            self._ack()
        return events

    def _on_link_up(self, now_ms: float) -> None:
        # after silence we may have missed anything: resync and put the rings back
        self._want_snapshot(now_ms)
        self._send_all_rings()

    def _frame_in(self, typ: int, boot: int, seq: int, p: bytes, now_ms: float, events: list) -> bool:
        """Handle one checked frame from boot ``boot``; True when an ACK should follow."""
        if boot != self.boot_id:
            if not self._may_switch(now_ms):
                # the boot we follow spoke within boot_switch_ms: this is an old frame (replayed
                # or long delayed), not a restarted Pico, which would have fallen silent first
                self.stats.stale += 1
                return False
            if typ == P.HEARTBEAT:
                self._switch_boot(boot, P.decode_heartbeat(p)[0], now_ms, events)
            elif typ == P.SNAPSHOT:
                self._switch_boot(boot, P.decode_snapshot(p)[1], now_ms, events)
            elif typ == P.HELLO and seq == 1:
                self._switch_boot(boot, 1, now_ms, events)
            else:
                # an event of a boot we have not joined: its HEARTBEAT tells where; it is resent
                self.stats.unsynced += 1
                return False
        self._heard = now_ms
        if typ == P.HEARTBEAT:
            base, nxt, dropped, bad, host_alive = P.decode_heartbeat(p)
            if not self._sync(boot, base, dropped, now_ms, events):
                return False                 # not believed: the last heartbeat stays the true one
            self._last_heartbeat = (boot, base, nxt, dropped)
            return False
        if typ == P.SNAPSHOT:
            last_acked, base, nxt, dropped, readers, buttons, rings, clock, polls = P.decode_snapshot(p)
            if not self._sync(boot, base, dropped, now_ms, events):
                return False
            self._snapshot_due = None
            self.stats.snapshots += 1
            events.append(Snapshot(boot, last_acked, base, nxt, dropped, readers, buttons, tuple(rings),
                                   clock, polls))
            # heal any ring whose state the Pico does not hold
            for ring, state in self._rings.items():
                if ring >= len(rings) or tuple(rings[ring]) != state:
                    self._send_ring(ring)
            return False
        return self._event(typ, seq, p, events)

    def _may_switch(self, now_ms: float) -> bool:
        """May a frame of another boot id make us follow that boot? Only once the boot we follow
        has been silent for ``boot_switch_ms`` (a Pico that restarted stops talking under its old
        id; a stray old frame comes while the current one is alive)."""
        if self.boot_id is None:
            return True
        if self._heard is None:
            self._heard = now_ms           # resumed: give the saved boot its chance to speak first
        return now_ms - self._heard >= self.boot_switch_ms

    def _event(self, typ: int, seq: int, p: bytes, events: list) -> bool:
        expected = _wire(self._last + 1)
        if seq != expected:
            if P.seq_after(seq, expected):
                if P.seq_distance(seq, expected) < MAX_EARLY and seq not in self._early:
                    self._early[seq] = (typ, p)
                    self.stats.early += 1
            else:
                self.stats.duplicates += 1
            return True            # re-ACK what we have, so the Pico can drop its copies
        self._deliver(typ, p, events)
        self._drain_early(events)
        return True

    def _deliver(self, typ: int, p: bytes, events: list) -> None:
        self._last += 1
        self.stats.delivered += 1
        events.append(self._make(typ, p))

    def _drain_early(self, events: list) -> None:
        """Deliver held events that are now next in order; forget those left behind."""
        while self._early:
            nxt = _wire(self._last + 1)
            held = self._early.pop(nxt, None)
            if held is None:
                break
            self._deliver(held[0], held[1], events)
        for seq in [s for s in self._early if not P.seq_after(s, _wire(self._last))]:
            del self._early[seq]

    def _make(self, typ: int, p: bytes) -> Event:
        boot, u = self.boot_id, self._last
        assert boot is not None          # events are delivered only once a boot is joined
        if typ == P.TAP:
            reader, uid, code = P.decode_tap(p)
            return LinkTap(boot, u, reader, uid, code)
        if typ == P.TAKE_BACK:
            reader, uid, code = P.decode_tap(p)
            return LinkTakeBack(boot, u, reader, uid, code)
        if typ == P.STACK:
            reader, cards = P.decode_stack(p)
            return LinkStack(boot, u, reader, cards)
        if typ == P.BUTTON:
            seat, kind = P.decode_button(p)
            return Button(boot, u, seat, kind)
        if typ == P.READER:
            reader, status, fw = P.decode_reader(p)
            return ReaderStatus(boot, u, reader, status == P.READER_ALIVE, fw)
        if typ == P.LOG:
            return Log(boot, u, P.decode_log(p))
        version, firmware, board = P.decode_hello(p)
        return Hello(boot, u, version, firmware, board)

    def _sync(self, boot: int, base: int, dropped: int, now_ms: float, events: list) -> bool:
        """Learn from the Pico's ``base`` (oldest unacknowledged seq) whether it dropped events we
        never got (its queue overflowed): report them lost and resync with a snapshot.

        The Pico only ever skips events it dropped, and counts each in ``dropped``: a jump of
        ``base`` past the growth of that counter is impossible (a forged, corrupt or buggy frame).
        It is not believed — nothing is marked lost — and a snapshot is asked for instead.
        Returns whether the frame was believed."""
        expected = _wire(self._last + 1)
        seen = self._dropped.get(boot)
        if P.seq_after(base, expected):
            missed = P.seq_distance(base, expected)
            grown = (dropped - seen) & 0xFFFF if seen is not None else dropped
            if missed > grown:
                self.stats.implausible += 1
                self._want_snapshot(now_ms)
                return False
            self._dropped[boot] = dropped
            events.append(Lost(boot, self._last + 1, missed))
            self.stats.lost += missed
            self._last += missed
            self._drain_early(events)
            self._want_snapshot(now_ms)
            return True
        if seen is None or (dropped - seen) & 0xFFFF < 0x8000:
            self._dropped[boot] = dropped
        return True

    def _switch_boot(self, boot: int, base: int, now_ms: float, events: list) -> None:
        """Follow boot ``boot`` from now on (the Pico restarted, or we meet it for the first time)."""
        old = self.boot_id
        if old is not None:
            self._positions[old] = self._last
            self.stats.reboots += 1
            # what the old boot had sent (its last heartbeat's next seq) but we never got
            hb = self._last_heartbeat
            if hb and hb[0] == old:
                missing = P.seq_distance(hb[2], _wire(self._last + 1))
                if 0 < missing < 0x8000:
                    events.append(Lost(old, self._last + 1, missing))
                    self.stats.lost += missing
        events.append(Rebooted(old, boot))
        self.boot_id = boot
        # a boot met before (a stray frame made us leave it) continues where we were; a new one
        # is joined at ``base``, its oldest unacknowledged event (1 right after it started)
        known = self._positions.get(boot)
        self._last = known if known is not None else base - 1
        self._early.clear()
        self._last_heartbeat = None
        self._want_snapshot(now_ms)
        self._send_all_rings()

    # ---- time -------------------------------------------------------------------------------

    def tick(self, now_ms: float) -> list[Event]:
        """Run the timers: host heartbeat, Pico silence, snapshot retry, ring refresh."""
        events: list[Event] = []
        if self._last_hb is None or now_ms - self._last_hb >= self.heartbeat_ms:
            self._last_hb = now_ms
            self._emit(P.encode_host_heartbeat(self._writer, self._frame, self._next_host_seq()))
        if self.alive and self._last_rx is not None and now_ms - self._last_rx >= self.silence_ms:
            self.alive = False
            events.append(LinkDown())
        if (self.alive and self._snapshot_due is not None
                and now_ms - self._snapshot_due >= self.snapshot_retry_ms):
            self.request_snapshot(now_ms)
        if self._last_refresh is None or now_ms - self._last_refresh >= self.ring_refresh_ms:
            self._last_refresh = now_ms
            if self.alive:
                self._send_all_rings()
        return events
