"""``shengji-table serve`` shows the same live view as the demo when its stdout is a terminal: a
separate process on a pseudo-terminal, against the firmware's link code as the Pico (CPython),
with the rings, the legend, the teams and the announcements (a refused tag included) drawn in
place; ``--plain`` prints lines instead; ``--voice zh`` without espeak-ng says once why it is off."""
import json
import os
import pathlib
import pty
import select
import signal
import subprocess
import sys
import time

from shengji_table.sim.cpython_pico import CPythonPico
from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
BOARD = json.loads(DEFAULT_BOARD.read_text())


def _serve_on_a_terminal(args, env=None):
    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "shengji_table", "serve"] + args, stdout=slave,
                         stderr=subprocess.PIPE, cwd=str(REPO_ROOT), env=env)
    os.close(slave)
    return p, master


def _read_until(master, words, seconds=20) -> str:
    seen = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
            text = seen.decode("utf-8", "replace")
            if all(w in text for w in words):
                return text
    raise AssertionError(f"{words!r} never all shown; got:\n{seen.decode('utf-8', 'replace')[-3000:]}")


def test_serve_on_a_terminal_draws_the_live_view(tmp_path):
    deck = tmp_path / "deck.json"
    sim_deck_set(2).save(deck)
    args = ["--board", str(DEFAULT_BOARD), "--deck-set", str(deck), "--log", str(tmp_path / "t.db"),
            "--voice", "off"]
    with CPythonPico() as pico:
        p, master = _serve_on_a_terminal(["--device", pico.device] + args)
        try:
            screen = _read_until(master, ["Hand 1: dealing", "table connected"])
            assert "\x1b[38;2;" in screen and "\x1b[H" in screen        # colour rings, drawn in place
            assert "circling: your turn" in screen and "red blink: refused" in screen
            assert "Teams: seats 0+2 and 1+3" in screen and "centre" in screen
            pico.tap(1, bytes(7), None)                                  # a tag of no deck set
            screen = _read_until(master, ["Seat 1: refused"])
        finally:
            p.send_signal(signal.SIGINT)
            p.wait(timeout=10)
            os.close(master)
        assert p.returncode == 0, p.stderr.read().decode()


def test_serve_plain_on_a_terminal_prints_lines_and_says_the_voice_is_off(tmp_path):
    deck = tmp_path / "deck.json"
    sim_deck_set(2).save(deck)
    env = dict(os.environ, PATH=str(tmp_path))          # no espeak-ng on this PATH
    args = ["--board", str(DEFAULT_BOARD), "--deck-set", str(deck), "--log", str(tmp_path / "t.db"),
            "--plain", "--voice", "zh"]
    with CPythonPico() as pico:
        p, master = _serve_on_a_terminal(["--device", pico.device] + args, env=env)
        try:
            text = _read_until(master, ["Hand 1: dealing", "table connected"])
        finally:
            p.send_signal(signal.SIGINT)
            p.wait(timeout=10)
            os.close(master)
    assert "\x1b[" not in text
    assert text.count("voice off: espeak-ng is not installed") == 1
