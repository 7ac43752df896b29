"""The running firmware allocates nothing while the host talks to it: heartbeats, ring states and
ACKs arriving during scan steps, under the real MicroPython interpreter with only the hardware
faked (the fakes themselves allocate nothing per frame either, so the figure is the firmware's)."""
import pathlib
import pytest

from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.micropython import run_micropython
from shengji_table.sim.hw import HW_DIR
from shengji_table.table import protocol as P

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]


SCRIPT = r'''
import gc, json, time, machine, world
raw = json.load(open("boards/table-4.json"))
world.setup_board(raw)

class HostStream:
    """Delivers one host frame every 5th read, copied byte by byte (no allocation)."""
    def __init__(self, frames):
        self.frames = frames
        self.i = 0
        self.c = 0
    def readinto(self, buf):
        self.c += 1
        if self.c < 5 or self.i >= len(self.frames):
            return 0
        self.c = 0
        d, n = self.frames[self.i]
        self.i += 1
        for k in range(n):
            buf[k] = d[k]
        return n
    def write(self, buf, off, n):
        pass

frames = [(bytearray(bytes.fromhex(h)), len(h) // 2) for h in FRAMES]
stream = HostStream(frames)
import main as fw
sc = fw.main("boards/table-4.json", "no-build.json", stream=stream, max_steps=0)
for _ in range(50):
    sc.step(time.ticks_ms())
stream.i = 0
drawn = sc.frames
gc.collect()
gc.disable()
a = gc.mem_alloc()
for _ in range(300):
    sc.step(time.ticks_ms())
alloc = gc.mem_alloc() - a
gc.enable()
print(json.dumps({"delivered": stream.i, "alloc": alloc, "redrawn": sc.frames - drawn,
                  "ring0": list(sc.link.rings[0:7])}))
'''


def _frames(kind):
    w, buf = P.Writer(b"\x0a\x0b\x0c\x01"), bytearray(P.MAX_FRAME)
    out = []
    for s in range(1, 41):
        if kind == "heartbeat":
            n = P.encode_host_heartbeat(w, buf, s)
        elif kind == "ring":
            n = P.encode_ring(w, buf, s, 0, 1 + s % 3, 0, s, 255, s % 5, 0)
        else:
            n = P.encode_ack(w, buf, s, 1, b"\x01\x02\x03\x04")
        out.append(bytes(buf[:n]).hex())
    return out


@pytest.mark.micropython
@pytest.mark.parametrize("kind", ["heartbeat", "ring", "ack"])
def test_scan_steps_receiving_host_frames_allocate_nothing(kind):
    import json
    frames = _frames(kind)
    proc = run_micropython(f"FRAMES = {frames!r}\n" + SCRIPT, path=[HW_DIR, FIRMWARE_DIR], cwd=REPO_ROOT)
    fig = json.loads(proc.stdout.decode().strip().splitlines()[-1])
    assert fig["delivered"] == len(frames)                # every frame reached the link
    if kind == "ring":
        assert fig["redrawn"] > 0                          # ring states were drawn, not ignored
        assert fig["ring0"][0] == 1 + 40 % 3               # the last state is the one held
    assert fig["alloc"] == 0, fig
