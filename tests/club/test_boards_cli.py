"""``club boards make|check`` as a subprocess (``python -m shengji_table club boards``): the board
file, and a stacked deck checked from a taps file — a wrong card refused with its position."""
import json
import subprocess
import sys

from shengji_table.club.boards import make_boards
from shengji_table.club.deck_check import StackCheck
from shengji_table.rules.cards import parse_copy
from shengji_table.table.registry import DeckSet, standard_order


def boards_cmd(*args, cwd):
    return subprocess.run([sys.executable, "-m", "shengji_table", "club", "boards", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)


def uid(n):
    return (b"\x04" + n.to_bytes(6, "big")).hex()


def deck_set(tmp_path, decks=2):
    order = standard_order(decks)
    ds = DeckSet("club", 31, decks, {uid(n): c for n, c in enumerate(order)})
    path = tmp_path / "deck.json"
    ds.save(path)
    return path, {c: uid(n) for n, c in enumerate(order)}


def test_boards_make_writes_the_file_and_check_accepts_the_stack_in_order(tmp_path):
    r = boards_cmd("make", "--count", 3, "--preset", "classic", "--seed", 9, "--out", "b.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    data = json.loads((tmp_path / "b.json").read_text())
    assert data["count"] == 3 and all(b["checksum"].startswith("sha256:") for b in data["boards"])
    board = make_boards(3, "classic", 9)[1]
    path, uids = deck_set(tmp_path)
    (tmp_path / "taps.txt").write_text("\n".join(uids[c] for c in board.order) + "\n")
    r = boards_cmd("check", "--board", "b.json", "--number", 2, "--deck-set", path, "--taps", "taps.txt",
                   cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.rstrip().endswith("board 2 stacked: 108 cards in order")
    assert "refused" not in r.stdout


def test_boards_check_refuses_a_wrong_card_with_its_position_and_goes_on(tmp_path):
    boards_cmd("make", "--count", 1, "--seed", 4, "--out", "b.json", cwd=tmp_path)
    board = make_boards(1, "classic", 4)[0]
    path, uids = deck_set(tmp_path)
    order = list(board.order)
    wrong = next(c for c in order[17:] if c.card is not order[16].card)
    lines = [uids[c] for c in order[:16]] + [uids[wrong], "04aabbccddeeff", uids[order[3]]]
    lines += [uids[c] for c in order[16:]]
    (tmp_path / "taps.txt").write_text("\n".join(lines) + "\n")
    r = boards_cmd("check", "--board", "b.json", "--number", 1, "--deck-set", path, "--taps", "taps.txt",
                   cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout.splitlines()
    assert f"refused: card 17: expected {order[16].card.unicode()}, got {wrong.card.unicode()}" in out
    assert "refused: card 17: unknown card: tag 04aabbccddeeff is not in this deck set" in out
    assert f"refused: card 17: {order[3]} was already laid as card 4" in out


def test_boards_check_with_taps_ending_early_exits_1_naming_the_next_card(tmp_path):
    boards_cmd("make", "--count", 1, "--seed", 4, "--out", "b.json", cwd=tmp_path)
    board = make_boards(1, "classic", 4)[0]
    path, uids = deck_set(tmp_path)
    (tmp_path / "taps.txt").write_text("\n".join(uids[c] for c in board.order[:50]) + "\n")
    r = boards_cmd("check", "--board", "b.json", "--number", 1, "--deck-set", path, "--taps", "taps.txt",
                   cwd=tmp_path)
    assert r.returncode == 1
    assert r.stdout.rstrip().endswith(f"board 1 not stacked: 50 of 108 cards in order; next is card 51, "
                                      f"{board.order[50].card.unicode()}")


def test_boards_bad_input_exits_2_with_the_reason_and_writes_nothing(tmp_path):
    r = boards_cmd("make", "--count", 0, "--seed", 1, "--out", "b.json", cwd=tmp_path)
    assert r.returncode == 2 and "count of boards is 1 to 999, not 0" in r.stderr
    r = boards_cmd("make", "--count", 2, "--preset", "nope", "--seed", 1, "--out", "b.json", cwd=tmp_path)
    assert r.returncode == 2 and "unknown preset 'nope'" in r.stderr
    r = boards_cmd("make", "--count", 2, "--seed", 1, "--out", "no/such/b.json", cwd=tmp_path)
    assert r.returncode == 2 and "does not exist" in r.stderr
    assert not (tmp_path / "b.json").exists()
    boards_cmd("make", "--count", 2, "--seed", 1, "--out", "b.json", cwd=tmp_path)
    data = json.loads((tmp_path / "b.json").read_text())
    data["boards"][1]["order"][0], data["boards"][1]["order"][1] = data["boards"][1]["order"][1:3][::-1]
    (tmp_path / "bad.json").write_text(json.dumps(data))
    path, _ = deck_set(tmp_path)
    (tmp_path / "one").mkdir()
    one_deck, _ = deck_set(tmp_path / "one", decks=1)
    (tmp_path / "t.txt").write_text("")
    cases = [(("--board", "bad.json", "--number", 2), "board 2: bad checksum"),
             (("--board", "b.json", "--number", 3), "holds boards 1..2, not 3"),
             (("--board", "missing.json", "--number", 1), "cannot read missing.json"),
             (("--board", "t.txt", "--number", 1), "is not JSON")]
    for extra, words in cases:
        r = boards_cmd("check", *extra, "--deck-set", path, "--taps", "t.txt", cwd=tmp_path)
        assert r.returncode == 2 and words in r.stderr, (extra, r.stderr)
    r = boards_cmd("check", "--board", "b.json", "--number", 1, "--deck-set", one_deck, "--taps", "t.txt",
                   cwd=tmp_path)
    assert r.returncode == 2 and "played with 2 deck(s)" in r.stderr
    r = boards_cmd("check", "--board", "b.json", "--number", 1, "--deck-set", path, cwd=tmp_path)
    assert r.returncode == 2 and "say where the taps come from" in r.stderr


def test_stack_check_undo_and_either_copy_of_a_face():
    order = [parse_copy(x) for x in ("H9#1", "S9#1", "H9#2")]
    check = StackCheck(order, 1)
    assert check.tap(parse_copy("H9#2")).ok                      # the other copy of ♥9 will do
    assert not check.tap(parse_copy("H9#2")).ok                  # but not the same card twice
    assert check.undo() == parse_copy("H9#2") and check.position == 1
    assert check.tap(parse_copy("H9#1")).ok and check.tap(parse_copy("S9#2")).ok
    assert check.tap(parse_copy("H9#2")).ok and check.done
    assert check.stack() == (parse_copy("H9#1"), parse_copy("S9#2"), parse_copy("H9#2"))
    assert "one too many" in check.tap(parse_copy("S9#1")).text
