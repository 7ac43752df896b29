"""R-7.4 炒地皮 at the virtual table: the real firmware under MicroPython, bots tapping and pressing —
a seat counters after the burial, takes the kitty and buries anew; the record is the game layer's."""
import json
import pathlib
import subprocess
import sys

import pytest

from shengji_table.game.record import to_record
from shengji_table.rules.ruleset import Ruleset
from shengji_table.sim.players import play_direct

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.micropython


@pytest.mark.parametrize("mode", ["scanned", "open"])
def test_e2e_demo_steals_the_kitty_R_7_4(tmp_path, mode):
    record = tmp_path / "record.json"
    proc = subprocess.run([sys.executable, "-m", "shengji_table", "demo", "--hands", "1", "--seed", "37",
                           "--mode", mode, "--option", "kitty_stealing=true", "--no-voice", "--record", str(record)],
                          capture_output=True, text=True, timeout=120, cwd=str(REPO_ROOT))
    assert proc.returncode == 0, proc.stderr
    assert "counters with" in proc.stdout and "Nobody counters" in proc.stdout
    got = json.loads(record.read_text())
    want = to_record(play_direct(Ruleset.from_preset("classic", kitty_stealing=True), mode, 37, 1))
    assert got["events"] == want["events"] and got["summary"] == want["summary"]
    assert got["ruleset"]["kitty_stealing"] is True
