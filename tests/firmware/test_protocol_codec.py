"""The wire codec (firmware/protocol.py) under CPython: framing, CRC, every message, every rejection."""
import random
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shengji_table.firmware_src import FIRMWARE_DIR

sys.path.insert(0, str(FIRMWARE_DIR))
import protocol as P  # noqa: E402

PICO = b"\x11\x22\x33\x44"
HOST = b"\xa1\xb2\xc3\xd4"


def frame(w, fn, *args):
    out = bytearray(P.MAX_FRAME)
    n = fn(w, out, *args)
    return bytes(out[:n])


def one(decoder, data):
    frames = decoder.feed(data)
    assert len(frames) == 1, (frames, decoder.errors)
    return frames[0]


# ---- CRC and COBS ---------------------------------------------------------------------------

def test_crc16_ccitt_false_check_value():
    # the catalogue check value of CRC-16/CCITT-FALSE
    assert P.crc16(b"123456789", 9) == 0x29B1
    assert P.crc16(b"", 0) == 0xFFFF


def test_crc_table_matches_bitwise_definition():
    def bitwise(data):
        crc = 0xFFFF
        for x in data:
            crc ^= x << 8
            for _ in range(8):
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
        return crc
    rng = random.Random(4)
    for _ in range(50):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
        assert P.crc16(data, len(data)) == bitwise(data)


def cobs_decode_reference(enc):
    """Plain (non-streaming) COBS decoder written from the definition, to check ours against."""
    out, i = bytearray(), 0
    while i < len(enc):
        code = enc[i]
        out += enc[i + 1:i + code]
        i += code
        if code < 0xFF and i < len(enc):
            out.append(0)
    return bytes(out)


@given(st.binary(max_size=P.MAX_BODY))
def test_cobs_frame_has_one_zero_and_round_trips(body):
    out = bytearray(P.MAX_FRAME + 2)
    n = P.cobs_encode(body, len(body), out)
    enc = bytes(out[:n])
    assert enc[-1] == 0 and 0 not in enc[:-1]
    assert n <= len(body) + 2 + len(body) // 254
    assert cobs_decode_reference(enc[:-1]) == body


def test_longest_frame_fits_max_frame():
    w = P.Writer(PICO)
    out = bytearray(P.MAX_FRAME)
    n = P.encode_sim_place(w, out, 1, 0, b"\x01" * P.MAX_UID, b"\x02" * P.MAX_CODE)
    assert n <= P.MAX_FRAME
    w.begin(P.LOG, 1)
    w.put(b"\x05" * P.MAX_PAYLOAD)
    with pytest.raises(ValueError):
        w.u8(0)  # one byte past MAX_PAYLOAD is a programming error, raised at once


# ---- every message round-trips -------------------------------------------------------------

uids = st.binary(min_size=4, max_size=P.MAX_UID)
u8 = st.integers(0, 255)
u16 = st.integers(0, 0xFFFF)
seqs = st.integers(1, 0xFFFF)


@given(seqs, u8, uids, st.one_of(st.none(), st.binary(min_size=1, max_size=P.MAX_CODE)))
def test_tap_round_trip(seq, reader, uid, code):
    typ, sender, s, p = one(P.Decoder(P.TO_HOST), frame(P.Writer(PICO), P.encode_tap, seq, reader, uid, -1, code))
    assert (typ, sender, s) == (P.TAP, 0x44332211, seq)
    assert P.decode_tap(p) == (reader, uid, code)


@given(seqs, st.text(max_size=20), st.text(max_size=20))
def test_hello_round_trip(seq, fw, board):
    data = frame(P.Writer(PICO), P.encode_hello, seq, fw.encode(), board.encode())
    typ, _, s, p = one(P.Decoder(P.TO_HOST), data)
    assert typ == P.HELLO and P.decode_hello(p) == (P.VERSION, fw, board)


@given(seqs, u8, st.sampled_from([P.PRESS, P.LONG_PRESS, P.RELEASE]))
def test_button_round_trip(seq, seat, kind):
    typ, _, s, p = one(P.Decoder(P.TO_HOST), frame(P.Writer(PICO), P.encode_button, seq, seat, kind))
    assert (typ, s, P.decode_button(p)) == (P.BUTTON, seq, (seat, kind))


@given(seqs, u8, st.sampled_from([P.READER_ALIVE, P.READER_DEAD]), st.binary(min_size=4, max_size=4))
def test_reader_round_trip(seq, reader, status, fw):
    typ, _, s, p = one(P.Decoder(P.TO_HOST), frame(P.Writer(PICO), P.encode_reader, seq, reader, status, fw))
    assert (typ, P.decode_reader(p)) == (P.READER, (reader, status, fw))


@given(seqs, u16, u16, u16, st.integers(0, 1))
def test_heartbeat_round_trip(base, nxt, dropped, bad, alive):
    typ, _, s, p = one(P.Decoder(P.TO_HOST), frame(P.Writer(PICO), P.encode_heartbeat, base, nxt, dropped, bad, alive))
    assert (typ, s) == (P.HEARTBEAT, 0)
    assert P.decode_heartbeat(p) == (base, nxt, dropped, bad, alive)


@given(st.text(max_size=P.MAX_TEXT))
def test_log_round_trip_and_cut(text):
    raw = text.encode()
    typ, _, s, p = one(P.Decoder(P.TO_HOST), frame(P.Writer(PICO), P.encode_log, 9, raw))
    assert typ == P.LOG and bytes(p) == raw[:P.MAX_TEXT]
    if len(raw) <= P.MAX_TEXT:
        assert P.decode_log(p) == text


def test_log_with_invalid_utf8_decodes_without_raising():
    assert P.decode_log(b"ok \xff\xfe") == "ok ??"


u30 = st.integers(0, (1 << 30) - 1)   # the SNAPSHOT's clock and poll counters wrap at 2**30


@given(u16, seqs, seqs, u16, st.binary(max_size=8), st.binary(max_size=8),
       st.lists(st.tuples(u8, u8, u8, u8, u8, u16), max_size=8),
       st.none() | st.tuples(u30, st.lists(u30, max_size=8)))
def test_snapshot_round_trip(last, base, nxt, dropped, readers, buttons, rings, counters):
    """With poll counters (clock, per-reader counts) and without (the frame of older firmware)."""
    packed = bytearray()
    for pat, r, g, b, count, arg in rings:
        packed += bytes([pat, r, g, b, count, arg & 0xFF, arg >> 8])
    tail = () if counters is None else (counters[0], counters[1])
    data = frame(P.Writer(PICO), P.encode_snapshot, last, base, nxt, dropped, readers, buttons, packed, len(rings),
                 *tail)
    typ, _, s, p = one(P.Decoder(P.TO_HOST), data)
    assert typ == P.SNAPSHOT
    clock, polls = (None, None) if counters is None else (counters[0], tuple(counters[1]))
    assert P.decode_snapshot(p) == (last, base, nxt, dropped, readers, buttons, rings, clock, polls)


def _snapshot_with_tail(tail):
    """A SNAPSHOT of 2 readers, no buttons, no rings, followed by raw ``tail`` bytes."""
    w = P.Writer(PICO)
    w.begin(P.SNAPSHOT, 0)
    for x in (0, 1, 1, 0):
        w.u16(x)
    w.put(bytes([2, 1, 1, 0, 0]) + bytes(tail))
    out = bytearray(P.MAX_FRAME)
    return bytes(out[:w.end(out)])


def test_snapshot_poll_counters_must_agree_with_their_count():
    ok = bytes([0x10, 0x27, 0, 0]) + bytes([2]) + bytes([5, 0, 0, 0, 6, 0, 0, 0])   # clock 10000, 2 counters
    assert P.decode_snapshot(one(P.Decoder(P.TO_HOST), _snapshot_with_tail(ok))[3])[7:] == (10000, (5, 6))
    for cut in (1, 3, 4, 5, 12):                  # a clock or counter cut short, or a count with none
        assert _reject(_snapshot_with_tail(ok[:cut])) == ["payload"]
    assert _reject(_snapshot_with_tail(ok + b"\x07")) == ["payload"]     # a byte past the counters


@given(seqs, seqs)
def test_ack_round_trip(seq, acked):
    typ, sender, s, p = one(P.Decoder(P.TO_PICO), frame(P.Writer(HOST), P.encode_ack, seq, acked, PICO))
    assert (typ, sender, s, P.decode_ack(p)) == (P.ACK, 0xD4C3B2A1, seq, acked)
    assert P.ack_boot(p) == 0x44332211 and P.decode(P.ACK, p) == (acked, 0x44332211)


@given(seqs, u8, u8, u8, u8, u8, u8, u16)
def test_ring_round_trip(seq, ring, pattern, r, g, b, count, arg):
    typ, _, s, p = one(P.Decoder(P.TO_PICO),
                       frame(P.Writer(HOST), P.encode_ring, seq, ring, pattern, r, g, b, count, arg))
    assert (typ, P.decode_ring(p)) == (P.RING, (ring, pattern, r, g, b, count, arg))


def test_field_less_and_sim_messages_round_trip():
    w = P.Writer(HOST)
    d = P.Decoder(P.TO_PICO)
    assert one(d, frame(w, P.encode_snapshot_request, 3)) == (P.SNAPSHOT_REQUEST, 0xD4C3B2A1, 3, b"")
    assert one(d, frame(w, P.encode_host_heartbeat, 4)) == (P.HOST_HEARTBEAT, 0xD4C3B2A1, 4, b"")
    typ, _, _, p = one(d, frame(w, P.encode_sim_place, 5, 2, b"\x04\x01\x02\x03\x04\x05\x06", b"S-AH#1\x00\x00"))
    assert (typ, P.decode_sim_place(p)) == (P.SIM_PLACE, (2, b"\x04\x01\x02\x03\x04\x05\x06", b"S-AH#1\x00\x00"))
    typ, _, _, p = one(d, frame(w, P.encode_sim_lift, 6, 2))
    assert (typ, P.decode_sim_lift(p)) == (P.SIM_LIFT, 2)
    typ, _, _, p = one(d, frame(w, P.encode_sim_button, 7, 3, True))
    assert (typ, P.decode_sim_button(p)) == (P.SIM_BUTTON, (3, True))
    assert d.bad == 0


def test_encoders_refuse_impossible_fields():
    w = P.Writer(PICO)
    out = bytearray(P.MAX_FRAME)
    with pytest.raises(ValueError):
        P.encode_tap(w, out, 1, 0, b"\x01\x02\x03")           # a UID is 4, 7 or 10 bytes
    with pytest.raises(ValueError):
        P.encode_tap(w, out, 1, 0, b"\x01" * 11)
    with pytest.raises(ValueError):
        P.encode_sim_place(w, out, 1, 0, b"\x01" * 4, b"\x00" * (P.MAX_CODE + 1))
    with pytest.raises(ValueError):
        P.Writer(b"\x01\x02")


# ---- streaming: any chunking, resync after garbage -------------------------------------------

@given(st.lists(st.integers(1, 40), min_size=1, max_size=30), st.data())
def test_any_chunking_gives_the_same_frames(chunks, data):
    w = P.Writer(PICO)
    stream = b"".join(frame(w, P.encode_button, s, s % 6, P.PRESS) for s in range(1, 8))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=20)))
    d = P.Decoder(P.TO_HOST)
    got = []
    prev = 0
    for c in cuts + [len(stream)]:
        got += d.feed(stream[prev:c])
        prev = c
    assert [f[2] for f in got] == list(range(1, 8)) and d.bad == 0


@given(st.binary(max_size=600))
def test_garbage_never_raises_and_next_frame_gets_through(garbage):
    d = P.Decoder(P.TO_HOST)
    d.feed(garbage)                                   # must not raise
    assert d.bad == sum(d.errors)
    good = frame(P.Writer(PICO), P.encode_button, 5, 1, P.RELEASE)
    frames = d.feed(b"\x00" + good)                   # one delimiter resynchronises
    assert frames[-1] == (P.BUTTON, 0x44332211, 5, bytes([1, P.RELEASE]))


def _reject(data, accept=P.TO_HOST):
    d = P.Decoder(accept)
    assert d.feed(data) == []
    assert d.bad == 1
    return [P.ERROR_NAMES[i] for i, n in enumerate(d.errors) if n]


def _raw(body):
    """Frame an arbitrary body with a correct CRC (to reach the checks after the CRC)."""
    body = bytes(body)
    c = P.crc16(body, len(body))
    body += bytes([c & 0xFF, c >> 8])
    out = bytearray(P.MAX_FRAME + 64)
    n = P.cobs_encode(body, len(body), out)
    return bytes(out[:n])


def test_each_rejection_is_counted_under_its_reason():
    good = frame(P.Writer(PICO), P.encode_button, 5, 1, P.PRESS)
    bad_crc = bytearray(good)
    bad_crc[3] ^= 0x40
    assert _reject(bytes(bad_crc)) == ["crc"]
    assert _reject(good[:6] + b"\x00") in (["truncated"], ["length"])
    assert _reject(good[:-3] + b"\x00") == ["truncated"]
    hdr = [P.VERSION, P.BUTTON, 0x11, 0x22, 0x33, 0x44, 5, 0]
    assert _reject(_raw(hdr + [3, 1, 1])) == ["length"]               # LEN says 3, 2 follow
    assert _reject(_raw(hdr + [3, 1, 1, 7])) == ["payload"]            # a BUTTON has 2 bytes
    assert _reject(_raw([2] + hdr[1:] + [2, 1, 1])) == ["version"]
    assert _reject(_raw([P.VERSION, 0x30] + hdr[2:] + [2, 1, 1])) == ["type"]   # unknown type
    assert _reject(good, accept=P.TO_PICO) == ["type"]              # wrong direction
    assert _reject(_raw(hdr + [2, 1, 9])) == ["payload"]               # no such button kind
    assert _reject(b"\x04\x01\x02\x03\x00") == ["length"]              # shorter than a header
    assert _reject(b"\x07" * 300 + b"\x00") == ["length"]              # longer than any frame


def test_empty_frames_are_idle_line_not_errors():
    d = P.Decoder(P.TO_HOST)
    assert d.feed(b"\x00\x00\x00") == [] and d.bad == 0


def test_seq_arithmetic_wraps_over_1_to_65535():
    assert P.next_seq(65535) == 1 and P.next_seq(1) == 2
    assert P.seq_after(1, 65535) and not P.seq_after(65535, 1)
    assert P.seq_after(5, 4) and not P.seq_after(4, 4)
    assert P.seq_distance(2, 65534) == 3
