"""Generate a table's hardware outputs from its board file: netlist, drawing, bill of materials.

    shengji-table hardware build --out schematics          # both boards, the committed copies
    shengji-table hardware build --board boards/table-6.json --out build/hardware

Files written per board ``NAME``: ``NAME.net`` (KiCad netlist), ``NAME.svg`` (drawing),
``NAME-bom.csv`` (bill of materials).  Nothing is written unless ERC passes.
"""
from __future__ import annotations

import os
import pathlib
from dataclasses import dataclass

from ..board import BOARDS_DIR, Board, load_board
from ..firmware_src import FIRMWARE_DIR
from .bom import bom_csv, bom_lines
from .drawing import drawing_svg
from .erc import ErcReport, run_erc
from .netlist import netlist_text, parse_netlist
from .schematic import Schematic, build_schematic

__all__ = ["CHECKOUT", "BOARDS_DIR", "SCHEMATICS_DIR", "Outputs", "generate", "write_outputs", "output_names",
           "all_boards", "ErcFailed"]


def _checkout() -> pathlib.Path | None:
    """The repository the package runs from (``make venv``'s editable install reads the firmware from
    its ``firmware/``), or None: an installed wheel carries no committed schematics and no docs."""
    root = FIRMWARE_DIR.parent
    return root if (root / "schematics").is_dir() and (root / "boards").is_dir() else None


CHECKOUT = _checkout()
# The committed outputs (``hardware check`` compares against them; ``hardware build --out schematics``
# rewrites them): a checkout's only.
SCHEMATICS_DIR = CHECKOUT / "schematics" if CHECKOUT is not None else None


class ErcFailed(RuntimeError):
    """The circuit did not pass ERC; ``report`` says why."""

    def __init__(self, board: str, report: ErcReport):
        self.report = report
        super().__init__(f"{board}: {report.summary()}")


@dataclass(frozen=True)
class Outputs:
    """The generated texts of one board, keyed by file name."""
    schematic: Schematic
    erc: ErcReport
    files: dict[str, str]


def output_names(board_name: str) -> dict[str, str]:
    """File name of each output kind: ``netlist``, ``drawing``, ``bom``."""
    return {"netlist": f"{board_name}.net", "drawing": f"{board_name}.svg", "bom": f"{board_name}-bom.csv"}


def all_boards() -> list[pathlib.Path]:
    """The board files of ``boards/``, sorted."""
    return sorted(BOARDS_DIR.glob("*.json"))


def generate(board: Board) -> Outputs:
    """Build the circuit, run ERC, and render the outputs; raises :class:`ErcFailed`."""
    schematic = build_schematic(board)
    report = run_erc(schematic)
    if not report.ok:
        raise ErcFailed(board.name, report)
    net_text = netlist_text(schematic)
    netlist = parse_netlist(net_text, f"{board.name}.net")
    names = output_names(board.name)
    subtitle = (f"{board.description} -- generated from boards/{board.name}.json by "
                f"`shengji-table hardware build`; do not edit")
    files = {
        names["netlist"]: net_text,
        names["drawing"]: drawing_svg(netlist, f"{board.name}: wiring of the Pico, readers, rings and buttons",
                                      subtitle),
        names["bom"]: bom_csv(bom_lines(netlist, schematic.budget, board.seats)),
    }
    return Outputs(schematic=schematic, erc=report, files=files)


def write_outputs(board_path: str | os.PathLike[str], out_dir: str | os.PathLike[str]) -> list[pathlib.Path]:
    """Generate one board's outputs into ``out_dir`` (created if missing); returns the paths written."""
    outputs = generate(load_board(board_path))
    out = pathlib.Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in outputs.files.items():
        path = out / name
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)
    return written
