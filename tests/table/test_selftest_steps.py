"""The self-test step machine (``table/selftest.py``) fed link events directly: what it asks, which
rings it lights, how it times out, and what its report names.  No I/O: a fake clock in seconds."""
import re

import pytest

from shengji_table.board import load_board
from shengji_table.hardware.build import BOARDS_DIR
from shengji_table import firmware_src
from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.table import protocol as P
from shengji_table.table import selftest as st
from shengji_table.table.session import (Button, Hello, Log, Lost, ReaderStatus, Rebooted, Snapshot,
                                         LinkTap)

BOOT = 0x1234
FW = b"\x32\x01\x06\x07"


@pytest.fixture
def board():
    return load_board(BOARDS_DIR / "table-4.json")


def snapshot(readers=(1, 1, 1, 1, 1), buttons=4, rings=()):
    return Snapshot(BOOT, 0, 1, 1, 0, bytes(readers), bytes(buttons), tuple(rings))


class Run:
    """A self-test with a clock; collects its outputs."""

    def __init__(self, board, **kw):
        kw.setdefault("step_timeout", 5.0)
        self.t = 0.0
        self.test = st.SelfTest(board, device="/dev/ttyTEST", **kw)
        self.out = list(self.test.start(self.t))
        self.seq = 0

    def feed(self, e, dt=0.1):
        self.t += dt
        new = self.test.feed(e, self.t)
        self.out += new
        return new

    def wait(self, dt):
        self.t += dt
        new = self.test.tick(self.t)
        self.out += new
        return new

    def ev(self, cls, *fields):
        self.seq += 1
        return cls(BOOT, self.seq, *fields)

    def asks(self):
        return [(o.ask, o.index) for o in self.out if isinstance(o, st.Prompt) and o.ask]

    def rings(self):
        return [(o.ring, o.rgb) for o in self.out if isinstance(o, st.SetRing) and o.pattern == st.SOLID]

    def connect(self, readers=(1, 1, 1, 1, 1), dead=()):
        self.feed(self.ev(Hello, 1, "0.1.0", "table-4"))
        self.feed(snapshot(readers))
        for i, status in enumerate(readers):
            if status == P.READER_ALIVE and i not in dead:
                self.feed(self.ev(ReaderStatus, i, True, FW))
            elif status == P.READER_DEAD or i in dead:
                self.feed(self.ev(ReaderStatus, i, False, b"\0\0\0\0"))

    def hold_final_rings(self):
        final = {}
        for o in self.out:
            if isinstance(o, st.SetRing):
                final[o.ring] = o.state
        self.feed(snapshot(rings=[final.get(i, (0, 0, 0, 0, 0, 0)) for i in range(5)]))


def test_solid_is_the_firmware_pattern_id():
    """The SOLID ring pattern the self-test sends is firmware/rings.py's (docs/protocol.md: 8)."""
    rings = firmware_src.load("rings")          # the firmware's own file, its imports resolved
    assert (FIRMWARE_DIR / "rings.py").samefile(rings.__file__)
    assert (st.SOLID, st.OFF) == (rings.SOLID, rings.OFF) == (8, 0)


def test_walk_lights_each_ring_in_turn_and_asks_tap_then_press(board):
    run = Run(board)
    run.connect()
    for i in range(4):
        assert run.asks()[-1] == ("tap", i)
        assert run.rings()[-1] == (i, st.WHITE)
        run.feed(run.ev(LinkTap, i, b"\x04\x01\x02\x03\x04\x05\x06", None))
        assert run.asks()[-1] == ("press", i)
        assert run.rings()[-1] == (i, st.BLUE)
        run.feed(run.ev(Button, i, P.PRESS))
        assert (i, st.GREEN) in run.rings()
    assert run.asks()[-1] == ("tap", 4)                  # the centre: a tap, no button
    run.feed(run.ev(LinkTap, 4, b"\x04\x01\x02\x03", None))
    assert not run.test.done
    assert isinstance(run.out[-1], st.AskSnapshot)      # then the Pico must show the final rings
    run.hold_final_rings()
    assert run.test.done
    report = run.test.report()
    assert report.ok and report.exit_status == 0, report.render()
    assert [r for r, _ in run.rings()] == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4]
    assert "RESULT: PASS" in report.render()
    assert "PN532 1.6 [14443A,14443B,18092]" in report.render()


def test_timeouts_fail_that_tap_and_that_press_only(board):
    run = Run(board, step_timeout=5.0)
    run.connect()
    run.wait(5.1)                                        # no tap on seat 0
    assert run.asks()[-1] == ("press", 0)               # its button is still asked for
    run.feed(run.ev(Button, 0, P.PRESS))
    assert (0, st.RED) in run.rings()
    run.feed(run.ev(LinkTap, 1, b"\x04\x01\x02\x03", None))
    run.wait(5.1)                                        # no press on seat 1
    for i in (2, 3):
        run.feed(run.ev(LinkTap, i, b"\x04\x01\x02\x03", None))
        run.feed(run.ev(Button, i, P.PRESS))
    run.feed(run.ev(LinkTap, 4, b"\x04\x01\x02\x03", None))
    run.hold_final_rings()
    report = run.test.report()
    assert report.exit_status == 1
    assert len(report.problems) == 2
    assert report.problems[0].startswith("reader of seat 0 (CS GP17, RST GP10): no tap within 5 s")
    assert report.problems[1].startswith("button of seat 1 (GP3, active low): no press within 5 s")


def test_dead_reader_is_not_asked_and_is_named(board):
    run = Run(board)
    run.connect(readers=(1, 1, 2, 1, 1))
    for i in (0, 1):
        run.feed(run.ev(LinkTap, i, b"\x04\x01\x02\x03", None))
        run.feed(run.ev(Button, i, P.PRESS))
    assert run.asks()[-1] == ("press", 2)               # seat 2: no tap asked, straight to its button
    assert ("tap", 2) not in run.asks()
    run.feed(run.ev(Button, 2, P.PRESS))
    run.feed(run.ev(LinkTap, 3, b"\x04\x01\x02\x03", None))
    run.feed(run.ev(Button, 3, P.PRESS))
    run.feed(run.ev(LinkTap, 4, b"\x04\x01\x02\x03", None))
    run.hold_final_rings()
    report = run.test.report()
    assert [p for p in report.problems] == [report.positions[2].tap]
    assert report.problems[0].startswith("reader of seat 2 (CS GP7, RST GP12): dead")
    assert (2, st.RED) in run.rings() and (2, st.GREEN) not in run.rings()


def test_reader_dying_while_asked_fails_at_once(board):
    run = Run(board)
    run.connect()
    run.feed(run.ev(ReaderStatus, 0, False, b"\0\0\0\0"))
    assert run.asks()[-1] == ("press", 0)
    assert "died" in run.test.positions[0].tap


def test_stray_tap_and_press_are_noted_and_do_not_count(board):
    """Wiring check: a tap on reader 1 while reader 0 is asked (crossed chip-selects) is
    noted and passes neither position."""
    run = Run(board)
    run.connect()
    run.feed(run.ev(LinkTap, 1, b"\x04\x01\x02\x03", None))
    assert run.asks()[-1] == ("tap", 0)
    run.feed(run.ev(LinkTap, 0, b"\x04\x01\x02\x03", None))
    run.feed(run.ev(Button, 3, P.PRESS))
    run.feed(run.ev(Button, 0, P.RELEASE))               # not a press
    assert run.asks()[-1] == ("press", 0)
    notes = run.test.report().notes
    assert "a tap on the reader of seat 1 while tap at seat 0 was asked" in notes[0]
    assert "a press of the button of seat 3 while press at seat 0 was asked" in notes[1]


def test_no_answer_from_the_pico_fails_after_the_connect_timeout(board):
    run = Run(board, connect_timeout=2.0)
    run.wait(1.9)
    assert not run.test.done
    run.wait(0.2)
    assert run.test.done
    report = run.test.report()
    assert report.exit_status == 1 and not report.connected
    assert "no answer from the Pico on /dev/ttyTEST within 2 s" in report.problems[0]


def test_wrong_board_on_the_pico_and_a_reboot_are_problems(board):
    run = Run(board)
    run.feed(run.ev(Hello, 1, "0.1.0", "table-6"))
    run.feed(Snapshot(BOOT, 0, 1, 1, 0, bytes(7), bytes(6), ()))
    run.feed(Rebooted(BOOT, BOOT + 1))
    run.feed(Rebooted(None, BOOT + 1))                   # first contact is not a reboot
    problems = run.test.report().problems
    assert "flashed with board file 'table-6', not 'table-4'" in problems[0]
    assert "reports 7 readers and 6 buttons, the board file 5 and 4" in problems[1]
    assert "the Pico restarted during the self-test" in problems[2]
    assert len(problems) == 3


def test_version_not_reported_is_a_warning_and_not_a_pn532_is_a_problem(board):
    run = Run(board, inventory_s=1.0)
    run.feed(snapshot())                                 # no HELLO, no READER: acknowledged earlier
    run.feed(run.ev(ReaderStatus, 3, True, b"\x33\x01\x02\x07"))
    run.wait(1.0)
    report = run.test.report()
    assert len(report.warnings) == 4                     # seats 0, 1, 2 and the centre
    assert all("firmware version was not reported" in w for w in report.warnings)
    assert report.problems == ["reader of seat 3 (CS GP8, RST GP13): IC 0x33 (not a PN532) 1.2 [14443A,14443B,18092]"]
    assert run.asks()[-1] == ("tap", 0)                  # the walk began after the inventory time


def test_rings_not_held_by_the_pico_fail_after_the_ring_timeout(board):
    run = Run(board, rings_timeout=2.0)
    run.connect()
    for i in range(4):
        run.feed(run.ev(LinkTap, i, b"\x04\x01\x02\x03", None))
        run.feed(run.ev(Button, i, P.PRESS))
    run.feed(run.ev(LinkTap, 4, b"\x04\x01\x02\x03", None))
    new = run.feed(snapshot(rings=[(8, 0, 255, 0, 0, 0)] * 3 + [(0,) * 6] * 2))   # rings 3, 4 dark
    assert isinstance(new[-1], st.AskSnapshot)            # asks again: the RINGs may be on their way
    run.wait(2.1)
    report = run.test.report()
    assert run.test.done
    assert [p.ring for p in report.positions[:3]] == [True] * 3
    assert len(report.problems) == 2 and all("never reported the commanded state" in p for p in report.problems)


def test_link_incidents_are_noted(board):
    run = Run(board)
    run.connect()
    run.feed(Lost(BOOT, 9, 3))
    run.feed(run.ev(Log, "reader 2: no answer"))
    run.test.note("the serial port failed (x) and was reopened")
    notes = run.test.report().notes
    assert notes == ["3 event(s) of the Pico were lost (its queue overflowed)", "firmware says: reader 2: no answer",
                     "the serial port failed (x) and was reopened"]
    assert "Notes:" in run.test.report().render()


def test_describe_firmware():
    assert st.describe_firmware(FW) == "PN532 1.6 [14443A,14443B,18092]"
    assert st.describe_firmware(None) == "not reported"
    assert st.describe_firmware(b"\0\0\0\0") == "unknown"


def test_bad_timeouts_are_refused(board):
    with pytest.raises(ValueError):
        st.SelfTest(board, step_timeout=0)


def test_fail_ends_the_walk_and_leaves_the_rest_not_run(board):
    run = Run(board)
    run.connect()
    run.feed(run.ev(LinkTap, 0, b"\x04\x01\x02\x03", None))
    run.test.fail("interrupted before the end")
    assert run.test.done
    report = run.test.report()
    assert report.exit_status == 1 and report.problems == ["interrupted before the end"]
    text = report.render()
    assert re.search(r"seat 0 +alive .* ok +not run +not run", text), text
    assert re.search(r"seat 3 +alive .* not run +not run +not run", text), text
