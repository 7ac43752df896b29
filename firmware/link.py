"""The Pico's end of the serial link: reliable events, heartbeats, snapshots, ring states.

Pure and testable: the byte stream and the clock are injected, nothing here touches hardware.

API (what ``main.py`` uses)::

    link = Link(stream, time.ticks_ms, on_ring, on_sim=None,
                firmware=b"0.1.0", board=b"table4", boot_id=None,   # None: 4 random bytes
                queue=32, rings=8, resend_ms=500, heartbeat_ms=1000, host_timeout_ms=3000,
                silent_resend_ms=2000, arena=2048)
    link.snapshot_provider = lambda: (reader_status, button_state, polls)   # polls: optional
    link.on_host = lambda alive: ...      # optional: host came back / went silent
    link.send_tap(reader, uid, code=None) # uid / code: bytes-likes; optional uid_len, code_len
    link.send_tap(reader, uid, code, take_back=True)   # TAKE_BACK: the same payload
    link.send_stack(reader, cards)        # 2: two cards on the reader; 0 / 1: cleared
    link.send_button(seat, kind)          # protocol.PRESS | LONG_PRESS | RELEASE
    link.send_reader(reader, alive, fw=None)  # fw: 4 bytes of PN532 GetFirmwareVersion
    link.send_log(text)
    link.poll()                           # every loop iteration: read, resend, heartbeat
    link.host_alive                       # False until the host speaks, and after it goes silent

``on_ring(ring, pattern, r, g, b, count, arg)`` is called for every RING frame: the whole state of
one ring (idempotent, so a repeated or lost frame heals with the next one). Pattern ids belong to
``rings.py``; the link only carries them and remembers the last state of each ring for SNAPSHOT.
The snapshot provider's optional third item is the per-reader poll counters (small ints, below
2**30): SNAPSHOT then carries them with the clock (``clock_ms() & TICKS_MASK``); without it the
frame is the one of firmware from before the counters.
``on_sim(type, fields)`` receives SIM_PLACE/SIM_LIFT/SIM_BUTTON with ``protocol.decode`` fields;
without it (production builds) sim frames are counted in ``ignored`` and do nothing.

Stream contract: ``readinto(buf)`` returns the number of bytes read (0 or None when nothing is
waiting; it must not block) and ``write(buf, off, n)`` writes ``buf[off:off + n]`` (MicroPython
streams take that offset and length natively, so no slice or memoryview is allocated); optional
``writable()`` says whether a write can start without waiting (``select.poll``'s POLLOUT).

Never blocked by the host: on rp2 a USB CDC write with the port open but unread waits up to its
transmit timeout (500 ms) for room.  So every frame is written only when ``writable()`` says so,
and a poll stops writing at the first frame that could not start (the queue keeps it for the
next resend): a host that stops reading costs a step at most one such wait, never the watchdog's
5 s, and no queued event is lost.
:class:`StdioStream` adapts USB CDC (``sys.stdin``/``sys.stdout``) on the Pico and pipes under the
unix port. ``clock_ms`` is ``time.ticks_ms``-like: milliseconds, wrapping at 2**30 or not at all.

Reliability: every event gets a seq (1..65535, 0 skipped) and stays in a bounded, pre-allocated
queue (at most ``queue`` events, their frames back to back in an ``arena`` of bytes) until the
host's cumulative ACK covers it; the whole queue is resent in order every ``resend_ms`` with the
SAME seqs (go-back-N: a serial line never reorders; the host delivers only the next seq, holds
later ones until the missing one arrives, and re-ACKs duplicates). A repeated ACK for the seq just before
the oldest pending one means the host holds later events but lost that one: the oldest frame is
resent at once (fast retransmit, at most every ``resend_ms // 4``), so one lost frame does not
hold the queue until the next full resend while new events pile up. While the host is silent the queue is
resent only every ``silent_resend_ms``: nobody may be reading, and a USB CDC write with the port
open but unread can wait for its transmit timeout. When the queue is full (``queue`` events, or no
room left in the arena for the new frame) the OLDEST events are dropped, as few as make room, and
counted (``dropped``, sent in every HEARTBEAT and SNAPSHOT): a full queue means the host has been
away for many events, and what it needs on return is the present (the card on a reader now, the
last button) plus the knowledge that it missed something — it then sees what it missed (``base`` in the
heartbeat jumped past what it got) and asks for a SNAPSHOT. Dropping the newest instead would
keep stale history and lose exactly the events that describe the table as it is.

Host identity: every host frame carries the host's session id (never 0; zeros here mean "no host
heard yet"). A new id means a (re)started host: the queue is resent at the next poll and the
per-ring order of RING seqs starts afresh, so a replayed older RING of the same host is ignored
(``stale``) while a new host's first RING always applies.

No allocation in the steady state: a frame is encoded into one pre-allocated buffer and copied into
the arena, every write names its offset and length there, the receive path decodes byte by byte
into the decoder's own buffer (under MicroPython, tests/firmware/test_link_micropython.py measures
0 bytes over 20 s of idle polling with heartbeats and resends, test_link_queue_arena.py 0 bytes for
events wrapping round and overflowing a full arena).
"""

from compat import const

from array import array

import protocol as P

TICKS_MASK = const(0x3FFFFFFF)   # ticks_ms wraps at 2**30
RX_CHUNK = const(64)
RX_CHUNKS_PER_POLL = const(8)    # bound the time one poll may spend reading


def elapsed(now, then):
    """Milliseconds from ``then`` to ``now`` on a clock wrapping at 2**30."""
    return (now - then) & TICKS_MASK


class Link:
    """The Pico side of the protocol (see the module docstring for the API)."""

    def __init__(self, stream, clock_ms, on_ring, on_sim=None, firmware=b"", board=b"",
                 boot_id=None, queue=32, rings=8, resend_ms=500, heartbeat_ms=1000,
                 host_timeout_ms=3000, silent_resend_ms=2000, arena=2048):
        self.stream = stream
        self.clock = clock_ms
        self.on_ring = on_ring
        self.on_sim = on_sim
        self.on_host = None
        self.snapshot_provider = None
        self.resend_ms = resend_ms
        self.silent_resend_ms = silent_resend_ms
        self.heartbeat_ms = heartbeat_ms
        self.host_timeout_ms = host_timeout_ms
        if boot_id is None:
            import os
            boot_id = os.urandom(4)
        self.boot_id = bytearray(boot_id)
        self.firmware = firmware
        self.board = board
        # counters (all visible in HEARTBEAT/SNAPSHOT or to tests)
        self.dropped = 0     # events dropped because the queue was full
        self.ignored = 0     # valid frames we could not use (ring out of range, sim in production)
        self.resent = 0      # frames written again
        self.deferred = 0    # writes not started: the port had no room (the queue keeps events)
        self._writable = getattr(stream, "writable", None)
        self._stalled = False  # a write could not start in this poll: no more writes until the next
        self.fast_resent = 0  # oldest frame resent at once on a repeated ACK
        # The queue of unacknowledged events: encoded frames back to back in one byte ring
        # (``arena`` bytes), plus per-event offset, length and seq. Frames are ~20-60 bytes, so a
        # slot of MAX_FRAME bytes per event would waste most of it. A frame is never split: one
        # that does not fit before the arena's end starts again at 0, so every frame is one write.
        if arena < P.MAX_FRAME:
            raise ValueError("arena must hold a frame of MAX_FRAME bytes")
        self._size = queue
        self._arena = bytearray(arena)
        self._offs = array("H", bytes(2 * queue))
        self._lens = array("H", bytes(2 * queue))
        self._seqs = array("H", bytes(2 * queue))
        self._head = 0       # index of the oldest pending event
        self._end = 0        # arena offset just past the newest pending frame
        self.pending = 0
        self.next_seq = 1
        self.last_acked = 0
        # ring states as last commanded, RING_STATE bytes each, for SNAPSHOT
        self.n_rings = rings
        self.rings = bytearray(rings * P.RING_STATE)
        self._writer = P.Writer(self.boot_id)
        # the host we last heard (its session id) and the host seq of the RING applied per ring:
        # a replayed, older RING from the same host must not undo a newer state
        self.host_id = bytearray(4)
        self._ring_seq = array("H", bytes(2 * rings))
        self.stale = 0
        self._tx = bytearray(P.MAX_FRAME)      # every frame is encoded here first
        self._rx = bytearray(RX_CHUNK)
        self._zero_fw = bytes(4)
        self.decoder = P.Decoder(P.TO_PICO)
        now = clock_ms()
        self._last_tx = now          # last (re)send of the queue
        self._last_fast = now        # last fast retransmit of the oldest frame
        self._last_hb = now - heartbeat_ms
        self._last_rx = now
        self.host_alive = False
        self._enqueue_hello()

    # ---- events ---------------------------------------------------------------------------

    def _place(self, n):
        """Arena offset where an ``n``-byte frame fits contiguously, or -1 when it does not."""
        if self.pending == 0:
            return 0
        h = self._offs[self._head]
        t = self._end
        if t > h:                       # in use: [h, t); free: [t, arena) and [0, h)
            if len(self._arena) - t >= n:
                return t
            return 0 if h >= n else -1
        return t if h - t >= n else -1  # wrapped, in use: [h, end of arena) and [0, t)

    def _drop_oldest(self):
        self._head = (self._head + 1) % self._size
        self.pending -= 1
        self.dropped += 1

    def _commit(self, n):
        """Queue the frame encoded in ``_tx[0:n]`` under the next seq, dropping the oldest events
        while the queue is full or the arena has no room for it; send it once; return its seq."""
        while self.pending == self._size:
            self._drop_oldest()
        off = self._place(n)
        while off < 0:                  # ends: an empty arena holds any frame (n <= MAX_FRAME)
            self._drop_oldest()
            off = self._place(n)
        a = self._arena
        tx = self._tx
        for k in range(n):
            a[off + k] = tx[k]
        i = (self._head + self.pending) % self._size
        seq = self.next_seq
        self._offs[i] = off
        self._lens[i] = n
        self._seqs[i] = seq
        self._end = off + n
        if self.pending == 0:
            self._last_tx = self.clock()
        self.pending += 1
        self.next_seq = P.next_seq(seq)
        self._write(a, off, n)
        return seq

    def _enqueue_hello(self):
        self._commit(P.encode_hello(self._writer, self._tx, self.next_seq, self.firmware,
                                    self.board))

    def send_tap(self, reader, uid, code=None, uid_len=-1, code_len=-1, take_back=False):
        """Queue and send a TAP (``take_back``: a TAKE_BACK, same payload); returns its seq. A UID
        that is not 4..10 bytes or a code longer than protocol.MAX_CODE raises ValueError before
        anything is queued or dropped."""
        n_uid = len(uid) if uid_len < 0 else uid_len
        n_code = 0 if code is None else (len(code) if code_len < 0 else code_len)
        if not 4 <= n_uid <= P.MAX_UID or n_code > P.MAX_CODE:
            raise ValueError("bad uid/code length")
        enc = P.encode_take_back if take_back else P.encode_tap
        return self._commit(enc(self._writer, self._tx, self.next_seq, reader, uid, uid_len, code,
                                code_len))

    def send_stack(self, reader, cards):
        """Queue and send a STACK (``cards``: 2 on the reader, or 0/1 once cleared); returns its seq."""
        return self._commit(P.encode_stack(self._writer, self._tx, self.next_seq, reader, cards))

    def send_button(self, seat, kind):
        """Queue and send a BUTTON (``kind``: PRESS, LONG_PRESS, RELEASE); returns its seq."""
        return self._commit(P.encode_button(self._writer, self._tx, self.next_seq, seat, kind))

    def send_reader(self, reader, alive, fw=None):
        """Queue and send a READER status; ``fw`` the PN532's 4 firmware bytes when known."""
        return self._commit(P.encode_reader(self._writer, self._tx, self.next_seq, reader,
                                            P.READER_ALIVE if alive else P.READER_DEAD,
                                            fw if fw is not None else self._zero_fw))

    def send_log(self, text):
        """Queue and send a LOG line (str or bytes, cut to protocol.MAX_TEXT bytes)."""
        if isinstance(text, str):
            text = text.encode()
        return self._commit(P.encode_log(self._writer, self._tx, self.next_seq, text))

    # ---- the loop ---------------------------------------------------------------------------

    def poll(self):
        """Read what the host sent, resend what it has not acknowledged, send heartbeats."""
        rx = self._rx
        dec = self.decoder
        self._stalled = False
        for _ in range(RX_CHUNKS_PER_POLL):
            n = self.stream.readinto(rx)
            if not n:
                break
            for j in range(n):
                if dec.push(rx[j]):
                    self._handle(dec.typ, dec.seq, dec.payload, dec.length)
        now = self.clock()
        if self.host_alive and elapsed(now, self._last_rx) >= self.host_timeout_ms:
            self._set_host(False)
        if self.pending and elapsed(now, self._last_tx) >= (
                self.resend_ms if self.host_alive else self.silent_resend_ms):
            self._resend()
            self._last_tx = now
        if elapsed(now, self._last_hb) >= self.heartbeat_ms:
            self._last_hb = now
            self._send_heartbeat()

    def _resend(self):
        for k in range(self.pending):
            i = (self._head + k) % self._size
            if not self._write(self._arena, self._offs[i], self._lens[i]):
                return  # the port is full: the rest waits for the next resend, in order
            self.resent += 1

    def _write(self, buf, off, n):
        """Write one frame if the port can take it now; False when it was not started."""
        if self._stalled or (self._writable is not None and not self._writable()):
            self._stalled = True
            self.deferred += 1
            return False
        try:
            self.stream.write(buf, off, n)
        except OSError:
            return False  # the queue keeps the event; the next resend tries again
        return True

    def _set_host(self, alive):
        self.host_alive = alive
        if self.on_host is not None:
            self.on_host(alive)

    def base(self):
        """The oldest unacknowledged seq, or the next seq when nothing is pending."""
        return self._seqs[self._head] if self.pending else self.next_seq

    def _send_heartbeat(self):
        n = P.encode_heartbeat(self._writer, self._tx, self.base(), self.next_seq,
                               self.dropped & 0xFFFF, self.decoder.bad & 0xFFFF,
                               1 if self.host_alive else 0)
        self._write(self._tx, 0, n)

    def _send_snapshot(self):
        readers = b""
        buttons = b""
        polls = None
        if self.snapshot_provider is not None:
            s = self.snapshot_provider()
            readers, buttons = s[0], s[1]
            if len(s) > 2:
                polls = s[2]
        n = P.encode_snapshot(self._writer, self._tx, self.last_acked,
                              self.base(), self.next_seq, self.dropped & 0xFFFF, readers, buttons,
                              self.rings, self.n_rings, self.clock() & TICKS_MASK, polls)
        self._write(self._tx, 0, n)

    # ---- host frames ------------------------------------------------------------------------

    def _handle(self, typ, seq, p, n):
        now = self.clock()
        dec = self.decoder
        if not dec.same_sender(self.host_id):
            # a (re)started host: take its id, forget the old one's ring order, resend soon.
            # (A late frame of a replaced host cannot be told from a new host without shared
            # order; it switches us back for a moment, and the current host's next frame and
            # its periodic ring refresh heal that. Refusing it could lock the real host out.)
            for k in range(4):
                self.host_id[k] = dec.buf[2 + k]
            for k in range(self.n_rings):
                self._ring_seq[k] = 0
            self._last_tx = (now - self.resend_ms) & TICKS_MASK
        self._last_rx = now
        if not self.host_alive:
            self._last_tx = (now - self.resend_ms) & TICKS_MASK   # it is back: resend at once
            self._set_host(True)
        if typ == P.ACK:
            b = self.boot_id
            if p[2] == b[0] and p[3] == b[1] and p[4] == b[2] and p[5] == b[3]:
                self._ack(P.u16(p, 0))
            else:
                self.stale += 1     # meant for a previous boot of ours: its seqs are not ours
        elif typ == P.RING:
            ring = p[0]
            if ring >= self.n_rings:
                self.ignored += 1
                return
            last = self._ring_seq[ring]
            if last and not P.seq_after(seq, last):
                self.stale += 1
                return
            self._ring_seq[ring] = seq
            o = ring * P.RING_STATE
            for k in range(P.RING_STATE):
                self.rings[o + k] = p[1 + k]
            self.on_ring(ring, p[1], p[2], p[3], p[4], p[5], P.u16(p, 6))
        elif typ == P.SNAPSHOT_REQUEST:
            self._send_snapshot()
        elif typ == P.HOST_HEARTBEAT:
            pass  # liveness only, recorded above
        elif self.on_sim is not None:
            self.on_sim(typ, P.decode(typ, p[:n]))
        else:
            self.ignored += 1

    def _ack(self, a):
        """Cumulative ACK: drop every pending event up to ``a``; ignore ACKs outside the window
        (stale, or from a host that still thinks of a previous boot)."""
        if not self.pending:
            return
        first = self._seqs[self._head]
        last = self._seqs[(self._head + self.pending - 1) % self._size]
        if P.seq_distance(first, a) == 1 and a == self.last_acked:
            # a repeated ACK: the host got something after ``first`` but not ``first`` itself
            now = self.clock()
            if elapsed(now, self._last_fast) >= self.resend_ms // 4:
                self._last_fast = now
                self._write(self._arena, self._offs[self._head], self._lens[self._head])
                self.fast_resent += 1
            return
        if P.seq_after(first, a) or P.seq_after(a, last):
            return
        while self.pending and not P.seq_after(self._seqs[self._head], a):
            self._head = (self._head + 1) % self._size
            self.pending -= 1
        self.last_acked = a
        self._last_tx = self.clock()


class StdioStream:
    """``sys.stdin``/``sys.stdout`` as a non-blocking link stream: USB CDC on the Pico, pipes or a
    pseudo-terminal under the unix port. Reads byte by byte behind ``select.poll`` so it never
    blocks; writes go to the binary stdout (the text one would turn \\n into \\r\\n)."""

    def __init__(self):
        import select
        import sys
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._wpoll = select.poll()
        self._wpoll.register(sys.stdout, select.POLLOUT)
        self._one = bytearray(1)
        self.eof = False

    def readinto(self, buf):
        n = 0
        while n < len(buf) and not self.eof:
            ready = False
            for _ in self._poll.ipoll(0):
                ready = True
            if not ready:
                break
            if not self._in.readinto(self._one, 1):
                self.eof = True
                break
            buf[n] = self._one[0]
            n += 1
        return n

    def writable(self):
        """True when a write can start now (rp2: room in the USB transmit FIFO with the port open)."""
        for _ in self._wpoll.ipoll(0):
            return True
        return False

    def write(self, buf, off, n):
        self._out.write(buf, off, n)
