"""``--preset`` and ``--hands`` as ``play``, ``serve`` and ``demo`` check them (cli/preset_args.py):
an unknown preset or too few hands is a clear error on stderr and exit code 2, before anything is
opened or started (no board file, deck set, table or log is touched)."""
import pytest

from shengji_table.cli import main

SERVE = ["serve", "--board", "no-such-board.json", "--deck-set", "no-such-deck.json"]


@pytest.mark.parametrize("argv", [["play", "--preset", "nope"], ["demo", "--preset", "nope"],
                                  SERVE + ["--preset", "nope"]])
def test_unknown_preset_is_refused_listing_the_presets(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "error: unknown preset 'nope'" in err and "classic" in err and "three-players" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["play", "demo"])
def test_hands_below_one_is_refused(command, capsys):
    assert main([command, "--hands", "0"]) == 2
    assert capsys.readouterr().err == "error: --hands is at least 1\n"


def test_serve_takes_hands_zero_as_until_the_match_ends(capsys):
    # past the preset check: the next error is the missing board file, not --hands
    assert main(SERVE + ["--hands", "0"]) == 2
    err = capsys.readouterr().err
    assert "bad board file no-such-board.json" in err and "cannot read the file" in err


def test_preset_help_lists_every_preset(capsys):
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    assert "find-friend-5-three-decks" in capsys.readouterr().out.replace("\n", "").replace(" ", "")
