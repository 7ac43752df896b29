"""A full disk mid-match, end to end: ``demo`` and ``serve`` stop with a sentence and exit 2 (no
traceback), the log they leave verifies and holds every row they acknowledged, and the match
resumes from it on a disk with room.  The disk is a real tmpfs that fills (mounting needs root;
otherwise these skip, and tests/store/test_log_faults.py shows the same stop with RLIMIT_FSIZE)."""
import json
import pathlib
import subprocess
import sys

import pytest

from shengji_table.game.record import to_record
from shengji_table.rules.ruleset import Ruleset
from shengji_table.sim.players import play_direct

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tests"))
from full_disk import small_tmpfs  # noqa: E402

DEMO = ("import argparse, sys\n"
        "from shengji_table.cli import demo\n"
        "p = argparse.ArgumentParser(); demo.add_arguments(p)\n"
        "sys.exit(demo.run(p.parse_args(sys.argv[1:])))\n")


def _log_cli(*args):
    return subprocess.run([sys.executable, "-m", "shengji_table", "log", *map(str, args)],
                          capture_output=True, text=True, timeout=60, cwd=str(REPO_ROOT))


@pytest.mark.micropython
def test_e2e_demo_on_a_full_disk_stops_cleanly_and_resumes_to_the_same_record(tmp_path):
    """The disk fills mid-hand (a 1 MiB tmpfs: in the first hand's tricks): demo stops with a
    sentence and exit 2, no traceback; the log it leaves verifies, and resumed on a disk with room
    (a ``log backup`` copy) the match ends with the record of the run that never stopped."""
    copy, record = tmp_path / "copy.db", tmp_path / "record.json"
    with small_tmpfs(tmp_path / "mnt", "1m") as mnt:
        log = mnt / "table.db"
        proc = subprocess.run([sys.executable, "-c", DEMO, "--hands", "2", "--preset", "one-deck", "--mode", "open",
                               "--no-voice", "--log", str(log)],
                              capture_output=True, text=True, timeout=180, cwd=str(REPO_ROOT))
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert proc.stderr.startswith(f"error: the log {log} cannot be written") and "Levels:" not in proc.stdout
        assert "Trick 1 to seat" in proc.stdout           # it stopped mid-hand, not before play
        backup = _log_cli("backup", log, copy)
        assert backup.returncode == 0, backup.stderr
    verify = _log_cli("verify", copy)
    assert verify.returncode == 0 and verify.stdout.startswith("ok: "), verify.stdout
    proc = subprocess.run([sys.executable, "-c", DEMO, "--hands", "2", "--preset", "one-deck", "--mode", "open",
                           "--no-voice", "--log", str(copy), "--record", str(record)],
                          capture_output=True, text=True, timeout=180, cwd=str(REPO_ROOT))
    assert proc.returncode == 0, proc.stderr
    got = json.loads(record.read_text())
    want = to_record(play_direct(Ruleset.from_preset("one-deck"), "open", 7, 2))
    assert got["events"] == want["events"] and got["summary"] == want["summary"]



def test_e2e_serve_on_a_full_disk_stops_cleanly_with_exit_2(tmp_path):
    """serve at a table (the firmware's link code as the Pico, over a pseudo-terminal) with its log on
    a 116 KiB tmpfs (room for the log's format row and the first few rows): the first hand is dealt, then a
    write fails; serve says the log cannot be
    written, that nothing after it was acknowledged and how to resume, exits 2, no traceback; the
    rows it kept verify."""
    from shengji_table.sim.cpython_pico import CPythonPico
    from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set
    deck = tmp_path / "deck.json"
    sim_deck_set(2).save(deck)
    with small_tmpfs(tmp_path / "mnt", "116k") as mnt, CPythonPico() as pico:
        log = mnt / "t.db"
        p = subprocess.Popen([sys.executable, "-m", "shengji_table", "serve", "--device", pico.device, "--board",
                              str(DEFAULT_BOARD), "--deck-set", str(deck), "--log", str(log), "--mode", "scanned"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(REPO_ROOT))
        out, err = p.communicate(timeout=60)
        assert p.returncode == 2 and "Traceback" not in err, err
        assert "new match 'table'" in out and "Hand 1: dealing" in out
        assert f"error: the log {log} cannot be written" in err and "start again with the same log to resume" in err
        kept = int(err.split("rows 1–")[1].split(" ")[0])
        verify = _log_cli("verify", log)
        assert verify.returncode == 0 and verify.stdout.startswith(f"ok: {kept} rows"), verify.stdout
