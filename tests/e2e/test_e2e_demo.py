"""The demo (cli/demo.py, played by sim/demo.py) as a user runs it without a terminal: a virtual
table plays the hands with bots, prints the announcements as plain text and exits when the hands
are done, with the record equal to the game layer's."""
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

DEMO = ("import argparse, sys\n"
        "from shengji_table.cli import demo\n"
        "p = argparse.ArgumentParser(); demo.add_arguments(p)\n"
        "sys.exit(demo.run(p.parse_args(sys.argv[1:])))\n")


def test_e2e_demo_plain_text_plays_the_hands_and_exits(tmp_path):
    record = tmp_path / "record.json"
    proc = subprocess.run([sys.executable, "-c", DEMO, "--hands", "1", "--preset", "one-deck", "--mode", "open",
                           "--no-voice", "--record", str(record)],
                          capture_output=True, text=True, timeout=120, cwd=str(REPO_ROOT))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "\x1b[" not in out                                # no terminal: plain text
    assert "Hand 1: dealing" in out and "Trick 1 to seat" in out
    assert "Levels:" in out and "1 hand(s) played" in out
    got = json.loads(record.read_text())
    want = to_record(play_direct(Ruleset.from_preset("one-deck"), "open", 7, 1))
    assert got["events"] == want["events"] and got["summary"] == want["summary"]


def test_e2e_demo_refuses_an_unknown_preset():
    # (bids and friend calls are entered at the table now: tests/e2e/test_e2e_calls.py runs the demo
    # with find-a-friend and three players)
    proc = subprocess.run([sys.executable, "-c", DEMO, "--preset", "no-such-preset", "--no-voice"],
                          capture_output=True, text=True, timeout=60, cwd=str(REPO_ROOT))
    assert proc.returncode == 2 and "no-such-preset" in proc.stderr


@pytest.mark.parametrize("option", ["--record", "--log"])
def test_e2e_demo_refuses_an_unwritable_record_or_log_before_playing(option, tmp_path):
    """demo --record / --log in a folder that does not exist: exit 2 with a sentence before the
    virtual table starts, not a traceback after the match."""
    path = tmp_path / "no" / "x"
    proc = subprocess.run([sys.executable, "-c", DEMO, "--hands", "1", "--no-voice", option, str(path)],
                          capture_output=True, text=True, timeout=120, cwd=str(REPO_ROOT))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert f"folder {path.parent} does not exist" in proc.stderr and "Hand 1" not in proc.stdout


def test_e2e_demo_log_of_another_program_is_a_clear_error(tmp_path):
    import sqlite3
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (x TEXT)")
    proc = subprocess.run([sys.executable, "-c", DEMO, "--hands", "1", "--no-voice", "--log", str(other)],
                          capture_output=True, text=True, timeout=120, cwd=str(REPO_ROOT))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith("error: ") and "Hand 1" not in proc.stdout


def test_e2e_demo_shows_the_log_head_after_each_hand_and_the_record_carries_it(tmp_path):
    """After each settled hand the screen shows the log's row count and head hash; the record names
    the head the log had when it was written, and ``log verify`` of that log prints the same."""
    record, log = tmp_path / "record.json", tmp_path / "table.db"
    proc = subprocess.run([sys.executable, "-c", DEMO, "--hands", "2", "--preset", "one-deck", "--no-voice",
                           "--record", str(record), "--log", str(log)],
                          capture_output=True, text=True, timeout=180, cwd=str(REPO_ROOT))
    assert proc.returncode == 0, proc.stderr
    notes = [line for line in proc.stdout.splitlines() if "is in the log:" in line]
    assert [n.split("Hand ")[1].split(" ")[0] for n in notes] == ["1", "2"], proc.stdout
    written = json.loads(record.read_text(encoding="utf-8"))["log"]
    verify = subprocess.run([sys.executable, "-m", "shengji_table", "log", "verify", str(log)],
                            capture_output=True, text=True, timeout=60, cwd=str(REPO_ROOT))
    assert verify.returncode == 0 and f"ok: {written['rows']} rows" in verify.stdout, verify.stdout
    assert verify.stdout.strip().endswith(written["head"])
    import sqlite3
    db = sqlite3.connect(f"file:{log}?mode=ro", uri=True)
    for note in notes:                       # each note names the hash of the row it was shown at
        rows = int(note.split("is in the log: ")[1].split(" ")[0])
        (row_hash,) = db.execute("SELECT hash FROM entries WHERE id = ?", (rows,)).fetchone()
        assert f"head {row_hash[:16]}" in note and rows <= written["rows"]
    db.close()


def test_e2e_the_seat_on_turn_challenges_a_throw_by_holding_its_button_R_4_3(tmp_path):
    """Open play, random bots, seed 1: seat 3 throws and seat 0 — the next to play — holds the
    beating card.  At the virtual table (the firmware's own 800 ms long press) seat 0 holds its
    button, taps the card and lets go: the challenge is made, and the record is the game layer's."""
    record = tmp_path / "record.json"
    proc = subprocess.run([sys.executable, "-c", DEMO, "--hands", "1", "--mode", "open", "--bots", "random",
                           "--seed", "1", "--no-voice", "--record", str(record)],
                          capture_output=True, text=True, timeout=180, cwd=str(REPO_ROOT))
    assert proc.returncode == 0, proc.stderr + proc.stdout[-2000:]
    assert "Seat 0 challenged with" in proc.stdout
    got = json.loads(record.read_text())
    want = to_record(play_direct(Ruleset.from_preset("classic"), "open", 1, 1, bots="random"))
    assert got["events"] == want["events"]
    challenge = next(e for e in got["events"] if e["type"] == "challenge")
    assert challenge["seat"] == 0


def test_e2e_demo_in_chinese_with_names_renders_every_line_from_the_catalog():
    """``demo --lang zh --players 李明,王芳,赵强,陈静``: every announcement is Chinese rendered from
    the message catalog, naming the players — no "请看屏幕" fallback, no "Seat N", no "N号位"."""
    names = ("李明", "王芳", "赵强", "陈静")
    proc = subprocess.run([sys.executable, "-c", DEMO, "--hands", "1", "--preset", "one-deck", "--mode", "open",
                           "--no-voice", "--lang", "zh", "--players", ",".join(names)],
                          capture_output=True, text=True, timeout=180, cwd=str(REPO_ROOT))
    assert proc.returncode == 0, proc.stderr
    said = [line.split("  ", 1)[1] for line in proc.stdout.splitlines() if line[:2].isdigit() and "  " in line]
    assert len(said) > 10, proc.stdout
    assert not [s for s in said if "请看屏幕" in s or "Seat " in s or "号位" in s], proc.stdout
    assert "第1副牌" in said[0] and any("墩归" in s for s in said) and any("闲家得" in s for s in said)
    assert all(n in proc.stdout for n in names)
