"""The options of a table reporting to the club, shared by ``serve`` and ``demo``:
``--club mqtt://[TABLE:PASSWORD@]HOST:PORT --table-id T3`` (``docs/club.md``).

    add_club_arguments(parser)
    pub = start_club(args, service)      # None without --club; pub.stop() at exit

The table's log stays the source of truth: the publisher (``club/publisher.py``) reads it and
sends from the club's last acknowledged row; the table plays on while the club is away.
"""
from __future__ import annotations

import pathlib
import sys

__all__ = ["add_club_arguments", "bad_club_args", "start_club", "Both", "add_duplicate_argument", "duplicate_board"]


def add_club_arguments(parser) -> None:
    g = parser.add_argument_group("reporting to the club (docs/club.md)")
    g.add_argument("--club", metavar="URL", help="publish this table's log to the club's broker: "
                                                 "mqtt://TABLE:PASSWORD@HOST:PORT (club tables add prints them), "
                                                 "or over TLS mqtts://TABLE:PASSWORD@HOST:8883?ca=ca.pem")
    g.add_argument("--table-id", metavar="T", help="this table's id in the club (e.g. T3)")
    g.add_argument("--club-password-file", metavar="FILE", help="the table's broker password, instead of in the URL")


def add_duplicate_argument(parser) -> None:
    parser.add_argument("--duplicate-board", metavar="FILE:K",
                        help="play board K of a duplicate board file (club boards make) as the match's one hand")


def duplicate_board(args, ruleset):
    """The board ``--duplicate-board FILE:K`` names (None: not given; False: bad, said on stderr).
    The board's rules must be the table's (``--preset``)."""
    given = getattr(args, "duplicate_board", None)
    if not given:
        return None
    from ..club.boards import BoardError
    from .club_boards import load_board
    path, _, k = given.rpartition(":")
    try:
        if not path or not k.isdigit():
            raise BoardError(f"--duplicate-board is FILE:K (e.g. boards.json:5), not {given!r}")
        rs, board = load_board(path, int(k))
        if rs != ruleset:
            raise BoardError(f"board {board.number} of {path} is played with preset {rs.preset!r}'s rules, "
                             f"not this table's {ruleset.preset!r} (--preset {rs.preset})")
    except BoardError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return False
    if getattr(args, "hands", 1) not in (0, 1):
        print(f"note: a duplicate board is one hand (--hands {args.hands} ignored)", file=sys.stderr)
    return board


def bad_club_args(args) -> bool:
    """Say what is wrong with the club options (True), or nothing (False)."""
    from ..club.mqtt_client import check_ca
    from ..club.wire import WireError, check_table_id, parse_broker_url
    if getattr(args, "club", None) is None:
        if getattr(args, "table_id", None) or getattr(args, "club_password_file", None):
            print("error: --table-id and --club-password-file need --club mqtt://HOST:PORT", file=sys.stderr)
            return True
        return False
    try:
        broker = parse_broker_url(args.club)
        if broker.ca_file is not None:
            check_ca(broker.ca_file)
        if not args.table_id:
            raise WireError("--club needs --table-id T (the table's id in the club)")
        check_table_id(args.table_id)
        if args.club_password_file:
            pathlib.Path(args.club_password_file).read_text()
    except WireError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return True
    except OSError as exc:
        print(f"error: cannot read {args.club_password_file}: {exc.strerror}", file=sys.stderr)
        return True
    try:
        import paho.mqtt.client  # noqa: F401
    except ImportError:
        print("error: --club needs the club extra (pip install 'shengji-table[club]')", file=sys.stderr)
        return True
    return False


def start_club(args, service, say=None):
    """Start publishing ``service``'s log when ``--club`` was given; the publisher or None."""
    if getattr(args, "club", None) is None:
        return None
    from ..club.publisher import TablePublisher
    from ..club.wire import parse_broker_url
    password = (pathlib.Path(args.club_password_file).read_text().strip() if args.club_password_file else None)
    pub = TablePublisher(service.log.path, args.table_id, parse_broker_url(args.club), password=password)
    service.add_listener(pub.notify)
    pub.start()
    (say or print)(f"club: table {args.table_id} reports to {parse_broker_url(args.club)} (the log is the record; "
                   f"the table plays on while the club is away)")
    return pub


class Both:
    """Things to stop together (the web pages and the publisher)."""

    def __init__(self, *things):
        self.things = [t for t in things if t is not None]

    def stop(self) -> None:
        for t in self.things:
            t.stop()
