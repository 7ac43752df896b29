"""``club boards check --device`` against the virtual table: the command owns the serial link to the
real firmware under MicroPython, over a pseudo-terminal; the test lays the board's cards on the
centre reader (SIM_PLACE frames towards the Pico), one wrong card among them, and types ``u``."""
import json
import subprocess
import sys
from pathlib import Path

from shengji_table.club.boards import boards_to_json, make_boards
from shengji_table.sim.virtual_table import VirtualTable
from shengji_table.table.registry import DeckSet, standard_order

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "table"))
from test_enroll_virtual_table import CENTRE, Hand, Lines, lay, uid  # noqa: E402


def test_boards_check_on_the_virtual_tables_centre_reader(tmp_path):
    """A one-deck board stacked on the centre reader: each card accepted at its position, a wrong
    card refused with its position and the expected card, ``u`` takes the last card back; exit 0."""
    order = standard_order(1)
    DeckSet("vt", 77, 1, {uid(n).hex(): c for n, c in enumerate(order)}).save(tmp_path / "vt.json")
    board = make_boards(2, "one-deck", 5)[1]
    (tmp_path / "b.json").write_text(json.dumps(boards_to_json(make_boards(2, "one-deck", 5), "one-deck", 5)))
    tag = {c: uid(n) for n, c in enumerate(order)}
    with VirtualTable() as vt:
        proc = subprocess.Popen(
            [sys.executable, "-m", "shengji_table", "club", "boards", "check", "--board", "b.json", "--number", "2",
             "--deck-set", "vt.json", "--device", vt.device, "--reader", str(CENTRE)],
            cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            out = Lines(proc.stdout)
            hand = Hand(vt)
            out.until("board 2: dealer seat 1")
            for n, c in enumerate(board.order[:10]):
                lay(hand, out, tag[c], f"card {n + 1}/54: {c.card.unicode()}")
            wrong = next(c for c in board.order[11:] if c.card is not board.order[10].card)
            refused = lay(hand, out, tag[wrong], "refused:")
            assert refused == (f"refused: card 11: expected {board.order[10].card.unicode()}, "
                               f"got {wrong.card.unicode()}")
            proc.stdin.write("u\n")
            proc.stdin.flush()
            out.until(f"took back card 10: {board.order[9].card.unicode()}")
            for n, c in enumerate(board.order[9:], start=9):
                lay(hand, out, tag[c], f"card {n + 1}/54: {c.card.unicode()}")
            out.until("board 2 stacked: 54 cards in order")
            assert proc.wait(timeout=20) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
