"""Files nested deeper than a parser recurses (a board, a deck set, a rules file) are refused by
``serve`` with a sentence naming the file, exit 2, never a RecursionError traceback; and the event
log, which holds every hand, is created readable by its owner only (with its -wal and -shm)."""
import os
import pathlib
import stat
import subprocess
import sys

import pytest

from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set
from shengji_table.store.log import EventLog

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
DEPTH = 200_000


def _serve(tmp_path, *argv) -> tuple:
    log = tmp_path / "table.db"
    p = subprocess.run([sys.executable, "-m", "shengji_table", "serve", "--device", "loop://", "--log", str(log),
                        *argv], capture_output=True, text=True, timeout=60, cwd=str(REPO_ROOT))
    assert not log.exists(), "nothing may start on a refused file"
    return p.returncode, p.stderr


@pytest.mark.parametrize("shape", ["[" * DEPTH + "]" * DEPTH, '{"a": ' * DEPTH + "1" + "}" * DEPTH])
def test_a_deeply_nested_board_or_deck_set_is_a_clear_error(tmp_path, shape):
    deep = tmp_path / "deep.json"
    deep.write_text(shape)
    deck = tmp_path / "deck.json"
    sim_deck_set(2).save(deck)
    code, err = _serve(tmp_path, "--board", str(deep), "--deck-set", str(deck))
    assert code == 2 and f"bad board file {deep}" in err and "nested too deeply" in err, err
    assert "Traceback" not in err and "RecursionError" not in err
    code, err = _serve(tmp_path, "--board", str(DEFAULT_BOARD), "--deck-set", str(deep))
    assert code == 2 and f"{deep} is not a deck set" in err and "nested too deeply" in err, err
    assert "Traceback" not in err


def test_a_deeply_nested_rules_file_is_a_clear_error(tmp_path):
    deep = tmp_path / "house.toml"
    deep.write_text('preset = "classic"\nx = ' + "[" * DEPTH + "]" * DEPTH + "\n")
    deck = tmp_path / "deck.json"
    sim_deck_set(2).save(deck)
    code, err = _serve(tmp_path, "--board", str(DEFAULT_BOARD), "--deck-set", str(deck), "--rules", str(deep))
    assert code == 2 and f"rules file {deep}" in err and "nested too deeply" in err, err
    assert "Traceback" not in err


def test_the_event_log_and_its_wal_are_created_owner_only(tmp_path):
    old = os.umask(0o022)
    try:
        path = tmp_path / "table.db"
        with EventLog(path) as log:
            log.append("meta", {"note": "every hand is in here"})
            files = [p for p in tmp_path.iterdir() if p.name.startswith("table.db")]
            assert {p.name for p in files} >= {"table.db", "table.db-wal"}
            for p in files:
                assert stat.S_IMODE(p.stat().st_mode) == 0o600, p
        with EventLog(path) as log:                     # an existing log keeps its mode
            pass
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        with EventLog(path) as log:
            log.backup(tmp_path / "copy.db")
        assert stat.S_IMODE((tmp_path / "copy.db").stat().st_mode) == 0o600
    finally:
        os.umask(old)
