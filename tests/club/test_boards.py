"""Duplicate boards (club/boards.py) and the game hook that plays a hand from one (R-6.6, R-7.1)."""
import copy
import json

import pytest

from shengji_table.club import boards as bd
from shengji_table.game.bots import make_bot
from shengji_table.game.match import Match
from shengji_table.rules.cards import all_copies


def _file(count=4, preset="classic", seed=7):
    return bd.boards_to_json(bd.make_boards(count, preset, seed), preset, seed)


def test_boards_same_seed_same_boards_and_each_a_whole_deck():
    a, b = bd.make_boards(6, "classic", 7), bd.make_boards(6, "classic", 7)
    assert a == b and a != bd.make_boards(6, "classic", 8)
    assert len({x.order for x in a}) == 6                       # every board a different deal
    for board in a:
        assert sorted(board.order, key=str) == sorted(all_copies(2), key=str)


def test_boards_rotate_dealer_and_cycle_levels():
    boards = bd.make_boards(14, "one-deck", 1)
    assert [b.dealer for b in boards[:5]] == [0, 1, 2, 3, 0]
    assert [b.level for b in boards] == list(range(2, 15)) + [2]
    assert len(boards[0].order) == 54


def test_board_file_round_trips():
    rs, boards = bd.boards_from_json(json.loads(json.dumps(_file())))
    assert rs.preset == "classic" and boards == bd.make_boards(4, "classic", 7)


@pytest.mark.parametrize("spoil, words", [
    (lambda d: d["boards"][2]["order"].reverse(), "board 3: bad checksum"),
    (lambda d: d["boards"][0].update(level=9), "board 1: bad checksum"),
    (lambda d: d["boards"].pop(), "says it holds 4 boards but holds 3"),
    (lambda d: d.update(preset="nope"), "unknown preset 'nope'"),
    (lambda d: d.update(preset="find-friend-5"), "not for duplicate"),
    (lambda d: d.update(format="x"), "not a board file"),
    (lambda d: d.update(version=2), "version 2"),
    (lambda d: d["boards"][1].update(dealer=4), "board 2: the dealer is a seat 0..3"),
    (lambda d: d["boards"][1].update(trump="spades"), "board 2: the trump rule"),
    (lambda d: d["boards"][1]["order"].__setitem__(0, "Z9#1"), "board 2:"),
    (lambda d: d["boards"][1].pop("checksum"), "board 2 has the fields"),
])
def test_board_file_bad_input_is_refused_with_the_reason(spoil, words):
    data = copy.deepcopy(_file())
    spoil(data)
    with pytest.raises(bd.BoardError) as exc:
        bd.boards_from_json(data)
    assert words in str(exc.value)


def test_board_with_a_card_missing_but_a_fresh_checksum_is_refused():
    """A board re-checksummed after a card was swapped for a second copy of another: not a deck."""
    b = bd.make_boards(1, "classic", 3)[0]
    bad = bd.Board(1, b.dealer, b.level, b.trump, (b.order[1],) + b.order[1:])
    data = {**_file(1, seed=3), "boards": [bad.to_json()]}
    with pytest.raises(bd.BoardError, match="each of the 108 cards"):
        bd.boards_from_json(data)


@pytest.mark.parametrize("count", [0, -1, 1000, True])
def test_make_boards_refuses_a_bad_count(count):
    with pytest.raises(bd.BoardError, match="count of boards"):
        bd.make_boards(count)


def test_play_board_deals_the_board_from_its_dealer_at_its_level():
    """R-7.1: the dealer draws first and the cards come off the board's stack in order; the level
    is the board's; R-6.6's first-hand rule does not apply: the board names the dealer."""
    rs = bd.duplicate_ruleset("classic")
    board = bd.make_boards(2, "classic", 11)[1]
    match = bd.play_board(board, rs, [make_bot("heuristic", s) for s in range(4)])
    hand = match.played_hands[0]
    assert hand.dealer == board.dealer == 1 and hand.level == board.level == 3
    for i, c in enumerate(board.order[:100]):
        seat = (board.dealer + i) % 4
        assert hand.dealt[seat][i // 4] == c
    assert tuple(hand.dealt_kitty) == board.order[100:]
    assert hand.result is not None and set(hand.result.declarers) == {1, 3}


def test_a_board_played_twice_with_the_same_bots_gives_the_same_result():
    rs = bd.duplicate_ruleset("classic")
    board = bd.make_boards(1, "classic", 5)[0]
    results = [bd.play_board(board, rs, [make_bot("heuristic", s) for s in range(4)]).summaries[0]["result"]
               for _ in range(2)]
    assert results[0] == results[1]


def test_open_play_deals_the_board_too():
    rs = bd.duplicate_ruleset("classic")
    board = bd.make_boards(1, "classic", 5)[0]
    scanned = bd.play_board(board, rs, [make_bot("heuristic", s) for s in range(4)])
    opened = bd.play_board(board, rs, [make_bot("heuristic", s) for s in range(4)], mode="open")
    assert opened.summaries[0]["result"]["attackers_points"] == scanned.summaries[0]["result"]["attackers_points"]


def test_match_start_levels_and_dealer_are_checked():
    rs = bd.duplicate_ruleset("classic")
    with pytest.raises(ValueError, match="the dealer is a seat"):
        Match(rs, dealer=4)
    with pytest.raises(ValueError, match="levels are 4 levels"):
        Match(rs, levels=(2, 2, 15, 2))
    assert Match(rs).levels == [2, 2, 2, 2] and Match(rs).dealer is None    # the default is R-6.6's


def test_board_file_text_is_the_json_one_board_a_line():
    boards = bd.make_boards(3, "classic", 7)
    text = bd.boards_file_text(boards, "classic", 7)
    assert json.loads(text) == bd.boards_to_json(boards, "classic", 7)
    assert sum(1 for line in text.splitlines() if '"checksum"' in line) == 3


def test_a_board_played_keeps_its_start_in_the_match_record_and_replays():
    """The record of a board's hand names its levels and dealer; replay rebuilds the same hand
    (the club re-runs the rules on every hand it receives)."""
    from shengji_table.game import record as rec
    rs = bd.duplicate_ruleset("classic")
    board = bd.make_boards(7, "classic", 2)[6]
    match = bd.play_board(board, rs, [make_bot("heuristic", s) for s in range(4)])
    data = rec.loads(rec.dumps(rec.to_record(match)))
    assert data["start"] == {"levels": [board.level] * 4, "dealer": board.dealer}
    again = rec.replay(data)
    assert again.summaries == match.summaries and again.played_hands[0].dealer == board.dealer
    assert "start" not in rec.to_record(Match(rs))                     # R-6.6's first hand: as before
    for bad, words in (({"dealer": 9}, "bad start: the dealer is a seat"), ([1], "'start' is an object"),
                       ({"levels": [2, 2, 2]}, "bad start: levels are 4 levels")):
        with pytest.raises(rec.RecordError, match=words):
            rec.replay({**data, "start": bad})
