"""Fixtures for the hardware tests: each board's circuit and netlist, built once per session."""
import json

import pytest

from shengji_table.board import load_board
from shengji_table.hardware.build import BOARDS_DIR, generate
from shengji_table.hardware.netlist import parse_netlist

BOARD_NAMES = ("table-4", "table-6")


@pytest.fixture(scope="session")
def generated():
    """name -> (board, Outputs, parsed netlist) for both boards."""
    out = {}
    for name in BOARD_NAMES:
        board = load_board(BOARDS_DIR / f"{name}.json")
        outputs = generate(board)
        out[name] = (board, outputs, parse_netlist(outputs.files[f"{name}.net"]))
    return out


@pytest.fixture
def board_copy(tmp_path):
    """Write a modified copy of a board file: ``board_copy("table-4", edit)`` -> its path."""
    def make(name, edit):
        data = json.loads((BOARDS_DIR / f"{name}.json").read_text())
        edit(data)
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data))
        return path
    return make
