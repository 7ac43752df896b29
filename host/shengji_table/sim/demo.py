"""The demo: a virtual table playing a match with bots — the real firmware under MicroPython, the
host over a pseudo-terminal, bots tapping virtual cards — with a live view of the table.

    shengji-table demo [--hands N] [--mode scanned|open] [--seed S] [--preset P] [--log FILE]

Exits when the N hands are played (or the match ends), printing the levels.  In a terminal the
table is redrawn live; otherwise the announcements are printed as plain lines.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile

from ..cli.preset_args import add_preset_argument, preset_ruleset  # the demo command's options
from ..rules.ruleset import level_text


def add_arguments(parser):
    parser.add_argument("--hands", type=int, default=2, help="hands to play (default 2)")
    parser.add_argument("--mode", choices=("scanned", "open"), default="scanned",
                        help="scanned hands (every drawn card tapped) or open play")
    parser.add_argument("--seed", type=int, default=7, help="match seed: the deals and the bots follow from it")
    add_preset_argument(parser)
    parser.add_argument("--bots", default="heuristic", help="bot kind (heuristic, random)")
    parser.add_argument("--log", metavar="FILE", help="keep the SQLite event log here (default: a temporary file)")
    parser.add_argument("--record", metavar="FILE", help="write the JSON match record here")
    parser.add_argument("--no-voice", action="store_true", help="do not speak announcements (espeak-ng)")
    parser.add_argument("--plain", action="store_true", help="plain text even in a terminal")


def run(args) -> int:
    from ..game.record import dumps
    from .match_runner import SimHost
    from ..micropython import MicroPythonMissing
    from .players import PlanMismatch
    from .table_view import TableView
    from .virtual_table import DEFAULT_BOARD, VirtualTable
    BOARDS = (DEFAULT_BOARD, DEFAULT_BOARD.parent / "table-6.json")     # 4 seats, then 6
    from ..cli.output_file import unwritable, write_atomically
    from ..store.log import LogError
    ruleset = preset_ruleset(args)
    if ruleset is None:
        return 2
    # before the match: a bad path must not cost the played hands
    for path, what in ((args.record, "record"), (args.log, "log")):
        problem = path and unwritable(path, what)
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 2
    # bids, trump and friend calls are entered at the seats (table/controller.py); a preset with
    # fewer players than the board's seats leaves the last seats empty
    board_path = next((b for b in BOARDS if json.loads(b.read_text())["seats"] >= ruleset.players), None)
    if board_path is None:
        print(f"error: no virtual table has {ruleset.players} seats for preset {args.preset!r}", file=sys.stderr)
        return 2
    board = json.loads(board_path.read_text())
    sizes = {(board["seats"] if r["seat"] == "centre" else r["seat"]): r["count"] for r in board["leds"]["rings"]}
    tmp = tempfile.TemporaryDirectory(prefix="shengji-demo-")
    log_path = args.log or os.path.join(tmp.name, "demo.db")
    try:
        vt = VirtualTable(board=board_path).start()
    except MicroPythonMissing as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    title = (f"Shengji virtual table — {ruleset.preset}, {args.mode} hands, seed {args.seed}, "
             f"{args.hands} hand(s)")
    view = None
    host = None
    try:
        try:
            host = SimHost(vt.device, log_path, preset=args.preset, mode=args.mode, seed=args.seed,
                           hands=args.hands, bots=args.bots, board=board_path)
        except LogError as exc:         # e.g. --log names another program's database
            print(f"error: {exc}", file=sys.stderr)
            return 2
        view = TableView(host.controller, sizes, tty=False if args.plain else None, voice=not args.no_voice,
                         title=title)
        host.service.on_text = view.say
        if not view.tty:
            print(title, flush=True)
        host.start()
        ok = host.run(timeout=60 * 60, idle=view.refresh)
        view.refresh(force=True)
        m = host.controller.match
        print("\nLevels: " + ", ".join(f"seat {i} {level_text(lv) if lv <= 14 else 'won'}"
                                       for i, lv in enumerate(m.levels)))
        print(f"{len(m.summaries)} hand(s) played, {host.service.stats.physical} table events, "
              f"{host.service.stats.refusals} refusals; log: {args.log or '(temporary)'}")
        if args.record:
            try:
                write_atomically(args.record, dumps(host.service.record(seats=[f"bot:{args.bots}"] * ruleset.players)))
            except OSError as exc:
                print(f"error: cannot write record {args.record}: {exc.strerror or exc}", file=sys.stderr)
                return 2
            print(f"Record written to {args.record}")
        return 0 if ok else 1
    except PlanMismatch as exc:
        print(f"error: the table lost or doubled a card: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        if view is not None:
            view.close()
        if host is not None:
            host.close()
        vt.close()
        tmp.cleanup()
