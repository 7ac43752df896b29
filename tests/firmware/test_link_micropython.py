"""firmware/link.py under the real MicroPython interpreter: the same inputs give the same bytes as
under CPython, and the idle loop (heartbeats both ways) and resends allocate nothing."""
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

HERE = pathlib.Path(__file__).resolve().parent
DRIVER = "import mp_link_driver"


def scripted_session(seed):
    """Driver input lines: host frames (acks, rings, requests, sim, garbage) and Pico events."""
    rng = random.Random(seed)
    w = P.Writer(b"\x05\x06\x07\x08")
    out = bytearray(P.MAX_FRAME)
    now, hseq, lines = 0, 0, []
    for step in range(300):
        now += rng.choice([1, 10, 100, 400, 1200])
        data = bytearray()
        for _ in range(rng.choice([0, 0, 1, 2])):
            hseq = P.next_seq(hseq)
            kind = rng.randrange(7)
            if kind == 0:
                n = P.encode_ack(w, out, hseq, rng.randint(1, step + 2),
                                 rng.choice([b"\x11\x22\x33\x44", b"\x11\x22\x33\x45"]))
            elif kind == 1:
                n = P.encode_ring(w, out, hseq, rng.randrange(6), rng.randrange(9), rng.randrange(256),
                                  rng.randrange(256), rng.randrange(256), rng.randrange(10), rng.randrange(65536))
            elif kind == 2:
                n = P.encode_snapshot_request(w, out, hseq)
            elif kind == 3:
                n = P.encode_host_heartbeat(w, out, hseq)
            elif kind == 4:
                n = P.encode_sim_lift(w, out, hseq, 1)
            elif kind == 5:
                data += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30)))
                continue
            else:
                n = P.encode_ring(w, out, hseq, 0, 1, 0, 0, 0, 0, 0)
                data += out[:n - 1]            # cut: runs into the next frame
                continue
            data += out[:n]
        actions = []
        for _ in range(rng.choice([0, 0, 1, 3])):
            a = rng.randrange(3)
            if a == 0:
                uid = bytes(rng.randrange(256) for _ in range(7)).hex()
                actions.append(f"t{rng.randrange(5)}:{uid}:{rng.choice(['-', '532d414823310000'])}")
            elif a == 1:
                actions.append(f"b{rng.randrange(4)}:{rng.randint(1, 3)}")
            else:
                actions.append("lreader-2-timeout")
        lines.append(f"{now} {data.hex() or '-'} {','.join(actions) or '-'}")
    return "\n".join(lines + ["quit"]) + "\n"


def run_driver_cpython(stdin):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(FIRMWARE_DIR), str(HERE)]))
    return subprocess.run([sys.executable, "-c", DRIVER], input=stdin.encode(), capture_output=True,
                          check=True, env=env, cwd=str(REPO_ROOT)).stdout


@pytest.mark.parametrize("seed", [1, 2])
def test_link_writes_the_same_bytes_under_micropython_and_cpython(seed):
    stdin = scripted_session(seed)
    mp = run_micropython(DRIVER, path=[FIRMWARE_DIR, HERE], stdin=stdin.encode()).stdout
    cp = run_driver_cpython(stdin)
    assert mp == cp
    rows = mp.decode().splitlines()
    assert len(rows) == 300
    # the script was not trivial: the link wrote frames, counted bad ones, applied rings
    out = bytes.fromhex("".join(r.split()[0] for r in rows if r.split()[0] != "-"))
    frames = P.Decoder(P.TO_HOST).feed(out)
    kinds = {f[0] for f in frames}
    assert {P.HELLO, P.TAP, P.BUTTON, P.LOG, P.HEARTBEAT, P.SNAPSHOT} <= kinds
    last = rows[-1].split()
    assert int(last[3]) > 0 and int(last[8]) > 0       # bad frames counted, rings applied


IDLE_NO_ALLOC = r"""
import gc
import protocol as P
from link import Link

class Wire:
    # a stream that allocates nothing: reads from a pre-built buffer, counts what is written
    def __init__(self, size):
        self.data = bytearray(size)
        self.n = 0
        self.pos = 0
        self.written = 0
    def readinto(self, buf):
        k = self.n - self.pos
        if k > len(buf):
            k = len(buf)
        for i in range(k):
            buf[i] = self.data[self.pos + i]
        self.pos += k
        return k
    def write(self, buf, off, n):
        self.written += n

now = [0]
wire = Wire(64)
link = Link(wire, lambda: now[0], lambda *a: None, boot_id=b"\x01\x02\x03\x04", queue=8, rings=5)
# a host heartbeat frame, re-delivered every second
w = P.Writer(b"\x09\x09\x09\x09")
hb = bytearray(P.MAX_FRAME)
hb_len = P.encode_host_heartbeat(w, hb, 7)

def run(ms, step):
    end = now[0] + ms
    while now[0] < end:
        now[0] += step
        if now[0] % 1000 == 0:
            for i in range(hb_len):
                wire.data[i] = hb[i]
            wire.n = hb_len
            wire.pos = 0
        link.poll()

def measure(ms):
    gc.collect()
    before = gc.mem_alloc()
    run(ms, 5)
    return gc.mem_alloc() - before

link.send_button(1, 1)            # pending events: the loop also resends them
link.send_tap(0, b"\x04\x01\x02\x03\x04\x05\x06")
measure(2000)                     # warm-up
written = wire.written
idle = measure(20000)
print(idle, link.host_alive, link.resent, wire.written - written, link.decoder.good)
"""


def test_idle_loop_with_heartbeats_and_resends_allocates_nothing():
    idle, alive, resent, written, good = run_micropython(IDLE_NO_ALLOC, path=[FIRMWARE_DIR]).stdout.decode().split()
    assert int(idle) == 0
    assert alive == "True" and int(resent) >= 80 and int(written) > 0 and int(good) >= 20


STDIO_LINK = r"""
import time
from link import Link, StdioStream
stream = StdioStream()
rings = []
link = Link(stream, time.ticks_ms, lambda *a: rings.append(a), boot_id=b"\x0a\x0b\x0c\x0d",
            firmware=b"stdio", board=b"table4", rings=3)
link.snapshot_provider = lambda: (b"\x01\x01\x01", b"\x00\x00\x00")
link.send_button(1, 1)
start = time.ticks_ms()
while time.ticks_diff(time.ticks_ms(), start) < 300:
    link.poll()
    time.sleep_ms(1)
import sys
sys.stderr.write("%r %d %d %s\n" % (rings, link.pending, link.decoder.bad, stream.eof))
"""


def test_stdio_stream_carries_the_link_over_real_pipes():
    """The USB CDC adapter (StdioStream) under MicroPython: frames in on stdin (including 0x03 and
    garbage), frames out on the binary stdout, nothing else written there."""
    from shengji_table.table.session import Button, Hello, HostSession, Snapshot
    host = HostSession(host_id=0x0303)
    host.set_ring(2, 3, 255, 0, 0, 0, 1000)
    host.request_snapshot(0)
    stdin = b"\x03\x03garbage\x00" + host.outgoing()
    # ack the HELLO and the BUTTON (seq 1, 2) up front: the host knows them from the tap below
    out = bytearray(P.MAX_FRAME)
    n = P.encode_ack(P.Writer((0x0303).to_bytes(4, "little")), out, 9, 2, b"\x0a\x0b\x0c\x0d")
    stdin += bytes(out[:n])
    proc = run_micropython(STDIO_LINK, path=[FIRMWARE_DIR], stdin=stdin)
    events = host.feed(proc.stdout, 0)
    assert [type(e) for e in events if isinstance(e, (Hello, Button))] == [Hello, Button]
    snap = next(e for e in events if isinstance(e, Snapshot))
    assert snap.rings[2] == (3, 255, 0, 0, 0, 1000) and snap.readers == b"\x01\x01\x01"
    assert host.bad_frames == 0                          # stdout carried frames only
    rings, pending, bad, eof = proc.stderr.decode().rsplit(" ", 3)
    assert rings == "[(2, 3, 255, 0, 0, 0, 1000)]" and pending == "0" and bad == "1" and eof.strip() == "True"
