"""The scan loop: readers in turn, buttons, rings — as a step of bounded work the main loop repeats.

One :meth:`Scanner.step` does, in this order:

1. ``link.poll()``: host frames in (ring states, ACKs, snapshot requests), resends, heartbeats out;
2. ONE reader — the next in turn — is polled (``Reader.poll`` switches its RF field off afterwards,
   so only one field is on at a time), its result debounced (``debounce.TapDebounce``: a card must
   dwell before it is a TAP), a TAP sent for a new card, STACK for two cards on the reader (its
   ring then shows the STACK pattern, drawn here, until the pad is cleared); an answered poll adds
   1 to that reader's counter in ``polls`` (SNAPSHOT carries them: polls/s measured).  The seat
   whose ring shows TURN (from the host's RING frames) gets an extra poll after every
   ``_TURN_EVERY`` others: its taps are the ones the table waits for.  The ``marker`` pin (GP25,
   for a logic analyser) is high while a reader is polled;
3. every button is sampled and debounced; PRESS / LONG_PRESS / RELEASE go to the host.  A take-back
   is its own gesture: a button held long while its seat's reader sees a card sends TAKE_BACK with
   that card instead of LONG_PRESS.  So that the press of a take-back means nothing before it, a
   press that begins with a card on the seat's reader is held back: PRESS goes at its release
   (a short press), or not at all (TAKE_BACK);
4. when a frame is due (every ``frame_ms``) and some ring changed or is animated, the rings are
   rendered into the LED chain's buffer and written out.

So the longest stall any part sees is one reader poll plus one LED write, whatever the number of
readers, and the rings keep moving while readers are scanned.  Nothing here allocates once running:
the UID/code buffers belong to the readers, ring states and status bytes are pre-allocated.

Index convention (board.py): reader/ring index ``s`` is player seat ``s``; the centre is ``seats``.
"""
from compat import const, ticks_diff

import debounce
import protocol as P
import rings as R

_FRAME_MS = const(40)       # 25 frames a second is smooth enough for a comet
_BRIGHT = const(64)         # a quarter of full: 88 pixels at full white would draw 5 A
_CODE_BYTES = const(16)     # pages 4..7, as read by one NTAG READ
_COUNT_MAX = const(0x3FFFFFFF)  # poll counters wrap at 2**30, like ticks_ms: always a small int
_TURN_EVERY = const(2)      # the seat on turn is polled once more after every 2 other polls
_STACK_COLOUR = (255, 120, 0)
# a button's press held back (a card on its seat's reader), or already a take-back
_WITHHELD = const(1)
_TAKEN = const(2)

_BUTTON_KIND = (0, P.PRESS, P.LONG_PRESS, P.RELEASE)  # indexed by debounce.PRESS/LONG/RELEASE


class Button:
    """A button input: ``pin.value()`` sampled, ``active_low`` says which level means pressed."""

    def __init__(self, pin, active_low=True):
        self.pin = pin
        self.active_low = active_low

    def pressed(self):
        v = self.pin.value()
        return (v == 0) if self.active_low else (v != 0)


class Scanner:
    """Readers, buttons and rings of one table, driven by :meth:`step`.

    ``readers``: list indexed by reader index of ``reader.Reader`` (``None`` = no reader there);
    ``buttons``: list indexed by seat of :class:`Button`; ``ring_spans``: list indexed by ring
    index of ``(first, count)`` or ``None``; ``pixels``: an object with a ``buf`` bytearray (3 bytes
    a pixel) and ``write()`` — ``neopixel.NeoPixel`` on the Pico; ``order``: the chain's colour
    order ("GRB").  Call :meth:`attach` with the link, then :meth:`start`, then :meth:`step`.
    """

    def __init__(self, readers, buttons, ring_spans, pixels, order="GRB",
                 bright=_BRIGHT, frame_ms=_FRAME_MS, lift_ms=600, settle_ms=20, long_ms=800,
                 dwell_ms=debounce.DWELL_MS, marker=None):
        self.readers = readers
        self.buttons = buttons
        self.spans = ring_spans
        self.pixels = pixels
        self.order = R.order_offsets(order)
        self.bright = bright
        self.frame_ms = frame_ms
        self.link = None
        n = len(readers)
        self.taps = [debounce.TapDebounce(lift_ms, dwell_ms) for _ in range(n)]
        self.marker = marker
        if marker is not None:
            marker.value(0)
        self.on_turn = -1          # the reader whose ring shows TURN (-1: none)
        self._since_turn = 0       # polls since the seat on turn was last polled
        self.held_back = bytearray(len(buttons))   # per button: _WITHHELD, _TAKEN or 0
        # the look of a ring over a stack, drawn by the firmware itself
        self.stack_state = R.RingState()
        self.stack_state.set(R.STACK, _STACK_COLOUR[0], _STACK_COLOUR[1], _STACK_COLOUR[2], 0, 0, 0)
        self.stack_count = 0
        self.debouncers = [debounce.ButtonDebounce(settle_ms, long_ms) for _ in buttons]
        self.states = [R.RingState() for _ in ring_spans]
        self.dirty = bytearray(len(ring_spans))
        # SNAPSHOT answers, filled in place when asked.
        self.reader_status = bytearray(n)
        self.button_state = bytearray(len(buttons))
        # answered polls per reader (sent in SNAPSHOT: the host measures polls/s from two of them);
        # a list of small ints, so counting never allocates
        self.polls = [0] * n
        self.turn = 0              # index of the reader polled next
        self.now = 0
        self._last_frame = 0
        self.steps = 0
        self.tap_count = 0
        self.frames = 0
        # Readers report their health through the link, all through one bound method (the
        # reader's index is looked up when it reports, which is rare: no object per reader).
        changed = self._reader_changed
        for r in readers:
            if r is not None:
                r.on_change = changed

    def _reader_changed(self, reader, alive, firmware):
        # The held card is kept across a reader's outage: a card still on it after the recovery is
        # the same card, not a new tap; one taken off meanwhile is lifted at the first empty poll.
        index = self.readers.index(reader)
        if self.link is not None:
            fw = None
            if alive:
                fw = bytes(((firmware >> 24) & 0xFF, (firmware >> 16) & 0xFF, (firmware >> 8) & 0xFF,
                            firmware & 0xFF))
            self.link.send_reader(index, alive, fw)

    # ---- wiring -----------------------------------------------------------------------------

    def attach(self, link):
        """Send events through ``link`` and answer its snapshot requests."""
        self.link = link
        link.snapshot_provider = self.snapshot

    def start(self, now):
        """Bring every reader up (each a blocking begin(); a missing chip is reported dead) and take
        the buttons' first samples, so a button held at boot is not a press."""
        self.now = now
        for r in self.readers:
            if r is not None:
                r.start(now)
        for k in range(len(self.buttons)):
            self.debouncers[k].update(self.buttons[k].pressed(), now)
        for i in range(len(self.dirty)):
            self.dirty[i] = 1
        self._last_frame = now - self.frame_ms
        self._draw(now)

    # ---- the loop ---------------------------------------------------------------------------

    def step(self, now):
        """One bounded unit of work (see the module docstring)."""
        self.now = now
        link = self.link
        if link is not None:
            link.poll()
        self._poll_next(now)
        self._sample_buttons(now)
        if ticks_diff(now, self._last_frame) >= self.frame_ms:
            self._draw(now)
        self.steps += 1

    def _poll_next(self, now):
        readers = self.readers
        n = len(readers)
        j = self.on_turn
        if 0 <= j < n and readers[j] is not None:
            if self._since_turn >= _TURN_EVERY:
                self._since_turn = 0
                self._poll(j, readers[j], now)
                return
            self._since_turn += 1
        for _ in range(n):               # skip unwired positions, at most one lap
            i = self.turn
            self.turn = i + 1 if i + 1 < n else 0
            r = readers[i]
            if r is not None:
                self._poll(i, r, now)
                return

    def _poll(self, i, r, now):
        m = self.marker
        if m is not None:
            m.value(1)
        t = self.taps[i]
        k = r.poll(now, t)
        if m is not None:
            m.value(0)
        if not r.polled:
            return  # a failed poll or a recovery step is no evidence of a lift
        c = self.polls
        v = c[i]
        c[i] = v + 1 if v < _COUNT_MAX else 0
        ev = t.update(r.uid, k, now, r.targets, r.code, r.code_ok)
        if ev == debounce.TAP:
            self.tap_count += 1
            if self.link is not None:
                self._send_card(self.link, i, t, False)
        elif ev == debounce.STACK or ev == debounce.STACK_CLEAR:
            if ev == debounce.STACK:
                self.stack_count += 1
                self.stack_state.since = now
            if i < len(self.dirty):
                self.dirty[i] = 1       # drawn over (STACK), or the host's state back (cleared)
            if self.link is not None:
                self.link.send_stack(i, P.STACK_CARDS if ev == debounce.STACK else (1 if k else 0))

    def _send_card(self, link, i, t, take_back):
        if t.code_ok:
            link.send_tap(i, t.uid, t.code, t.uid_len, _CODE_BYTES, take_back)
        else:
            link.send_tap(i, t.uid, None, t.uid_len, -1, take_back)

    def _card_on(self, k):
        """The debouncer of seat ``k``'s reader when a card lies on it (seen by its last poll),
        else None."""
        if k >= len(self.taps) or self.readers[k] is None:
            return None
        t = self.taps[k]
        return t if t.held and t.missed == 0 and not t.stacked else None

    def _sample_buttons(self, now):
        buttons = self.buttons
        for k in range(len(buttons)):
            ev = self.debouncers[k].update(buttons[k].pressed(), now)
            if ev and self.link is not None:
                self._button(self.link, k, ev)

    def _button(self, link, k, ev):
        held = self.held_back
        if ev == debounce.PRESS:
            if self._card_on(k) is not None:
                held[k] = _WITHHELD     # a take-back, or a short press sent at its release
                return
            held[k] = 0
        elif ev == debounce.LONG and held[k] == _WITHHELD:
            t = self._card_on(k)
            if t is not None:
                held[k] = _TAKEN
                self._send_card(link, k, t, True)
                return
            held[k] = 0                 # the card went meanwhile: a long press after all
            link.send_button(k, P.PRESS)
        elif ev == debounce.RELEASE:
            if held[k] == _WITHHELD:
                link.send_button(k, P.PRESS)
            held[k] = 0
        link.send_button(k, _BUTTON_KIND[ev])

    # ---- rings ------------------------------------------------------------------------------

    def on_ring(self, ring, pattern, r, g, b, count, arg):
        """The link's RING callback: adopt the state; drawn at the next frame."""
        if pattern == R.TURN:
            self.on_turn = ring
        elif ring == self.on_turn:
            self.on_turn = -1
        if ring < len(self.states) and self.states[ring].set(pattern, r, g, b, count, arg, self.now):
            self.dirty[ring] = 1

    def _draw(self, now):
        self._last_frame = now
        px = self.pixels
        if px is None:
            return
        buf = px.buf
        changed = False
        for i in range(len(self.states)):
            span = self.spans[i]
            if span is None:
                continue
            st = self.states[i]
            if i < len(self.taps) and self.taps[i].stacked:
                st = self.stack_state
            t = ticks_diff(now, st.since)
            if self.dirty[i] or R.animated(st, t):
                R.render(buf, span[0], span[1], self.order, st, t, self.bright)
                self.dirty[i] = 0
                changed = True
        if changed:
            px.write()
            self.frames += 1

    # ---- snapshot ---------------------------------------------------------------------------

    def snapshot(self):
        """(reader status bytes, button state bytes, poll counters) for the link's SNAPSHOT, the
        first two filled in place."""
        rs = self.reader_status
        for i in range(len(self.readers)):
            r = self.readers[i]
            rs[i] = P.READER_ABSENT if r is None else (P.READER_ALIVE if r.alive else P.READER_DEAD)
        bs = self.button_state
        for k in range(len(self.debouncers)):
            d = self.debouncers[k]
            bs[k] = (P.BUTTON_HELD if d.long_reported else P.BUTTON_DOWN) if d.pressed else P.BUTTON_UP
        return rs, bs, self.polls
