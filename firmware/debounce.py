"""Debouncing, as pure state machines (no I/O, no clock of their own, no allocation per update).

* :class:`TapDebounce` turns one reader's polls into taps.  A card held on the reader is one tap;
  a card must be missing for ``lift_ms`` (measured from the last poll that saw it, so the same
  whatever the number of readers and the lap time) to count as lifted: misses at the edge of the
  field, a hovering hand, a card slid on slowly are flicker, not a lift and a second tap (which
  the host would take for "take the card back").  Lifting and tapping again is a new tap.  A
  different card appearing without a lift is a new tap at once.
* :class:`ButtonDebounce` turns a sampled button level into PRESS, LONG (held ``long_ms``, once per
  press) and RELEASE, each only after the level has been stable for ``settle_ms``.
"""
from compat import const, ticks_diff

NONE = const(0)
# Tap events
TAP = const(1)    # a card arrived: its UID is in ``uid[:uid_len]``
LIFT = const(2)   # the held card left the reader
# Button events
PRESS = const(1)
LONG = const(2)
RELEASE = const(3)

UID_MAX = const(10)  # ISO 14443A UIDs are 4, 7 or 10 bytes


class TapDebounce:
    """Per-reader tap detector with hysteresis on the card's absence."""

    def __init__(self, lift_ms=600):
        self.lift_ms = lift_ms
        self.uid = bytearray(UID_MAX)   # the held card's UID (valid while ``held``)
        self.uid_len = 0
        self.held = False
        self.seen_at = 0                # when a poll last saw the held card
        self.missed = 0                 # consecutive polls without the held card (diagnostics)
        self.taps = 0                   # taps so far (diagnostics)

    def update(self, uid, n, now):
        """Feed one poll taken at ``now`` (ms): ``uid[:n]`` the card seen, ``n == 0`` none.
        Returns NONE, TAP or LIFT.

        After TAP, ``self.uid[:self.uid_len]`` is the new card.  A poll that failed (reader error)
        must not be fed at all: it is no evidence either way.
        """
        if n <= 0:
            if not self.held:
                return NONE
            self.missed += 1
            if ticks_diff(now, self.seen_at) >= self.lift_ms:
                self.held = False
                self.missed = 0
                return LIFT
            return NONE
        self.missed = 0
        self.seen_at = now
        if n > UID_MAX:
            n = UID_MAX
        if self.held and self._same(uid, n):
            return NONE
        # A new card (or a different one swapped in without a poll that missed it).
        u = self.uid
        for i in range(n):
            u[i] = uid[i]
        self.uid_len = n
        self.held = True
        self.taps += 1
        return TAP

    def _same(self, uid, n):
        if n != self.uid_len:
            return False
        u = self.uid
        for i in range(n):
            if u[i] != uid[i]:
                return False
        return True

    def reset(self):
        """Forget the held card (e.g. the reader was reset)."""
        self.held = False
        self.missed = 0
        self.uid_len = 0


class ButtonDebounce:
    """Press / long press / release from a sampled level, stable for ``settle_ms`` before it counts."""

    def __init__(self, settle_ms=20, long_ms=800):
        self.settle_ms = settle_ms
        self.long_ms = long_ms
        self.pressed = False      # the debounced state
        self._raw = False         # last sample
        self._raw_since = 0       # when the last sample's level began
        self._pressed_at = 0      # when the debounced press began
        self.long_reported = False
        self._started = False

    def update(self, raw_pressed, now_ms):
        """Feed a sample (True = pressed) taken at ``now_ms``; returns NONE, PRESS, LONG or RELEASE."""
        if not self._started:
            # The first sample sets the level without an event: a button held at boot is not a press.
            self._started = True
            self._raw = raw_pressed
            self._raw_since = now_ms
            self.pressed = raw_pressed
            self._pressed_at = now_ms
            self.long_reported = raw_pressed
            return NONE
        if raw_pressed != self._raw:
            self._raw = raw_pressed
            self._raw_since = now_ms
        stable = ticks_diff(now_ms, self._raw_since) >= self.settle_ms
        if stable and raw_pressed != self.pressed:
            self.pressed = raw_pressed
            if raw_pressed:
                self._pressed_at = self._raw_since
                self.long_reported = False
                return PRESS
            return RELEASE
        if self.pressed and not self.long_reported and ticks_diff(now_ms, self._pressed_at) >= self.long_ms:
            self.long_reported = True
            return LONG
        return NONE

    def held_ms(self, now_ms):
        """How long the current press has lasted (0 when released)."""
        return ticks_diff(now_ms, self._pressed_at) if self.pressed else 0
