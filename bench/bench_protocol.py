"""Wire protocol and link figures: frame sizes, codec speed under CPython and under the real
MicroPython interpreter (unix port on this machine, not a Pico), host session throughput, heap
allocated by the Pico link's idle loop (target 0)."""
import sys
import time

from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.micropython import run_micropython
from shengji_table.table import protocol as P
from shengji_table.table.session import HostSession

UID = bytes.fromhex("04a2b3c4d5e680")
CODE = b"S-AH#1\x00\x00"

MP_BENCH = r"""
import gc, time
import protocol as P
from link import Link
w = P.Writer(b"\x01\x02\x03\x04")
out = bytearray(P.MAX_FRAME)
d = P.Decoder(P.TO_HOST)
uid = b"\x04\xa2\xb3\xc4\xd5\xe6\x80"
N = 2000
t = time.ticks_us()
for i in range(N):
    n = P.encode_tap(w, out, i + 1, 3, uid, -1, b"S-AH#1\x00\x00")
enc = time.ticks_diff(time.ticks_us(), t) / N
t = time.ticks_us()
for i in range(N):
    for j in range(n):
        d.push(out[j])
dec = time.ticks_diff(time.ticks_us(), t) / N

class Quiet:
    def readinto(self, buf):
        return 0
    def write(self, buf, off, n):
        pass
now = [0]
link = Link(Quiet(), lambda: now[0], lambda *a: None, boot_id=b"\x01\x02\x03\x04")
for i in range(100):
    now[0] += 5
    link.poll()
def idle(k):
    gc.collect()
    a = gc.mem_alloc()
    for i in range(k):
        now[0] += 5
        link.poll()
    return gc.mem_alloc() - a
idle(10)                      # the first measurement pays interpreter one-offs
alloc = idle(N)
t = time.ticks_us()
for i in range(N):
    now[0] += 5
    link.poll()
poll = time.ticks_diff(time.ticks_us(), t) / N
print(enc, dec, poll, alloc)
"""


def main():
    w = P.Writer(b"\x01\x02\x03\x04")
    out = bytearray(P.MAX_FRAME)
    tap = P.encode_tap(w, out, 7, 3, UID, -1, CODE)
    print(f"frame bytes: TAP (7-byte UID + 8-byte code) {tap}, BUTTON "
          f"{P.encode_button(w, out, 1, 1, 1)}, RING {P.encode_ring(P.Writer(b'xxxx'), out, 1, 1, 1, 1, 1, 1, 1, 1)}, "
          f"HEARTBEAT {P.encode_heartbeat(w, out, 1, 1, 0, 0, 1)}")
    print(f"TAP on a 115200-baud UART: {tap * 10 / 115200 * 1000:.2f} ms (USB CDC is far faster)")

    n = 20000
    t = time.perf_counter()
    for i in range(n):
        P.encode_tap(w, out, (i % 65535) + 1, 3, UID, -1, CODE)
    enc = (time.perf_counter() - t) / n * 1e6
    print(f"CPython encode TAP: {enc:.1f} us/frame")

    # host throughput: a stream of consecutive TAP events fed to the session (decode + deliver + ACK)
    stream = bytearray()
    for i in range(n):
        k = P.encode_tap(w, out, i + 1, i % 5, UID, -1, CODE)
        stream += out[:k]
    hb = P.encode_heartbeat(w, out, 1, 1, 0, 0, 1)
    s = HostSession(host_id=1)
    s.feed(bytes(out[:hb]), 0)
    t = time.perf_counter()
    got = 0
    for off in range(0, len(stream), 4096):
        got += len(s.feed(bytes(stream[off:off + 4096]), 0))
        s.outgoing()
    dt = time.perf_counter() - t
    print(f"CPython HostSession: {got / dt:,.0f} events/s ({dt / got * 1e6:.1f} us/event incl. decode, "
          f"dedup, ACK)")

    enc, dec, poll, alloc = run_micropython(MP_BENCH, path=[FIRMWARE_DIR]).stdout.decode().split()
    print(f"MicroPython (unix port, this machine): encode TAP {float(enc):.1f} us, decode TAP "
          f"{float(dec):.1f} us, idle link.poll {float(poll):.1f} us")
    print(f"MicroPython heap allocated by 2000 idle link polls (heartbeats included): {alloc} bytes "
          f"(target 0)")


if __name__ == "__main__":
    main()
    sys.exit(0)
