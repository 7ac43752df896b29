"""The ring vocabulary: pure functions from a ring state and a time to the ring's pixels.

A ring state is what the host sends in a RING command — (pattern, r, g, b, count, arg) — and the
wire protocol carries the pattern id opaquely.  The same state sent twice is the same state (the
animation is not restarted), so a lost or repeated command heals on the next one.

``render`` writes the ring's pixels straight into the LED chain's byte buffer (the ``neopixel``
buffer on the Pico) in the chain's colour order.  Integer arithmetic only: on the RP2040 a float is
a heap object, and the scan loop must not allocate.

=========  ===  ===================================================================================
pattern    id   look (colour = the command's r, g, b; t = ms since this state began)
=========  ===  ===================================================================================
OFF        0    dark
TURN       1    whose turn: a comet (head + fading 3-pixel tail) circling once per ``arg`` ms
                (default 1200)
PENDING    2    card accepted: ``count`` pixels lit, one per pending card; when ``arg`` > 0 (the
                cards the play needs) the still-missing ones glow faintly
REFUSED    3    play refused: red (or the given colour) blinking 4 Hz for ``arg`` ms (default 1000),
                then steady dim red until the next state
TRICK_WON  4    trick won: the ring fills around in 400 ms, then breathes
POINTS     5    points: ``arg`` points at ``count`` points per pixel (default 5); a partial pixel
                glows faintly
TRUMP      6    trump suit: the whole ring in the suit's colour, breathing slowly
LEVEL      7    level change: a rainbow spins for ``arg`` ms (default 3000), then ``count`` pixels
                (the new level, 2..14) stay lit
SOLID      8    the whole ring in one colour (self-test, diagnostics)
STACK      9    two cards on the reader: the two halves of the ring blink in turn, 4 Hz (amber).
                The firmware draws it by itself over the host's state while it sees two cards
                (scan.py); the host's state comes back once the pad is cleared
=========  ===  ===================================================================================
"""
from compat import const

OFF = const(0)
TURN = const(1)
PENDING = const(2)
REFUSED = const(3)
TRICK_WON = const(4)
POINTS = const(5)
TRUMP = const(6)
LEVEL = const(7)
SOLID = const(8)
STACK = const(9)
PATTERNS = const(10)  # ids >= PATTERNS are unknown and render as OFF

NAMES = ("OFF", "TURN", "PENDING", "REFUSED", "TRICK_WON", "POINTS", "TRUMP", "LEVEL", "SOLID", "STACK")

FULL = const(256)          # brightness levels are fractions of 256
TURN_PERIOD = const(1200)
REFUSED_BLINK = const(1000)
REFUSED_HALF_PERIOD = const(125)
WON_FILL = const(400)
WON_BREATH = const(1500)
TRUMP_BREATH = const(2400)
POINTS_PER_PIXEL = const(5)
LEVEL_SPIN = const(3000)
RAINBOW_PERIOD = const(1000)
FAINT = const(16)          # placeholders, partial pixels
DIM = const(64)


def order_offsets(order):
    """Byte offsets of red, green and blue within a pixel for a colour order such as ``"GRB"``."""
    return (order.index("R"), order.index("G"), order.index("B"))


class RingState:
    """One ring's current state (as last commanded) and when it began."""

    def __init__(self):
        self.pattern = OFF
        self.r = 0
        self.g = 0
        self.b = 0
        self.count = 0
        self.arg = 0
        self.since = 0

    def set(self, pattern, r, g, b, count, arg, now_ms):
        """Adopt a commanded state; returns True if it differs (and restarts its animation)."""
        if (pattern == self.pattern and r == self.r and g == self.g and b == self.b
                and count == self.count and arg == self.arg):
            return False
        self.pattern = pattern
        self.r = r
        self.g = g
        self.b = b
        self.count = count
        self.arg = arg
        self.since = now_ms
        return True


def animated(st, t):
    """Whether the ring's look still changes after ``t`` ms in state ``st`` (else: draw once)."""
    p = st.pattern
    if p == TURN or p == TRICK_WON or p == TRUMP or p == STACK:
        return True
    if p == REFUSED:
        return t < (st.arg or REFUSED_BLINK)
    if p == LEVEL:
        return t < (st.arg or LEVEL_SPIN)
    return False


def _put(buf, i, ro, go, bo, r, g, b, level):
    # level: 0..FULL, the product of the pattern's and the table's brightness.
    k = 3 * i
    buf[k + ro] = (r * level) >> 8
    buf[k + go] = (g * level) >> 8
    buf[k + bo] = (b * level) >> 8


def _breath(t, period, lo):
    # A triangle ramp up and down between lo and FULL (no floats, no tables).
    half = period >> 1
    ph = t % period
    if ph >= half:
        ph = period - ph
    return lo + (FULL - lo) * ph // half


def _wheel(buf, i, ro, go, bo, hue, level):
    # hue 0..767 around red -> green -> blue -> red.
    hue %= 768
    seg = hue >> 8
    x = hue & 255
    if seg == 0:
        _put(buf, i, ro, go, bo, 255 - x, x, 0, level)
    elif seg == 1:
        _put(buf, i, ro, go, bo, 0, 255 - x, x, level)
    else:
        _put(buf, i, ro, go, bo, x, 0, 255 - x, level)


# One function per pattern, all with the same arguments: the ring's pixels ``first``..``first+n-1``
# of ``buf``, the colour order's byte offsets ``ro``, ``go``, ``bo``, the state ``st``, the time
# ``t`` in it and the table's brightness ``bright``.  ``render`` picks one from ``_PATTERN_RENDER``
# by the pattern id: an index into a tuple, nothing allocated.


def _off(buf, first, n, ro, go, bo, st, t, bright):
    for j in range(first * 3, (first + n) * 3):
        buf[j] = 0


def _turn(buf, first, n, ro, go, bo, st, t, bright):
    r = st.r
    g = st.g
    b = st.b
    period = st.arg or TURN_PERIOD
    head = (t % period) * n // period
    for j in range(n):
        behind = (head - j) % n
        level = (FULL >> behind) if behind < 4 else 0
        _put(buf, first + j, ro, go, bo, r, g, b, level * bright >> 8)


def _pending(buf, first, n, ro, go, bo, st, t, bright):
    r = st.r
    g = st.g
    b = st.b
    lit = st.count
    need = st.arg
    for j in range(n):
        level = FULL if j < lit else (FAINT if j < need else 0)
        _put(buf, first + j, ro, go, bo, r, g, b, level * bright >> 8)


def _refused(buf, first, n, ro, go, bo, st, t, bright):
    r = st.r
    g = st.g
    b = st.b
    if r == 0 and g == 0 and b == 0:
        r = 255
    if t < (st.arg or REFUSED_BLINK):
        level = FULL if (t // REFUSED_HALF_PERIOD) % 2 == 0 else 0
    else:
        level = DIM
    for j in range(n):
        _put(buf, first + j, ro, go, bo, r, g, b, level * bright >> 8)


def _trick_won(buf, first, n, ro, go, bo, st, t, bright):
    r = st.r
    g = st.g
    b = st.b
    if t < WON_FILL:
        lit = (t * n) // WON_FILL + 1
        level = FULL
    else:
        lit = n
        level = _breath(t - WON_FILL, WON_BREATH, DIM)
    for j in range(n):
        _put(buf, first + j, ro, go, bo, r, g, b, (level if j < lit else 0) * bright >> 8)


def _points(buf, first, n, ro, go, bo, st, t, bright):
    r = st.r
    g = st.g
    b = st.b
    per = st.count or POINTS_PER_PIXEL
    whole = st.arg // per
    part = st.arg % per
    for j in range(n):
        level = FULL if j < whole else (FAINT if (j == whole and part) else 0)
        _put(buf, first + j, ro, go, bo, r, g, b, level * bright >> 8)


def _trump(buf, first, n, ro, go, bo, st, t, bright):
    r = st.r
    g = st.g
    b = st.b
    level = _breath(t, TRUMP_BREATH, FULL >> 1)
    for j in range(n):
        _put(buf, first + j, ro, go, bo, r, g, b, level * bright >> 8)


def _level(buf, first, n, ro, go, bo, st, t, bright):
    if t < (st.arg or LEVEL_SPIN):
        shift = (t % RAINBOW_PERIOD) * 768 // RAINBOW_PERIOD
        for j in range(n):
            _wheel(buf, first + j, ro, go, bo, shift + j * 768 // n, bright)
        return
    r = st.r
    g = st.g
    b = st.b
    lit = st.count
    for j in range(n):
        _put(buf, first + j, ro, go, bo, r, g, b, (FULL if j < lit else 0) * bright >> 8)


def _solid(buf, first, n, ro, go, bo, st, t, bright):
    r = st.r
    g = st.g
    b = st.b
    for j in range(n):
        _put(buf, first + j, ro, go, bo, r, g, b, bright)


def _stack(buf, first, n, ro, go, bo, st, t, bright):
    r = st.r
    g = st.g
    b = st.b
    phase = (t // REFUSED_HALF_PERIOD) % 2
    half = n >> 1
    for j in range(n):
        on = (j < half) != (phase == 1)
        _put(buf, first + j, ro, go, bo, r, g, b, bright if on else 0)


# Indexed by pattern id: OFF, TURN, PENDING, REFUSED, TRICK_WON, POINTS, TRUMP, LEVEL, SOLID, STACK.
_PATTERN_RENDER = (_off, _turn, _pending, _refused, _trick_won, _points, _trump, _level, _solid, _stack)


def render(buf, first, n, order, st, t, bright=FULL):
    """Write ring state ``st`` at ``t`` ms into pixels ``first``..``first+n-1`` of ``buf``.

    ``order`` comes from :func:`order_offsets`; ``bright`` (0..256) scales the whole table, because
    a chain of WS2812s at full white draws far more than a USB port gives.  Unknown pattern ids (a
    newer host) render dark rather than garbage.
    """
    p = st.pattern
    draw = _PATTERN_RENDER[p] if 0 <= p < PATTERNS else _off
    draw(buf, first, n, order[0], order[1], order[2], st, t, bright)
