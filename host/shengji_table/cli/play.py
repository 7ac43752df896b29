"""``shengji-table play``: a match with bots in the terminal, trick by trick.

    shengji-table play --preset classic --seed 7 [--hands N] [--record FILE] [--bots random,heuristic]

Every hand is dealt with a seed drawn from ``--seed``, so the same command prints the same match;
``--record FILE`` writes the JSON match record (``shengji-table replay FILE`` prints it again).
"""
from __future__ import annotations

import random
import sys

from ..game.names import with_names
from ..rules.cards import level_text
from .preset_args import add_preset_argument, preset_ruleset


def add_arguments(parser):
    add_preset_argument(parser)
    parser.add_argument("--seed", type=int, default=7, help="match seed (the deals and the bots follow from it)")
    parser.add_argument("--hands", type=int, default=1, help="hands to play (stops early when the match ends)")
    parser.add_argument("--record", metavar="FILE", help="write the JSON match record here")
    parser.add_argument("--bots", default="heuristic",
                        help="bot kind per seat, comma separated (random, heuristic, strong); "
                        "one name fills every seat")
    parser.add_argument("--quiet", action="store_true", help="print only settlements and level changes")


class Printer:
    """Prints a match as it happens: announcements, each trick when it is complete, settlements."""

    SHOW = {"deal", "declare", "trump", "kitty", "friend", "throw", "settle", "level", "match", "bid",
            "revoke", "referee", "undo"}

    def __init__(self, match, out=None, quiet: bool = False, names: tuple = ()):
        self.match = match
        self.out = out if out is not None else sys.stdout     # the stdout of now, not of the import
        self.quiet = quiet
        self.names = names          # the players' names: every "seat N" is shown with its name

    def write(self, text: str) -> None:
        self.out.write(with_names(text, self.names))

    def __call__(self, event, effects):
        for eff in effects:
            if eff.type != "announce":
                continue
            if eff.kind == "trick":
                if not self.quiet:
                    self._trick(self.match.public_view())
            elif eff.kind in self.SHOW and (not self.quiet or eff.kind in ("settle", "level", "match")):
                self.write(("\n" if eff.kind == "deal" else "") + f"  {eff.text}\n")

    def _trick(self, view):
        last = view.last_trick
        plays, winner, pts = last.plays, last.winner, last.points
        parts = " | ".join(f"{p.seat}: {' '.join(c.unicode() for c in p.cards)}" for p in plays)
        att = view.attackers_points
        self.write(f"  trick {len(view.tricks):2d}  {parts}  → seat {winner}"
                   + (f" +{pts}" if pts else "") + f"  (attackers {att})\n")


def _bots(args, players: int) -> tuple | None:
    """``(kinds, bots)`` of ``--bots`` (one name fills every seat), or None when it was refused
    (the error printed)."""
    from ..game.bots import make_bot
    kinds = args.bots.split(",")
    if len(kinds) == 1:
        kinds = kinds * players
    if len(kinds) != players:
        print(f"error: --bots names 1 or {players} bots, not {len(kinds)}", file=sys.stderr)
        return None
    try:
        return kinds, [make_bot(k, args.seed * 100 + i) for i, k in enumerate(kinds)]
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None


def _write_record(args, match, kinds: list) -> int:
    """Write ``--record``; the exit status."""
    from ..game.record import dumps, to_record
    from .output_file import write_atomically
    try:
        write_atomically(args.record, dumps(to_record(match, seats=args.names or [f"bot:{k}" for k in kinds])))
    except OSError as exc:
        print(f"error: cannot write record {args.record}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"Record written to {args.record}")
    return 0


def run(args) -> int:
    from ..game.driver import Driver, DriverError
    from ..game.match import Match
    from .output_file import unwritable
    ruleset = preset_ruleset(args)
    if ruleset is None:
        return 2
    problem = args.record and unwritable(args.record, "record")
    if problem:                     # before the match: a bad path must not cost the played hands
        print(f"error: {problem}", file=sys.stderr)
        return 2
    chosen = _bots(args, ruleset.players)
    if chosen is None:
        return 2
    kinds, bots = chosen
    match = Match(ruleset)
    printer = Printer(match, quiet=args.quiet, names=args.names)
    seats = [f"{args.names[i]} ({k})" if args.names else k for i, k in enumerate(kinds)]
    print(f"Preset {ruleset.preset}: {ruleset.players} players, {ruleset.decks} deck(s), kitty {ruleset.kitty_size}; "
          f"seats: {', '.join(f'{i} {k}' for i, k in enumerate(seats))}")
    rng = random.Random(args.seed)
    driver = Driver(match, bots, on_event=printer)
    try:
        for _ in range(args.hands):
            if match.over:
                break
            driver.play_hand(rng.randrange(2 ** 31))
    except DriverError as exc:
        print(f"error: a bot's decision was refused: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:          # e.g. piped into `head`: stop quietly
        sys.stderr.close()
        return 0
    printer.write("\nLevels: " + ", ".join(f"seat {i} {level_text(lv) if lv <= 14 else 'jokers'}"
                                          for i, lv in enumerate(match.levels)) + "\n")
    return _write_record(args, match, kinds) if args.record else 0
