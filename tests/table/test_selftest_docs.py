"""The example report in docs/hardware.md ("Self-test of a freshly built table") is what the self-test
prints today for that table: seat 2's reader dead, everything else answering."""
import pathlib
import re

from shengji_table.board import load_board
from shengji_table.hardware.build import BOARDS_DIR
from shengji_table.table import protocol as P
from shengji_table.table import selftest as st
from shengji_table.table.session import Button, Hello, ReaderStatus, Snapshot, LinkTap

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]

BOOT = 0x51F7


def example_report() -> str:
    """The walk of docs/hardware.md's example, fed to the step machine event by event."""
    board = load_board(BOARDS_DIR / "table-4.json")
    test = st.SelfTest(board, device="/dev/ttyACM0", step_timeout=30)
    t, seq, out = 0.0, 0, []

    def feed(cls, *fields):
        nonlocal t, seq
        t += 0.5
        if cls is Snapshot:
            out.extend(test.feed(Snapshot(BOOT, *fields), t))
            return
        seq += 1
        out.extend(test.feed(cls(BOOT, seq, *fields), t))

    out.extend(test.start(t))
    feed(Hello, 1, "0.1.0", "table-4")
    feed(Snapshot, 0, 1, 7, 0, bytes([1, 1, 2, 1, 1]), bytes(4), ())
    for reader in range(5):
        feed(ReaderStatus, reader, reader != 2, b"\x32\x01\x06\x07" if reader != 2 else bytes(4))
    for seat in range(4):
        if seat != 2:
            feed(LinkTap, seat, bytes([4, 1, 2, 3, 4, 5, seat]), None)
        feed(Button, seat, P.PRESS)
    feed(LinkTap, 4, bytes([4, 1, 2, 3, 4, 5, 4]), None)
    final = {o.ring: o.state for o in out if isinstance(o, st.SetRing)}
    feed(Snapshot, 0, 1, 7, 0, bytes([1, 1, 2, 1, 1]), bytes(4), tuple(final[i] for i in range(5)))
    assert test.done
    return test.report().render()


def test_selftest_docs_example_is_current():
    page = (REPO_ROOT / "docs" / "hardware.md").read_text(encoding="utf-8")
    section = page.split("## Self-test of a freshly built table", 1)
    assert len(section) == 2, "docs/hardware.md lost its self-test section"
    blocks = re.findall(r"```text\n(.*?)```", section[1], re.S)
    assert blocks, "no example report in the self-test section"
    assert blocks[0].rstrip("\n") == example_report(), "the example report in docs/hardware.md is stale"
