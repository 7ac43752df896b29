"""``shengji-table demo``: the main job — a virtual table playing a match with bots.

    shengji-table demo [--hands N] [--mode scanned|open] [--seed S] [--preset P] [--log FILE]
                       [--voice zh|en|off] [--lang en|zh] [--plain]

The real firmware runs under the real MicroPython interpreter with simulated PN532 readers, rings
and buttons; the host talks to it over a pseudo-terminal; bots play by laying cards on the
simulated readers (:func:`shengji_table.sim.demo.play_demo`).  Exits when the N hands are played
(or the match ends), printing the levels.  (``shengji-table play`` is the same match in software
only.)
"""
from __future__ import annotations

import sys

from .club_args import Both, add_club_arguments, bad_club_args, start_club
from .face_args import add_face_arguments, make_face
from .preset_args import add_preset_argument, preset_ruleset
from .web_args import add_web_arguments, bad_web_args, start_web


def add_arguments(parser):
    parser.add_argument("--hands", type=int, default=2, help="hands to play (default 2)")
    parser.add_argument("--mode", choices=("scanned", "open"), default="scanned",
                        help="scanned hands (every drawn card tapped) or open play")
    parser.add_argument("--seed", type=int, default=7, help="match seed: the deals and the bots follow from it")
    add_preset_argument(parser)
    parser.add_argument("--bots", default="heuristic", help="bot kind (heuristic, random, strong)")
    parser.add_argument("--log", metavar="FILE", help="keep the SQLite event log here (default: a temporary file)")
    parser.add_argument("--record", metavar="FILE", help="write the JSON match record here")
    add_face_arguments(parser)
    add_web_arguments(parser)
    add_club_arguments(parser)


def run(args) -> int:
    from ..sim.demo import play_demo
    from .output_file import unwritable, write_atomically
    ruleset = preset_ruleset(args)
    if ruleset is None or bad_web_args(args) or bad_club_args(args):
        return 2
    # before the match: a bad path must not cost the played hands
    for path, what in ((args.record, "record"), (args.log, "log")):
        problem = path and unwritable(path, what)
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 2
    return play_demo(ruleset, preset=args.preset, mode=args.mode, seed=args.seed, hands=args.hands, bots=args.bots,
                     log=args.log, record=args.record,
                     make_view=lambda controller, title: make_face(args, controller, title=title),
                     write_record=write_atomically, names=args.names,
                     on_service=lambda service: Both(start_web(args, service), start_club(args, service)))
