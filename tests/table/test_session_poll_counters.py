"""The SNAPSHOT's poll counters through the host session (table/session.py) from the real Pico link
code (firmware/link.py in CPython): the counters and the Pico's clock reach ``Snapshot``; a Pico
without counters (older firmware) still gives a snapshot, with None; polls/s between two
snapshots is Δcount / Δclock modulo 2**30, and only within one boot."""
import pathlib
import sys
from array import array

import pytest

from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.table.session import COUNTER_MODULO, HostSession, Snapshot

sys.path.insert(0, str(FIRMWARE_DIR))
import link as firmware_link  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from fakes import LinkPipe  # noqa: E402


def snapshots(provider, clock_ms=0):
    """Run a Pico link with ``provider`` against a session that asks for a snapshot; its Snapshots."""
    now = [clock_ms]
    pipe = LinkPipe()
    pico = firmware_link.Link(pipe, lambda: now[0], lambda *a: None, firmware=b"0.1.0", board=b"t",
                              boot_id=b"\x05\x00\x00\x05", rings=2)
    pico.snapshot_provider = provider
    host = HostSession(host_id=0x0BADCAFE)
    got = []
    for _ in range(30):
        now[0] += 10
        pico.poll()
        got += [e for e in host.feed(bytes(pipe.out), now[0]) if isinstance(e, Snapshot)]
        pipe.out.clear()
        host.tick(now[0])
        pipe.inb += host.outgoing()
    return got


def test_the_counters_and_the_pico_clock_reach_the_snapshot():
    counts = array("I", [3, 0, 7])
    snap = snapshots(lambda: (b"\x01\x00\x01", b"", counts), clock_ms=COUNTER_MODULO + 5)[0]
    assert snap.polls == (3, 0, 7)
    assert 5 < snap.clock_ms < 5 + 300            # the Pico's clock modulo 2**30 when it answered


def test_a_pico_without_counters_still_gives_a_snapshot():
    snap = snapshots(lambda: (b"\x01\x01", b"\x00"))[0]
    assert snap.readers == b"\x01\x01" and (snap.clock_ms, snap.polls) == (None, None)


def _snap(clock, polls, boot=9):
    return Snapshot(boot, 0, 1, 1, 0, b"\x01" * len(polls), b"", (), clock, tuple(polls))


def test_polls_per_second_is_the_counters_growth_over_the_pico_clock():
    first, last = _snap(1000, [10, 20]), _snap(3000, [50, 21])
    assert last.polls_per_s(first) == pytest.approx((20.0, 0.5))
    # across the 2**30 wrap of both the clock and a counter
    wrapped = _snap(500, [COUNTER_MODULO - 10, 0]), _snap(500 + 4000, [30, 8])
    assert wrapped[1].polls_per_s(wrapped[0]) == pytest.approx((10.0, 2.0))


def test_polls_per_second_needs_counters_one_boot_and_time():
    first = _snap(1000, [10])
    assert _snap(2000, [20], boot=10).polls_per_s(first) is None        # the Pico restarted between
    assert _snap(1000, [20]).polls_per_s(first) is None                 # no time passed
    assert _snap(2000, [20, 1]).polls_per_s(first) is None              # another board's readers
    old = Snapshot(9, 0, 1, 1, 0, b"\x01", b"", ())
    assert old.polls_per_s(first) is None and first.polls_per_s(old) is None
