"""``shengji-table league``: a small league end to end, and every bad input (exit 2, nothing played)."""
from __future__ import annotations

import json

import pytest

from shengji_table.cli import COMMANDS
from shengji_table.cli import main as cli_main


def test_league_is_in_the_command_table():
    assert COMMANDS["league"][0] == "league"


def test_a_small_league_prints_its_json(capsys):
    assert cli_main(["league", "--bots", "heuristic,random", "--matches", "3", "--seed", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["bots"] == ["heuristic", "random"] and len(out["nets"]) == 3
    s = out["summary"]
    assert s["n"] == 3 and s["mean"] == pytest.approx(sum(out["nets"]) / 3)
    assert s["wins"] + s["losses"] + s["draws"] == 3
    assert out["decisions"]["A"]["overruns"] == 0 and out["decisions"]["A"]["decisions"] > 0
    again = ["league", "--bots", "heuristic,random", "--matches", "3", "--seed", "4", "--json"]
    assert cli_main(again) == 0
    assert json.loads(capsys.readouterr().out)["nets"] == out["nets"]      # a pure function of the seed


def test_the_text_report_names_the_figures(capsys):
    assert cli_main(["league", "--bots", "random,random", "--matches", "2", "--time-cap", "1000"]) == 0
    text = capsys.readouterr().out
    for words in ("net levels per match for random", "standard error", "95 % interval", "sign test p",
                  "over the 1000 ms cap", "wall time"):
        assert words in text


@pytest.mark.parametrize("argv, message", [
    (["--bots", "heuristic,nobody", "--matches", "3"], "unknown bot 'nobody'"),
    (["--bots", "heuristic,random", "--matches", "0"], "above 0"),
    (["--bots", "heuristic,random", "--matches", "-5"], "above 0"),
    (["--bots", "heuristic", "--matches", "3"], "two bots"),
    (["--bots", "heuristic,random", "--matches", "3", "--hands", "0"], "hands per game"),
    (["--bots", "heuristic,random", "--matches", "3", "--time-cap", "0"], "--time-cap"),
    (["--bots", "heuristic,random", "--matches", "3", "--jobs", "0"], "--jobs"),
    (["--bots", "heuristic,random", "--matches", "3", "--preset", "find-friend-4"], "fixed partnerships"),
    (["--bots", "heuristic,random", "--matches", "3", "--preset", "nosuch"], "unknown preset"),
])
def test_bad_input_exits_2_and_plays_nothing(capsys, argv, message):
    assert cli_main(["league", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.err.startswith("error: ")
    assert captured.out == ""


def test_a_count_that_is_not_a_number_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        cli_main(["league", "--bots", "heuristic,random", "--matches", "many"])
    assert exc.value.code == 2


def _run_on_a_terminal(argv):
    """The console script with stderr on a real pseudo-terminal (as in a terminal window) and
    stdout on a pipe: (stdout, what the terminal received)."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from processes import run_on_a_terminal
    status, out, seen = run_on_a_terminal([str(Path(sys.executable).parent / "shengji-table"), *argv], timeout=120)
    assert status == 0
    return out, seen.decode(errors="replace")


def test_the_league_shows_its_progress_on_a_terminal_and_nothing_in_a_pipe():
    import subprocess
    import sys
    from pathlib import Path
    argv = ["league", "--bots", "heuristic,random", "--matches", "3", "--preset", "one-deck", "--json"]
    out, terminal = _run_on_a_terminal(argv)
    assert "league matches" in terminal and "/3" in terminal, terminal
    assert json.loads(out)["matches"] == 3                       # stdout: the result alone
    piped = subprocess.run([str(Path(sys.executable).parent / "shengji-table"), *argv], capture_output=True,
                           text=True, timeout=120)
    assert piped.returncode == 0 and piped.stderr == "" and json.loads(piped.stdout)["matches"] == 3
