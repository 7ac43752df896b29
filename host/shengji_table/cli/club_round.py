"""``shengji-table club partnerships add``, ``club rules`` and ``club round start``: a movement
evening from the command line (docs/club.md, section 6).

    shengji-table club rules --db club.sqlite [--session Tuesday] [--preset P] [--rules FILE] [--option N=V …]

    shengji-table club partnerships add --db club.sqlite --session Tuesday Li,Wang Zhao,Chen Liu,Yang Wu,Xu
    shengji-table club round start --db club.sqlite --session Tuesday --round 1 --movement round-robin \\
        [--rounds N] [--boards boards.json] [--boards-per-round 2] [--sit-out] [--scoring levels|duplicate] \\
        [--pin-file organiser.pin] [--json]

``round start`` computes round K of the session's movement (``club/movement.py``) from the
partnerships registered (Swiss: and the standings so far), seats them at the club's tables, gives
each table the round's boards, writes the seatings (the organiser's ``start-round``) and prints the
table cards.  Bad input — an unknown session, a round started already, an odd field without
``--sit-out``, too few tables, a board file that does not match, a wrong PIN — the reason on
stderr, exit 2, nothing written.
"""
from __future__ import annotations

import getpass
import json
import sys

__all__ = ["add_parsers", "run_partnerships", "run_round", "run_rules"]


def add_parsers(sub) -> None:
    """Add ``partnerships`` and ``round`` to the ``club`` command's subparsers."""
    p = sub.add_parser("partnerships", help="register a session's partnerships (the movement's entrants)")
    psub = p.add_subparsers(dest="partnerships_command", metavar="ACTION")
    psub.required = True
    pa = psub.add_parser("add", help="add partnerships to a session (made when new), in order")
    pa.add_argument("--db", required=True)
    pa.add_argument("--session", required=True, help="the session's name, e.g. Tuesday")
    pa.add_argument("pairs", nargs="+", metavar="A,B", help="two players' names each, e.g. Li,Wang")
    ru = sub.add_parser("rules", help="set the event's rules (a session's, or the club's own): the club scores "
                                      "every hand by them")
    ru.add_argument("--db", required=True)
    ru.add_argument("--session", help="the session whose rounds play these rules (partnerships add made it); "
                                      "without: the club's own rules, for every hand outside such a round")
    ru.add_argument("--preset", default=None, help="the preset (default: the rules file's, else classic)")
    ru.add_argument("--rules", metavar="FILE", help="a house rules file (TOML): preset and options")
    ru.add_argument("--option", metavar="NAME=VALUE", action="append", default=[],
                    help="a ruleset option, e.g. settlement_table=0:d3,40:d2,80:a0 (repeatable)")
    r = sub.add_parser("round", help="start a round of the session's movement")
    rsub = r.add_subparsers(dest="round_command", metavar="ACTION")
    rsub.required = True
    rs = rsub.add_parser("start", help="compute, seat and write round K; print the table cards")
    rs.add_argument("--db", required=True)
    rs.add_argument("--session", required=True)
    rs.add_argument("--round", type=int, required=True, metavar="K")
    rs.add_argument("--movement", required=True, choices=("round-robin", "swiss"))
    rs.add_argument("--rounds", type=int, metavar="N", help="rounds in the session (default: the full cycle)")
    rs.add_argument("--boards", metavar="FILE", help="the board file (club boards make); stored with the session")
    rs.add_argument("--boards-per-round", type=int, default=2, metavar="B", help="boards each table plays (default 2)")
    rs.add_argument("--sit-out", action="store_true", help="an odd field: one partnership sits out each round")
    rs.add_argument("--scoring", choices=("levels", "duplicate"), default="levels",
                    help="Swiss: the standings the round is paired by (default levels)")
    rs.add_argument("--pin-file", metavar="FILE", help="ask for the organiser's PIN and check it against this file")
    rs.add_argument("--json", action="store_true", help="print the round as JSON instead of the cards")


def _err(text: str) -> int:
    print(f"error: {text}", file=sys.stderr)
    return 2


def _open(path: str):
    import pathlib

    from ..club.db import ClubDB, ClubDBError
    if not pathlib.Path(path).is_file():
        raise ClubDBError(f"{path}: no such club database (club tables add makes it)")
    return ClubDB(path)


def run_rules(args) -> int:
    """Store the session's ruleset (the event's own rules, ``club/ingest.py``); print it."""
    from ..club.db import ClubDBError
    from ..rules.ruleset import RulesetError
    from .preset_args import HouseRulesError, house_rules
    args.players = None
    try:
        ruleset, _ = house_rules(args)
    except (HouseRulesError, RulesetError) as exc:
        return _err(str(exc))
    try:
        db = _open(args.db)
    except ClubDBError as exc:
        return _err(str(exc))
    try:
        sid = None
        if args.session is not None:
            sid = db.one("SELECT id FROM sessions WHERE name=?", (args.session,))
            if sid is None:
                names = [r[0] for r in db.q("SELECT name FROM sessions ORDER BY id")]
                return _err(f"no session {args.session!r} in {args.db} (sessions: {', '.join(names) or 'none'}; "
                            f"club partnerships add makes one)")
        with db.tx():
            db.set_rules(ruleset.to_json(), sid)
    finally:
        db.close()
    whose = f"{args.session}: every hand of its rounds" if sid is not None else "the club: every hand outside a " \
        "session with rules of its own"
    mine, preset = ruleset.to_json(), type(ruleset).from_preset(ruleset.preset).to_json()
    changed = {k: v for k, v in mine.items() if preset.get(k) != v}
    print(f"{whose} is scored by preset {ruleset.preset!r}"
          + (f" with {json.dumps(changed, ensure_ascii=False)}" if changed else ""))
    return 0


def run_partnerships(args) -> int:
    from ..club.db import ClubDBError
    from ..club.rounds import RoundError, add_partnerships
    pairs = []
    for text in args.pairs:
        names = [n.strip() for n in text.split(",")]
        if len(names) != 2 or not all(names):
            return _err(f"a partnership is two names A,B, not {text!r}")
        pairs.append(tuple(names))
    try:
        db = _open(args.db)
    except ClubDBError as exc:
        return _err(str(exc))
    try:
        add_partnerships(db, args.session, pairs)
        rows = db.partnerships(db.session(args.session))
    except RoundError as exc:
        return _err(str(exc))
    finally:
        db.close()
    print(f"{args.session}: {len(rows)} partnership(s)")
    for i, (_pid, name) in enumerate(rows, 1):
        print(f"  {i}. {name}")
    return 0


def _pin_ok(path: str) -> str | None:
    """None when the PIN typed matches the file; else why not."""
    from ..face.web.auth import PinError, load_pin_file, verify_pin
    try:
        stored = load_pin_file(path)
    except PinError as exc:
        return str(exc)
    pin = getpass.getpass("organiser PIN: ") if sys.stdin.isatty() else sys.stdin.readline()
    return None if verify_pin(pin.strip(), stored) else "wrong PIN: nothing written"


def _load_boards(path: str) -> tuple:
    """``(preset, boards)`` of a board file."""
    from .club_boards import load_boards
    rs, boards = load_boards(path)
    return rs.preset, boards


def run_round(args) -> int:
    from ..club.boards import BoardError
    from ..club.db import ClubDBError
    from ..club.rounds import RoundError, plan_round, start_planned
    from ..club.standings import scoring
    if args.boards_per_round < 1:
        return _err(f"--boards-per-round is 1 or more, not {args.boards_per_round}")
    try:
        boards = _load_boards(args.boards) if args.boards else None
        db = _open(args.db)
    except (BoardError, ClubDBError) as exc:
        return _err(str(exc))
    try:
        plan = plan_round(db, args.session, args.round, args.movement, rounds=args.rounds, boards=boards,
                          boards_per_round=args.boards_per_round, sit_out=args.sit_out,
                          score=scoring(db, args.scoring))
        if args.pin_file:
            why = _pin_ok(args.pin_file)
            if why:
                return _err(why)
        start_planned(db, plan, by="command line")
    except RoundError as exc:
        return _err(str(exc))
    finally:
        db.close()
    if args.json:
        print(json.dumps({"session": args.session, "round": args.round, **plan.movement_json()},
                         ensure_ascii=False, indent=1))
    else:
        print(f"round {args.round} of {plan.total} of {args.session!r} started ({args.movement}); table cards:\n")
        print(plan.cards())
    return 0
