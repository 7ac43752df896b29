"""``shengji-table serve`` as a user runs it (a separate process, real pyserial on a pseudo-terminal
with the firmware's link code as the Pico), its errors, and the terminal view of the demo (rings
in colour, no hidden information)."""
import json
import pathlib
import signal
import subprocess
import sys

import pytest

from shengji_table.rules.ruleset import Ruleset
from shengji_table.sim.cpython_pico import CPythonPico
from shengji_table.sim.players import deal_for, hand_seeds, play_direct
from shengji_table.face.terminal import TableView
from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set
from shengji_table.table.controller import Controller

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from processes import read_until  # noqa: E402

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]

SERVE = [sys.executable, "-m", "shengji_table", "serve"]
BOARD = json.loads(DEFAULT_BOARD.read_text())


def serve(args, **kw):
    return subprocess.Popen(SERVE + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=str(REPO_ROOT), **kw)




def test_serve_starts_a_match_stops_on_ctrl_c_and_resumes_from_its_log(tmp_path):
    deck = tmp_path / "deck.json"
    sim_deck_set(2).save(deck)
    log = tmp_path / "table.db"
    args = ["--board", str(DEFAULT_BOARD), "--deck-set", str(deck), "--log", str(log), "--mode", "scanned"]
    with CPythonPico() as pico:
        p = serve(["--device", pico.device] + args)
        out = read_until(p, "new match")
        assert "classic, scanned hands" in out
        assert "Hand 1: dealing" in out                # the first hand is dealt (announced)
        read_until(p, "table connected")
        p.send_signal(signal.SIGINT)
        rest, err = p.communicate(timeout=10)
        assert p.returncode == 0, err
        assert "stopped" in rest
        p = serve(["--device", pico.device] + args)
        read_until(p, "resumed match 'table'")
        p.send_signal(signal.SIGINT)
        p.communicate(timeout=10)
        assert p.returncode == 0


def test_serve_errors_are_sentences_not_tracebacks(tmp_path):
    deck = tmp_path / "deck.json"
    sim_deck_set(1).save(deck)
    p = serve(["--board", str(DEFAULT_BOARD), "--deck-set", str(tmp_path / "missing.json"), "--device", "loop://"])
    out, err = p.communicate(timeout=20)
    assert p.returncode == 2 and "cannot read deck set" in err and "Traceback" not in err
    p = serve(["--board", str(DEFAULT_BOARD), "--deck-set", str(deck), "--device", "loop://",
               "--log", str(tmp_path / "x.db")])
    out, err = p.communicate(timeout=20)
    assert p.returncode == 2 and "has 1 decks" in err and "Traceback" not in err
    p = serve(["--board", str(tmp_path / "nope.json"), "--deck-set", str(deck)])
    out, err = p.communicate(timeout=20)
    assert p.returncode == 2 and "bad board file" in err and "cannot read the file" in err


def test_table_view_draws_rings_in_colour_and_hides_the_hands():
    rs = Ruleset.from_preset("one-deck")
    ref = play_direct(rs, "scanned", 7, 1)
    board = json.loads(DEFAULT_BOARD.read_text())
    c = Controller(rs, "scanned", board, sim_deck_set(1), deal_for("scanned", hand_seeds(7, 1)))
    # replay to the middle of trick 4 through the controller's own effects (rings set)
    for e in ref.events:
        hand = c.match.hand
        if hand is not None and len(hand.tricks) == 4 and hand.trick:
            break
        out_rows = []
        c._game(e, type("O", (), {"rows": out_rows, "rings": [], "texts": [], "refusals": [],
                                  "game_events": []})())
    view = TableView(c, plain=False, title="t")
    text = view.render()
    assert "\x1b[38;2;" in text                          # 24-bit colour cells
    assert text.count("seat ") >= 4 and "centre" in text
    hand = c.match.hand
    assert "Trick: " in text
    hidden = [x.card.unicode() for s in range(4) for x in hand.hand_copies(s)]
    hidden += [x.card.unicode() for x in hand.buried]
    visible = text.split("Trick: ")[1]
    for face in hidden:                                 # one deck: a face names one card
        assert face not in visible, f"{face} is in a hand or the kitty but shown"
    # the turn ring is drawn as the firmware draws it: a comet (some pixels lit, some dark)
    px = view.ring_pixels(hand.turn, 0.0)
    assert any(p != (0, 0, 0) for p in px) and any(p == (0, 0, 0) for p in px)


def _bad_board(change):
    board = json.loads(json.dumps(BOARD))
    return change(board)


def _dup_cs(board):
    board["readers"][1]["cs"] = board["readers"][0]["cs"]
    return board


BAD_BOARDS = {
    "a list": lambda b: [b],
    "readers null": lambda b: {**b, "readers": None},
    "seats a word": lambda b: {**b, "seats": "four"},
    "a chip-select pin used twice": _dup_cs,
    "no spi section": lambda b: {k: v for k, v in b.items() if k != "spi"},
}


def _serve_refused(argv, tmp_path):
    """Run serve on ``loop://`` (nothing answers there); it must stop at once with an error, never
    start the match (which would wait for the table: the timeout turns that into a failure)."""
    log = tmp_path / "table.db"
    p = serve(["--device", "loop://", "--log", str(log)] + argv)
    try:
        out, err = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        raise AssertionError(f"serve started instead of refusing:\n{out}{err}") from None
    assert "Traceback" not in err, err
    assert not log.exists(), "nothing may start on a refused option"
    return p.returncode, err


@pytest.mark.parametrize("what", list(BAD_BOARDS))
def test_serve_refuses_an_invalid_board_with_the_board_validator(what, tmp_path):
    """serve reads the board with board.load_board, as flash and selftest do: a board of
    the wrong types, or one that uses a pin twice or lacks its SPI bus, is refused (exit 2) before
    the match starts, and the log is not created."""
    deck = tmp_path / "deck.json"
    sim_deck_set(2).save(deck)
    board = tmp_path / "board.json"
    board.write_text(json.dumps(_bad_board(BAD_BOARDS[what])))
    code, err = _serve_refused(["--board", str(board), "--deck-set", str(deck)], tmp_path)
    assert code == 2 and f"bad board file {board}" in err, err
    if what == "a chip-select pin used twice":
        assert f"GP{BOARD['readers'][0]['cs']} is used twice" in err


def test_serve_refuses_a_board_file_that_is_not_utf8(tmp_path):
    deck = tmp_path / "deck.json"
    sim_deck_set(2).save(deck)
    board = tmp_path / "board.json"
    board.write_bytes(b"\xff\xfe\x00bad")
    code, err = _serve_refused(["--board", str(board), "--deck-set", str(deck)], tmp_path)
    assert code == 2 and "not UTF-8 text" in err


def test_serve_refuses_a_deck_set_file_that_is_not_utf8(tmp_path):
    deck = tmp_path / "deck.json"
    deck.write_bytes(b"\xff\xfe\x00bad")
    code, err = _serve_refused(["--board", str(DEFAULT_BOARD), "--deck-set", str(deck)], tmp_path)
    assert code == 2 and f"deck set {deck} is not UTF-8 text" in err


@pytest.mark.parametrize("kept", [0, 3, 107])
def test_serve_refuses_an_incomplete_deck_set_naming_the_count(kept, tmp_path):
    """An unfinished enrolment (or an empty set) is refused before the match starts: in scanned
    hands every card it lacks would be an "unknown tag" at the table, one tap at a time."""
    full = sim_deck_set(2)
    from shengji_table.table.registry import DeckSet
    partial = DeckSet(full.name, full.id, 2, dict(list(full.cards.items())[:kept]))
    deck = tmp_path / "deck.json.partial"
    partial.save(deck)
    code, err = _serve_refused(["--board", str(DEFAULT_BOARD), "--deck-set", str(deck)], tmp_path)
    assert code == 2 and f"has {kept} of 108 cards" in err and "enroll" in err, err


def test_serve_refuses_negative_hands(tmp_path):
    deck = tmp_path / "deck.json"
    sim_deck_set(2).save(deck)
    code, err = _serve_refused(["--board", str(DEFAULT_BOARD), "--deck-set", str(deck), "--hands", "-1"],
                               tmp_path)
    assert code == 2 and err == "error: --hands is at least 0\n"
