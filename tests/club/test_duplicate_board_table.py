"""A table playing a duplicate board: ``shengji-table demo --duplicate-board FILE:K`` (the real firmware
under MicroPython, bots at the seats) deals the board's stack with its dealer and level, names the
board in its log's start row, and the club — round started with that board — replays the hand
from its own copy of the board and records it under that board."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from clubkit import club, feed_table, kept  # noqa: E402

from shengji_table.club.boards import boards_file_text, make_boards  # noqa: E402
from shengji_table.club.rounds import add_partnerships, plan_round, start_planned  # noqa: E402
from shengji_table.store.log import EventLog  # noqa: E402

BOARDS = make_boards(4, "classic", 12)


def _demo(tmp_path, *args):
    return subprocess.run([sys.executable, "-m", "shengji_table", "demo", "--plain", "--bots", "random", *args],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path)


@pytest.mark.parametrize("mode", ["scanned", "open"])
def test_demo_plays_the_board_and_the_club_scores_it_under_that_board(tmp_path, mode):
    pytest.importorskip("shengji_table.micropython")
    (tmp_path / "boards.json").write_text(boards_file_text(BOARDS, "classic", 12))
    server = club(tmp_path / "club.sqlite", tables=("T1",))
    add_partnerships(server.db, "Tue", (("Li", "Zhao"), ("Wang", "Chen")))
    start_planned(server.db, plan_round(server.db, "Tue", 1, "round-robin", boards=("classic", BOARDS)), by="test")
    r = _demo(tmp_path, "--duplicate-board", "boards.json:2", "--mode", mode, "--log", "t1.db",
              "--players", "Li,Wang,Zhao,Chen")
    if r.returncode == 2 and "MicroPython" in r.stderr:
        pytest.skip(r.stderr.strip())
    assert r.returncode == 0, r.stderr
    board = BOARDS[1]
    log = kept(EventLog(tmp_path / "t1.db"))
    start = next(e.payload["start"] for e in log.entries(kind="meta") if "start" in e.payload)
    assert start["duplicate"] == {"number": 2, "checksum": board.checksum, "dealer": 1, "level": board.level}
    deal = log.game_events("default")[0]
    if mode == "scanned":                         # the host deals the board's stack: every draw is its next card
        assert deal["order"] == [str(c) for c in board.order]
        draws = [e["copy"] for e in log.game_events("default") if e["type"] == "draw"]
        assert draws == [str(c) for c in board.order[:len(draws)]]
    assert set(feed_table(server, "T1", log)) == {"stored"}
    assert server.db.one("SELECT COUNT(*) FROM refusals") == 0
    summary = json.loads(server.db.one("SELECT summary FROM hands"))
    assert summary["dealer"] == board.dealer and summary["level"] == board.level
    got = server.db.q("SELECT b.number, r.side, r.declarer FROM results r JOIN boards b ON b.id = r.board_id "
                      "ORDER BY r.side")
    assert got == [(2, "02", 0), (2, "13", 1)]        # dealer seat 1: east–west declare


def test_a_bad_duplicate_board_is_refused_before_the_table_starts(tmp_path):
    (tmp_path / "boards.json").write_text(boards_file_text(BOARDS, "classic", 12))
    for arg, words in (("boards.json:9", "holds boards 1..4, not 9"), ("boards.json", "is FILE:K"),
                       ("nope.json:1", "cannot read nope.json")):
        r = _demo(tmp_path, "--duplicate-board", arg)
        assert r.returncode == 2 and words in r.stderr, (arg, r.stderr)
    r = _demo(tmp_path, "--duplicate-board", "boards.json:1", "--preset", "one-deck")
    assert r.returncode == 2 and "preset 'classic''s rules" in r.stderr


def test_serve_deals_the_board_names_it_in_the_log_and_resumes(tmp_path):
    """``serve --duplicate-board``: the real serve over pyserial on a pseudo-terminal (the firmware's
    link code as the Pico): the board's stack dealt, its dealer announced, the board in the start
    row; a restart resumes the same match from the log."""
    import signal

    from shengji_table.sim.cpython_pico import CPythonPico
    from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from processes import read_until
    (tmp_path / "boards.json").write_text(boards_file_text(BOARDS, "classic", 12))
    sim_deck_set(2).save(tmp_path / "deck.json")
    args = ["--board", str(DEFAULT_BOARD), "--deck-set", "deck.json", "--log", "t.db", "--plain",
            "--duplicate-board", "boards.json:3"]
    with CPythonPico() as pico:
        for expect in ("new match", "resumed match"):
            p = subprocess.Popen([sys.executable, "-m", "shengji_table", "serve", "--device", pico.device, *args],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
            read_until(p, expect)
            read_until(p, "table connected")
            p.send_signal(signal.SIGINT)
            _, err = p.communicate(timeout=20)
            assert p.returncode == 0, err
    log = kept(EventLog(tmp_path / "t.db"))
    start = next(e.payload["start"] for e in log.entries(kind="meta") if "start" in e.payload)
    assert start["duplicate"]["number"] == 3 and start["duplicate"]["checksum"] == BOARDS[2].checksum
    games = log.game_events("table")
    assert [g["type"] for g in games] == ["deal"] and games[0]["order"] == [str(c) for c in BOARDS[2].order]


def test_the_controller_restored_from_its_log_keeps_the_boards_dealer_and_level():
    from shengji_table.club.boards import board_deal_for, board_match_start
    from shengji_table.rules.ruleset import Ruleset
    from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set
    from shengji_table.table.controller import Controller
    rs, board = Ruleset.from_preset("classic"), BOARDS[2]
    layout = json.loads(DEFAULT_BOARD.read_text())

    def make():
        return Controller(rs, "scanned", layout, sim_deck_set(2), board_deal_for("scanned", board),
                          start=board_match_start(board, rs))
    first = make()
    first.start()
    hand = first.match.hand
    assert (hand.dealer, hand.level, hand.stack) == (board.dealer, board.level, board.order)
    again = make()
    again.restore([e.to_json() for e in first.match.events], first.state_json())
    assert (again.match.hand.dealer, again.match.hand.level) == (board.dealer, board.level)
    assert board_deal_for("scanned", board)(2) is None          # a board is one hand
