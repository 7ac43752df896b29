"""The host's link state machine (shengji_table.table.session) against the real Pico link code
(firmware/link.py, run here in CPython): exactly-once delivery across resends, a rebooted Pico, a
restarted host, an overflowing Pico queue, silence and resync."""
import pathlib
import sys

import pytest

from shengji_table.sim.line_faults import code_positions
from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.table import protocol as HP
from shengji_table.table.session import (Button, Hello, HostSession, LinkDown, LinkPosition, LinkUp,
                                         Log, Lost, ReaderStatus, Rebooted, Snapshot, LinkTap)

sys.path.insert(0, str(FIRMWARE_DIR))
import link as firmware_link  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from fakes import LinkPipe  # noqa: E402  (inb: towards the Pico; out: what it wrote, towards the host)

UID = bytes.fromhex("04a1b2c3d4e5f6")


class Table:
    """A Pico link and a host session joined by a pipe the test can tamper with."""

    def __init__(self, boot=b"\x01\x00\x00\x01", queue=16, session=None):
        self.now = 0
        self.pipe = LinkPipe()
        self.rings = []
        self.boot = boot
        self.queue = queue
        self.pico = self._pico(boot)
        self.host = session or HostSession(host_id=0x0BADCAFE)
        self.cut = False          # True: the cable is out, bytes are lost both ways

    def _pico(self, boot):
        p = firmware_link.Link(self.pipe, lambda: self.now, lambda *a: self.rings.append(a),
                               firmware=b"0.1.0", board=b"table4", boot_id=boot, queue=self.queue, rings=5)
        p.snapshot_provider = lambda: (b"\x01\x01\x01\x01\x01", b"\x00\x00\x00\x00")
        return p

    def reboot(self, boot):
        self.pipe.inb.clear()
        self.pico = self._pico(boot)

    def step(self, ms=10, drop_to_host=False, drop_to_pico=False):
        self.now += ms
        self.pico.poll()
        data = bytes(self.pipe.out)
        self.pipe.out.clear()
        events = [] if (self.cut or drop_to_host) else self.host.feed(data, self.now)
        events += self.host.tick(self.now)
        out = self.host.outgoing()
        if not (self.cut or drop_to_pico):
            self.pipe.inb += out
        return events

    def run(self, ms, step=10):
        events = []
        for _ in range(ms // step):
            events += self.step(step)
        return events


def physical(events):
    return [e for e in events if isinstance(e, (Hello, LinkTap, Button, ReaderStatus, Log))]


def test_events_arrive_once_in_order_and_are_acknowledged():
    t = Table()
    t.pico.send_tap(2, UID, b"S-AH#1")
    t.pico.send_button(2, HP.LONG_PRESS)
    t.pico.send_reader(1, False)
    t.pico.send_log("PN532 #1 silent")
    ev = t.run(2000)
    boot = 0x01000001
    assert ev[:2] == [LinkUp(), Rebooted(None, boot)]
    assert physical(ev) == [Hello(boot, 1, 1, "0.1.0", "table4"), LinkTap(boot, 2, 2, UID, b"S-AH#1"),
                            Button(boot, 3, 2, HP.LONG_PRESS), ReaderStatus(boot, 4, 1, False, bytes(4)),
                            Log(boot, 5, "PN532 #1 silent")]
    assert t.pico.pending == 0 and t.host.position == LinkPosition(boot, 5)
    assert any(isinstance(e, Snapshot) for e in ev)          # first contact: resync


def test_lost_acks_cause_resends_that_are_not_delivered_twice():
    t = Table()
    t.run(100)
    for k in range(5):
        t.pico.send_button(k % 4, HP.PRESS)
    ev = []
    for _ in range(100):                          # 1 s: every ACK lost, the Pico resends
        ev += t.step(10, drop_to_pico=True)
    assert len(physical(ev)) == 5 and t.pico.pending == 5
    assert t.host.stats.duplicates >= 5
    ev = t.run(1000)
    assert physical(ev) == [] and t.pico.pending == 0


def test_a_frame_lost_on_the_way_is_recovered_in_order():
    t = Table()
    t.run(100)
    t.pico.send_button(0, HP.PRESS)
    ev = t.step(10, drop_to_host=True)            # the first copy vanishes
    t.pico.send_button(1, HP.PRESS)               # this one arrives first: held back until the missing one arrives
    ev += t.step(10)
    assert physical(ev) == [] and t.host.stats.early == 1
    ev += t.run(1000)
    assert [(e.seat, e.seq) for e in physical(ev)] == [(0, 2), (1, 3)]


def test_rebooted_pico_restarts_its_seqs_under_a_new_boot_id_and_old_replays_are_stale():
    t = Table()
    t.pico.send_tap(0, UID)
    t.run(1000)
    t.pico.resend_ms = 60_000                     # (so that only the heartbeat tells of it)
    t.pico.send_button(3, HP.PRESS)               # its frame is lost, then the Pico reboots:
    t.step(10, drop_to_host=True)                 # the heartbeat said it existed, so it is Lost
    t.run(1200)
    out = bytearray(HP.MAX_FRAME)
    n = HP.encode_button(HP.Writer(t.boot), out, 3, 3, HP.PRESS)
    replay = bytes(out[:n])                       # the old boot's seq 3, to be replayed later
    t.reboot(b"\x02\x00\x00\x02")
    t.cut = False
    ev = t.run(2500)          # followed once the old boot has been silent for boot_switch_ms
    new = 0x02000002
    assert Rebooted(0x01000001, new) in ev
    assert Lost(0x01000001, 3, 1) in ev           # the button the old boot had sent, never acked
    assert physical(ev) == [Hello(new, 1, 1, "0.1.0", "table4")]
    stale = t.host.stats.stale                    # (the new boot's frames before it was followed)
    t.pipe.out += replay                       # a replay from the dead boot
    t.pico.send_button(1, HP.RELEASE)             # the new boot's seq 2
    ev = t.run(1000)
    assert physical(ev) == [Button(new, 2, 1, HP.RELEASE)]
    assert t.host.stats.stale == stale + 1


def test_restarted_host_resumes_from_its_position_without_duplicates():
    t = Table()
    t.pico.send_tap(1, UID)
    t.run(1000)
    saved = t.host.position
    t.pico.send_button(1, HP.PRESS)               # arrives, but the host dies before acking
    t.step(10, drop_to_pico=True)
    t.host = HostSession(resume=saved, host_id=0x5EC0)
    t.pico.send_button(2, HP.PRESS)               # while the host is down
    ev = t.run(2000)
    assert [(type(e), e.seq) for e in physical(ev)] == [(Button, 3), (Button, 4)]
    assert t.pico.pending == 0


def test_a_stray_frame_of_an_old_boot_cannot_hijack_a_resumed_host():
    """After a host restart the first frame heard may be an old boot's (delayed or replayed): the
    resumed boot keeps its place, and nothing is delivered twice."""
    t = Table()
    t.pico.send_tap(1, UID)
    t.run(1000)
    out = bytearray(HP.MAX_FRAME)
    stray = bytes(out[:HP.encode_heartbeat(HP.Writer(b"\x0e\x0e\x0e\x0e"), out, 1, 9, 0, 0, 1)])
    t.host = HostSession(resume=t.host.position, host_id=0x99)
    t.pipe.out[:0] = stray                   # heard before anything of the real Pico
    t.pico.send_button(0, HP.PRESS)
    ev = t.run(2000)
    assert not any(isinstance(e, Rebooted) for e in ev) and t.host.stats.stale == 1
    assert [(type(e), e.seq) for e in physical(ev)] == [(Button, 3)]


def test_wandering_to_another_boot_and_back_redelivers_nothing():
    """Even when a stray frame does win (the real Pico was silent long enough), coming back to the
    real boot continues at the remembered position."""
    t = Table()
    t.pico.send_tap(1, UID)
    t.run(1000)
    t.cut = True
    t.run(2000)                                  # the real Pico unheard for 2 s
    t.cut = False
    out = bytearray(HP.MAX_FRAME)
    t.pipe.out += out[:HP.encode_heartbeat(HP.Writer(b"\x0e\x0e\x0e\x0e"), out, 1, 1, 0, 0, 1)]
    ev = t.step(1)
    assert Rebooted(0x01000001, 0x0E0E0E0E) in ev
    t.pico.send_button(2, HP.PRESS)
    ev = t.run(3000)
    assert Rebooted(0x0E0E0E0E, 0x01000001) in ev
    assert [(type(e), e.seq) for e in physical(ev)] == [(Button, 3)]
    assert t.pico.pending == 0


def test_fresh_host_joins_a_running_pico_at_its_oldest_unacknowledged_event():
    t = Table()
    t.run(500)
    t.cut = True
    t.pico.send_tap(4, UID)
    t.pico.send_button(4, HP.PRESS)
    t.run(500)
    t.host = HostSession(host_id=0x77)           # no saved position
    t.cut = False
    ev = t.run(1500)
    assert [e.seq for e in physical(ev)] == [2, 3]


def test_overflowing_pico_queue_is_reported_exactly_and_triggers_a_snapshot():
    t = Table(queue=4)
    t.run(500)
    t.cut = True
    for seat in range(7):                         # seqs 2..8 into 4 slots: 2, 3, 4 dropped
        t.pico.send_button(seat % 4, HP.PRESS)
    t.run(100)
    t.cut = False
    ev = t.run(2000)
    assert Lost(0x01000001, 2, 3) in ev
    assert [e.seq for e in physical(ev)] == [5, 6, 7, 8]
    assert t.host.stats.lost == 3 and t.pico.dropped == 3
    lost_at = ev.index(Lost(0x01000001, 2, 3))
    assert any(isinstance(e, Snapshot) for e in ev[lost_at:])


def test_silence_is_noticed_and_the_link_resyncs_when_the_pico_is_heard_again():
    t = Table()
    t.host.set_ring(1, 2, 0, 255, 0, 3, 0)
    t.run(1000)
    assert t.rings[-1] == (1, 2, 0, 255, 0, 3, 0)
    t.cut = True
    ev = t.run(3500)
    assert LinkDown() in ev and not t.host.alive
    assert not t.pico.host_alive                  # the Pico noticed too
    t.pico.rings[7:14] = bytes(7)                 # pretend the ring was lost meanwhile
    t.cut = False
    ev = t.run(1000)
    assert LinkUp() in ev and any(isinstance(e, Snapshot) for e in ev)
    assert bytes(t.pico.rings[7:14]) == bytes([2, 0, 255, 0, 3, 0, 0])


def test_unanswered_snapshot_request_is_retried():
    s = HostSession(host_id=1, snapshot_retry_ms=1000)
    s.feed(_pico_heartbeat(b"\x09\x00\x00\x00"), 0)   # first contact: asks for a snapshot
    first = HP.Decoder(HP.TO_PICO).feed(s.outgoing())
    assert HP.SNAPSHOT_REQUEST in [f[0] for f in first]
    s.feed(_pico_heartbeat(b"\x09\x00\x00\x00"), 900)
    s.tick(900)
    assert HP.SNAPSHOT_REQUEST not in [f[0] for f in HP.Decoder(HP.TO_PICO).feed(s.outgoing())]
    s.feed(_pico_heartbeat(b"\x09\x00\x00\x00"), 1000)
    s.tick(1000)
    assert HP.SNAPSHOT_REQUEST in [f[0] for f in HP.Decoder(HP.TO_PICO).feed(s.outgoing())]


def _pico_heartbeat(boot, base=1, nxt=1):
    out = bytearray(HP.MAX_FRAME)
    n = HP.encode_heartbeat(HP.Writer(boot), out, base, nxt, 0, 0, 0)
    return bytes(out[:n])


def test_unwrapped_seq_keeps_growing_past_the_wire_wrap():
    t = Table()
    t.run(500)
    t.pico.next_seq = 65534                      # as after a long session
    t.host._last = 65533                         # (both ends agree on the position)
    for seat in range(3):
        t.pico.send_button(seat, HP.PRESS)       # wire seqs 65534, 65535, 1
    ev = t.run(1000)
    assert [e.seq for e in physical(ev)] == [65534, 65535, 65536]
    assert t.pico.pending == 0


def test_garbage_and_corruption_are_counted_by_reason_and_never_raise():
    s = HostSession(host_id=1)
    good = _pico_heartbeat(b"\x09\x00\x00\x00")
    corrupted = bytearray(good)
    data_byte = max(set(range(1, len(good) - 1)) - code_positions(good))
    corrupted[data_byte] ^= 0x20                  # a body byte, not a COBS code: a CRC error
    ev = s.feed(b"\xff" * 300 + b"\x00" + bytes(corrupted) + b"\x01\x02\x00" + good, 0)
    assert Rebooted(None, 9) in ev
    assert s.bad_frames == 3
    reasons = s.bad_by_reason()
    assert reasons["crc"] == 1 and reasons["length"] == 1 and reasons["truncated"] == 1


def test_ring_state_is_validated_and_re_sent_after_a_pico_reboot():
    t = Table()
    with pytest.raises(ValueError):
        t.host.set_ring(0, 1, 256, 0, 0)
    with pytest.raises(ValueError):
        t.host.set_ring(0, 1, 0, 0, 0, 0, 70000)
    t.host.set_ring(3, 6, 10, 20, 30, 0, 0)
    t.run(500)
    assert t.rings[-1] == (3, 6, 10, 20, 30, 0, 0)
    t.reboot(b"\x03\x03\x03\x03")
    t.rings.clear()
    t.run(2500)
    assert (3, 6, 10, 20, 30, 0, 0) in t.rings


def test_the_host_package_imports_the_one_protocol_file():
    """The host's protocol module is the firmware's own file, loaded (no copy, no symlink)."""
    from shengji_table import firmware_src
    host_file = pathlib.Path(HP.__file__)
    assert not host_file.is_symlink()
    assert host_file == firmware_src.FIRMWARE_DIR / "protocol.py"
    assert host_file.resolve() == (FIRMWARE_DIR / "protocol.py").resolve()
    import shengji_table.table.session as session
    assert session.P is HP is firmware_src.protocol


def test_a_forged_heartbeat_cannot_make_the_host_deaf():
    """One CRC-valid heartbeat with an impossible ``base`` (1,000 events on, while the Pico's dropped
    counter did not grow) is not believed: nothing is reported lost, a snapshot is asked for, and
    the next 40 real taps all arrive once, in order."""
    t = Table()
    t.run(500)
    boot = t.boot
    t.host.feed(_pico_heartbeat(boot, base=1000, nxt=1000), t.now)
    assert t.host.stats.implausible == 1 and t.host.stats.lost == 0
    assert HP.SNAPSHOT_REQUEST in [f[0] for f in HP.Decoder(HP.TO_PICO).feed(t.host.outgoing())]
    delivered = []
    for i in range(40):
        t.pico.send_tap(i % 4, UID)
        delivered += [e for e in physical(t.run(60)) if isinstance(e, LinkTap)]
    delivered += [e for e in physical(t.run(1000)) if isinstance(e, LinkTap)]
    assert len(delivered) == 40 and len({e.seq for e in delivered}) == 40
    assert [e.seq for e in delivered] == sorted(e.seq for e in delivered)
    assert t.host.stats.lost == 0 and t.pico.pending == 0      # every tap acknowledged, none held


def test_a_real_overflow_is_still_believed_after_a_forged_heartbeat():
    """The plausibility check does not hide real loss: after a forged heartbeat, an overflow of the
    Pico's queue is reported exactly (its dropped counter grew by as many)."""
    t = Table(queue=4)
    t.run(500)
    t.host.feed(_pico_heartbeat(t.boot, base=900, nxt=900), t.now)
    t.cut = True
    for seat in range(7):
        t.pico.send_button(seat % 4, HP.PRESS)
    t.run(100)
    t.cut = False
    ev = t.run(2000)
    assert t.host.stats.lost == 3 == t.pico.dropped
    assert [e.seq for e in physical(ev)] == [5, 6, 7, 8]
