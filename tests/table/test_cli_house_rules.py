"""House rules as ``play``, ``serve`` and ``demo`` take them (cli/preset_args.py, docs/house-rules.md):
``--rules FILE`` (TOML), ``--option NAME=VALUE``, ``--players NAMES``.  Every mistake is one line on
stderr and exit status 2 before anything is opened or written; the ruleset played and the names are
in the record."""
import json
import pathlib

import pytest

from shengji_table.cli import main
from shengji_table.rules.ruleset import Ruleset

REPO = pathlib.Path(__file__).resolve().parents[2]
CLUB = REPO / "examples" / "rules" / "club-friday.toml"
SERVE = ["serve", "--board", "no-such-board.json", "--deck-set", "no-such-deck.json"]
COMMANDS = [["play"], ["demo"], SERVE]


def write(tmp_path, text, name="house.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def refused(argv, capsys, tmp_path, monkeypatch) -> str:
    """``argv`` exits 2 with one error line, no traceback, nothing written in the working folder."""
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    monkeypatch.chdir(work)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert list(work.iterdir()) == []
    return err


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("bad, words", [
    (["--option", "nope=1"], ["unknown option 'nope'", "throw_penalty", "play_clock"]),
    (["--option", "throw_penalty=sometimes"], ["throw_penalty must be one of none, per-card, per-throw"]),
    (["--option", "referee_undo=maybe"], ["referee_undo is true or false"]),
    (["--option", "play_clock=soon"], ["play_clock is a whole number"]),
    (["--option", "play_clock=-5"], ["play_clock is seconds"]),
    (["--option", "throw_penalty"], ["is NAME=VALUE"]),
    (["--players", "Li,Wang,Zhao"], ["3 player name(s)", "preset 'classic' has 4 players"]),
    (["--players", "Li,Wang,Li,Chen"], ["given twice: Li"]),
    (["--players", "Li,,Zhao,Chen"], ["a player name is empty"]),
    (["--preset", "three-players", "--players", "Li,Wang,Zhao,Chen"], ["preset 'three-players' has 3 players"]),
])
def test_a_bad_option_or_name_list_is_refused_before_anything_starts(command, bad, words, capsys, tmp_path,
                                                                     monkeypatch):
    err = refused(command + bad, capsys, tmp_path, monkeypatch)
    assert all(w in err for w in words), err


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("text, words", [
    ('preset = "classic"\nplayers = [1,\n', ["is not TOML", "at the end of the file, line 2"]),
    ('preset = "classic"\n\nthrow penalty = 1\n', ["is not TOML", "(at line 3, column 7)"]),
    ("throw_penalty = 'per-card'\n", ["unknown key(s) throw_penalty", "valid keys: preset, players, options, clock"]),
    ('[options]\nthrow_penalty = "often"\n', ["house.toml: option throw_penalty must be one of"]),
    ('[options]\nwhatever = 1\n', ["house.toml: unknown option 'whatever'; valid options:"]),
    ('[clock]\nplay = 15\nturn = 3\n', ["unknown key(s) in [clock]: turn", "play, bury"]),
    ('[clock]\nplay = "15"\n', ["option play_clock is a whole number"]),
    ('preset = "nope"\n', ["house.toml: unknown preset 'nope'", "tournament"]),
    ('players = ["Li", "Wang"]\n', ["house.toml: 2 player name(s)"]),
    ('players = "Li,Wang,Zhao,Chen"\n', ["players is a list of names"]),
    ("options = 3\n", ["options is a table"]),
])
def test_a_bad_rules_file_is_refused_naming_the_file(command, text, words, capsys, tmp_path, monkeypatch):
    err = refused(command + ["--rules", write(tmp_path, text)], capsys, tmp_path, monkeypatch)
    assert all(w in err for w in words), err


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_missing_or_binary_rules_file_is_refused(command, capsys, tmp_path, monkeypatch):
    err = refused(command + ["--rules", str(tmp_path / "none.toml")], capsys, tmp_path, monkeypatch)
    assert "cannot read rules file" in err and "none.toml" in err
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00preset")
    assert "is not UTF-8 text" in refused(command + ["--rules", str(binary)], capsys, tmp_path, monkeypatch)


def test_the_example_file_is_valid_and_played_with_its_names(capsys, tmp_path):
    record = tmp_path / "r.json"
    assert main(["play", "--rules", str(CLUB), "--quiet", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "seats: 0 Li (heuristic), 1 Wang (heuristic), 2 Zhao (heuristic), 3 Chen (heuristic)" in out
    assert "Levels: seat 0 (Li) " in out
    data = json.loads(record.read_text())
    assert data["seats"] == ["Li", "Wang", "Zhao", "Chen"]
    rs = Ruleset.from_json(data["ruleset"])
    assert rs == Ruleset.from_preset("classic", throw_penalty="per-card", referee_undo=True, match_end="defend-a",
                                     must_defend=["J", "A"], play_clock=20, bury_clock=90)


def test_the_command_line_wins_over_the_file(capsys, tmp_path):
    record = tmp_path / "r.json"
    assert main(["play", "--rules", str(CLUB), "--quiet", "--record", str(record), "--preset", "tournament",
                 "--option", "play_clock=0", "--option", "referee_undo=no", "--option", "must_defend=Q",
                 "--players", "A,B,C,D"]) == 0
    data = json.loads(record.read_text())
    assert data["seats"] == ["A", "B", "C", "D"]
    rs = Ruleset.from_json(data["ruleset"])
    assert (rs.preset, rs.play_clock, rs.bury_clock, rs.referee_undo, rs.must_defend, rs.throw_penalty) == \
        ("tournament", 0, 90, False, (12,), "per-card")
    assert data["ruleset"]["play_clock"] == 0           # kept: the tournament preset's own clock is 15


def test_play_names_the_seats_in_every_line_it_prints(capsys):
    assert main(["play", "--players", "Li,Wang,Zhao,Chen"]) == 0
    out = capsys.readouterr().out
    assert "→ seat" in out and all(f"→ seat {s} (" in out for s in range(4) if f"→ seat {s} " in out)
    assert "Seat " in out and " (Li)" in out
    import re
    assert not re.search(r"[Ss]eat \d(?! \()", out.split("\n", 1)[1])   # after the header, every seat is named


def test_without_names_play_prints_as_before(capsys):
    assert main(["play", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "seats: 0 heuristic, 1 heuristic" in out and "(Li)" not in out and "Levels: seat 0 2" in out


def test_options_given_as_text_are_read_by_their_type():
    from shengji_table.rules.ruleset import option_from_text
    assert option_from_text("referee_undo", "yes") == ("referee_undo", True)
    assert option_from_text("referee_undo", "False") == ("referee_undo", False)
    assert option_from_text("play_clock", " 15 ") == ("play_clock", 15)
    assert option_from_text("must_defend", "J, A") == ("must_defend", (11, 14))
    assert option_from_text("start_level", "K") == ("start_level", 13)
    assert option_from_text("scoring", "takeover-plus-one") == ("scoring", "takeover-plus-one")


def test_the_docs_list_every_option_and_the_example_file_reads_as_the_docs_show_it():
    import re
    import tomllib

    from shengji_table.rules.ruleset import OPTIONS
    doc = (REPO / "docs" / "house-rules.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `(\w+)` \|", doc.split("### The options", 1)[1], re.M)
    assert listed == list(OPTIONS)
    shown = tomllib.loads(doc.split("```toml\n", 1)[1].split("```", 1)[0])
    assert shown == tomllib.loads(CLUB.read_text(encoding="utf-8"))


@pytest.mark.micropython
def test_demo_plays_the_house_rules_with_the_names(capsys, tmp_path):
    record, log = tmp_path / "r.json", tmp_path / "d.db"
    assert main(["demo", "--rules", str(CLUB), "--hands", "1", "--plain", "--no-voice", "--record", str(record),
                 "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "Levels: seat 0 (Li) " in out and "seat 1 (Wang)" in out
    data = json.loads(record.read_text())
    assert data["seats"] == ["Li", "Wang", "Zhao", "Chen"] and data["ruleset"]["play_clock"] == 20
    assert main(["log", "export", str(log)]) == 0
    assert json.loads(capsys.readouterr().out)["seats"] == ["Li", "Wang", "Zhao", "Chen"]
