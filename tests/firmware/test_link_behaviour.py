"""The Pico's link (firmware/link.py) in CPython with an injected stream and clock: reliable events,
resend with the same seq, cumulative ACK, drop-oldest overflow, heartbeats, host silence,
snapshots, idempotent ring states, sim frames."""
import sys
from pathlib import Path

import pytest

from shengji_table.firmware_src import FIRMWARE_DIR

sys.path.insert(0, str(FIRMWARE_DIR))
import protocol as P  # noqa: E402
from link import Link, elapsed  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fakes import LinkPipe  # noqa: E402

BOOT = b"\x10\x20\x30\x40"
BOOT_ID = 0x40302010


class Host:
    """Just enough of a host to talk to the link: a writer and a decoder."""

    def __init__(self, ident=b"\xaa\xbb\xcc\x01"):
        self.w = P.Writer(ident)
        self.d = P.Decoder(P.TO_HOST)
        self.buf = bytearray(P.MAX_FRAME)
        self.seq = 0

    def frame(self, fn, *args):
        self.seq = P.next_seq(self.seq)
        n = fn(self.w, self.buf, self.seq, *args)
        return bytes(self.buf[:n])


@pytest.fixture
def rig():
    class Rig:
        pass
    r = Rig()
    r.now = 0
    r.pipe = LinkPipe()
    r.rings = []
    r.host = Host()
    r.link = Link(r.pipe, lambda: r.now, lambda *a: r.rings.append(a), firmware=b"0.1.0",
                  board=b"table4", boot_id=BOOT, queue=4, rings=5)

    def sent():
        frames = r.host.d.feed(bytes(r.pipe.out))
        r.pipe.out.clear()
        return frames

    def step(ms, *host_frames):
        r.now += ms
        for f in host_frames:
            r.pipe.inb += f
        r.link.poll()
        return sent()
    r.sent = sent
    r.step = step
    return r


def events(frames):
    return [(t, s) for t, _, s, _ in frames if t != P.HEARTBEAT]


def test_hello_is_the_first_event_of_a_boot(rig):
    (typ, sender, seq, p), = rig.sent()
    assert (typ, sender, seq) == (P.HELLO, BOOT_ID, 1)
    assert P.decode_hello(p) == (P.VERSION, "0.1.0", "table4")


def test_event_is_resent_with_the_same_seq_until_acknowledged(rig):
    rig.sent()
    heard = rig.step(1, rig.host.frame(P.encode_host_heartbeat))
    assert events(heard) == [(P.HELLO, 1)]                          # a host appeared: resend at once
    seq = rig.link.send_tap(2, b"\x04\x01\x02\x03\x04\x05\x06", b"S-AH#1")
    first = rig.sent()
    assert events(first) == [(P.TAP, 2)] and seq == 2
    assert events(rig.step(499)) == []                              # not yet
    again = rig.step(1)
    assert events(again) == [(P.HELLO, 1), (P.TAP, 2)]              # whole queue, same seqs, in order
    assert [f for f in again if f[0] == P.TAP] == first
    assert rig.link.resent == 3
    assert events(rig.step(10, rig.host.frame(P.encode_ack, 2, BOOT))) == []
    assert rig.link.pending == 0 and rig.link.last_acked == 2
    assert events(rig.step(5000)) == []                             # nothing left to resend


def test_repeated_ack_resends_the_oldest_frame_at_once_but_not_in_a_storm(rig):
    """Fast retransmit: the host re-ACKs seq 2 because it holds 4 but lost 3; the link resends 3
    alone at once (not the whole queue, not after resend_ms), and a burst of repeated ACKs within
    resend_ms // 4 costs one resend only."""
    rig.sent()
    rig.step(1, rig.host.frame(P.encode_ack, 1, BOOT))               # HELLO acknowledged
    rig.link.send_button(0, P.PRESS)                                 # seq 2
    rig.step(1, rig.host.frame(P.encode_ack, 2, BOOT))
    rig.link.send_button(1, P.PRESS)                                 # seq 3 (lost on the line)
    rig.link.send_button(2, P.PRESS)                                 # seq 4 (reached the host)
    rig.sent()
    again = rig.step(200, rig.host.frame(P.encode_ack, 2, BOOT))     # "still at 2"
    assert events(again) == [(P.BUTTON, 3)] and rig.link.fast_resent == 1
    burst = rig.step(10, rig.host.frame(P.encode_ack, 2, BOOT), rig.host.frame(P.encode_ack, 2, BOOT))
    assert events(burst) == [] and rig.link.fast_resent == 1
    later = rig.step(rig.link.resend_ms // 4, rig.host.frame(P.encode_ack, 2, BOOT))
    assert events(later) == [(P.BUTTON, 3)] and rig.link.fast_resent == 2
    rig.step(1, rig.host.frame(P.encode_ack, 4, BOOT))
    assert rig.link.pending == 0


def test_ack_is_cumulative_and_stale_acks_are_ignored(rig):
    rig.sent()
    for seat in range(3):
        rig.link.send_button(seat, P.PRESS)                          # seqs 2, 3, 4
    rig.step(1, rig.host.frame(P.encode_ack, 3, BOOT))
    assert rig.link.pending == 1 and rig.link.base() == 4
    rig.step(1, rig.host.frame(P.encode_ack, 2, BOOT))                     # older than what is pending
    rig.step(1, rig.host.frame(P.encode_ack, 900, BOOT))             # a seq never sent
    rig.step(1, rig.host.frame(P.encode_ack, 4, b"\x99\x99\x99\x99"))  # for another boot of ours
    assert rig.link.pending == 1 and rig.link.last_acked == 3 and rig.link.stale == 1
    rig.step(1, rig.host.frame(P.encode_ack, 4, BOOT))
    assert rig.link.pending == 0


def test_full_queue_drops_the_oldest_and_counts_it(rig):
    rig.sent()
    for seat in range(5):                                            # HELLO + 5 into 4 slots
        rig.link.send_button(seat, P.PRESS)
    assert rig.link.dropped == 2 and rig.link.pending == 4
    assert events(rig.sent()) == [(P.BUTTON, s) for s in range(2, 7)]   # each sent when it happened
    frames = rig.step(2000)
    assert events(frames) == [(P.BUTTON, s) for s in (3, 4, 5, 6)]   # HELLO and seq 2 dropped
    hb = [P.decode_heartbeat(p) for t, _, _, p in frames if t == P.HEARTBEAT][-1]
    assert hb == (3, 7, 2, 0, 0)           # base 3, next 7, dropped 2, bad 0, host silent


def test_heartbeat_period_and_host_silence_detector(rig):
    seen = []
    rig.link.on_host = seen.append
    rig.sent()
    beats = 0
    for _ in range(30):
        beats += sum(1 for f in rig.step(100) if f[0] == P.HEARTBEAT)
    assert beats == 3                                               # at 100 ms, 1100 ms, 2100 ms
    assert rig.link.host_alive is False and seen == []
    rig.step(10, rig.host.frame(P.encode_host_heartbeat))
    assert rig.link.host_alive is True and seen == [True]
    rig.step(2990)
    assert rig.link.host_alive is True
    rig.step(10)
    assert rig.link.host_alive is False and seen == [True, False]
    rig.step(10, rig.host.frame(P.encode_host_heartbeat))
    assert seen == [True, False, True]


def test_snapshot_request_answers_with_present_state(rig):
    rig.link.snapshot_provider = lambda: (bytes([P.READER_ALIVE, P.READER_DEAD, P.READER_ALIVE]),
                                          bytes([P.BUTTON_UP, P.BUTTON_HELD]))
    rig.sent()
    rig.step(1, rig.host.frame(P.encode_ring, 2, P.PRESS, 255, 0, 0, 3, 1000))
    rig.link.send_button(1, P.LONG_PRESS)
    frames = rig.step(1, rig.host.frame(P.encode_ack, 1, BOOT), rig.host.frame(P.encode_snapshot_request))
    snap, = [P.decode_snapshot(p) for t, _, s, p in frames if t == P.SNAPSHOT]
    last_acked, base, nxt, dropped, readers, buttons, rings, clock, polls = snap
    assert (last_acked, base, nxt, dropped) == (1, 2, 3, 0)
    assert readers == bytes([1, 2, 1]) and buttons == bytes([0, 2])
    assert len(rings) == 5 and rings[2] == (P.PRESS, 255, 0, 0, 3, 1000) and rings[0] == (0,) * 6
    assert (clock, polls) == (None, None)     # a provider without poll counters: the older frame


def test_snapshot_carries_the_poll_counters_and_the_clock_modulo_2_30(rig):
    from array import array
    counters = array("I", [12, 0, 0x3FFFFFFF])
    rig.link.snapshot_provider = lambda: (bytes([1, 0, 1]), b"", counters)
    rig.now = (1 << 30) + 777                 # a clock that does not wrap at 2**30 itself (unix port)
    frames = rig.step(1, rig.host.frame(P.encode_snapshot_request))
    snap, = [P.decode_snapshot(p) for t, _, s, p in frames if t == P.SNAPSHOT]
    assert snap[7:] == (778, (12, 0, 0x3FFFFFFF))


def test_ring_states_apply_once_and_a_replayed_older_one_is_ignored(rig):
    rig.sent()
    older = rig.host.frame(P.encode_ring, 1, 2, 0, 255, 0, 1, 0)
    newer = rig.host.frame(P.encode_ring, 1, 2, 0, 255, 0, 2, 0)
    rig.step(1, older, newer, older)                                # replay of the older state
    assert rig.rings == [(1, 2, 0, 255, 0, 1, 0), (1, 2, 0, 255, 0, 2, 0)]
    assert rig.link.stale == 1
    assert bytes(rig.link.rings[7:14]) == bytes([2, 0, 255, 0, 2, 0, 0])
    rig.step(1, rig.host.frame(P.encode_ring, 9, 1, 1, 1, 1, 1, 1))  # no ring 9 on this board
    assert rig.link.ignored == 1 and len(rig.rings) == 2
    restarted = Host(b"\x01\x01\x01\x02")                            # a new host starts at seq 1
    rig.step(1, restarted.frame(P.encode_ring, 1, 0, 0, 0, 0, 0, 0))
    assert rig.rings[-1] == (1, 0, 0, 0, 0, 0, 0)


def test_sim_frames_are_ignored_by_production_builds_and_passed_to_a_sim_build(rig):
    rig.sent()
    place = rig.host.frame(P.encode_sim_place, 3, b"\x04\x01\x02\x03\x04\x05\x06", b"S-AH#1")
    rig.step(1, place, rig.host.frame(P.encode_sim_button, 2, True))
    assert rig.link.ignored == 2
    got = []
    rig.link.on_sim = lambda typ, fields: got.append((typ, fields))
    rig.step(1, place, rig.host.frame(P.encode_sim_lift, 3), rig.host.frame(P.encode_sim_button, 2, False))
    assert got == [(P.SIM_PLACE, (3, b"\x04\x01\x02\x03\x04\x05\x06", b"S-AH#1")),
                   (P.SIM_LIFT, 3), (P.SIM_BUTTON, (2, False))]


def test_garbage_from_the_host_is_counted_and_reported_and_the_link_carries_on(rig):
    rig.sent()
    good = rig.host.frame(P.encode_ack, 1, BOOT)
    corrupted = bytearray(good)
    corrupted[4] ^= 0x01
    frames = rig.step(1000, b"\x13\x37" * 40 + b"\x00", bytes(corrupted), good)
    assert rig.link.decoder.bad == 2 and rig.link.pending == 0
    hb = [P.decode_heartbeat(p) for t, _, _, p in frames if t == P.HEARTBEAT][-1]
    assert hb[3] == 2


def test_a_failing_write_loses_no_event(rig):
    rig.sent()
    rig.pipe.fail = True
    rig.link.send_button(4, P.RELEASE)
    rig.step(2000)
    rig.pipe.fail = False
    assert events(rig.step(2000)) == [(P.HELLO, 1), (P.BUTTON, 2)]


def test_timing_survives_the_ticks_ms_wrap():
    assert elapsed(5, (1 << 30) - 5) == 10
    now = [(1 << 30) - 100]
    pipe = LinkPipe()
    link = Link(pipe, lambda: now[0], lambda *a: None, boot_id=BOOT, silent_resend_ms=500)
    pipe.out.clear()
    link.poll()                                       # heartbeat
    pipe.out.clear()
    now[0] = 300                                      # 400 ms later, across the wrap
    link.poll()
    assert not pipe.out
    now[0] = 400                                      # 500 ms: resend due
    link.poll()
    assert [f[0] for f in P.Decoder(P.TO_HOST).feed(bytes(pipe.out))] == [P.HELLO]


def test_resends_slow_down_while_the_host_is_silent(rig):
    """Nobody may be reading: resend every silent_resend_ms (2 s), not every resend_ms (0.5 s)."""
    rig.sent()
    rig.link.send_button(0, P.PRESS)
    rig.sent()
    assert events(rig.step(1999)) == []
    assert events(rig.step(1)) == [(P.HELLO, 1), (P.BUTTON, 2)]
    rig.step(10, rig.host.frame(P.encode_host_heartbeat))          # host heard: fast pace again
    assert events(rig.step(499)) == []
    assert events(rig.step(1)) == [(P.HELLO, 1), (P.BUTTON, 2)]


def test_a_malformed_tap_is_refused_before_anything_is_queued_or_dropped(rig):
    rig.sent()
    for seat in range(3):
        rig.link.send_button(seat, P.PRESS)                          # queue of 4 now full
    with pytest.raises(ValueError):
        rig.link.send_tap(0, b"\x01\x02\x03")                       # 3-byte UID: not a tag
    with pytest.raises(ValueError):
        rig.link.send_tap(0, b"\x01\x02\x03\x04", b"\x00" * (P.MAX_CODE + 1))
    assert rig.link.pending == 4 and rig.link.dropped == 0 and rig.link.next_seq == 5
