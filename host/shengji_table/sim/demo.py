"""The demo: a virtual table playing a match with bots — the real firmware under MicroPython, the
host over a pseudo-terminal, bots tapping virtual cards — with a live view of the table.

:func:`play_demo` plays it; the ``shengji-table demo`` command (``cli/demo.py``) reads the options,
checks them and the output paths, and calls it.  It returns when the N hands are played (or the
match ends), printing the levels.  In a terminal the table is redrawn live; otherwise the
announcements are printed as plain lines.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Callable

from ..board import BOARDS_DIR
from ..game.names import with_names
from ..rules.cards import level_text
from ..rules.ruleset import Ruleset

__all__ = ["BOARDS", "board_for", "play_demo"]

# The virtual tables, 4 seats then 6: the first with a seat for every player of the preset is played.
BOARDS = (BOARDS_DIR / "table-4.json", BOARDS_DIR / "table-6.json")


def board_for(ruleset: Ruleset):
    """The virtual table a preset is played at (None: none has the seats).  Bids, trump and friend
    calls are entered at the seats (table/gestures.py); a preset with fewer players than the
    board's seats leaves the last seats empty."""
    return next((b for b in BOARDS if json.loads(b.read_text())["seats"] >= ruleset.players), None)


# long: the demo's whole life — board, table, host, view, run, report — with the clean-up of each
def play_demo(ruleset: Ruleset, *, preset: str, mode: str = "scanned", seed: int = 7, hands: int = 2,
              bots: str = "heuristic", log: str | None = None, record: str | None = None,
              make_view: Callable | None = None,
              write_record: Callable[[str, str], None] | None = None, names: tuple = (),
              on_service: Callable | None = None, duplicate=None) -> int:
    """Play ``hands`` hands of ``ruleset`` (the preset named ``preset``) at a virtual table; the exit
    status (0 played, 1 the table lost its way, 2 it could not start, 130 interrupted).

    ``log``: keep the SQLite event log there (default: a temporary file); ``record``: write the
    JSON match record there with ``write_record(path, text)`` (the caller checked both paths can
    be written); ``make_view(controller, title)``: the terminal view and its voice
    (``cli/face_args.py``, as ``serve``'s; default: plain lines, silent); ``names``: the players'
    names (game/names.py), shown and kept in the log and the record; ``on_service(service)``:
    called once the table's service exists (the web pages start there); what it returns is
    stopped (``.stop()``) at the end; ``duplicate``: a duplicate board (``club/boards.py``) played
    as the match's one hand — its stack, dealer and level — and named in the log's start row.
    """
    from ..face.terminal import TableView
    from ..micropython import MicroPythonMissing
    from ..store.log import LogError
    from .match_runner import SimHost
    from .players import PlanMismatch
    from .virtual_table import VirtualTable
    board_path = board_for(ruleset)
    if board_path is None:
        print(f"error: no virtual table has {ruleset.players} seats for preset {preset!r}", file=sys.stderr)
        return 2
    tmp = tempfile.TemporaryDirectory(prefix="shengji-demo-")
    log_path = log or os.path.join(tmp.name, "demo.db")
    try:
        vt = VirtualTable(board=board_path).start()
    except MicroPythonMissing as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    title = f"Shengji virtual table — {ruleset.preset}, {mode} hands, seed {seed}, {hands} hand(s)"
    if duplicate is not None:
        title = (f"Shengji virtual table — {ruleset.preset}, {mode} hands, duplicate board {duplicate.number} "
                 f"(dealer seat {duplicate.dealer}, level {level_text(duplicate.level)})")
    view = host = web = None
    try:
        try:
            host = SimHost(vt.device, log_path, preset=preset, mode=mode, seed=seed,
                           hands=hands, bots=bots, board=board_path, ruleset=ruleset, names=names,
                           duplicate=duplicate)
        except LogError as exc:         # e.g. --log names another program's database
            print(f"error: {exc}", file=sys.stderr)
            return 2
        web = on_service(host.service) if on_service is not None else None
        view = (make_view or (lambda c, t: TableView(c, plain=True, title=t)))(host.controller, title)
        host.service.on_text = view.say
        host.service.on_note = view.status
        view.announce_title()
        host.start()
        ok = host.run(timeout=60 * 60, idle=view.refresh_paced)     # the bots wait for the voice
        view.close()
        _summary(host, log, names)
        seats = list(names) or [f"bot:{bots}"] * ruleset.players
        if record and not _write_record(host, record, seats, write_record):
            return 2
        return 0 if ok else 1
    except PlanMismatch as exc:
        print(f"error: the table lost or doubled a card: {exc}", file=sys.stderr)
        return 1
    except LogError as exc:                 # disk full, I/O error mid-match: stop, resumable
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    finally:
        if web is not None:
            web.stop()
        if view is not None:
            view.close()
        if host is not None:
            host.close()
        vt.close()
        tmp.cleanup()


def _summary(host, log: str | None, names: tuple = ()) -> None:
    """The levels and the figures of the match played."""
    m = host.controller.match
    print(with_names("\nLevels: " + ", ".join(f"seat {i} {level_text(lv) if lv <= 14 else 'won'}"
                                              for i, lv in enumerate(m.levels)), names))
    print(f"{len(m.summaries)} hand(s) played, {host.service.stats.physical} table events, "
          f"{host.service.stats.refusals} refusals; log: {log or '(temporary)'}")


def _write_record(host, record: str, seats: list, write_record) -> bool:
    """Write the match record (False: it could not be written, said on stderr)."""
    from ..game.record import dumps
    assert write_record is not None, "a record path needs write_record"
    try:
        write_record(record, dumps(host.service.record(seats=seats)))
    except OSError as exc:
        print(f"error: cannot write record {record}: {exc.strerror or exc}", file=sys.stderr)
        return False
    print(f"Record written to {record}")
    return True
