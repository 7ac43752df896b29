"""One writer per table: a second ``serve`` on a table's port, or on its log, is refused at once
naming the first one's process — it never splits the taps between two logs."""
import pathlib
import signal
import subprocess
import sys

from shengji_table.sim.cpython_pico import CPythonPico
from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from processes import read_until  # noqa: E402

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
SERVE = [sys.executable, "-m", "shengji_table", "serve", "--board", str(DEFAULT_BOARD), "--mode", "scanned"]


def _start(device, deck, log):
    return subprocess.Popen(SERVE + ["--device", device, "--deck-set", str(deck), "--log", str(log)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(REPO_ROOT))




def _stop(proc):
    proc.send_signal(signal.SIGINT)
    try:
        proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()


def test_a_second_serve_on_the_same_port_is_refused_naming_the_first(tmp_path):
    deck = tmp_path / "deck.json"
    sim_deck_set(2).save(deck)
    with CPythonPico() as pico:
        first = _start(pico.device, deck, tmp_path / "a.db")
        try:
            read_until(first, "table connected")
            second = _start(pico.device, deck, tmp_path / "b.db")
            out, err = second.communicate(timeout=60)
            assert second.returncode == 2, out + err
            assert f"is in use by process {first.pid}" in err and "one program runs a table" in err, err
            assert "Traceback" not in err
        finally:
            _stop(first)


def test_a_second_serve_on_the_same_log_is_refused_naming_the_first(tmp_path):
    deck = tmp_path / "deck.json"
    sim_deck_set(2).save(deck)
    log = tmp_path / "table.db"
    with CPythonPico() as pico, CPythonPico() as other:
        first = _start(pico.device, deck, log)
        try:
            read_until(first, "table connected")
            second = _start(other.device, deck, log)
            out, err = second.communicate(timeout=60)
            assert second.returncode == 2, out + err
            assert f"the log {log} is in use by process {first.pid}" in err, err
        finally:
            _stop(first)
