"""``shengji-table replay RECORD``: print a match from its JSON record (``-`` reads stdin).

A file that is not a valid match record prints a clear error and exits with status 2.
"""
from __future__ import annotations

import sys


def add_arguments(parser):
    parser.add_argument("record", help="a JSON match record written by `shengji-table play --record` (or - for stdin)")
    parser.add_argument("--quiet", action="store_true", help="print only settlements and level changes")
    parser.add_argument("--export", action="store_true", help="print the PBN-style text export instead")


def run(args) -> int:
    from ..game.export import export_text
    from ..game.match import Match
    from ..game.record import RecordError, from_record, loads
    from ..rules.cards import level_text
    from .play import Printer
    try:
        text = sys.stdin.read() if args.record == "-" else open(args.record, encoding="utf-8").read()
    except OSError as exc:
        print(f"error: cannot read {args.record}: {exc.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"error: {args.record} is not UTF-8 text (a match record is JSON, as play --record writes it)",
              file=sys.stderr)
        return 2
    try:
        data = loads(text)
        match, seats = from_record(data)       # validates everything before printing anything
    except RecordError as exc:
        print(f"error: {args.record}: {exc}", file=sys.stderr)
        return 2
    if args.export:
        sys.stdout.write(export_text(match, seats))
        return 0
    live = Match(match.ruleset, match.mode)
    printer = Printer(live, quiet=args.quiet)
    print(f"Replaying {args.record}: preset {match.ruleset.preset}, {len(match.events)} events; seats: "
          + ", ".join(f"{i} {s}" for i, s in enumerate(seats)))
    for e in match.events:
        printer(e, live.apply(e))
    print("\nLevels: " + ", ".join(f"seat {i} {level_text(lv) if lv <= 14 else 'jokers'}"
                                   for i, lv in enumerate(live.levels)))
    return 0
