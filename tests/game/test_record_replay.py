"""The JSON match record: every event in order with the ruleset; replay gives the identical state
and the identical record, bit for bit; bad records get a clear error (and exit 2 from the CLI)."""
import json
import os
import pathlib

import pytest

from shengji_table.cli import main as cli_main
from shengji_table.game import events as ev
from shengji_table.game.bots import make_bot
from shengji_table.game.driver import run_match
from shengji_table.game.export import export_text
from shengji_table.game.match import Match
from shengji_table.game.record import RecordError, dumps, from_record, loads, to_record
from shengji_table.rules.ruleset import Ruleset


def played(preset, hands=2, kind="random"):
    rs = Ruleset.from_preset(preset)
    m = Match(rs)
    run_match(m, [make_bot(kind, i) for i in range(rs.players)], range(100, 100 + hands))
    return m


@pytest.mark.parametrize("preset", ["classic", "find-friend-5", "three-players", "four-decks"])
def test_record_replay_identical_state_and_record(preset):
    m = played(preset)
    text = dumps(to_record(m, seats=["bot"] * m.players))
    again, seats = from_record(loads(text))
    assert again.snapshot() == m.snapshot()
    assert dumps(to_record(again, seats=seats)) == text          # bit for bit


def test_record_every_event_round_trips_through_json():
    m = played("classic", hands=1)
    for e in m.events:
        data = json.loads(json.dumps(e.to_json()))
        assert ev.event_from_json(data) == e


def test_record_rejects_bad_records():
    m = played("classic", hands=1)
    rec = to_record(m)
    with pytest.raises(RecordError, match="format"):
        from_record({**rec, "format": "x"})
    with pytest.raises(RecordError, match="ruleset"):
        from_record({**rec, "ruleset": {"preset": "nope"}})
    bad = json.loads(json.dumps(rec))
    bad["events"][5] = {"type": "tap", "seat": 9}
    with pytest.raises(RecordError, match="event 5"):
        from_record(bad)
    bad = json.loads(json.dumps(rec))
    bad["events"][3]["copy"] = "ZZ#1"
    with pytest.raises(RecordError, match="event 3"):
        from_record(bad)
    bad = json.loads(json.dumps(rec))
    bad["events"].insert(3, bad["events"][2])                    # a card drawn twice: refused on replay
    with pytest.raises(RecordError, match="does not replay"):
        from_record(bad)
    bad = json.loads(json.dumps(rec))
    bad["summary"]["levels"] = [9, 9, 9, 9]
    with pytest.raises(RecordError, match="summary"):
        from_record(bad)
    with pytest.raises(RecordError, match="not JSON"):
        loads("{nope")


def test_record_cli_play_then_replay(tmp_path, capsys):
    path = tmp_path / "m.json"
    assert cli_main(["play", "--preset", "classic", "--seed", "7", "--hands", "1", "--record", str(path)]) == 0
    shown = capsys.readouterr().out
    assert "trick  1" in shown and "Attackers captured" in shown
    assert cli_main(["replay", str(path)]) == 0
    replayed = capsys.readouterr().out
    # the replay prints the same tricks and settlement
    tricks = [l for l in shown.splitlines() if l.strip().startswith(("trick", "Attackers"))]
    assert tricks == [l for l in replayed.splitlines() if l.strip().startswith(("trick", "Attackers"))]


def test_record_cli_replay_bad_file_exits_2(tmp_path, capsys):
    p = tmp_path / "bad.json"
    p.write_text("[1, 2")
    assert cli_main(["replay", str(p)]) == 2
    assert "not JSON" in capsys.readouterr().err
    p.write_text('{"format": "something else"}')
    assert cli_main(["replay", str(p)]) == 2
    assert "not a match record" in capsys.readouterr().err
    assert cli_main(["replay", str(tmp_path / "missing.json")]) == 2


def test_record_cli_replay_of_a_file_that_is_not_utf8_exits_2(tmp_path, capsys):
    p = tmp_path / "bin.json"
    p.write_bytes(b"\xff\xfe\x00bad")
    assert cli_main(["replay", str(p)]) == 2
    assert f"error: {p} is not UTF-8 text" in capsys.readouterr().err


def test_record_export_is_pbn_like():
    m = played("classic", hands=1)
    text = export_text(m, ["a", "b", "c", "d"])
    assert text.startswith('[Event "shengji-table match"]')
    assert '[Hand "1"]' in text and "{Trick 1}" in text and "[Result " in text
    hand = m.played_hands[0]
    assert text.count("{Trick ") == len(hand.tricks)
    for seat in range(4):
        assert f"[Hand{seat} " in text


def test_record_same_seed_same_match():
    """Determinism: the state is a pure function of the events; the events of a seeded run repeat."""
    a = dumps(to_record(played("find-friend-5", hands=2)))
    b = dumps(to_record(played("find-friend-5", hands=2)))
    assert a == b


def test_record_every_effect_is_serialisable():
    from shengji_table.game.effects import effect_from_json
    rs = Ruleset.from_preset("classic")
    m = Match(rs)
    seen = []
    run_match(m, [make_bot("random", i) for i in range(4)], [11], on_event=lambda e, effs: seen.extend(effs))
    kinds = {e.type for e in seen}
    assert {"ring", "announce"} <= kinds
    for eff in seen:
        data = json.loads(json.dumps(eff.to_json()))
        assert effect_from_json(data) == eff


@pytest.mark.parametrize("where", ["missing folder", "a folder", "under a file"])
def test_record_cli_play_with_an_unwritable_record_path_refuses_before_playing(where, tmp_path, capsys):
    """A bad --record path is an error before the first deal (exit 2, nothing played), not a
    traceback after the whole match."""
    (tmp_path / "f").write_text("x")
    record = {"missing folder": tmp_path / "no" / "r.json", "a folder": tmp_path,
              "under a file": tmp_path / "f" / "r.json"}[where]
    assert cli_main(["play", "--preset", "classic", "--seed", "7", "--hands", "1", "--record", str(record)]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"error: cannot write record {record}") and "Hand 1" not in out and "trick" not in out


def test_record_cli_play_writes_the_record_atomically(tmp_path, capsys, monkeypatch):
    """The record replaces the old file in one step (temp file + os.replace): a failed write leaves
    the old record whole and no temporary file behind."""
    path = tmp_path / "m.json"
    path.write_text("old record\n")
    replaced = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (replaced.append((a, b)), real_replace(a, b)))
    assert cli_main(["play", "--preset", "classic", "--seed", "7", "--hands", "1", "--record", str(path)]) == 0
    assert [pathlib.Path(b) for a, b in replaced] == [path] and pathlib.Path(replaced[0][0]).parent == tmp_path
    assert loads(path.read_text())["format"] == "shengji-table/match-record"
    capsys.readouterr()

    def failing_replace(a, b):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", failing_replace)
    path.write_text("old record\n")
    assert cli_main(["play", "--preset", "classic", "--seed", "7", "--hands", "1", "--record", str(path)]) == 2
    assert "error: cannot write record" in capsys.readouterr().err
    assert path.read_text() == "old record\n" and sorted(p.name for p in tmp_path.iterdir()) == ["m.json"]


def test_replay_into_a_closed_pipe_stops_without_a_traceback(tmp_path):
    """``replay RECORD | head -1``: the reader closes the pipe after one line; the replay stops
    quietly (no BrokenPipeError traceback), with the status of a program stopped by SIGPIPE."""
    import subprocess
    import sys
    path = tmp_path / "match.json"
    path.write_text(dumps(to_record(played("classic", hands=2))), encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "shengji_table", "replay", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()                                  # as head does after its line
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert first.startswith(b"Replaying ")
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert proc.returncode == 141
