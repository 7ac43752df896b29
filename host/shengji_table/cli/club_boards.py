"""``shengji-table club boards make|check``: write a set of duplicate boards; check a deck stacked
for one of them, tapped card by card on the centre reader (docs/club-duplicate.md).

    shengji-table club boards make --count 24 --preset classic --seed 7 --out boards.json
    shengji-table club boards check --board boards.json --number 5 --deck-set decks/red.json --device auto
    shengji-table club boards check --board boards.json --number 5 --deck-set decks/red.json --taps taps.txt

``club`` attaches this module with :func:`add_parser`; ``python -m shengji_table.cli.club_boards``
runs it alone.  Exit status: 0 done (the file written; the deck stacked in the board's order);
1 the taps ended before the stack was complete; 2 bad input (options, board file, deck set,
station), with the reason on stderr and nothing written.
"""
from __future__ import annotations

import argparse
import json
import sys

from ..club.boards import BoardError, boards_file_text, boards_from_json, make_boards
from ..club.deck_check import StackCheck
from ..table.registry import DeckSet, RegistryError
from ..table.stations import StationError, TapsFileStation
from .output_file import unwritable, write_atomically
from .station_args import Keyboard, add_station_arguments, fail, feed, open_station, say

COMMAND = "club boards"


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add ``boards`` to the ``club`` command's subparsers."""
    p = subparsers.add_parser("boards", help="duplicate boards: make a set, check a stacked deck",
                              description="duplicate boards: make a set, check a stacked deck")
    add_arguments(p)
    return p


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="boards_action", metavar="ACTION")
    sub.required = True
    make = sub.add_parser("make", help="write a set of boards (JSON, a checksum per board)")
    make.add_argument("--count", type=int, required=True, help="how many boards (1..999)")
    make.add_argument("--preset", default="classic", help="the rules preset (four seats, fixed partnerships)")
    make.add_argument("--seed", type=int, required=True, help="the same seed makes the same boards")
    make.add_argument("--out", required=True, metavar="FILE", help="the board file to write")
    check = sub.add_parser("check", help="tap a deck in a board's order on the centre reader")
    check.add_argument("--board", required=True, metavar="FILE", help="the board file")
    check.add_argument("--number", type=int, required=True, metavar="K", help="the board to stack")
    check.add_argument("--deck-set", required=True, metavar="FILE", help="the deck set's file (its tags)")
    add_station_arguments(check)


def run(args: argparse.Namespace) -> int:
    return _make(args) if args.boards_action == "make" else _check(args)


def _make(args) -> int:
    try:
        boards = make_boards(args.count, args.preset, args.seed)
        text = boards_file_text(boards, args.preset, args.seed)
        why = unwritable(args.out, "board file")
        if why:
            raise BoardError(why)
        write_atomically(args.out, text)
    except (BoardError, OSError) as exc:
        return fail(COMMAND, exc)
    say(f"wrote {len(boards)} board(s), preset {args.preset}, seed {args.seed}, to {args.out}")
    return 0


def load_boards(path) -> tuple:
    """``(ruleset, boards)`` of the board file at ``path`` (:class:`BoardError` when unreadable)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as exc:
        raise BoardError(f"cannot read {path}: {exc.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BoardError(f"{path} is not JSON: {exc}") from None
    return boards_from_json(data)


def load_board(path, number: int):
    """``(ruleset, board)`` number ``number`` of the board file at ``path``."""
    rs, boards = load_boards(path)
    if not 1 <= number <= len(boards):
        raise BoardError(f"{path} holds boards 1..{len(boards)}, not {number}")
    return rs, boards[number - 1]


def _check(args) -> int:
    if args.station is None and args.taps is None and args.device is not None:
        args.station = "table"                       # --device PATH: the table's own readers
    try:
        rs, board = load_board(args.board, args.number)
        deck_set = DeckSet.load(args.deck_set)
        if deck_set.decks != rs.decks:
            raise BoardError(f"board {board.number} is played with {rs.decks} deck(s); deck set "
                             f"{deck_set.name!r} has {deck_set.decks}")
        station = open_station(args)
    except (BoardError, RegistryError, StationError) as exc:
        return fail(COMMAND, exc)
    check = StackCheck(board.order, board.number)
    say(f"board {board.number}: dealer seat {board.dealer}, level {board.level}; tap the {len(board.order)} "
        f"cards in order, top of the stack first")

    def on_tap(tap):
        try:
            copy = deck_set.identify(tap.uid, tap.card_code())
        except RegistryError as exc:
            say(f"refused: {check.refuse(str(exc)).text}")
            return
        verdict = check.tap(copy)
        say(verdict.text if verdict.ok else f"refused: {verdict.text}")

    def on_undo():
        copy = check.undo()
        if copy is not None:
            say(f"took back card {check.position}: {copy.card.unicode()}")

    keyboard = None if isinstance(station, TapsFileStation) else Keyboard()
    with station:
        try:
            feed(station, on_tap, on_undo, lambda: check.done, keyboard=keyboard)
        except StationError as exc:
            say(f"shengji-table {COMMAND}: {exc}")
    say(check.summary())
    return 0 if check.done else 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="shengji-table club boards", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
