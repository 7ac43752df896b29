"""The Pico link's queue of unacknowledged events (firmware/link.py) as one byte arena: frames of
mixed sizes back to back, wrapping round to the arena's start, the oldest dropped (and counted)
when the arena has no room even though the event count is below ``queue``; resends still carry
the same seqs in order, and under the real MicroPython interpreter none of it allocates."""
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.micropython import run_micropython

sys.path.insert(0, str(FIRMWARE_DIR))
import protocol as P  # noqa: E402
from link import Link  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fakes import LinkPipe  # noqa: E402

BOOT = b"\x10\x20\x30\x40"
UID = b"\x04\x01\x02\x03\x04\x05\x06"
CODE = b"SJ01-card-code.."           # 16 bytes: the NTAG pages 4-7 the scan loop reads


class Rig:
    """A link with a small arena, a host that can ACK, and a clock."""

    def __init__(self, arena, queue=32):
        self.now = 0
        self.pipe = LinkPipe(keep_writes=True)
        self.link = Link(self.pipe, lambda: self.now, lambda *a: None, firmware=b"0.1.0",
                         board=b"table4", boot_id=BOOT, queue=queue, arena=arena)
        self.w = P.Writer(b"\xaa\xbb\xcc\x01")
        self.hseq = 0
        self.sent = {}                  # seq -> the exact frame bytes first written for it
        self._record()

    def _record(self):
        for frame in self.pipe.take():
            (typ, _, seq, _), = P.Decoder(P.TO_HOST).feed(frame)   # exactly one frame per write
            if seq:
                assert seq not in self.sent                        # first sending of an event
                self.sent[seq] = frame

    def send(self, kind):
        if kind == "button":
            seq = self.link.send_button(1, P.PRESS)
        elif kind == "tap":
            seq = self.link.send_tap(2, UID, CODE)
        else:                           # the largest LOG: 120 bytes of text
            seq = self.link.send_log(b"L" * P.MAX_TEXT)
        self._record()
        return seq

    def ack(self, seq):
        out = bytearray(P.MAX_FRAME)
        self.hseq = P.next_seq(self.hseq)
        n = P.encode_ack(self.w, out, self.hseq, seq, BOOT)
        self.pipe.inb += out[:n]
        self.now += 1
        self.link.poll()
        self.pipe.take()

    def resend(self):
        """Frames of the next resend of the whole queue, as (seq, bytes), heartbeats left out."""
        self.now += 60000
        self.link.poll()
        out = []
        for frame in self.pipe.take():
            (typ, _, seq, _), = P.Decoder(P.TO_HOST).feed(frame)
            if typ != P.HEARTBEAT:
                out.append((seq, frame))
        return out


def _range(first, n):
    """``n`` seqs from ``first`` on."""
    s, out = first, []
    for _ in range(n):
        out.append(s)
        s = P.next_seq(s)
    return out


def used_bytes(link):
    return sum(link._lens[(link._head + k) % link._size] for k in range(link.pending))


FRAME_LEN = {}


def frame_len(kind):
    """Length on the wire of each kind of event the rig sends."""
    if not FRAME_LEN:
        r = Rig(arena=4096)
        for k in ("button", "tap", "log"):
            FRAME_LEN[k] = len(r.sent[r.send(k)])
    return FRAME_LEN[kind]


def test_arena_must_hold_the_largest_frame_so_any_frame_fits_an_emptied_arena():
    """MAX_FRAME <= arena by construction: the default is larger, a smaller one is refused, and an
    arena of exactly MAX_FRAME bytes holds the largest frame the protocol can make."""
    assert len(Link(LinkPipe(keep_writes=True), lambda: 0, lambda *a: None, boot_id=BOOT)._arena) >= P.MAX_FRAME
    with pytest.raises(ValueError, match="MAX_FRAME"):
        Link(LinkPipe(keep_writes=True), lambda: 0, lambda *a: None, boot_id=BOOT, arena=P.MAX_FRAME - 1)
    pipe = LinkPipe(keep_writes=True)
    # HELLO with a 200-byte payload (protocol, two counted strings) is the longest frame there is
    link = Link(pipe, lambda: 0, lambda *a: None, boot_id=BOOT, arena=P.MAX_FRAME,
                firmware=b"f" * 100, board=b"b" * (P.MAX_PAYLOAD - 3 - 100))
    hello, = pipe.take()
    assert len(hello) <= P.MAX_FRAME and link.pending == 1
    assert P.Decoder(P.TO_HOST).feed(hello)[0][0] == P.HELLO
    link.send_log(b"x" * P.MAX_TEXT)            # no room beside it: HELLO goes, the LOG fits
    assert link.pending == 1 and link.dropped == 1 and link.base() == 2


def test_frames_of_mixed_sizes_are_resent_byte_for_byte_in_order():
    """Resend carries the SAME seqs, in order, each frame identical to its first sending."""
    r = Rig(arena=2048)
    seqs = [r.send(k) for k in ("tap", "log", "button", "tap", "button", "log", "tap")]
    assert r.link.dropped == 0 and r.link.pending == 8                 # HELLO + 7
    again = r.resend()
    assert [s for s, _ in again] == [1] + seqs
    assert all(frame == r.sent[s] for s, frame in again)


def test_arena_wraps_round_and_a_frame_is_never_split():
    """Acknowledged frames free the arena's start; a frame that does not fit before the end starts
    again at offset 0, whole (one write), and the queue still resends in seq order."""
    r = Rig(arena=300)
    hello = len(r.sent[1])
    taps = [r.send("tap") for _ in range(5)]                      # HELLO + 5 taps: ~220 bytes
    assert r.link.dropped == 0 and used_bytes(r.link) == hello + 5 * frame_len("tap")
    r.ack(taps[2])                                                # frees HELLO and 3 taps
    more = [r.send("tap") for _ in range(3)]
    offs = [r.link._offs[(r.link._head + k) % r.link._size] for k in range(r.link.pending)]
    assert offs[0] > 0 and 0 in offs[1:] and r.link.dropped == 0   # wrapped: a newer frame at 0
    again = r.resend()
    assert [s for s, _ in again] == taps[3:] + more
    assert all(frame == r.sent[s] for s, frame in again)          # every frame whole, unchanged


def test_full_arena_drops_the_oldest_though_the_count_is_not_reached():
    """Host away: the arena fills long before 32 events; each new frame drops just enough of the
    oldest ones, counts them, and base jumps past them (the host learns what it missed)."""
    r = Rig(arena=300, queue=32)
    for _ in range(20):
        r.send("tap")
    per = frame_len("tap")
    assert r.link.pending == 300 // per < 32                      # 7 taps of 38 bytes
    assert r.link.dropped == 21 - r.link.pending                  # HELLO + the oldest taps
    assert r.link.base() == r.link.next_seq - r.link.pending
    again = r.resend()
    assert [s for s, _ in again] == _range(r.link.base(), r.link.pending)
    assert all(frame == r.sent[s] for s, frame in again)


def test_one_large_frame_evicts_as_many_small_oldest_frames_as_it_needs():
    """Mixed sizes: a 133-byte LOG into an arena full of 15-byte BUTTONs drops the oldest few,
    not all, and not the newest."""
    r = Rig(arena=300)
    while r.link.dropped == 0:
        r.send("button")
    before_pending, before_dropped = r.link.pending, r.link.dropped
    seq = r.send("log")
    freed = r.link.dropped - before_dropped
    assert freed >= frame_len("log") // frame_len("button") - 1 and freed < before_pending
    again = r.resend()
    assert again[-1][0] == seq and [s for s, _ in again] == _range(r.link.base(), r.link.pending)
    assert used_bytes(r.link) <= 300


def test_count_limit_still_drops_the_oldest_when_the_arena_has_room():
    r = Rig(arena=4096, queue=4)
    for _ in range(6):
        r.send("button")
    assert r.link.pending == 4 and r.link.dropped == 3            # HELLO + 2 buttons
    assert [s for s, _ in r.resend()] == [4, 5, 6, 7]


def test_ack_of_everything_restarts_the_arena_at_offset_zero():
    r = Rig(arena=300)
    for _ in range(4):
        r.send("tap")
    r.ack(5)
    assert r.link.pending == 0 and r.resend() == []
    seq = r.send("log")
    assert r.link._offs[r.link._head] == 0 and [s for s, _ in r.resend()] == [seq]


@given(st.lists(st.one_of(st.sampled_from(["button", "tap", "log"]),
                          st.integers(min_value=0, max_value=6)), max_size=80),
       st.sampled_from([P.MAX_FRAME, 300, 512]), st.sampled_from([3, 8, 32]))
def test_any_mix_of_sends_and_acks_keeps_the_queue_exact(ops, arena, queue):
    """Model check: the queue is always the newest unacknowledged seqs, resent byte for byte; every
    event is pending, acknowledged or counted as dropped; nothing is dropped while the arena and
    the count have room to spare."""
    r = Rig(arena=arena, queue=queue)
    acked = 0
    longest = frame_len("log")
    for op in ops:
        link = r.link
        if isinstance(op, int):                   # ACK the op-th pending event (if there is one)
            if op < link.pending:
                a = _range(link.base(), op + 1)[-1]
                acked += len(_range(link.base(), op + 1))
                r.ack(a)
            continue
        room = link.pending < queue and used_bytes(link) + frame_len(op) + longest <= arena
        dropped = link.dropped
        r.send(op)
        if room:
            assert link.dropped == dropped
        assert link.pending <= queue and used_bytes(link) <= arena
        assert link.base() == link.next_seq - link.pending           # the newest are kept
        assert (link.next_seq - 1) == acked + link.pending + link.dropped
    again = r.resend()
    assert [s for s, _ in again] == _range(r.link.base(), r.link.pending)
    assert all(frame == r.sent[s] for s, frame in again)


ARENA_NO_ALLOC = r"""
import gc
import protocol as P
from link import Link

class Wire:
    # allocates nothing: host bytes come from a pre-built buffer, what is written is copied out
    def __init__(self):
        self.data = bytearray(64)
        self.n = 0
        self.pos = 0
        self.out = bytearray(60000)
        self.k = 0
    def readinto(self, buf):
        k = self.n - self.pos
        if k > len(buf):
            k = len(buf)
        for i in range(k):
            buf[i] = self.data[self.pos + i]
        self.pos += k
        return k
    def write(self, buf, off, n):
        o = self.out
        k = self.k
        for i in range(n):
            o[k + i] = buf[off + i]
        self.k = k + n

now = [0]
wire = Wire()
link = Link(wire, lambda: now[0], lambda *a: None, boot_id=b"\x01\x02\x03\x04", queue=32, arena=300)
w = P.Writer(b"\x09\x09\x09\x09")
ackf = bytearray(P.MAX_FRAME)
uid = b"\x04\x01\x02\x03\x04\x05\x06"
code = bytearray(16)
text = b"reader 2: no answer"

def run(rounds):
    for r in range(rounds):
        for j in range(6):                 # arena of 300: the taps wrap and drop the oldest
            link.send_tap(j % 5, uid, code)
            link.send_button(j % 4, 1)
        link.send_log(text)
        if r % 3 == 0:                     # now and then the host acknowledges all but the newest
            n = P.encode_ack(w, ackf, r + 1, (link.next_seq - 2) or 65535, b"\x01\x02\x03\x04")
            for i in range(n):
                wire.data[i] = ackf[i]
            wire.n = n
            wire.pos = 0
        now[0] += 700                      # resends and heartbeats too
        link.poll()

run(3)                                     # warm-up
wire.k = 0
gc.collect()
before = gc.mem_alloc()
run(30)
alloc = gc.mem_alloc() - before
print(alloc, link.dropped, link.pending, link.base(), link.next_seq, wire.k)
print(bytes(wire.out[:wire.k]).hex())
"""


@pytest.mark.micropython
def test_micropython_events_into_a_full_wrapping_arena_allocate_nothing():
    """Under the real interpreter: taps, buttons and LOGs into a 300-byte arena (wrapping, dropping
    the oldest), ACKs, resends and heartbeats — 0 bytes allocated, and every frame written decodes
    (whole: no frame is split or torn by the wrap)."""
    lines = run_micropython(ARENA_NO_ALLOC, path=[FIRMWARE_DIR]).stdout.decode().split("\n")
    alloc, dropped, pending, base, next_seq, written = (int(v) for v in lines[0].split())
    assert alloc == 0
    assert dropped > 100 and 0 < pending < 32 and base == next_seq - pending
    dec = P.Decoder(P.TO_HOST)
    frames = dec.feed(bytes.fromhex(lines[1]))
    assert dec.bad == 0 and written == len(bytes.fromhex(lines[1]))
    kinds = {f[0] for f in frames}
    assert {P.TAP, P.BUTTON, P.LOG, P.HEARTBEAT} <= kinds
    firsts = [f[2] for f in frames if f[2]]
    assert max(firsts) == next_seq - 1
