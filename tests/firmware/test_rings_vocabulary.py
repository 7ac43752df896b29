"""Rings: each pattern of the vocabulary renders the look docs/firmware.md promises, into the chain's
own byte buffer, in the chain's colour order, and leaves the other rings' pixels alone."""
import sys

import pytest

from shengji_table.firmware_src import FIRMWARE_DIR

# Appended, not prepended: firmware module names must not shadow installed packages (e.g. Blinka's `board`).
if str(FIRMWARE_DIR) not in sys.path:
    sys.path.append(str(FIRMWARE_DIR))
import rings  # noqa: E402  (firmware/rings.py)
GRB = rings.order_offsets("GRB")
FIRST, N = 12, 12          # ring under test: pixels 12..23 of a 48-pixel chain
SENTINEL = 0xAA


def draw(pattern, r=0, g=0, b=0, count=0, arg=0, t=0, bright=256, order=GRB):
    st = rings.RingState()
    st.set(pattern, r, g, b, count, arg, 0)
    buf = bytearray([SENTINEL]) * (48 * 3)
    rings.render(buf, FIRST, N, order, st, t, bright)
    assert all(x == SENTINEL for x in buf[:FIRST * 3]) and all(x == SENTINEL for x in buf[(FIRST + N) * 3:]), \
        "render wrote outside its ring"
    # Back to (r, g, b) per ring pixel.
    px = []
    for i in range(FIRST, FIRST + N):
        k = 3 * i
        px.append((buf[k + order[0]], buf[k + order[1]], buf[k + order[2]]))
    return px


def lit(px):
    return [i for i, p in enumerate(px) if p != (0, 0, 0)]


def test_rings_pattern_ids_are_distinct_and_named():
    ids = [rings.OFF, rings.TURN, rings.PENDING, rings.REFUSED, rings.TRICK_WON, rings.POINTS, rings.TRUMP,
           rings.LEVEL, rings.SOLID, rings.STACK]
    assert ids == list(range(rings.PATTERNS))
    assert [rings.NAMES[i] for i in ids] == ["OFF", "TURN", "PENDING", "REFUSED", "TRICK_WON", "POINTS",
                                             "TRUMP", "LEVEL", "SOLID", "STACK"]
    # render's table of pattern functions is in id order: _off, _turn, ... (firmware/rings.py)
    assert [f.__name__ for f in rings._PATTERN_RENDER] == ["_" + name.lower() for name in rings.NAMES]


def test_rings_colour_order_grb_puts_green_first():
    st = rings.RingState()
    st.set(rings.SOLID, 10, 20, 30, 0, 0, 0)
    buf = bytearray(6)
    rings.render(buf, 1, 1, rings.order_offsets("GRB"), st, 0)
    assert list(buf) == [0, 0, 0, 20, 10, 30]
    rings.render(buf, 0, 1, rings.order_offsets("RGB"), st, 0)
    assert list(buf[:3]) == [10, 20, 30]


def test_rings_off_and_unknown_pattern_are_dark():
    assert lit(draw(rings.OFF, 255, 255, 255)) == []
    assert lit(draw(200, 255, 255, 255, 5, 5)) == []


def test_rings_turn_is_a_comet_that_circles():
    frames = [draw(rings.TURN, 0, 0, 255, arg=1200, t=t) for t in (0, 100, 600)]
    heads = [max(range(N), key=lambda i: px[i][2]) for px in frames]
    assert heads == [0, 1, 6]
    px = frames[2]
    assert [px[i][2] for i in (6, 5, 4, 3, 2)] == [255, 127, 63, 31, 0]
    assert rings.animated(rings_state(rings.TURN), 10_000)


def rings_state(pattern, arg=0):
    st = rings.RingState()
    st.set(pattern, 1, 1, 1, 0, arg, 0)
    return st


@pytest.mark.parametrize("pending", [0, 1, 3, 5])
def test_rings_pending_one_pixel_per_pending_card(pending):
    px = draw(rings.PENDING, 0, 255, 0, count=pending)
    assert lit(px) == list(range(pending))
    assert all(p == (0, 255, 0) for p in px[:pending])


def test_rings_pending_shows_missing_cards_faintly():
    px = draw(rings.PENDING, 0, 255, 0, count=2, arg=4)
    assert px[:2] == [(0, 255, 0)] * 2
    assert px[2] == px[3] == (0, 15, 0)
    assert lit(px) == [0, 1, 2, 3]


def test_rings_refused_is_red_and_blinks_then_stays_dim():
    on = draw(rings.REFUSED, t=0)
    off = draw(rings.REFUSED, t=130)
    after = draw(rings.REFUSED, t=1500)
    assert on == [(255, 0, 0)] * N
    assert lit(off) == []
    assert after == [(63, 0, 0)] * N
    assert rings.animated(rings_state(rings.REFUSED), 999) and not rings.animated(rings_state(rings.REFUSED), 1000)


def test_rings_trick_won_fills_around_then_breathes():
    early = draw(rings.TRICK_WON, 255, 200, 0, t=100)
    assert lit(early) == list(range(4))
    full = [draw(rings.TRICK_WON, 255, 200, 0, t=t) for t in (400, 1150)]
    assert all(lit(px) == list(range(N)) for px in full)
    assert full[0][0][0] < full[1][0][0]  # breathing: brighter at mid-period


def test_rings_points_count_points_per_pixel():
    px = draw(rings.POINTS, 255, 255, 255, count=10, arg=35)  # 3 whole pixels and a half
    assert lit(px) == [0, 1, 2, 3]
    assert px[2] == (255, 255, 255) and px[3] == (15, 15, 15)
    assert lit(draw(rings.POINTS, 255, 255, 255, arg=20)) == [0, 1, 2, 3]  # default 5 points a pixel


def test_rings_trump_is_the_suit_colour_on_every_pixel():
    px = draw(rings.TRUMP, 200, 0, 0, t=1200)
    assert px == [(200, 0, 0)] * N
    dim = draw(rings.TRUMP, 200, 0, 0, t=0)
    assert dim == [(100, 0, 0)] * N


def test_rings_level_change_spins_a_rainbow_then_shows_the_level():
    spin = draw(rings.LEVEL, 0, 0, 255, count=5, t=100)
    assert len(set(spin)) > 6          # many hues at once
    final = draw(rings.LEVEL, 0, 0, 255, count=5, t=3000)
    assert lit(final) == [0, 1, 2, 3, 4] and final[0] == (0, 0, 255)
    assert not rings.animated(rings_state(rings.LEVEL), 3000)


def test_rings_table_brightness_scales_everything():
    assert draw(rings.SOLID, 200, 100, 40, bright=64) == [(50, 25, 10)] * N


def test_rings_same_state_is_idempotent():
    st = rings.RingState()
    assert st.set(rings.TURN, 0, 0, 255, 0, 0, now_ms=100)
    assert not st.set(rings.TURN, 0, 0, 255, 0, 0, now_ms=900)
    assert st.since == 100  # the animation was not restarted by the repeat
    assert st.set(rings.PENDING, 0, 0, 255, 1, 0, now_ms=1000) and st.since == 1000


def test_rings_static_patterns_need_no_redraw():
    for p in (rings.OFF, rings.PENDING, rings.POINTS, rings.SOLID):
        assert not rings.animated(rings_state(p), 0)


def test_rings_micropython_renders_the_same_bytes_without_allocating():
    """Under the real MicroPython: every pattern gives CPython's bytes, and rendering allocates nothing
    once warm (the scan loop draws rings between reader polls and must not feed the GC)."""
    import json

    from shengji_table.micropython import run_micropython
    script = r'''
import gc, json, rings
o = rings.order_offsets("GRB")
st = rings.RingState()
buf = bytearray(48 * 3)
out = []
for p in range(rings.PATTERNS + 1):
    st.set(p, 200, 100, 50, 3, 5, 0)
    for t in (0, 130, 450, 1200, 3100):
        rings.render(buf, 12, 12, o, st, t, 64)
        out.append(bytes(buf).hex())
def measure(p):       # locals: a new module-level name would grow the globals dict
    st.set(p, 200, 100, 50, 3, 5, 0)
    rings.render(buf, 12, 12, o, st, 7, 64)     # warm: first calls may allocate caches
    rings.animated(st, 7)
    gc.collect(); gc.disable(); a = gc.mem_alloc()
    for t in range(0, 4000, 40):
        rings.render(buf, 12, 12, o, st, t, 64)
        rings.animated(st, t)
    n = gc.mem_alloc() - a
    gc.enable()
    return n
allocs = [measure(p) for p in range(rings.PATTERNS + 1)]
print(json.dumps([out, allocs]))
'''
    out, allocs = json.loads(run_micropython(script, path=[FIRMWARE_DIR]).stdout)
    expected = []
    st = rings.RingState()
    buf = bytearray(48 * 3)
    for p in range(rings.PATTERNS + 1):
        st.set(p, 200, 100, 50, 3, 5, 0)
        for t in (0, 130, 450, 1200, 3100):
            rings.render(buf, 12, 12, GRB, st, t, 64)
            expected.append(bytes(buf).hex())
    assert out == expected
    assert allocs == [0] * (rings.PATTERNS + 1)


def test_rings_stack_blinks_the_two_halves_in_turn():
    """Two cards on a reader: the halves of the ring alternate, 4 Hz, in the colour given."""
    first = draw(rings.STACK, 255, 120, 0, t=0)
    second = draw(rings.STACK, 255, 120, 0, t=130)
    assert lit(first) == list(range(6)) and lit(second) == list(range(6, 12))
    assert set(first[:6]) == {(255, 120, 0)}
    st = rings.RingState()
    st.set(rings.STACK, 255, 120, 0, 0, 0, 0)
    assert rings.animated(st, 60_000)
