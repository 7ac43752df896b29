"""``shengji-table serve``: run a real table.

    shengji-table serve --device auto --board boards/table-4.json --mode scanned \\
                        --deck-set club-red.json [--log table.db] [--preset classic] [--match NAME]
                        [--duplicate-board boards.json:5]

Opens the Pico (``auto``: found by its USB ids; or a path / pyserial URL), replays the event log
when it already holds the match (a restarted host carries on where it stopped), and runs the serve
loop: every tap and press is logged before its ring is shown and before the Pico is acknowledged.
The terminal view (``face/terminal.py``) shows the table live, or prints announcements and
refusals as lines (``--plain``, or stdout not a terminal); ``--voice zh|en`` speaks them.
Ctrl-C stops it; nothing is lost.  ``--duplicate-board FILE:K`` plays board K of a duplicate board
file as the match's one hand (its dealer and level; scanned, every card drawn must be the board's
next; open play, the deck was stacked and checked with ``club boards check``) and names the board
in the log's start row, which the club checks (``docs/club.md``).
"""
from __future__ import annotations

import json
import pathlib
import sys

from .club_args import add_club_arguments, add_duplicate_argument, bad_club_args, duplicate_board, start_club
from .face_args import add_face_arguments, make_face
from .preset_args import HouseRulesError, add_preset_argument, logged_names, preset_ruleset, seats_meta
from .web_args import add_web_arguments, bad_web_args, start_web, stop_web


def add_arguments(parser):
    parser.add_argument("--device", default="auto",
                        help="auto (find the Pico by USB id), a serial path or a pyserial URL")
    parser.add_argument("--board", required=True, help="the table's board file (boards/*.json)")
    parser.add_argument("--mode", choices=("scanned", "open"), default="scanned",
                        help="scanned hands (every drawn card tapped) or open play")
    parser.add_argument("--deck-set", metavar="FILE", required=True,
                        help="the registered deck set (shengji-table enroll)")
    parser.add_argument("--log", metavar="FILE", default="shengji-table.db",
                        help="the SQLite event log (resumed if present)")
    add_preset_argument(parser)
    parser.add_argument("--match", default="table", help="the match's name in the log")
    parser.add_argument("--hands", type=int, default=0, help="stop dealing after N hands (0: until the match ends)")
    add_face_arguments(parser)
    add_web_arguments(parser)
    add_club_arguments(parser)
    add_duplicate_argument(parser)


def _board_and_decks(args):
    """``(board dict, deck set)`` from the files named, or None (the error said on stderr)."""
    from ..board import BoardError, load_board
    from ..table.registry import DeckSet, RegistryError
    try:
        load_board(args.board)                      # the validator flash and selftest use
        # the controller reads the board file's own dict; the file was just validated
        board = json.loads(pathlib.Path(args.board).read_text(encoding="utf-8"))
    except BoardError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
    except (OSError, ValueError) as exc:            # the file changed since it was validated
        print(f"error: cannot read board file {args.board}: {exc}", file=sys.stderr)
        return None
    try:
        return board, DeckSet.load(args.deck_set)
    except RegistryError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None


def _duplicate_meta(duplicate) -> dict:
    """The start row's ``duplicate`` entry: the board played, as the club checks it."""
    if duplicate is None:
        return {}
    from ..club.soft_table import board_start
    return {"duplicate": board_start(duplicate)}


def run(args) -> int:
    from ..game import events as ev
    from ..store.log import EventLog, LogError
    from ..table.controller import Controller
    from ..table.serial_link import SerialLink
    from ..table.service import TableService, last_position
    ruleset = preset_ruleset(args, min_hands=0)     # --hands 0: until the match ends
    if ruleset is None or bad_web_args(args) or bad_club_args(args):
        return 2
    loaded = _board_and_decks(args)
    duplicate = duplicate_board(args, ruleset)
    if loaded is None or duplicate is False:
        return 2
    board, deck_set = loaded
    hands = 1 if duplicate is not None else args.hands

    def deal_for(number):
        return ev.Deal() if hands <= 0 or number <= hands else None
    start = None
    if duplicate is not None:
        from ..club.boards import board_deal_for, board_match_start
        deal_for, start = board_deal_for(args.mode, duplicate), board_match_start(duplicate, ruleset)
    try:
        controller = Controller(ruleset, args.mode, board, deck_set, deal_for, start=start)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not deck_set.complete:
        # in scanned hands every card not enrolled would be refused one tap at a time, at the table
        print(f"error: deck set {deck_set.name!r} ({args.deck_set}) has {len(deck_set.cards)} of "
              f"{54 * deck_set.decks} cards: finish enrolling it (the same shengji-table enroll command "
              f"resumes) or check it with shengji-table deck check", file=sys.stderr)
        return 2
    try:
        log = EventLog(args.log)
        controller.names = logged_names(args, log, args.match)      # a resumed match keeps its names
    except (LogError, HouseRulesError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    link = SerialLink(args.device, resume=last_position(log, args.match))
    face = make_face(args, controller, title=f"Shengji table {args.match!r} — {ruleset.preset}, {args.mode} hands")
    service = TableService(link, controller, log, match=args.match, on_text=face.say,
                           meta={"preset": args.preset, "mode": args.mode, "board": board.get("name"),
                                 "deck_set": deck_set.name, **seats_meta(controller.names),
                                 **_duplicate_meta(duplicate)})
    service.on_note = face.status
    try:
        return _serve(args, service, link, log, controller, ruleset, deck_set, hands, face)
    except KeyboardInterrupt:
        face.status("stopped; the log holds everything (run serve again to resume)")
        return 0
    except LogError as exc:                 # disk full, I/O error: the table stops, nothing more acknowledged
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        face.close()
        link.close()
        log.close()


def _serve(args, service, link, log, controller, ruleset, deck_set, hands, face) -> int:
    from ..table.serial_link import Disconnected, ProtocolMismatch, Reconnected
    from ..table.session import LinkDown, Rebooted
    try:
        resumed = service.restore()
    except ValueError as exc:
        print(f"error: the log {args.log} does not replay for this table: {exc}", file=sys.stderr)
        return 2
    _say = face.status
    _say(("resumed" if resumed else "new") + f" match {args.match!r}: {ruleset.preset}, {args.mode} hands, "
         f"deck set {deck_set.name}, log {args.log}")
    if controller.match.over:
        _say(f"match {args.match!r} is over; start another with --match NAME")
        return 0

    def on_outcome(e, out):
        if isinstance(e, Disconnected):
            _say(f"table disconnected ({e.reason}); retrying")
        elif isinstance(e, Reconnected):
            _say(f"table connected on {e.device}")
        elif isinstance(e, Rebooted) and e.old_boot_id is not None:
            _say("the Pico restarted; rings restored")
        elif isinstance(e, LinkDown):
            _say("no word from the Pico for 3 s: is the cable in?")
    service.on_outcome = on_outcome
    if not link.is_open and not link.open():
        if link.busy is not None:            # another serve or demo holds this table's port
            print(f"error: {link.busy}: one program runs a table at a time", file=sys.stderr)
            return 2
        _say(f"waiting for the table: {link.last_error}")
    web = start_web(args, service, say=_say)
    club = start_club(args, service, say=_say)
    try:
        while True:
            service.step()
            face.refresh()
            view = controller.match.public_view()
            if hands > 0 and view is not None and view.result is not None \
                    and len(controller.match.summaries) >= hands:
                _say(f"{hands} hand(s) played")
                return 0
    except ProtocolMismatch as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        stop_web(web)
        stop_web(club)
