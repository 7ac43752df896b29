"""Debounce: a held card is one tap, misses shorter than ``lift_ms`` are ignored (however many polls),
lift-and-tap again is a new tap; buttons give PRESS, LONG (once) and RELEASE only after the level
settles."""
import sys

from hypothesis import given, strategies as st

from shengji_table.firmware_src import FIRMWARE_DIR

# Appended, not prepended: firmware module names must not shadow installed packages (e.g. Blinka's `board`).
if str(FIRMWARE_DIR) not in sys.path:
    sys.path.append(str(FIRMWARE_DIR))
import debounce  # noqa: E402  (firmware/debounce.py)
TAP, LIFT, NONE = debounce.TAP, debounce.LIFT, debounce.NONE
UID_A = bytes.fromhex("04a1b2c3d4e5f6")
UID_B = bytes.fromhex("04112233445566")


STEP_MS = 250  # one poll of the reader every 250 ms; the default lift_ms is 600: 3 misses


def feed(d, polls, step=STEP_MS, t0=0):
    events = []
    for i, uid in enumerate(polls):
        now = t0 + i * step
        if uid is None:
            events.append(d.update(b"", 0, now))
        else:
            events.append(d.update(uid, len(uid), now))
    return events


def test_debounce_held_card_is_one_tap_at_its_second_poll():
    """R-4.1: a card is played once it has dwelt: the TAP comes at the second poll that sees it."""
    d = debounce.TapDebounce()
    events = feed(d, [UID_A] * 50)
    assert events.count(TAP) == 1 and events[:2] == [NONE, TAP]
    assert bytes(d.uid[:d.uid_len]) == UID_A


def test_debounce_card_passing_over_the_pad_is_no_tap():
    """A card seen by one poll only (a hand passing over the pad, a hovering card) is no play."""
    d = debounce.TapDebounce()
    assert feed(d, [None, UID_A, None, None, UID_A, None, UID_B, None] * 5) == [NONE] * 40
    assert d.taps == 0


def test_debounce_dwell_is_time_as_well_as_two_polls():
    """Two polls 10 ms apart are not enough for a 40 ms dwell; the first poll 40 ms after the
    first sighting is."""
    d = debounce.TapDebounce(dwell_ms=40)
    assert feed(d, [UID_A] * 6, step=10) == [NONE, NONE, NONE, NONE, TAP, NONE]
    d = debounce.TapDebounce(dwell_ms=0)
    assert feed(d, [UID_A] * 3, step=1) == [NONE, TAP, NONE]


def test_debounce_single_missed_poll_is_ignored():
    d = debounce.TapDebounce()
    events = feed(d, [UID_A, UID_A, None, UID_A, None, UID_A, UID_A])
    assert events == [NONE, TAP, NONE, NONE, NONE, NONE, NONE]


def test_debounce_lift_and_tap_again_is_a_new_tap():
    d = debounce.TapDebounce()
    events = feed(d, [UID_A, UID_A, None, None, None, UID_A, UID_A])
    assert events == [NONE, TAP, NONE, NONE, LIFT, NONE, TAP]
    assert d.taps == 2


def test_debounce_swapped_card_without_gap_is_a_new_tap_once_it_dwelt():
    d = debounce.TapDebounce()
    events = feed(d, [UID_A, UID_A, UID_B, UID_B, UID_B])
    assert events == [NONE, TAP, NONE, TAP, NONE]
    assert bytes(d.uid[:d.uid_len]) == UID_B


def test_debounce_uid_length_difference_is_a_different_card():
    d = debounce.TapDebounce()
    assert feed(d, [UID_A, UID_A, UID_A[:4], UID_A[:4]]) == [NONE, TAP, NONE, TAP]


def test_debounce_lift_threshold_is_configurable():
    d = debounce.TapDebounce(lift_ms=1000)
    assert feed(d, [UID_A, UID_A, None, None, UID_A, None, None, None, None]) == [NONE, TAP] + [NONE] * 6 + [LIFT]


def test_debounce_lift_is_time_not_polls():
    """The same 600 ms whatever the lap: 12 missed polls 50 ms apart are no lift, 3 at 250 ms are."""
    fast = debounce.TapDebounce()
    assert LIFT not in feed(fast, [UID_A, UID_A] + [None] * 11 + [UID_A], step=50)
    slow = debounce.TapDebounce()
    assert feed(slow, [UID_A, UID_A, None, None, None], step=250)[-1] == LIFT


def test_debounce_ticks_wrap():
    d = debounce.TapDebounce()
    t0 = (1 << 30) - 300          # ticks_ms wraps at 2**30 on the Pico; CPython's never does
    assert feed(d, [UID_A, UID_A, None], t0=t0) == [NONE, TAP, NONE]


def test_debounce_uid_buffer_is_reused():
    d = debounce.TapDebounce()
    buf = d.uid
    feed(d, [UID_A, UID_A, None, None, UID_B, UID_B])
    assert d.uid is buf and bytes(d.uid[:d.uid_len]) == UID_B


def test_debounce_reset_forgets_the_card():
    d = debounce.TapDebounce()
    feed(d, [UID_A, UID_A])
    d.reset()
    assert feed(d, [UID_A, UID_A]) == [NONE, TAP]


def stack_feed(d, polls, step=STEP_MS):
    """Polls of (uid or None, targets)."""
    return [d.update(u or b"", len(u) if u else 0, i * step, k) for i, (u, k) in enumerate(polls)]


def test_debounce_two_cards_are_one_stack_event_and_no_tap():
    """A card laid on one already lying there: STACK once, no tap while it lasts, whichever card
    the chip names first."""
    d = debounce.TapDebounce()
    events = stack_feed(d, [(UID_A, 1), (UID_A, 1), (UID_B, 2), (UID_A, 2), (UID_B, 2), (UID_A, 2)])
    assert events == [NONE, TAP, debounce.STACK, NONE, NONE, NONE]
    assert d.stacked and d.stacks == 1 and bytes(d.uid[:d.uid_len]) == UID_A


def test_debounce_stack_cleared_back_to_the_held_card_is_no_new_tap():
    """The card laid on top taken off again: STACK_CLEAR after two polls, no tap (the held card
    is the one left), no lift while the stack lay there however long."""
    d = debounce.TapDebounce()
    events = stack_feed(d, [(UID_A, 1), (UID_A, 1)] + [(UID_B, 2)] * 8 + [(UID_A, 1)] * 4)
    assert events[:3] == [NONE, TAP, debounce.STACK]
    assert events[3:] == [NONE] * 8 + [debounce.STACK_CLEAR, NONE, NONE]
    assert LIFT not in events and not d.stacked and d.taps == 1


def test_debounce_stack_cleared_to_the_other_card_taps_it():
    """The first card taken off the stack: the one left is a new card and taps once it dwelt."""
    d = debounce.TapDebounce()
    events = stack_feed(d, [(UID_A, 1), (UID_A, 1), (UID_B, 2), (UID_B, 1), (UID_B, 1), (UID_B, 1), (UID_B, 1)])
    assert events == [NONE, TAP, debounce.STACK, NONE, debounce.STACK_CLEAR, NONE, TAP]
    assert bytes(d.uid[:d.uid_len]) == UID_B


def test_debounce_stack_cleared_to_an_empty_pad_lifts_in_time():
    d = debounce.TapDebounce()
    events = stack_feed(d, [(UID_A, 1), (UID_A, 1), (UID_B, 2), (None, 0), (None, 0), (None, 0), (None, 0)])
    # lifted lift_ms after the last poll that saw the stack: time-based, as every lift
    assert events == [NONE, TAP, debounce.STACK, NONE, debounce.STACK_CLEAR, LIFT, NONE]


def test_debounce_stack_seen_again_after_one_single_poll_is_the_same_stack():
    """A poll that catches only one of two cards (the chip's anticollision missed one) does not
    end the stack: two polls are needed."""
    d = debounce.TapDebounce()
    events = stack_feed(d, [(UID_A, 2), (UID_A, 1), (UID_B, 2), (UID_B, 1), (UID_A, 2)])
    assert events == [debounce.STACK, NONE, NONE, NONE, NONE] and d.stacks == 1


def test_debounce_knows_the_held_card_so_its_code_is_not_read_again():
    d = debounce.TapDebounce()
    code = bytes(range(16))
    assert not d.knows(UID_A, 7)
    d.update(UID_A, 7, 0, 1, code, True)
    assert d.knows(UID_A, 7) and not d.knows(UID_B, 7)
    assert d.update(UID_A, 7, 250, 1, None, False) == TAP     # the code came with the first sighting
    assert d.code_ok and bytes(d.code) == code and d.knows(UID_A, 7)


@given(st.lists(st.sampled_from([None, "A", "B"]), max_size=80))
def test_debounce_taps_match_a_reference_model(seq):
    """Property: a TAP is the second consecutive poll seeing a card that is not the one held (two
    polls STEP_MS apart are more than the dwell); a LIFT is lift_ms without the held card; LIFTs
    alternate with taps."""
    uids = {"A": UID_A, "B": UID_B}
    d = debounce.TapDebounce(lift_ms=600)
    events = feed(d, [uids.get(x) for x in seq])
    held, seen_at, expect, prev = None, 0, [], None
    for i, x in enumerate(seq):
        now = i * STEP_MS
        if x is None:
            prev = None
            if held is not None and now - seen_at >= 600:
                held = None
                expect.append(LIFT)
                continue
            expect.append(NONE)
        elif x == held:
            seen_at, prev = now, None
            expect.append(NONE)
        elif prev == x:
            held, seen_at, prev = x, now, None
            expect.append(TAP)
        else:
            prev = x
            expect.append(NONE)
    assert events == expect


def run_button(samples, **kw):
    b = debounce.ButtonDebounce(**kw)
    return [(t, e) for t, level in samples if (e := b.update(level, t)) != NONE]


def test_debounce_button_press_and_release_after_settling():
    samples = [(0, False), (10, True), (12, False), (14, True)] + [(t, True) for t in range(20, 60, 5)] + \
              [(60, False), (62, True), (64, False)] + [(t, False) for t in range(70, 120, 5)]
    assert run_button(samples) == [(35, debounce.PRESS), (85, debounce.RELEASE)]


def test_debounce_button_bounce_shorter_than_settle_is_no_press():
    samples = [(0, False), (5, True), (15, False), (20, True), (30, False)] + [(t, False) for t in range(35, 200, 5)]
    assert run_button(samples) == []


def test_debounce_button_long_press_once():
    samples = [(0, False)] + [(t, True) for t in range(10, 3000, 10)] + [(3000, False), (3030, False)]
    events = run_button(samples, long_ms=800)
    assert events == [(30, debounce.PRESS), (810, debounce.LONG), (3030, debounce.RELEASE)]


def test_debounce_button_held_at_boot_is_not_a_press():
    samples = [(t, True) for t in range(0, 2000, 10)] + [(t, False) for t in range(2000, 2100, 10)] + \
              [(t, True) for t in range(2100, 2200, 10)]
    assert run_button(samples) == [(2020, debounce.RELEASE), (2120, debounce.PRESS)]


def test_debounce_button_held_ms():
    b = debounce.ButtonDebounce()
    b.update(False, 0)
    b.update(True, 100)
    b.update(True, 130)
    assert b.pressed and b.held_ms(400) == 300


def test_debounce_micropython_same_events_no_allocation():
    """Under the real MicroPython: the same event sequence as CPython, and no heap allocation."""
    import json

    from shengji_table.micropython import run_micropython
    script = r'''
import gc, json, debounce
d = debounce.TapDebounce()
b = debounce.ButtonDebounce()
a_uid = bytes.fromhex("04a1b2c3d4e5f6")
b_uid = bytes.fromhex("04112233445566")
none = b""
pattern = [a_uid, a_uid, none, a_uid, none, none, none, b_uid, b_uid, a_uid, none]
rec = bytearray(600)        # events recorded without allocating
d.update(a_uid, 7, 0); d.reset(); b.update(False, 0)   # warm

def run():                  # locals: a new module-level name would grow the globals dict
    k = 0
    for i in range(400):
        u = pattern[i % len(pattern)]
        e = d.update(u, len(u), i * 250, 2 if i % 23 == 12 else 1)
        f = b.update((i // 37) % 2 == 1, i * 7)
        if i < len(pattern) * 2:
            rec[k] = e
            k += 1
        if f:
            rec[k] = 10 + f
            k += 1
    return k

k = 0
alloc = 0                   # names bound before measuring: binding a new global may allocate
gc.collect(); gc.disable(); before = gc.mem_alloc()
k = run()
alloc = gc.mem_alloc() - before
gc.enable()
events = list(rec[:k])
print(json.dumps([events, alloc, d.taps]))
'''
    events, alloc, taps = json.loads(run_micropython(script, path=[FIRMWARE_DIR]).stdout)
    d = debounce.TapDebounce()
    b = debounce.ButtonDebounce()
    pattern = [UID_A, UID_A, b"", UID_A, b"", b"", b"", UID_B, UID_B, UID_A, b""]
    expected = []
    d.update(UID_A, 7, 0)
    d.reset()
    b.update(False, 0)
    for i in range(400):
        u = pattern[i % len(pattern)]
        e = d.update(u, len(u), i * 250, 2 if i % 23 == 12 else 1)
        f = b.update((i // 37) % 2 == 1, i * 7)
        if i < len(pattern) * 2:
            expected.append(e)
        if f:
            expected.append(10 + f)
    assert events == expected and taps == d.taps
    assert alloc == 0
    assert expected[:len(pattern)] == [NONE, TAP, NONE, NONE, NONE, NONE, LIFT, NONE, TAP, NONE, NONE]
    assert debounce.STACK in expected and debounce.STACK_CLEAR in expected
