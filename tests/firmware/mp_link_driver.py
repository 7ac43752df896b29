# Runs firmware/link.py under the real MicroPython interpreter, stepped by a test over pipes.
# Not a test module itself (no test_ prefix). One line in, one line out:
#   in : "<now_ms> <hex bytes from the host or -> <actions or ->"
#        actions, comma-separated: t<reader>:<uid hex>:<code hex or ->  |  b<seat>:<kind>  |  l<text>
#   out: "<hex bytes the link wrote or -> <pending> <dropped> <bad> <ignored> <stale> <next_seq>
#         <ring states hex> <rings applied> <errors by reason, dot-separated> <unread input bytes> <unread input bytes>"
# "quit" ends the loop.
import sys

from link import Link


class Pipe:
    def __init__(self):
        self.inb = bytearray()
        self.out = bytearray()

    def readinto(self, buf):
        n = len(self.inb)
        if n > len(buf):
            n = len(buf)
        for i in range(n):
            buf[i] = self.inb[i]
        self.inb = self.inb[n:]
        return n

    def write(self, buf, off, n):
        for i in range(off, off + n):
            self.out.append(buf[i])


now = [0]
applied = [0]
boot = bytes.fromhex(sys.argv[1]) if len(sys.argv) > 1 else b"\x11\x22\x33\x44"
queue = int(sys.argv[2]) if len(sys.argv) > 2 else 32


def on_ring(ring, pattern, r, g, b, count, arg):
    applied[0] += 1


pipe = Pipe()
link = Link(pipe, lambda: now[0], on_ring, firmware=b"fuzz", board=b"table4", boot_id=boot,
            queue=queue, rings=5)
link.snapshot_provider = lambda: (b"\x01\x01\x01\x01\x01", b"\x00\x00\x00\x00")

while True:
    line = sys.stdin.readline()
    if not line or line.strip() == "quit":
        break
    t, data, actions = line.split()
    now[0] = int(t)
    if data != "-":
        pipe.inb.extend(bytes.fromhex(data))
    if actions != "-":
        for a in actions.split(","):
            if a[0] == "t":
                reader, uid, code = a[1:].split(":")
                link.send_tap(int(reader), bytes.fromhex(uid), None if code == "-" else bytes.fromhex(code))
            elif a[0] == "b":
                seat, kind = a[1:].split(":")
                link.send_button(int(seat), int(kind))
            elif a[0] == "l":
                link.send_log(a[1:])
    link.poll()
    out = pipe.out.hex() if pipe.out else "-"
    pipe.out = bytearray()
    d = link.decoder
    print(out, link.pending, link.dropped, d.bad, link.ignored, link.stale, link.next_seq,
          link.rings.hex(), applied[0], ".".join([str(e) for e in d.errors]), len(pipe.inb))
