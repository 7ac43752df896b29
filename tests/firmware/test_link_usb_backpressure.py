"""The USB link never blocks the scan loop (firmware/link.py over sim/hw/usb_cdc.py's rp2 CDC port).

A host that keeps the port open but stops reading fills the Pico's 256-byte transmit FIFO; on rp2
each write that does not fit then waits 500 ms for room.  Writing the whole queue of 30 events in
one resend would hold the loop for 15 s, past the 5 s watchdog, and the reboot would lose every
queued tap.  The link must write only when the port can take a frame, so each loop step stays
short, and every tap reaches the host once it reads again.
"""
import sys

from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.sim.hw import usb_cdc, world

sys.path.insert(0, str(FIRMWARE_DIR))
import protocol as P  # noqa: E402
from link import Link  # noqa: E402

WDT_MS = 5000
STEP_MS = 20


def _taps(port):
    d = P.Decoder(P.TO_HOST)
    seqs = set()
    for b in port.sent:
        if d.push(b) and d.typ == P.TAP:
            seqs.add(d.seq)
    return seqs


def _host_frame(fn, *args):
    buf = bytearray(P.MAX_FRAME)
    n = fn(P.Writer(b"\xaa\xbb\xcc\x01"), buf, 1, *args)
    return bytes(buf[:n])


def test_link_usb_host_that_stops_reading_never_stalls_a_step_or_loses_a_tap():
    world.reset()
    usb_cdc.reset()
    usb_cdc.kbd_intr(-1)                                   # as main.py does first
    world.use_sim_clock(0)
    port = usb_cdc.Port()
    link = Link(port, world.now_ms, lambda *a: None, boot_id=b"\x10\x20\x30\x40")
    usb_cdc.arrive(_host_frame(P.encode_host_heartbeat))   # the host is there ...
    link.poll()
    assert link.host_alive
    port.host_reading = False                              # ... and stops reading, port open
    worst = 0
    taps = []
    for step in range(400):
        t0 = world.now_ms()
        link.poll()
        if step < 30:
            taps.append(link.send_tap(step % 5, bytes((4, 1, 2, 3, 4, 5, step))))
        worst = max(worst, world.now_ms() - t0)
        world.advance(STEP_MS)
    assert port.timeouts >= 1                              # the FIFO did fill: writes had to wait
    assert worst < WDT_MS // 5, worst                      # one step: at most one wait, never the watchdog
    assert link.dropped == 0 and link.pending == len(taps) + 1     # and HELLO: nothing acknowledged
    port.host_reading = True                               # the host reads again
    for _ in range(200):
        link.poll()
        world.advance(STEP_MS)
    assert set(taps) <= _taps(port)                        # every queued tap arrives


def test_link_usb_writable_port_writes_at_once():
    world.reset()
    usb_cdc.reset()
    usb_cdc.kbd_intr(-1)                                   # as main.py does first
    world.use_sim_clock(0)
    port = usb_cdc.Port()
    link = Link(port, world.now_ms, lambda *a: None, boot_id=b"\x10\x20\x30\x40")
    seq = link.send_tap(1, bytes((4, 1, 2, 3)))
    assert seq in _taps(port) and link.deferred == 0
