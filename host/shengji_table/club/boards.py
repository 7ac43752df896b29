"""Duplicate boards: the same hand played at several tables (docs/club-duplicate.md).

A board fixes everything a hand starts from: the deal order (the stack, top first: the dealer
draws first, R-7.1), the dealer, the level both sides play at, and the trump rule (the preset's
R-6 declarations during the draw, with its R-6.4 rule when nobody declares).  Pure: reading and
writing the file is the caller's; :func:`boards_from_json` checks everything it is given.

The board file (JSON)::

    {"format": "shengji-table boards", "version": 1, "preset": "classic", "seed": 7, "count": 24,
     "ruleset": {...}, "boards": [{"number": 1, "dealer": 0, "level": 2, "trump": "declared",
                                   "order": ["S5#2", ...], "checksum": "sha256:…"}, ...]}

Board n's stack is the shuffle of every copy by a generator seeded from ``(seed, n)``, its dealer
seat (n − 1) mod 4 (the bridge rotation) and its level 2 + (n − 1) mod 13, so a set of 13 or more
boards meets every level once.  The checksum is SHA-256 over the board's canonical JSON without
the checksum: a board edited by hand, or cut short, is refused.
"""
from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..game import events as ev
from ..game.driver import Driver
from ..game.match import Match
from ..rules.cards import CardError, all_copies, parse_copy
from ..rules.ruleset import LEVELS, PRESETS, Ruleset, RulesetError

__all__ = ["Board", "BoardError", "make_boards", "boards_to_json", "boards_from_json", "boards_file_text", "play_board",
           "FORMAT", "TRUMP_RULES",
           "board_deal_for", "board_match_start"]

FORMAT = "shengji-table boards"
VERSION = 1
TRUMP_RULES = ("declared",)        # declared in the draw; when nobody declares
MAX_BOARDS = 999


class BoardError(ValueError):
    """A board or board file that cannot be used; the message says which board and why."""


@dataclass(frozen=True)
class Board:
    """One board: ``order`` the stack (copies, top first), ``dealer`` a seat, ``level`` 2..14."""

    number: int
    dealer: int
    level: int
    trump: str
    order: tuple

    def body(self) -> dict:
        return {"number": self.number, "dealer": self.dealer, "level": self.level, "trump": self.trump,
                "order": [str(c) for c in self.order]}

    @property
    def checksum(self) -> str:
        text = json.dumps(self.body(), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()

    def to_json(self) -> dict:
        return {**self.body(), "checksum": self.checksum}


def duplicate_ruleset(preset: str) -> Ruleset:
    """The preset's ruleset, if duplicate can use it: four seats in two fixed partnerships."""
    if preset not in PRESETS:
        raise BoardError(f"unknown preset {preset!r}; valid presets: {', '.join(PRESETS)}")
    rs = Ruleset.from_preset(preset)
    if rs.players != 4 or rs.teams != "fixed" or rs.bidding:
        raise BoardError(f"preset {preset!r} is not for duplicate: boards need four seats in two fixed "
                         f"partnerships (it has {rs.players} seats, teams {rs.teams})")
    return rs


def _board_rng(seed: int, number: int) -> random.Random:
    digest = hashlib.sha256(f"shengji-board/{seed}/{number}".encode("ascii")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def make_boards(count: int, preset: str = "classic", seed: int = 0) -> tuple:
    """Boards 1..``count`` for ``preset`` from ``seed`` (the same arguments give the same boards)."""
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_BOARDS:
        raise BoardError(f"the count of boards is 1 to {MAX_BOARDS}, not {count!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BoardError(f"the seed is a whole number, not {seed!r}")
    rs = duplicate_ruleset(preset)
    copies = list(all_copies(rs.decks))
    out = []
    for n in range(1, count + 1):
        stack = list(copies)
        _board_rng(seed, n).shuffle(stack)
        out.append(Board(n, (n - 1) % rs.players, LEVELS[(n - 1) % len(LEVELS)], "declared", tuple(stack)))
    return tuple(out)


def boards_to_json(boards: Sequence[Board], preset: str, seed: int) -> dict:
    return {"format": FORMAT, "version": VERSION, "preset": preset, "seed": seed, "count": len(boards),
            "ruleset": duplicate_ruleset(preset).to_json(), "boards": [b.to_json() for b in boards]}


def boards_file_text(boards: Sequence[Board], preset: str, seed: int) -> str:
    """The board file's text: the header indented, each board on one line (a board a line diffs well)."""
    data = boards_to_json(boards, preset, seed)
    items = data.pop("boards")
    head = json.dumps(data, indent=1, ensure_ascii=False)[:-2]
    lines = ",\n".join("  " + json.dumps(b, ensure_ascii=False) for b in items)
    return f'{head},\n "boards": [\n{lines}\n ]\n}}\n'


def board_from_json(data, rs: Ruleset, where: str) -> Board:
    """One board of a boards file, checked (``where`` names it in the error)."""
    if not isinstance(data, dict):
        raise BoardError(f"{where} is not an object")
    need = {"number", "dealer", "level", "trump", "order", "checksum"}
    if set(data) != need:
        raise BoardError(f"{where} has the fields {', '.join(sorted(data))}; a board has {', '.join(sorted(need))}")
    number, dealer, level = data["number"], data["dealer"], data["level"]
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (number, dealer, level)):
        raise BoardError(f"{where}: number, dealer and level are whole numbers")
    if dealer not in range(rs.players):
        raise BoardError(f"{where}: the dealer is a seat 0..{rs.players - 1}, not {dealer}")
    if level not in LEVELS:
        raise BoardError(f"{where}: the level is 2..14, not {level}")
    if data["trump"] not in TRUMP_RULES:
        raise BoardError(f"{where}: the trump rule is one of {', '.join(TRUMP_RULES)}, not {data['trump']!r}")
    if not isinstance(data["order"], list):
        raise BoardError(f"{where}: the order is a list of cards")
    try:
        order = tuple(parse_copy(c) for c in data["order"])
    except CardError as exc:
        raise BoardError(f"{where}: {exc}") from None
    board = Board(number, dealer, level, data["trump"], order)
    if data["checksum"] != board.checksum:
        raise BoardError(f"{where}: bad checksum (the board was changed or damaged): "
                         f"file says {data['checksum']}, the board's content gives {board.checksum}")
    want = sorted(all_copies(rs.decks), key=str)
    if sorted(order, key=str) != want:
        raise BoardError(f"{where}: the order must hold each of the {len(want)} cards of {rs.decks} deck(s) once")
    return board


def boards_from_json(data) -> tuple:
    """``(ruleset, boards)`` from a board file's JSON; :class:`BoardError` names what is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BoardError(f"not a board file (its \"format\" is not {FORMAT!r})")
    if data.get("version") != VERSION:
        raise BoardError(f"board file version {data.get('version')!r}; this table reads version {VERSION}")
    rs = duplicate_ruleset(str(data.get("preset")))
    if "ruleset" in data:
        try:
            if Ruleset.from_json(data["ruleset"]) != rs:
                raise BoardError(f"the file's ruleset is not preset {rs.preset!r}'s")
        except RulesetError as exc:
            raise BoardError(f"the file's ruleset: {exc}") from None
    items = data.get("boards")
    if not isinstance(items, list):
        raise BoardError("the file has no list of boards")
    if data.get("count") != len(items):
        raise BoardError(f"the file says it holds {data.get('count')!r} boards but holds {len(items)}")
    boards = tuple(board_from_json(b, rs, f"board {i + 1}") for i, b in enumerate(items))
    numbers = [b.number for b in boards]
    if numbers != list(range(1, len(boards) + 1)):
        raise BoardError(f"the boards are numbered {numbers[:5]}…; they must be 1..{len(boards)} in order")
    return rs, boards


def play_board(board: Board, ruleset: Ruleset, bots: Sequence, *, seed: int = 0, mode: str = "scanned"):
    """Play ``board`` once with ``bots`` (one per seat); returns the settled match (one hand).
    ``seed`` seeds only what the board leaves open (none of it in a four-seat hand)."""
    match = Match(ruleset, mode, levels=(board.level,) * ruleset.players, dealer=board.dealer)
    Driver(match, bots).play_hand(seed, order=board.order)
    return match


def board_deal_for(mode: str, board):
    """The controller's ``deal_for`` of a duplicate board: one hand; scanned, the host deals the
    board's stack (every draw tapped must be its next card); open play, the stack was checked with
    ``club boards check`` before the hand and stays unknown to the host."""
    def deal(number: int):
        if number > 1:
            return None
        return ev.Deal(order=tuple(board.order)) if mode == "scanned" else ev.Deal()
    return deal


def board_match_start(board, ruleset: Ruleset) -> dict:
    """The controller's ``start``: the board's level for every seat and its dealer."""
    return {"levels": [board.level] * ruleset.players, "dealer": board.dealer}

