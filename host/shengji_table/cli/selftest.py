"""``shengji-table selftest``: walk a freshly built table — each ring lit in turn, a tap asked on
each reader and a press of each button, each reader's PN532 firmware version read — and report
what did not answer.

    shengji-table selftest --device auto --board boards/table-4.json [--timeout 30]
    shengji-table selftest --device auto --board boards/table-4.json --measure 20 [--hold 2]
    shengji-table selftest … --json      # the report as one JSON object on stdout, prompts on stderr

``--measure N`` measures instead of walking: N placements on every reader, then two cards at once;
per reader the tap latency, misses, false lifts and false taps, polls per second, beside the
estimate of ``make bench`` (:class:`shengji_table.table.selftest_measure.Measurement`).

On a virtual table (``shengji-table virtual-table``: its device is a pseudo-terminal) each prompt
that asks for a tap, a placement or a press is followed by the command to type in the
virtual-table's window (``tap 0 SA#1``, ``press 2``).  A line said twice in a row is printed once.

Exit status: 0 every check passed, 1 something failed (the report says what and where to look),
2 the test could not run (no device, a bad board file).

The checks are :class:`shengji_table.table.selftest.SelfTest` (pure); this module only connects it
to the table's serial link (``table/serial_link.py``: handshake, heartbeats, acknowledgements).
Self-test events are not logged anywhere, so they are acknowledged as soon as they are read.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable

from shengji_table.board import DEFAULT_BOARD as _DEFAULT_BOARD

DEFAULT_BOARD = str(_DEFAULT_BOARD)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--device", default="auto",
                        help="auto (find the Pico by USB id), a serial path or a pyserial URL")
    parser.add_argument("--board", default=DEFAULT_BOARD,
                        help="the table's board file (default: boards/table-4.json, installed with the host)")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds allowed for each tap and each press (default 30)")
    parser.add_argument("--connect-timeout", type=float, default=10.0,
                        help="seconds to wait for the Pico to answer (default 10)")
    parser.add_argument("--measure", type=int, default=None, metavar="N",
                        help="measure instead of walking: N placements per reader (docs/build.md)")
    parser.add_argument("--hold", type=float, default=2.0, metavar="SECONDS",
                        help="--measure: how long each card lies still (default 2)")
    parser.add_argument("--lift-wait", type=float, default=1.5, metavar="SECONDS",
                        help="--measure: how long a lift is given, past the firmware's lift time (default 1.5)")
    parser.add_argument("--json", action="store_true",
                        help="print the report as one JSON object on stdout (the prompts go to stderr)")


def _error(message: str) -> int:
    print(f"selftest: {message}", file=sys.stderr)
    return 2


def _device_problem(device: str) -> str | None:
    """Why ``device`` cannot be a table's port, or None (URLs and ``auto`` are checked on opening)."""
    if device == "auto" or "://" in device:
        return None
    if not os.path.exists(device):
        return f"no such device: {device} (is the table plugged in? try --device auto)"
    return None


def run(args: argparse.Namespace) -> int:
    from shengji_table.board import BoardError, load_board
    from shengji_table.table.discovery import DiscoveryError, find_table
    from shengji_table.table.serial_link import LinkError, SerialLink

    if args.timeout <= 0 or args.connect_timeout <= 0:
        return _error("--timeout and --connect-timeout must be positive")
    if args.measure is not None and (args.measure < 1 or args.hold <= 0 or args.lift_wait <= 0):
        return _error("--measure needs a whole number of placements from 1, --hold and --lift-wait positive times")
    try:
        board = load_board(args.board)
    except BoardError as exc:
        return _error(str(exc))
    problem = _device_problem(args.device)
    if problem:
        return _error(problem)
    try:
        device = find_table(args.device)
    except DiscoveryError as exc:
        return _error(str(exc))
    link = SerialLink(device)
    if not link.open():
        return _error(link.last_error)
    test = _make_test(args, board, device)
    out = sys.stderr if args.json else sys.stdout
    try:
        drive(link, test, _printer(out), hint=virtual_hint if is_virtual(device) else None)
    except LinkError as exc:
        # e.g. ProtocolMismatch: the table answers in another protocol version (old firmware)
        test.fail(f"the serial link failed: {exc}")
    except KeyboardInterrupt:
        test.fail("interrupted before the end: the positions marked 'not run' were not tested")
    finally:
        link.close()
    report = test.report()
    if args.json:
        print(json.dumps(report_json(report), sort_keys=True), flush=True)
    else:
        print(report.render(), flush=True)
    return report.exit_status


def report_json(report) -> dict:
    """A self-test or measurement report as JSON-able values: its fields (the board by name,
    bytes as hex), ``ok``, ``exit_status`` and, per reader of a measurement, its figures and
    verdict; the text report's RESULT block as ``result``."""
    out = _plain(report)
    out["ok"], out["exit_status"] = report.ok, report.exit_status
    for r, row in zip(getattr(report, "per_reader", ()), out.get("per_reader", ())):
        row.update(ok=r.ok, mean_ms=r.mean_ms, polls_per_s=r.polls_per_s, two_cards=r.two_cards,
                   faults=r.faults() if not r.ok else "")
    text = report.render()
    out["result"] = text[text.rindex("RESULT"):] if "RESULT" in text else ""
    return out


def _plain(value):
    import dataclasses
    from shengji_table.board import Board
    if isinstance(value, Board):
        return value.name
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _make_test(args: argparse.Namespace, board, device: str):
    """The walk, or with ``--measure`` the measurement (with the bench estimate beside its figures)."""
    from shengji_table.table.selftest import SelfTest
    if args.measure is None:
        return SelfTest(board, device=device, step_timeout=args.timeout, connect_timeout=args.connect_timeout)
    from shengji_table.hardware.timing import table_budget
    from shengji_table.table.selftest_measure import Measurement
    test = Measurement(board, args.measure, device=device, step_timeout=args.timeout,
                       connect_timeout=args.connect_timeout, hold_s=args.hold, lift_s=args.lift_wait)
    budget = table_budget(board)
    test.estimate = (budget.polls_per_s_per_seat, budget.tap_latency_ms)
    return test


def _printer(out) -> Callable[[str], None]:
    """Print each line to ``out``, a line equal to the one before once."""
    last: list = [None]

    def say(text: str) -> None:
        if text != last[0]:
            print(text, file=out, flush=True)
        last[0] = text
    return say


def is_virtual(device: str) -> bool:
    """True when ``device`` is a pseudo-terminal — the virtual table's (a Pico is a USB serial port)."""
    return os.path.realpath(device).startswith("/dev/pts/")


def virtual_hint(prompt) -> str | None:
    """What to type in the virtual table's window for a prompt that asks for an action (None: nothing)."""
    if prompt.ask in ("tap", "place") and prompt.index is not None:
        then = f", then `lift {prompt.index}` when asked to lift it" if prompt.ask == "place" else ""
        return f"  virtual table: type `tap {prompt.index} SA#1` in the virtual-table window{then}"
    if prompt.ask == "press" and prompt.index is not None:
        return f"  virtual table: type `press {prompt.index}` in the virtual-table window"
    return None


def drive(link, test, say: Callable[[str], None], clock: Callable[[], float] = time.monotonic,
          linger_s: float = 0.3, hint: Callable | None = None) -> None:
    """Run ``test`` over ``link`` (an opened :class:`SerialLink`) until it is done; ``say`` gets
    every prompt (and ``hint(prompt)``'s line after it, when it gives one).  After the end the link
    keeps running ``linger_s`` so the last ring states and acknowledgements reach the Pico."""
    from shengji_table.table.selftest import AskSnapshot, Prompt, SetRing
    from shengji_table.table.serial_link import Disconnected

    def apply(outputs) -> None:
        for o in outputs:
            if isinstance(o, Prompt):
                say(o.text)
                extra = hint(o) if hint is not None else None
                if extra:
                    say(extra)
            elif isinstance(o, SetRing):
                link.session.set_ring(o.ring, o.pattern, *o.rgb)
            elif isinstance(o, AskSnapshot):
                link.request_snapshot()

    apply(test.start(clock()))
    while not test.done:
        link.flush()
        outputs: list = []
        for e in link.poll():
            if isinstance(e, Disconnected):
                test.note(f"the serial port failed ({e.reason}) and was reopened")
            outputs += test.feed(e, clock())
        outputs += test.tick(clock())
        apply(outputs)
    end = clock() + linger_s
    while clock() < end:
        link.flush()
        link.poll()
    link.flush()
