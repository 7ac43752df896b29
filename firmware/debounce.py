"""Debouncing, as pure state machines (no I/O, no clock of their own, no allocation per update).

* :class:`TapDebounce` turns one reader's polls into taps.  A card is a tap only once it has been
  seen in at least two consecutive polls spanning ``dwell_ms`` (the board file's
  ``timing.dwell_ms``): a card passing over the pad, or a hand hovering with it, is not a play.  A
  card held on the reader is one tap; it must be missing for ``lift_ms`` (measured from the last
  poll that saw it, so the same whatever the number of readers and the lap time) to count as
  lifted: misses at the edge of the field, a hovering hand, a card slid on slowly are flicker, not
  a lift.  Lifting and tapping again is a new tap (the host ignores a card it already has: taking
  a card back is its own gesture, a long press with the card on the pad, ``scan.py``).  A
  different card appearing without a lift is a new tap once it has dwelt.
  Two cards answering one poll (a stack) is STACK, once, and no tap while it lasts; STACK_CLEAR
  follows once two consecutive polls spanning ``dwell_ms`` see at most one card.  The held card
  is kept across a stack: the card left on the pad then taps only if it is another one.
* :class:`ButtonDebounce` turns a sampled button level into PRESS, LONG (held ``long_ms``, once per
  press) and RELEASE, each only after the level has been stable for ``settle_ms``.
"""
from compat import const, ticks_diff

NONE = const(0)
# Tap events
TAP = const(1)          # a card arrived: its UID is in ``uid[:uid_len]``, its code in ``code``
LIFT = const(2)         # the held card left the reader
STACK = const(3)        # two cards answer on the reader
STACK_CLEAR = const(4)  # ... no longer
# Button events
PRESS = const(1)
LONG = const(2)
RELEASE = const(3)

UID_MAX = const(10)     # ISO 14443A UIDs are 4, 7 or 10 bytes
CODE_BYTES = const(16)  # the card code: NTAG pages 4..7
DWELL_MS = const(30)    # board.json ``timing.dwell_ms`` default
_LIFT_MS = const(600)   # board.json ``timing.lift_ms`` default
_CONFIRM_POLLS = const(2)


def _same(a, na, b, nb):
    if na != nb:
        return False
    for i in range(na):
        if a[i] != b[i]:
            return False
    return True


def _copy(dst, src, n):
    for i in range(n):
        dst[i] = src[i]


class TapDebounce:
    """Per-reader tap detector: a dwell before a tap, hysteresis on the card's absence, stacks.

    The settings stay class attributes when they are the defaults (no per-reader RAM)."""

    lift_ms = _LIFT_MS
    dwell_ms = DWELL_MS

    def __init__(self, lift_ms=_LIFT_MS, dwell_ms=DWELL_MS):
        if lift_ms != _LIFT_MS:
            self.lift_ms = lift_ms
        if dwell_ms != DWELL_MS:
            self.dwell_ms = dwell_ms
        self.uid = bytearray(UID_MAX)   # the held card's UID (valid while ``held``)
        self.uid_len = 0
        self.code = bytearray(CODE_BYTES)  # its card code, read once when it was first seen
        self.code_ok = False
        self.held = False
        self.seen_at = 0                # when a poll last saw the held card
        self.missed = 0                 # consecutive polls without the held card (diagnostics)
        self.taps = 0                   # taps so far (diagnostics)
        # a card seen but not a tap yet (the dwell)
        self.cand = bytearray(UID_MAX)
        self.cand_len = 0
        self.cand_code = bytearray(CODE_BYTES)
        self.cand_code_ok = False
        self.cand_polls = 0             # consecutive polls that saw it
        self.cand_since = 0
        # two cards on the pad
        self.stacked = False
        self.stack_at = 0               # the last poll that saw two cards
        self.stacks = 0                 # stacks so far (diagnostics)

    def knows(self, uid, n):
        """True when ``uid[:n]`` is the held card, or the card dwelling with its code read: the
        reader need not read its code again."""
        if self.held and _same(self.uid, self.uid_len, uid, n):
            return True
        return self.cand_polls > 0 and self.cand_code_ok and _same(self.cand, self.cand_len, uid, n)

    def update(self, uid, n, now, targets=1, code=None, code_ok=False):
        """Feed one poll taken at ``now`` (ms): ``uid[:n]`` the first card seen, ``n == 0`` none;
        ``targets`` how many cards answered; ``code`` the card code read this poll (when
        ``code_ok``; a card this debouncer ``knows`` need not be read again).  Returns NONE, TAP,
        LIFT, STACK or STACK_CLEAR.

        After TAP, ``self.uid[:self.uid_len]`` is the new card and ``self.code`` its code (when
        ``self.code_ok``).  A poll that failed (reader error) must not be fed at all: it is no
        evidence either way.
        """
        if n > 0 and targets >= 2:
            self.cand_polls = 0         # while stacked: the polls with at most one card
            self.stack_at = now
            if self.held:
                self.seen_at = now      # the pad is not empty: nothing is lifted under a stack
            if not self.stacked:
                self.stacked = True
                self.stacks += 1
                return STACK
            return NONE
        if self.stacked:
            self.cand_polls += 1
            if self.cand_polls < _CONFIRM_POLLS or ticks_diff(now, self.stack_at) < self.dwell_ms:
                return NONE
            self.stacked = False
            self.cand_polls = 0
            return STACK_CLEAR
        if n <= 0:
            self.cand_polls = 0         # the polls that confirm a card are consecutive
            if not self.held:
                return NONE
            self.missed += 1
            if ticks_diff(now, self.seen_at) >= self.lift_ms:
                self.held = False
                self.missed = 0
                return LIFT
            return NONE
        if n > UID_MAX:
            n = UID_MAX
        if self.held and _same(self.uid, self.uid_len, uid, n):
            self.missed = 0
            self.seen_at = now
            self.cand_polls = 0
            return NONE
        # a card not held (a new one, or another swapped in): it dwells before it is a tap
        if self.cand_polls and _same(self.cand, self.cand_len, uid, n):
            self.cand_polls += 1
        else:
            _copy(self.cand, uid, n)
            self.cand_len = n
            self.cand_polls = 1
            self.cand_since = now
            self.cand_code_ok = False
        if code_ok and not self.cand_code_ok:
            _copy(self.cand_code, code, CODE_BYTES)
            self.cand_code_ok = True
        if self.cand_polls < _CONFIRM_POLLS or ticks_diff(now, self.cand_since) < self.dwell_ms:
            return NONE
        _copy(self.uid, self.cand, n)
        self.uid_len = n
        _copy(self.code, self.cand_code, CODE_BYTES)
        self.code_ok = self.cand_code_ok
        self.held = True
        self.seen_at = now
        self.missed = 0
        self.cand_polls = 0
        self.taps += 1
        return TAP

    def reset(self):
        """Forget the held card, the card dwelling and a stack (e.g. the reader was reset)."""
        self.held = False
        self.missed = 0
        self.uid_len = 0
        self.cand_polls = 0
        self.stacked = False


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
