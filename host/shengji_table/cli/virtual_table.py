"""``shengji-table virtual-table``: a table without the hardware, for ``serve``, ``selftest`` and
``enroll --station table`` run by hand.

    shengji-table virtual-table --board boards/table-4.json [--script FILE] [--deck-set-out FILE]
                                [--decks 2] [--dead READER] [--fault READER:KNOB=VALUE] [--device PATH]

The real firmware (sim build) runs under the real MicroPython interpreter with simulated PN532
readers, rings and buttons, behind a pseudo-terminal whose path it prints (``device: …``); point
the other commands' ``--device`` at it.  What happens at the table comes from the command language
of :mod:`shengji_table.sim.table_script` (``tap 2 SA#1``, ``lift 2``, ``press 0``, ``long 0``,
``wait 500``, ``quit``), typed on stdin or read from ``--script FILE`` (checked whole before the
table starts: a bad line is exit 2 and nothing runs).  After the script or at the end of stdin the
table keeps running until ``quit``, Ctrl-C or SIGTERM.

``--fault seat2:drop-acks=3`` (repeatable) gives a reader's simulated PN532 a fault of the chip
model's (``sim.virtual_table.FAULTS``): lost ACKs, corrupt replies or commands, an ACK lost to an
early status poll, slow replies, or a weak coupling of the cards laid on it.

``--deck-set-out FILE`` writes the registry of the virtual cards (the deck set ``serve --deck-set``
needs); ``enroll --station table`` can register the same tags by tapping them instead.
"""
from __future__ import annotations

import argparse
import pathlib
import signal
import sys
import threading

from shengji_table.board import DEFAULT_BOARD


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--board", default=str(DEFAULT_BOARD), help="board file (default boards/table-4.json)")
    parser.add_argument("--script", metavar="FILE", help="commands from this file instead of stdin")
    parser.add_argument("--deck-set-out", metavar="FILE", help="write the virtual cards' deck set here (for serve)")
    parser.add_argument("--decks", type=int, default=2, help="decks in the virtual deck set (1-4, default 2)")
    parser.add_argument("--dead", action="append", default=[], metavar="READER",
                        help="a reader (by name, e.g. seat2) whose simulated PN532 never answers; repeatable")
    parser.add_argument("--fault", action="append", default=[], metavar="READER:KNOB=VALUE",
                        help="a fault of a reader's simulated PN532, e.g. seat2:drop-acks=3, seat1:coupling=45 "
                             "(drop-acks, corrupt-replies, corrupt-commands: the first N after power-up; "
                             "ack-settle-us, reply-delay-polls: for good; coupling: percent of activations a card "
                             "laid there hears); repeatable")
    parser.add_argument("--device", metavar="PATH",
                        help="where to put the device link (default: a temporary folder); must not exist")


def _error(message: str) -> int:
    print(f"shengji-table virtual-table: {message}", file=sys.stderr, flush=True)
    return 2


def _prepare(args):
    """``(board, actions or None)`` or an error sentence."""
    from shengji_table.board import BoardError, load_board
    from shengji_table.sim.table_script import ScriptError, parse_script
    if not 1 <= args.decks <= 4:
        return f"--decks is 1 to 4, not {args.decks}"
    try:
        board = load_board(args.board)
    except BoardError as exc:
        return str(exc)
    names = [r.name for r in board.readers]
    unknown = [n for n in args.dead if n not in names]
    if unknown:
        return f"--dead {', '.join(unknown)}: {board.name} has readers {', '.join(names)}"
    from shengji_table.sim.virtual_table import parse_fault
    args.faults = {}
    for text in args.fault:
        try:
            reader, attr, value = parse_fault(text, names)
        except ValueError as exc:
            return f"--fault {exc}"
        args.faults.setdefault(reader, {})[attr] = value
    actions = None
    if args.script:
        try:
            text = pathlib.Path(args.script).read_text(encoding="utf-8")
            actions = parse_script(text, board.seats, args.decks, source=args.script)
        except (OSError, UnicodeDecodeError) as exc:
            return f"cannot read {args.script}: {exc}"
        except ScriptError as exc:
            return str(exc)
    if args.device:
        dev = pathlib.Path(args.device)
        if dev.exists() or dev.is_symlink():
            return f"--device {dev} exists: name a new path (the table makes the link itself)"
        if not dev.parent.is_dir():
            return f"--device {dev}: folder {dev.parent} does not exist"
    return board, actions


def run(args: argparse.Namespace) -> int:
    prepared = _prepare(args)
    if isinstance(prepared, str):
        return _error(prepared)
    board, actions = prepared
    from shengji_table.sim.table_script import ScriptedTable
    from shengji_table.sim.virtual_table import SIM_DECK_SET_ID, sim_deck_set
    if args.deck_set_out:
        try:
            sim_deck_set(args.decks, SIM_DECK_SET_ID, name="virtual").save(args.deck_set_out)
        except OSError as exc:
            return _error(f"cannot write {args.deck_set_out}: {exc}")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    table = ScriptedTable(args.board, dead_readers=args.dead, faults=args.faults)
    if args.device:                    # the link there; the build files stay in the temporary folder
        table.device = str(pathlib.Path(args.device).absolute())
    try:
        table.start()
        print(f"virtual table {board.name}: the real firmware under MicroPython, simulated readers, rings and "
              f"buttons", flush=True)
        print(f"device: {table.device}", flush=True)
        if args.deck_set_out:
            print(f"deck set: {args.deck_set_out} ({args.decks} deck(s) of virtual cards)", flush=True)
        print("commands: tap READER CARD | stack READER CARD | lift READER | press SEAT | long SEAT | wait MS | quit",
              flush=True)
        _run_commands(table, board, args, actions, stop)
    except KeyboardInterrupt:
        pass
    finally:
        table.close()
    print("virtual table stopped", flush=True)
    return 0


def _run_commands(table, board, args, actions, stop: threading.Event) -> None:
    """The script's actions, or stdin's lines as they come; then wait for ``quit`` or a signal."""
    from shengji_table.sim.table_script import ScriptError, parse_line
    if actions is not None:
        for action in actions:
            if stop.is_set() or action.verb == "quit":
                return
            print(table.do(action, sleep=stop.wait), flush=True)
        stop.wait()
        return
    lines = _stdin_lines(stop)
    while not stop.is_set():
        line = lines.get()
        if line is None:               # end of input: keep the table up until stopped
            stop.wait()
            return
        try:
            action = parse_line(line, board.seats, args.decks)
        except ScriptError as exc:
            print(f"error: {exc}", flush=True)   # typed: say so and carry on
            continue
        if action is None:
            continue
        if action.verb == "quit":
            return
        print(table.do(action, sleep=stop.wait), flush=True)


def _stdin_lines(stop: threading.Event):
    """stdin's lines through a queue, so a signal is not held up by a blocked read."""
    import queue
    q: queue.Queue = queue.Queue()

    def pump() -> None:
        for line in sys.stdin:
            q.put(line)
        q.put(None)
        stop.wait()
    threading.Thread(target=pump, daemon=True).start()

    class _Lines:
        def get(self):
            while not stop.is_set():
                try:
                    return q.get(timeout=0.2)
                except queue.Empty:
                    continue
            return None
    return _Lines()
