"""``shengji-table serve`` with house rules and names, as a user runs it (a separate process, the
firmware's link code as the Pico on a pseudo-terminal): the log's match header holds the ruleset
played and the names; a resumed serve takes the names back, other names are refused; ``log export``
gives them."""
import json
import pathlib
import signal
import subprocess
import sys

from shengji_table.sim.cpython_pico import CPythonPico
from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set
from shengji_table.store.log import EventLog

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from processes import read_until  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]
CLUB = REPO / "examples" / "rules" / "club-friday.toml"


def serve(args):
    return subprocess.Popen([sys.executable, "-m", "shengji_table", "serve"] + args, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=str(REPO))




def stop(p):
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=10)
    assert p.returncode == 0, err
    return out


def test_serve_keeps_the_house_rules_and_the_names_in_the_log_and_resumes_with_them(tmp_path, capsys):
    deck = tmp_path / "deck.json"
    sim_deck_set(2).save(deck)
    log = tmp_path / "table.db"
    args = ["--board", str(DEFAULT_BOARD), "--deck-set", str(deck), "--log", str(log), "--rules", str(CLUB)]
    with CPythonPico() as pico:
        p = serve(["--device", pico.device] + args + ["--option", "bury_clock=30"])
        read_until(p, "new match")
        stop(p)
        with EventLog(log, read_only=True) as db:
            header = next(e.payload for e in db.entries(kind="meta") if "start" in e.payload)
        assert header["start"]["seats"] == ["Li", "Wang", "Zhao", "Chen"]
        assert header["ruleset"]["play_clock"] == 20 and header["ruleset"]["bury_clock"] == 30
        assert header["ruleset"]["match_end"] == "defend-a" and header["ruleset"]["throw_penalty"] == "per-card"
        # resumed without --players (the file's names are the header's): carries on
        p = serve(["--device", pico.device] + args + ["--option", "bury_clock=30"])
        read_until(p, "resumed match 'table'")
        stop(p)
        # other house rules or other names: refused, the log untouched
        p = serve(["--device", pico.device] + args)
        _, err = p.communicate(timeout=20)
        assert p.returncode == 2 and "does not replay for this table" in err and "Traceback" not in err
        p = serve(["--device", pico.device] + args + ["--option", "bury_clock=30", "--players", "A,B,C,D"])
        _, err = p.communicate(timeout=20)
        assert p.returncode == 2 and "was started with players Li, Wang, Zhao, Chen, not A, B, C, D" in err
    from shengji_table.cli import main
    assert main(["log", "export", str(log)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["seats"] == ["Li", "Wang", "Zhao", "Chen"] and record["ruleset"]["bury_clock"] == 30
    assert main(["log", "export", str(log), "--format", "text"]) == 0
    assert '[Seats "0 Li; 1 Wang; 2 Zhao; 3 Chen"]' in capsys.readouterr().out
