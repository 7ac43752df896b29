"""``shengji-table enroll --station table`` against the virtual table: the command (a subprocess) owns
the serial link to the real firmware under MicroPython, over a pseudo-terminal; the test is the
hand that lays cards on the centre reader — SIM_PLACE frames slipped into the line towards the Pico,
as a card laid on a real reader would reach the firmware — and the keyboard (``u`` to undo).
"""
import queue
import subprocess
import sys
import threading
from pathlib import Path


from shengji_table.rules.cards import parse_copy
from shengji_table.sim.virtual_table import VirtualTable
from shengji_table.table import protocol as P
from shengji_table.table.card_code import encode_card_code
from shengji_table.table.registry import DeckSet, standard_order

EXE = Path(sys.executable).parent / "shengji-table"    # the venv's console script, as a user runs it
CENTRE = 4                                   # boards/table-4.json: reader index 4 is the centre


class Hand:
    """Lays cards on a reader of the virtual table with SIM frames of its own sender id."""

    def __init__(self, table):
        self.table = table
        self.writer = P.Writer(b"HAND")
        self.out = bytearray(P.MAX_FRAME)
        self.seq = 0

    def place(self, uid: bytes, pages: bytes = b"", reader: int = CENTRE) -> None:
        self.seq += 1
        n = P.encode_sim_place(self.writer, self.out, self.seq, reader, uid, pages)
        # A leading delimiter ends any host frame cut in two by this write; ours then arrives whole.
        self.table.inject(b"\x00" + bytes(self.out[:n]), towards="pico")


class Lines:
    """The command's stdout, line by line, with a timeout."""

    def __init__(self, stream):
        self.q: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()
        self.seen: list = []

    def _read(self, stream):
        for line in stream:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def until(self, text: str, timeout: float = 10.0) -> str:
        while True:
            line = self.q.get(timeout=timeout)
            if line is None:
                raise AssertionError(f"the command ended before {text!r}; it said: {self.seen[-5:]}")
            self.seen.append(line)
            if text in line:
                return line


def lay(hand, lines, uid_: bytes, expect: str, pages: bytes = b"") -> str:
    """Lay a card and wait for the command's line about it.  A SIM frame can be lost on the line
    (the host's own frames share it); laying the same card again is harmless — the firmware sees
    the same UID held, not a new tap — so the hand simply tries again."""
    for _ in range(3):
        hand.place(uid_, pages)
        try:
            return lines.until(expect, timeout=5.0)
        except queue.Empty:
            continue
    raise AssertionError(f"no {expect!r} after laying {uid_.hex()} three times; it said: {lines.seen[-5:]}")


def uid(n):
    return b"\x04\x7a\x00\x00\x00" + n.to_bytes(2, "big")


def test_enroll_on_the_virtual_tables_centre_reader(tmp_path):
    """One deck enrolled through the table's own reader: every card accepted in order, a card laid
    twice refused with the card it already is, ``u`` typed to undo, a coded card of another deck
    set refused; the saved deck set maps each UID to its card."""
    with VirtualTable() as vt:
        proc = subprocess.Popen(
            [str(EXE), "enroll", "--deck-set", "vt.json", "--name", "vt", "--decks", "1", "--id", "77",
             "--station", "table", "--device", vt.device, "--reader", str(CENTRE)],
            cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            out = Lines(proc.stdout)
            hand = Hand(vt)
            order = standard_order(1)
            out.until("tap S2#1")
            for n in range(3):
                lay(hand, out, uid(n), f"{n + 1}/54 {order[n]} = tag {uid(n).hex()}")
            refused = lay(hand, out, uid(0), "refused:")               # S2#1's card again
            assert "already enrolled as S2#1; still waiting for S5#1" in refused
            proc.stdin.write("u\n")
            proc.stdin.flush()
            out.until("undone: S4#1")
            foreign = encode_card_code(parse_copy("HA#1"), 99)
            assert "deck set 99" in lay(hand, out, uid(500), "refused:", foreign)
            for n in range(2, 54):
                lay(hand, out, uid(n), f"{n + 1}/54 {order[n]} = tag {uid(n).hex()}")
            out.until("saved vt.json")
            assert proc.wait(timeout=20) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    ds = DeckSet.load(tmp_path / "vt.json")
    assert ds.complete and ds.id == 77
    assert [ds.cards[uid(n).hex()] for n in range(54)] == order


def test_deck_check_on_the_virtual_tables_centre_reader(tmp_path):
    """``deck check --station table``: a deck laid card by card on the centre reader, one card
    missing, one laid twice, one unknown tag; the report names exactly those, exit status 1."""
    order = standard_order(1)
    DeckSet("vt", 77, 1, {uid(n).hex(): c for n, c in enumerate(order)}).save(tmp_path / "vt.json")
    with VirtualTable() as vt:
        proc = subprocess.Popen(
            [str(EXE), "deck", "check", "--deck-set", "vt.json", "--station", "table", "--device", vt.device,
             "--reader", str(CENTRE)],
            cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            out = Lines(proc.stdout)
            hand = Hand(vt)
            out.until("checking deck set 'vt'")
            laid = [n for n in range(54) if n != 10] + [20]
            for n in laid:
                lay(hand, out, uid(n), f"{order[n]}")
            lay(hand, out, uid(999), "refused: unknown card")
            proc.stdin.write("q\n")
            proc.stdin.flush()
            out.until("53 cards seen")
            assert out.until("missing:") == f"missing: {order[10]}"
            assert out.until("tapped more than once:") == f"tapped more than once: {order[20]}×2"
            assert out.until("foreign tags:") == f"foreign tags: {uid(999).hex()}"
            assert proc.wait(timeout=20) == 1
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
