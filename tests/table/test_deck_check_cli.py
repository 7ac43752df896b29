"""``shengji-table deck check`` as a subprocess with taps files: exactly the missing, duplicate and
foreign cards are reported; exit 0 only for a complete set; bad files are clear errors (exit 2)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from shengji_table.rules.cards import parse_copy
from shengji_table.table.card_code import encode_card_code
from shengji_table.table.registry import DeckSet, standard_order

EXE = Path(sys.executable).parent / "shengji-table"    # the venv's console script, as a user runs it
SET_ID = 31


def shengji(*args, cwd):
    return subprocess.run([str(EXE), *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)


def uid(n):
    return (b"\x04" + n.to_bytes(6, "big")).hex()


def deck_set(tmp_path, decks=2):
    ds = DeckSet("club", SET_ID, decks, {uid(n): c for n, c in enumerate(standard_order(decks))})
    path = tmp_path / "club.json"
    ds.save(path)
    return path


def test_deck_check_cli_complete_set_in_any_order_exits_0(tmp_path):
    path = deck_set(tmp_path)
    taps = tmp_path / "t.txt"
    taps.write_text("\n".join(uid(n) for n in reversed(range(108))))
    r = shengji("deck", "check", "--deck-set", path, "--taps", taps, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.rstrip().endswith("108 cards seen\ndeck set complete")


def test_deck_check_cli_reports_missing_duplicate_and_foreign_exactly(tmp_path):
    path = deck_set(tmp_path)
    order = standard_order(2)
    lines = [uid(n) for n in range(108) if n not in (3, 60)]          # S5#1 and S8#2 missing
    lines += [uid(7), uid(7), uid(100)]                                # S9#1 ×3, order[100] ×2
    lines.append("04:aa:bb:cc:dd:ee:ff")                               # unknown tag
    foreign_code = encode_card_code(parse_copy("HA#1"), 99).hex()
    lines.append(f"04a0a0a0a0a0a0,{foreign_code}")                     # another set's card
    lines.append("04aabbccddeeff")                                     # the unknown one again: listed once
    taps = tmp_path / "t.txt"
    taps.write_text("\n".join(lines) + "\n")
    r = shengji("deck", "check", "--deck-set", path, "--taps", taps, cwd=tmp_path)
    assert r.returncode == 1
    report = r.stdout.splitlines()[-4:]
    assert report == [
        "106 cards seen",
        f"missing: {order[3]} {order[60]}",
        f"tapped more than once: {order[7]}×3 {order[100]}×2",
        "foreign tags: 04aabbccddeeff 04a0a0a0a0a0a0(HA#1 of set 99)",
    ]
    assert str(order[3]) == "S5#1" and str(order[60]) == "S8#2"
    assert "refused: foreign card: tag 04a0a0a0a0a0a0 is HA#1 of deck set 99" in r.stdout
    assert "refused: unknown card: tag 04aabbccddeeff is not in this deck set" in r.stdout
    assert f"{order[7]}  (tapped 3 times)" in r.stdout


def test_deck_check_cli_bad_files_are_clear_errors_with_exit_2(tmp_path):
    path = deck_set(tmp_path, decks=1)
    good = tmp_path / "t.txt"
    good.write_text(uid(0) + "\n")
    wrong = tmp_path / "wrong.json"
    wrong.write_text("[1, 2,")
    r = shengji("deck", "check", "--deck-set", wrong, "--taps", good, cwd=tmp_path)
    assert r.returncode == 2 and "wrong.json is not JSON" in r.stderr
    not_a_set = tmp_path / "list.json"
    not_a_set.write_text(json.dumps(["S2#1"]))
    r = shengji("deck", "check", "--deck-set", not_a_set, "--taps", good, cwd=tmp_path)
    assert r.returncode == 2 and "one JSON object" in r.stderr
    bad_taps = tmp_path / "bad.txt"
    bad_taps.write_text(uid(0) + "\nS2#1\n")
    r = shengji("deck", "check", "--deck-set", path, "--taps", bad_taps, cwd=tmp_path)
    assert r.returncode == 2 and "bad.txt line 2: not a tag UID: 'S2#1'" in r.stderr
    r = shengji("deck", "check", "--deck-set", tmp_path / "absent.json", "--taps", good, cwd=tmp_path)
    assert r.returncode == 2 and "cannot read deck set" in r.stderr
    assert "Traceback" not in r.stderr


def test_deck_check_cli_deck_set_file_that_is_not_utf8_is_a_clear_error(tmp_path):
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe\x00bad")
    taps = tmp_path / "t.txt"
    taps.write_text(uid(0) + "\n")
    r = shengji("deck", "check", "--deck-set", path, "--taps", taps, cwd=tmp_path)
    assert r.returncode == 2 and f"deck set {path} is not UTF-8 text" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_deck_check_cli_table_station_where_no_table_answers_is_a_clear_error(tmp_path):
    path = deck_set(tmp_path)
    r = shengji("deck", "check", "--deck-set", path, "--station", "table", "--device", "loop://",
                "--connect-timeout", "0.5", cwd=tmp_path)
    assert r.returncode == 2 and "no table answered on loop:// within 0.5 s" in r.stderr, r.stdout + r.stderr


@pytest.mark.parametrize("reader", ["99", "-1", "5"])
def test_deck_check_cli_table_station_refuses_a_reader_the_table_lacks(reader, tmp_path):
    from shengji_table.sim.cpython_pico import CPythonPico
    path = deck_set(tmp_path)
    with CPythonPico(rings=5) as pico:
        r = shengji("deck", "check", "--deck-set", path, "--station", "table", "--device", pico.device,
                    "--reader", reader, cwd=tmp_path)
    assert r.returncode == 2 and f"--reader {reader}: this table has readers 0..4" in r.stderr, r.stdout + r.stderr


def test_deck_check_cli_table_station_taps_reach_the_check(tmp_path):
    """With a table that answers, the check runs: a tap on the chosen reader is reported, one on
    another reader is ignored."""
    import time
    from shengji_table.sim.cpython_pico import CPythonPico
    path = deck_set(tmp_path, decks=1)
    with CPythonPico(rings=5) as pico:
        proc = subprocess.Popen([str(EXE), "deck", "check", "--deck-set", str(path), "--station", "table",
                                 "--device", pico.device, "--reader", "4"],
                                cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        try:
            assert "checking deck set" in proc.stdout.readline()
            proc.stdout.readline()                      # the "tap the cards" prompt
            pico.tap(0, bytes.fromhex(uid(1)))          # another reader: ignored
            pico.tap(4, bytes.fromhex(uid(0)))
            assert proc.stdout.readline().strip() == f"1/54 {standard_order(1)[0]}"
            time.sleep(0.2)
            proc.stdin.write("q\n")
            proc.stdin.flush()
            out, err = proc.communicate(timeout=20)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert proc.returncode == 1, out + err
    assert "1 cards seen" in out and f"missing: {standard_order(1)[1]}" in out, out
