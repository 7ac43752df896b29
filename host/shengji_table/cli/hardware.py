"""``shengji-table hardware``: check that the schematic, the board file and the firmware agree; build
the schematic's outputs (KiCad netlist, SVG drawing, BOM) from a board file.

    shengji-table hardware check --board boards/table-4.json
    shengji-table hardware build --out schematics            # every board in boards/
    shengji-table hardware docs --update                     # wiring tables in docs/hardware.md

Exit status: 0 agreed / built, 1 a difference, an ERC problem or a stale output, 2 bad input.
"""
from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    check = sub.add_parser("check", help="pins agree in the schematic, the board file and the firmware; ERC passes",
                           description="Compare, GPIO by GPIO, the board file, the committed schematic netlist and "
                                       "the pins the firmware configures for the board file (firmware/main.py "
                                       "build() after firmware/board.py); stop at the first difference.  Then "
                                       "run ERC and check the committed outputs are fresh.")
    check.add_argument("--board", required=True, help="board file (boards/NAME.json)")
    check.add_argument("--schematic", default=None,
                       help="netlist to compare (default: schematics/NAME.net for the board's name)")
    check.add_argument("--interpreter", choices=("micropython", "cpython"), default="micropython",
                       help="run the firmware's pin setup under the real MicroPython (default) or CPython")
    build = sub.add_parser("build", help="write the KiCad netlist, the SVG drawing and the BOM of boards",
                           description="Generate NAME.net, NAME.svg and NAME-bom.csv for each board; ERC must pass.")
    build.add_argument("--board", action="append", default=None,
                       help="board file (repeatable; default: every file in boards/)")
    build.add_argument("--out", default="build/hardware", help="output folder (default: build/hardware)")
    docs = sub.add_parser("docs", help="the wiring tables and power budgets of docs/hardware.md",
                          description="Print the generated blocks of docs/hardware.md (wiring per seat, power "
                                      "budget) for every board, or rewrite them in place with --update.")
    docs.add_argument("--page", default=None, help="the page (default: docs/hardware.md)")
    docs.add_argument("--update", action="store_true", help="rewrite the page's generated blocks")


def run(args: argparse.Namespace) -> int:
    if args.action == "check":
        return _check(args)
    if args.action == "docs":
        return _docs(args)
    return _build(args)


def _check(args: argparse.Namespace) -> int:
    from shengji_table.board import BoardError
    from shengji_table.hardware.build import ErcFailed
    from shengji_table.hardware.check import PinMismatch, StaleOutput, check_board
    from shengji_table.hardware.netlist import NetlistError
    from shengji_table.hardware.power import PowerError
    from shengji_table.hardware.schematic import SchematicError
    from shengji_table.micropython import MicroPythonMissing

    try:
        result = check_board(args.board, args.schematic, args.interpreter)
    except (BoardError, NetlistError, FileNotFoundError, SchematicError, PowerError, MicroPythonMissing) as exc:
        print(f"hardware check: {exc}", file=sys.stderr)
        return 2
    except PinMismatch as exc:
        print(f"hardware check FAILED: {exc}", file=sys.stderr)
        return 1
    except (ErcFailed, StaleOutput) as exc:
        print(f"hardware check FAILED: {exc}", file=sys.stderr)
        return 1
    board = result.board
    print(f"{board.name}: board file, schematic ({result.schematic}) and firmware agree on "
          f"{len(result.agreement.roles)} pins")
    for pin, role in sorted(result.agreement.roles.items()):
        print(f"  GP{pin:<2}  {role}")
    print(f"  LED chain: {' -> '.join(result.agreement.chain)}")
    print(result.erc_summary)
    for path in result.fresh_files:
        print(f"up to date: {path}")
    return 0


def _build(args: argparse.Namespace) -> int:
    from shengji_table.board import BoardError
    from shengji_table.hardware.build import ErcFailed, all_boards, write_outputs
    from shengji_table.hardware.netlist import NetlistError
    from shengji_table.hardware.power import PowerError
    from shengji_table.hardware.schematic import SchematicError

    boards = args.board or [str(p) for p in all_boards()]
    if not boards:
        print("hardware build: no board files given and none in boards/", file=sys.stderr)
        return 2
    status = 0
    for board in boards:
        try:
            written = write_outputs(board, args.out)
        except (BoardError, SchematicError, PowerError) as exc:
            print(f"hardware build: {exc}", file=sys.stderr)
            status = max(status, 2)
            continue
        except (ErcFailed, NetlistError) as exc:
            print(f"hardware build FAILED: {exc}", file=sys.stderr)
            status = max(status, 1)
            continue
        except OSError as exc:          # the output folder: every board would fail the same way
            print(f"hardware build: cannot write to {args.out}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        for path in written:
            print(f"wrote {path}")
    return status


def _docs(args: argparse.Namespace) -> int:
    from shengji_table.board import BoardError, load_board
    from shengji_table.hardware.build import CHECKOUT, all_boards
    from shengji_table.hardware.wiring import DocError, board_section, update_doc

    try:
        boards = [load_board(p) for p in all_boards()]
    except BoardError as exc:
        print(f"hardware docs: {exc}", file=sys.stderr)
        return 2
    if not args.update:
        for board in boards:
            print(f"## {board.name}\n\n{board_section(board)}")
        return 0
    page = args.page
    if not page:
        if CHECKOUT is None:
            print("hardware docs: no docs/hardware.md here (an installed package, not the repository): "
                  "give --page", file=sys.stderr)
            return 2
        page = str(CHECKOUT / "docs" / "hardware.md")
    try:
        with open(page, encoding="utf-8") as f:
            text = f.read()
        new = update_doc(text, boards)
    except (OSError, DocError) as exc:
        print(f"hardware docs: {exc}", file=sys.stderr)
        return 2
    if new != text:
        with open(page, "w", encoding="utf-8") as f:
            f.write(new)
        print(f"updated {page}")
    else:
        print(f"{page} is up to date")
    return 0
