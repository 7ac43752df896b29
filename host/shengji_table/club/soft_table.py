"""A software table: bots playing a match straight through the game layer, written to an event log
in the table's format — a ``meta`` start row (ruleset, mode, the players' names), then the game
events — with no firmware and no serial link.  The club's tests and benchmark run many of them
(the virtual table, ``sim/``, is the one with the real firmware).

``commit="event"`` writes each event in its own transaction, as a real table does; ``"hand"``
writes a whole hand in one (the benchmark: whole hands at full speed).  ``board=`` plays a
duplicate board (``club/boards.py``): one hand from its stack, dealer and level, the board named in
the start row (:func:`board_start`) as every table playing a board reports it to the club.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable

from ..game.bots import make_bot
from ..game.driver import Driver
from ..game.match import Match
from ..rules.ruleset import Ruleset
from ..store.log import EventLog

__all__ = ["SoftTable", "hand_seeds", "board_start"]


def board_start(board) -> dict:
    """What a table's start row says of the duplicate board it plays (the club checks it against
    its own copy: ``club/ingest.py``)."""
    return {"number": board.number, "checksum": board.checksum, "dealer": board.dealer, "level": board.level}


def hand_seeds(seed: int, hands: int) -> list:
    rng = random.Random(seed)
    return [rng.randrange(2 ** 31) for _ in range(hands)]


class SoftTable:
    """Table ``table`` playing ``hands`` hands of ``preset`` from ``seed``, logged at ``log_path``."""

    def __init__(self, log_path, *, table: str = "T1", preset: str = "classic", seed: int = 7, hands: int = 2,
                 names: tuple = (), bots: str = "random", match: str = "table", commit: str = "event",
                 on_commit: Callable[[float], None] | None = None, board=None):
        self.log = EventLog(log_path)
        self.table = table
        self.match_name = match
        self.ruleset = Ruleset.from_preset(preset)
        self.board = board
        self.match = (Match(self.ruleset, "scanned") if board is None else
                      Match(self.ruleset, "scanned", levels=(board.level,) * self.ruleset.players, dealer=board.dealer))
        self.seeds = hand_seeds(seed, 1 if board is not None else hands)
        self.names = tuple(names)
        self.commit = commit
        self.on_commit = on_commit            # called with the commit time of each hand's last row
        self.listeners: list[Callable] = []
        self._pending: list = []
        self._driver = Driver(self.match, [make_bot(bots, seed * 100 + i) for i in range(self.ruleset.players)],
                              on_event=self._on_event)
        meta = {"preset": preset, "mode": "scanned", "seed": seed, "hands": hands, "software": True,
                **({"seats": list(names)} if names else {}),
                **({"duplicate": board_start(board)} if board is not None else {})}
        if not any(True for _ in self.log.entries(match=match)):
            self._write([("meta", {"start": meta, "ruleset": self.ruleset.to_json(), "mode": "scanned"})])
        self.played = 0

    def _write(self, rows: list) -> None:
        self.log.append_many(rows, match=self.match_name)
        for fn in self.listeners:
            fn()

    def _on_event(self, event, effects) -> None:
        row = ("game", event.to_json())
        if self.commit == "hand":
            self._pending.append(row)
        else:
            self._write([row])

    def play_hand(self) -> bool:
        """Play the next hand (False: none left, or the match is over)."""
        if self.played >= len(self.seeds) or self.match.over:
            return False
        self._driver.play_hand(self.seeds[self.played], order=None if self.board is None else self.board.order)
        if self._pending:
            self._write(self._pending)
            self._pending = []
        self.played += 1
        if self.on_commit is not None:
            self.on_commit(time.time())
        return True

    def play(self) -> None:
        while self.play_hand():
            pass

    def close(self) -> None:
        self.log.close()
