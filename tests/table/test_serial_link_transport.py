"""The host's serial transport (table/serial_link.py) over real pyserial: a pseudo-terminal with the
firmware's own link code (run by CPython) on the other end, and pyserial URLs.  Handshake, the
"no ACK before flush" rule, reconnect after the cable is pulled, protocol-version mismatch."""
import time

import pytest

from shengji_table.sim.cpython_pico import CPythonPico
from shengji_table.table import protocol as P
from shengji_table.table.serial_link import (Disconnected, LinkError, ProtocolMismatch, Reconnected,
                                             SerialLink)
from shengji_table.table.session import Hello, Snapshot, LinkTap

UID = bytes.fromhex("04a1b2c3d4e5f6")


def pump(link, seconds, until=None):
    """Poll/flush for up to ``seconds``; returns every event seen (stops early when ``until(events)``)."""
    events = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        events += link.poll()
        link.flush()
        if until is not None and until(events):
            break
    return events


def handshake(link, seconds=3):
    """Pump until the Pico's HELLO and a snapshot were both received (in either order: pyserial drops
    what was buffered before it opened, and the Pico resends its HELLO until acknowledged)."""
    events = pump(link, seconds, lambda ev: any(isinstance(e, Snapshot) for e in ev)
                  and any(isinstance(e, Hello) for e in ev))
    pump(link, 0.1)
    return events


def test_serial_link_handshake_hello_snapshot_and_tap_over_a_pty():
    with CPythonPico() as pico:
        link = SerialLink(pico.device)
        assert link.open()
        events = handshake(link)
        assert isinstance(events[0], Reconnected) and events[0].first
        hello = next(e for e in events if isinstance(e, Hello))
        assert (hello.protocol, hello.firmware, hello.board) == (P.VERSION, "0.1.0", "table-4")
        assert link.caught_up()
        pico.tap(2, UID, b"code")
        events = pump(link, 2, lambda ev: any(isinstance(e, LinkTap) for e in ev))
        tap = next(e for e in events if isinstance(e, LinkTap))
        assert (tap.reader, tap.uid, tap.code) == (2, UID, b"code")
        pump(link, 0.3)
        assert pico.pending == 0            # acknowledged once flushed
        link.close()


def test_serial_link_no_ack_leaves_before_flush():
    """An event is acknowledged only by flush(): until then the Pico keeps it, and poll() refuses to
    run on (the caller must persist, then flush)."""
    with CPythonPico() as pico:
        link = SerialLink(pico.device)
        link.open()
        handshake(link)
        pico.tap(1, UID)
        got = []
        end = time.monotonic() + 2
        while not got and time.monotonic() < end:
            got = [e for e in link.poll() if isinstance(e, LinkTap)]
            if not got:
                link.flush()
        assert got
        with pytest.raises(LinkError):
            link.poll()
        time.sleep(0.3)
        assert pico.pending == 1            # not acknowledged: the host has not flushed
        link.flush()
        pump(link, 0.3)
        assert pico.pending == 0
        link.close()


def test_serial_link_reconnects_after_the_cable_is_pulled_and_resyncs():
    with CPythonPico() as pico:
        link = SerialLink(pico.device, backoff=(0.02, 0.1))
        link.open()
        handshake(link)
        pico.pull_cable()
        events = pump(link, 1, lambda ev: any(isinstance(e, Disconnected) for e in ev))
        assert any(isinstance(e, Disconnected) for e in events)
        assert not link.is_open
        pico.tap(3, UID)                    # tapped while the cable is out: kept by the Pico
        pump(link, 0.3)                     # retries fail: the device name is gone
        pico.plug_cable()
        events = pump(link, 3, lambda ev: any(isinstance(e, LinkTap) for e in ev))
        assert any(isinstance(e, Reconnected) and not e.first for e in events)
        taps = [e for e in events if isinstance(e, LinkTap)]
        assert [(t.reader, t.uid) for t in taps] == [(3, UID)]
        assert link.reconnects == 1
        pump(link, 0.5)
        assert pico.pending == 0
        link.close()


def test_serial_link_refuses_a_pico_speaking_another_protocol_version():
    with CPythonPico(version=P.VERSION + 1) as pico:
        link = SerialLink(pico.device)
        link.open()
        with pytest.raises(ProtocolMismatch, match="another protocol version"):
            pump(link, 5)
        link.close()


def test_serial_link_device_missing_is_retried_with_backoff(tmp_path):
    link = SerialLink(str(tmp_path / "no-such-tty"), backoff=(0.01, 0.04))
    assert not link.open()
    assert "cannot open" in link.last_error
    delays = []
    for _ in range(4):
        before = link._delay
        link.open()
        delays.append(before)
    assert delays == sorted(delays) and max(delays) <= 0.04


def test_serial_link_opens_pyserial_urls_the_same_way():
    """loop:// is a pyserial URL: the host's own frames come back and are refused as the wrong
    direction (counted, never raised)."""
    link = SerialLink("loop://")
    assert link.open()
    pump(link, 0.2)
    assert link.session.bad_by_reason()["type"] >= 1      # its snapshot request, echoed
    link.close()
