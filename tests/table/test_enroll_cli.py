"""``shengji-table enroll`` run as a user runs it (the installed console script, a subprocess), with
taps files as the station: full enrolment, refusals, undo, interruption and resume, bad input."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from shengji_table.rules.cards import parse_copy
from shengji_table.table.card_code import encode_card_code
from shengji_table.table.registry import DeckSet, standard_order

EXE = Path(sys.executable).parent / "shengji-table"    # the venv's console script, as a user runs it


def shengji(*args, cwd):
    return subprocess.run([str(EXE), *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)


def uid(n):
    return (b"\x04" + n.to_bytes(6, "big")).hex()


def write_taps(path, lines):
    path.write_text("\n".join(lines) + "\n")
    return path


def test_enroll_cli_one_deck_with_a_double_tap_and_an_undo(tmp_path):
    lines = [uid(0), uid(1), uid(0),                # S2#1, S3#1, then S2#1's tag again: refused
             uid(2), "u",                             # S4#1 … taken back
             "# the right card this time", uid(3)]
    lines += [uid(n) for n in range(4, 55)]
    taps = write_taps(tmp_path / "taps.txt", lines)
    r = shengji("enroll", "--deck-set", "d.json", "--name", "home", "--decks", "1", "--id", "9",
                "--taps", taps, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"refused: tag {uid(0)} is already enrolled as S2#1; still waiting for S4#1" in r.stdout
    assert "undone: S4#1 (tap it again)" in r.stdout
    ds = DeckSet.load(tmp_path / "d.json")
    assert ds.complete and ds.id == 9 and ds.name == "home"
    assert ds.cards[uid(3)] == parse_copy("S4#1") and uid(2) not in ds.cards
    assert [ds.cards[uid(n)] for n in (0, 1, *range(3, 55))] == standard_order(1)


def test_enroll_cli_interrupted_then_resumed_from_the_partial_file(tmp_path):
    part1 = write_taps(tmp_path / "a.txt", [uid(n) for n in range(70)])
    r = shengji("enroll", "--deck-set", "club.json", "--name", "club", "--decks", "2", "--taps", part1,
                cwd=tmp_path)
    assert r.returncode == 1
    assert "70 of 108 cards enrolled, next H5#2" in r.stdout and "run the same command again" in r.stdout
    assert not (tmp_path / "club.json").exists()
    partial = json.loads((tmp_path / "club.json.partial").read_text())
    assert len(partial["cards"]) == 70
    part2 = write_taps(tmp_path / "b.txt", [uid(n) for n in range(69, 108)])   # one card overlaps
    r = shengji("enroll", "--deck-set", "club.json", "--name", "club", "--decks", "2", "--taps", part2,
                cwd=tmp_path)
    assert r.returncode == 0, r.stdout
    assert "resuming" in r.stdout and "70 of 108 cards already enrolled" in r.stdout
    assert f"refused: tag {uid(69)} is already enrolled as H4#2" in r.stdout
    ds = DeckSet.load(tmp_path / "club.json")
    assert ds.complete and ds.id == partial["id"]
    assert [ds.cards[uid(n)] for n in range(108)] == standard_order(2)
    assert not (tmp_path / "club.json.partial").exists()


@pytest.mark.parametrize("bad_line, message", [
    ("04zz0000000000", "line 3: not a tag UID"),
    ("0400000000", "line 3: a tag UID has 4, 7 or 10 bytes, not 5"),
    ("04000000000063,abcd", "line 3: a card code is 16 bytes of hex, not 2"),
])
def test_enroll_cli_bad_taps_file_is_refused_whole_and_nothing_changes(tmp_path, bad_line, message):
    """A taps file is checked before any tap is used: exit 2, the partial file as it was."""
    first = write_taps(tmp_path / "a.txt", [uid(0), uid(1)])
    args = ["enroll", "--deck-set", "d.json", "--name", "d", "--decks", "1"]
    assert shengji(*args, "--taps", first, cwd=tmp_path).returncode == 1
    before = (tmp_path / "d.json.partial").read_bytes()
    bad = write_taps(tmp_path / "bad.txt", [uid(2), uid(3), bad_line, uid(4)])
    r = shengji(*args, "--taps", bad, cwd=tmp_path)
    assert r.returncode == 2
    assert message in r.stderr and "Traceback" not in r.stderr
    assert (tmp_path / "d.json.partial").read_bytes() == before
    assert not (tmp_path / "d.json").exists()


def test_enroll_cli_bad_deck_set_and_options_are_clear_errors_and_change_nothing(tmp_path):
    taps = write_taps(tmp_path / "t.txt", [uid(0)])
    broken = tmp_path / "broken.json"
    broken.write_text('{"schema": 1, "name": "x", ')
    r = shengji("enroll", "--deck-set", broken, "--name", "x", "--decks", "1", "--taps", taps, cwd=tmp_path)
    assert r.returncode == 2 and "is not JSON" in r.stderr
    assert broken.read_text() == '{"schema": 1, "name": "x", '
    r = shengji("enroll", "--deck-set", "n.json", "--name", "x", "--decks", "1", "--taps", taps,
                "--write-codes", cwd=tmp_path)
    assert r.returncode == 2 and "cannot write card codes" in r.stderr
    r = shengji("enroll", "--deck-set", "n.json", "--name", "x", "--decks", "5", "--taps", taps, cwd=tmp_path)
    assert r.returncode == 2 and "1 to 4 decks, not 5" in r.stderr
    r = shengji("enroll", "--deck-set", "n.json", "--name", "x", "--decks", "1", cwd=tmp_path)
    assert r.returncode == 2 and "--station" in r.stderr and "--taps" in r.stderr
    r = shengji("enroll", "--deck-set", "n.json", "--name", "x", "--decks", "1", "--taps", "absent.txt",
                cwd=tmp_path)
    assert r.returncode == 2 and "cannot read taps file absent.txt" in r.stderr
    r = shengji("enroll", "--deck-set", "nowhere/n.json", "--name", "x", "--decks", "1", "--taps", taps,
                cwd=tmp_path)
    assert r.returncode == 2 and "folder nowhere does not exist" in r.stderr
    order = tmp_path / "order.txt"
    order.write_text("S2#1 S3#1")
    r = shengji("enroll", "--deck-set", "n.json", "--name", "x", "--decks", "1", "--taps", taps,
                "--order", order, cwd=tmp_path)
    assert r.returncode == 2 and "leaves out 52 card(s)" in r.stderr
    assert not (tmp_path / "n.json").exists() and not (tmp_path / "n.json.partial").exists()
    complete = tmp_path / "complete.json"
    DeckSet("done", 2, 1, dict(zip((uid(n) for n in range(54)), standard_order(1)))).save(complete)
    before = complete.read_bytes()
    r = shengji("enroll", "--deck-set", complete, "--name", "done", "--decks", "1", "--taps", taps, cwd=tmp_path)
    assert r.returncode == 2 and "already holds deck set 'done' with 54 cards" in r.stderr
    assert complete.read_bytes() == before


def test_enroll_cli_taps_with_codes_catch_a_deck_out_of_order(tmp_path):
    code = encode_card_code(parse_copy("S3#1"), 4).hex()
    taps = write_taps(tmp_path / "t.txt", [f"{uid(0)},{code}"])
    r = shengji("enroll", "--deck-set", "d.json", "--name", "d", "--decks", "1", "--id", "4", "--taps", taps,
                cwd=tmp_path)
    assert r.returncode == 1
    assert "carries the code of S3#1, but S2#1 is next: is the deck out of order?" in r.stdout


def test_enroll_cli_files_that_are_not_utf8_are_clear_errors_and_change_nothing(tmp_path):
    """A binary --order file, deck-set file or progress (.partial) file: exit 2 with a sentence."""
    taps = write_taps(tmp_path / "t.txt", [uid(0)])
    binary = b"\xff\xfe\x00bad"
    order = tmp_path / "order.txt"
    order.write_bytes(binary)
    r = shengji("enroll", "--deck-set", "n.json", "--name", "x", "--decks", "1", "--taps", taps,
                "--order", order, cwd=tmp_path)
    assert r.returncode == 2 and f"order file {order} is not UTF-8 text" in r.stderr, r.stderr
    existing = tmp_path / "e.json"
    existing.write_bytes(binary)
    r = shengji("enroll", "--deck-set", existing, "--name", "x", "--decks", "1", "--taps", taps, cwd=tmp_path)
    assert r.returncode == 2 and "is not UTF-8 text" in r.stderr, r.stderr
    assert existing.read_bytes() == binary
    (tmp_path / "p.json.partial").write_bytes(binary)
    r = shengji("enroll", "--deck-set", "p.json", "--name", "x", "--decks", "1", "--taps", taps, cwd=tmp_path)
    assert r.returncode == 2 and "p.json.partial is not UTF-8 text" in r.stderr, r.stderr
    assert (tmp_path / "p.json.partial").read_bytes() == binary
    assert "Traceback" not in r.stderr and not (tmp_path / "n.json").exists() and not (tmp_path / "p.json").exists()


def test_enroll_cli_table_station_where_no_table_answers_is_a_clear_error(tmp_path):
    """``--station table`` on a port where nothing answers (``loop://`` echoes the host's own
    frames): exit 2 after --connect-timeout, not a prompt that waits for ever; nothing created."""
    r = shengji("enroll", "--deck-set", "n.json", "--name", "x", "--decks", "1", "--station", "table",
                "--device", "loop://", "--connect-timeout", "0.5", cwd=tmp_path)
    assert r.returncode == 2 and "no table answered on loop:// within 0.5 s" in r.stderr, r.stdout + r.stderr
    assert "tap S2#1" not in r.stdout and list(tmp_path.iterdir()) == []
    r = shengji("enroll", "--deck-set", "n.json", "--name", "x", "--decks", "1", "--station", "table",
                "--device", "loop://", "--connect-timeout", "0", cwd=tmp_path)
    assert r.returncode == 2 and "--connect-timeout must be positive" in r.stderr


def test_enroll_cli_table_station_refuses_a_reader_the_table_lacks(tmp_path):
    from shengji_table.sim.cpython_pico import CPythonPico
    with CPythonPico(rings=5) as pico:
        r = shengji("enroll", "--deck-set", "n.json", "--name", "x", "--decks", "1", "--station", "table",
                    "--device", pico.device, "--reader", "99", cwd=tmp_path)
    assert r.returncode == 2 and "--reader 99: this table has readers 0..4" in r.stderr, r.stdout + r.stderr
    assert list(tmp_path.iterdir()) == []


def test_enroll_cli_shows_a_progress_bar_on_a_terminal_and_none_in_a_pipe(tmp_path):
    """stderr on a real pseudo-terminal: a bar of the cards enrolled; stdout on a pipe keeps the
    same lines as without it, and with both on pipes nothing is drawn."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from processes import run_on_a_terminal
    taps = write_taps(tmp_path / "taps.txt", [uid(n) for n in range(54)])
    args = [str(EXE), "enroll", "--deck-set", "d.json", "--name", "home", "--decks", "1", "--taps", str(taps)]
    status, out, seen = run_on_a_terminal(args, timeout=60, cwd=tmp_path)
    assert status == 0, out
    assert "cards enrolled" in seen.decode(errors="replace")
    assert "54/54 BJ#1 = tag" in out and "saved" in out
    (tmp_path / "d.json").unlink()
    plain = shengji("enroll", "--deck-set", "d.json", "--name", "home", "--decks", "1", "--taps", taps, cwd=tmp_path)
    assert plain.returncode == 0 and plain.stderr == "" and "54/54" in plain.stdout
