"""A whole host on a virtual table's device: log + serial link + controller + service + bot players.

:class:`SimHost` is what the demo, the end-to-end tests and the benchmark run in-process; run as a
module it is a separate host process (the SIGKILL tests kill and restart it)::

    python -m shengji_table.sim.match_runner --device DEV --log FILE --mode scanned --seed 7 --hands 2

It exits 0 when the hands are played (the log then holds the whole match), 3 on a plan mismatch,
2 when the log cannot be written (or a timeout).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable

from ..club.boards import board_deal_for, board_match_start
from ..club.soft_table import board_start
from ..rules.ruleset import Ruleset
from ..store.log import EventLog, LogError
from ..table.controller import Controller
from ..table.serial_link import SerialLink
from ..table.service import TableService, last_position
from .players import PlanMismatch, TablePlayers, deal_for, hand_seeds
from .virtual_table import DEFAULT_BOARD, SIM_DECK_SET_ID, sim_deck_set

__all__ = ["SimHost", "main"]


class SimHost:
    """Host + bot players for a virtual table at ``device``; the log at ``log_path`` (resumed when
    it already holds the match).  ``ruleset`` (default: ``preset``'s) is played; ``names`` are the
    players' names (shown in the texts, kept in the match header)."""

    def __init__(self, device: str, log_path, *, preset: str = "classic", mode: str = "scanned", seed: int = 7,
                 hands: int = 1, bots: str = "heuristic", board=DEFAULT_BOARD, match: str = "default",
                 on_text: Callable[[str], None] | None = None, slow: float = 1.0,
                 ruleset: Ruleset | None = None, names: tuple = (), duplicate=None):
        self.ruleset = ruleset if ruleset is not None else Ruleset.from_preset(preset)
        self.duplicate = duplicate
        if duplicate is not None:
            hands = 1                       # a duplicate board is one hand
        self.seeds = hand_seeds(seed, hands)
        board_data = json.loads(open(board).read())
        self.deck_set = sim_deck_set(self.ruleset.decks, SIM_DECK_SET_ID)
        self.log = EventLog(log_path)
        pos = last_position(self.log, match)
        self.link = SerialLink(device, resume=pos)
        deals = deal_for(mode, self.seeds) if duplicate is None else board_deal_for(mode, duplicate)
        self.controller = Controller(self.ruleset, mode, board_data, self.deck_set, deals,
                                     start=None if duplicate is None else board_match_start(duplicate, self.ruleset))
        self.controller.names = tuple(names)
        self.service = TableService(self.link, self.controller, self.log, match=match, on_text=on_text,
                                    meta={"preset": self.ruleset.preset, "mode": mode, "seed": seed, "hands": hands,
                                          "bots": bots, "virtual": True, **({"seats": list(names)} if names else {}),
                                          **({"duplicate": board_start(duplicate)} if duplicate is not None else {})})
        self.players = TablePlayers(self.service, self.seeds, bots=bots, seed=seed, slow=slow,
                                    order=None if duplicate is None else duplicate.order)
        self._hooks: list = []
        self.service.on_outcome = self._outcome
        self.resumed = False

    def add_hook(self, fn) -> None:
        """``fn(event, outcome)`` sees every handled event after the players did."""
        self._hooks.append(fn)

    def _outcome(self, e, out) -> None:
        self.players.on_outcome(e, out)
        for fn in self._hooks:
            fn(e, out)

    def start(self) -> SimHost:
        self.link.open()
        self.resumed = self.service.restore()
        return self

    def run(self, timeout: float = 600.0, idle: Callable[[], None] | None = None) -> bool:
        """Play until the hands are done; False on timeout."""
        deadline = time.monotonic() + timeout
        # done once the last hand is over and no seat's button is still on its way up: the
        # release of the press that ended it is an event too, and it must reach the log
        while not self.players.done or self.players.releasing:
            if time.monotonic() > deadline:
                return False
            self.service.step()
            if idle is not None:
                idle()
            with self.service.lock:         # the referee's console may queue rings meanwhile
                self.players.step()
                self.link.flush()
        # let the last ACKs and rings out
        end = time.monotonic() + 0.1
        while time.monotonic() < end:
            self.service.step()
        return True

    def close(self) -> None:
        self.link.close()
        self.log.close()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m shengji_table.sim.match_runner")
    p.add_argument("--device", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--preset", default="classic")
    p.add_argument("--mode", default="scanned", choices=("scanned", "open"))
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--hands", type=int, default=1)
    p.add_argument("--timeout", type=float, default=600)
    p.add_argument("--slow", type=float, default=1.0, help="stretch the players' waits (a real Pico: 8)")
    args = p.parse_args(argv)
    host = SimHost(args.device, args.log, preset=args.preset, mode=args.mode, seed=args.seed, hands=args.hands,
                   slow=args.slow)
    try:
        host.start()
        ok = host.run(timeout=args.timeout)
    except PlanMismatch as exc:
        print(f"plan mismatch: {exc}", file=sys.stderr)
        return 3
    except LogError as exc:             # the log cannot be written: stop; a rerun resumes
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        host.close()
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())
