"""`shengji-table judge` run as a user runs it: the installed console script, in a subprocess, on
files, on stdin and with --lines (docs/judge.md: malformed input → {"error": …} and exit status 2)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / "shengji-table"
EXAMPLES = ROOT / "examples" / "judge"

def test_console_script_is_installed():
    """The package installs the `shengji-table` console script next to the interpreter."""
    assert SCRIPT.exists(), f"{SCRIPT} missing: run `make venv` (pip install -e .)"


def cli(*args, stdin=None):
    proc = subprocess.run([str(SCRIPT), "judge", *args], input=stdin, capture_output=True,
                          text=True, encoding="utf-8", timeout=60, cwd=ROOT)
    return proc.returncode, proc.stdout, proc.stderr


def one(stdout):
    lines = stdout.splitlines()
    assert len(lines) == 1, stdout
    return json.loads(lines[0])


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.json")))
def test_cli_bundled_example_files(name):
    """Every bundled example is a valid situation: exit 0 and one JSON ruling on one line."""
    rc, out, err = cli(str(EXAMPLES / f"{name}.json"))
    assert rc == 0, err
    ruling = one(out)
    assert "error" not in ruling


def test_cli_file_settlement_matches_issue_example():
    """R-7.3/R-8.1/R-8.5 through the CLI: multiplier 4, total 125, attackers +1, next dealer 1."""
    rc, out, _ = cli(str(EXAMPLES / "settle.json"))
    r = one(out)
    assert rc == 0
    assert (r["kitty_multiplier"], r["attackers_total"], r["attackers_levels"], r["next_dealer"]) == (4, 125, 1, 1)


def test_cli_stdin_without_file_and_with_dash():
    """The situation may come on standard input (no FILE, or FILE '-')."""
    text = (EXAMPLES / "declare.json").read_text(encoding="utf-8")
    for args in ((), ("-",)):
        rc, out, _ = cli(*args, stdin=text)
        assert rc == 0
        assert one(out)["standing"]["trump"] == "NT"


def test_cli_output_keeps_chinese_terms_readable():
    """Reasons quote 反主 etc. as UTF-8 text, not \\u escapes."""
    rc, out, _ = cli(str(EXAMPLES / "declare.json"))
    assert "反主" in out


@pytest.mark.parametrize("text,words", [
    ("{not json", ["bad JSON"]),
    ("", ["no situation"]),
    ('{"level": "10", "trump": "S", "trick": [{"seat": 0, "cards": ["SX"]}]}', ["SX"]),
    ('{"level": "10", "trump": "S", "trick": [{"seat": 0, "cards": ["SA", "SA", "SA"]}]}', ["SA", "3 times"]),
    ('{"level": "10", "trump": "S", "trick": [{"seat": 4, "cards": ["SA"]}]}', ["no seat 4"]),
    ('{"preset": "bridge", "level": "10", "trump": "S", "trick": [{"seat": 0, "cards": ["SA"]}]}',
     ["unknown preset", "classic"]),
    ('{"options": {"jokers_wild": true}, "level": "10", "trump": "S", "trick": [{"seat": 0, "cards": ["SA"]}]}',
     ["unknown option", "throw_penalty"]),
    ('[1, 2, 3]', ["JSON object"]),
    ('{"level": "10", "trump": "S", "trick": [{"seat": 0, "cards": ["SA"]}], "x": NaN}', ["bad JSON"]),
])
def test_cli_malformed_input_error_object_and_exit_2(text, words):
    """docs/judge.md: malformed input prints {"error": …} and exits 2."""
    rc, out, _ = cli(stdin=text)
    assert rc == 2
    err = one(out)
    assert set(err) == {"error"}
    for w in words:
        assert w in err["error"], (w, err)


def test_cli_missing_file_is_an_error():
    """A FILE that cannot be read gets an error object and exit 2, not a traceback."""
    rc, out, err = cli(str(ROOT / "no-such-situation.json"))
    assert rc == 2 and "cannot read" in one(out)["error"]
    assert "Traceback" not in err


def test_cli_lines_one_ruling_per_line_and_goes_on_after_errors():
    """--lines: one ruling per input line; a malformed line gets its error line, the run goes on,
    and the exit status is 2 at the end.  Blank lines are skipped."""
    good = [json.dumps(json.loads((EXAMPLES / f"{n}.json").read_text(encoding="utf-8")))
            for n in ("trick", "declare", "settle")]
    lines = [good[0], "{broken", "", good[1], '{"preset": "nope"}', good[2]]
    rc, out, _ = cli("--lines", stdin="\n".join(lines) + "\n")
    rows = [json.loads(x) for x in out.splitlines()]
    assert rc == 2
    assert len(rows) == 5
    assert rows[0]["rule"] == "R-4.5"
    assert "bad JSON" in rows[1]["error"]
    assert rows[2]["standing"]["seat"] == 0
    assert "unknown preset" in rows[3]["error"]
    assert rows[4]["attackers_total"] == 125


def test_cli_lines_all_good_exit_0_from_file(tmp_path):
    """--lines with a FILE whose lines are all valid: exit 0, as many rulings as situations."""
    f = tmp_path / "batch.jsonl"
    f.write_text("\n".join(json.dumps(json.loads((EXAMPLES / f"{n}.json").read_text(encoding="utf-8")))
                           for n in ("ruff", "failed-throw")) + "\n", encoding="utf-8")
    rc, out, _ = cli("--lines", str(f))
    rows = [json.loads(x) for x in out.splitlines()]
    assert rc == 0 and len(rows) == 2
    assert rows[0]["winner"] == 1 and rows[1]["throw"]["forced"] == ["H9"]


def test_cli_help_lists_lines_option():
    proc = subprocess.run([str(SCRIPT), "judge", "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "--lines" in proc.stdout


def test_cli_lines_survive_deep_nesting_and_oversize_lines():
    """A batch never loses a line: JSON nested thousands deep, a line over 1 MiB and a play of more
    cards than four decks hold each answer {"error": …}; the good lines around them are ruled."""
    good = json.dumps(json.loads((ROOT / "examples" / "judge" / "trick.json").read_text(encoding="utf-8")))
    deep = "[" * 5000 + "]" * 5000
    deep_object = '{"a":' * 3000 + "1" + "}" * 3000
    huge = json.dumps({"preset": "classic", "note": "x" * (1 << 20)})
    many = json.dumps({"preset": "classic", "level": "2", "trump": "S",
                       "trick": [{"seat": 0, "cards": ["SA"] * 300}]})
    code, out, err = cli("--lines", stdin="\n".join([good, deep, good, deep_object, huge, many, good]) + "\n")
    rulings = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and not err, err
    assert len(rulings) == 7
    assert [("error" in r) for r in rulings] == [False, True, False, True, True, True, False]
    assert "nested more than 32 deep" in rulings[1]["error"] and "nested" in rulings[3]["error"]
    assert "at most 1048576 bytes" in rulings[4]["error"]
    assert "four decks hold 216" in rulings[5]["error"]
    assert rulings[0] == rulings[2] == rulings[6]


def test_cli_nesting_inside_strings_does_not_count():
    """Brackets inside a JSON string are text, not nesting: a situation with a string of 100 "["
    gets past the depth check (and is then refused for its unknown key, as any would be)."""
    situation = json.loads((ROOT / "examples" / "judge" / "trick.json").read_text(encoding="utf-8"))
    situation["note"] = "[" * 100 + '\\"' + "{" * 100
    code, out, _ = cli(stdin=json.dumps(situation))
    assert code == 2 and "unknown key 'note'" in one(out)["error"], out


def test_cli_fast_reader_keeps_what_the_standard_reader_accepts_and_says():
    """The judge reads lines with msgspec and falls back to the standard ``json`` reader for what
    msgspec refuses, so a lone surrogate escape, a number out of range, a byte-order mark and NaN
    get exactly the rulings and errors the standard reader gives; duplicate keys keep the last."""
    from shengji_table.cli.judge import rule_text
    base = json.loads((EXAMPLES / "trick.json").read_text(encoding="utf-8"))
    good = json.dumps(base)
    texts = [
        good.replace('"preset": "classic"', '"preset": "\\ud800"'),       # lone surrogate: unknown preset
        good[:-1] + ', "x": 1e400}',                                       # inf: an unknown key
        "\ufeff" + good,                                                   # BOM: bad JSON
        good[:-1] + ', "x": NaN}',                                         # NaN: bad JSON
        good[:-1] + ', "level": "2", "level": "' + base["level"] + '"}',   # duplicate key: the last
        '{"level": "10", "trump": "S", "trick": [{"seat": 123456789012345678901234567890, "cards": ["SA"]}]}',
    ]
    rulings = [rule_text(t) for t in texts]
    assert "unknown preset '\\ud800'" in rulings[0][0]["error"]
    assert "unknown key 'x'" in rulings[1][0]["error"]
    assert rulings[2][0]["error"].startswith("bad JSON: Unexpected UTF-8 BOM")
    assert rulings[3][0]["error"].startswith("bad JSON: NaN is not a number JSON allows")
    assert rulings[4] == rule_text(good)
    assert "123456789012345678901234567890" in rulings[5][0]["error"]
    rc, out, _ = cli("--lines", stdin="\n".join(texts) + "\n")
    assert rc == 2 and [json.loads(x) for x in out.splitlines()] == [r for r, _ in rulings]


def test_cli_batch_writer_falls_back_line_by_line():
    """``--lines`` writes its rulings in batches by one msgspec call; a batch holding a value msgspec
    cannot write (an integer beyond 64 bits) is written ruling by ruling instead, each exactly as
    alone, so no line is lost or changed."""
    import io

    from shengji_table.cli.judge import _encode, _write_lines
    rulings = [{"legal": True, "reason": "é"}, {"points": 10 ** 30}, {"error": "x"}]
    out = io.BytesIO()
    _write_lines(out, rulings)
    assert out.getvalue() == b"".join(_encode(r) + b"\n" for r in rulings)
    assert [json.loads(x) for x in out.getvalue().decode("utf-8").splitlines()] == rulings
    out = io.BytesIO()
    _write_lines(out, rulings[::2])
    assert out.getvalue() == b"".join(_encode(r) + b"\n" for r in rulings[::2])


def test_cli_lines_split_only_at_newlines_and_a_bad_byte_costs_one_line():
    """--lines: a line ends at "\\n" only — U+2028, U+2029 and U+0085 inside a JSON string do not
    split it — and each line is decoded on its own: one bad UTF-8 byte is that line's error ruling,
    the others are ruled."""
    good = [json.dumps(json.loads((EXAMPLES / f"{n}.json").read_text(encoding="utf-8")))
            for n in ("trick", "declare", "settle")]
    odd = '{"preset": "classic\u2028\u2029\u0085\x1c"}'
    data = "\n".join([good[0], odd, good[1]]).encode("utf-8") + b'\n{"preset": "\xff"}\n' + good[2].encode() + b"\n"
    proc = subprocess.run([str(SCRIPT), "judge", "--lines"], input=data, capture_output=True, timeout=60, cwd=ROOT)
    rows = [json.loads(x) for x in proc.stdout.decode("utf-8").split("\n") if x]
    assert proc.returncode == 2 and len(rows) == 5, rows
    assert rows[0]["rule"] == "R-4.5" and rows[2]["standing"]["seat"] == 0 and rows[4]["attackers_total"] == 125
    assert "error" in rows[1] and "not UTF-8" in rows[3]["error"] and "line 4" in rows[3]["error"]
    assert b"Traceback" not in proc.stderr


def test_judge_text_prints_a_ruling_a_referee_reads():
    """``judge --text``: the same ruling as the JSON, one fact a line, each play with its verdict,
    rule and reason (R-4.5: a pair in the suit led must be followed with a pair)."""
    situation = json.dumps({"preset": "classic", "level": "10", "trump": "S",
                            "hands": {"0": ["HK", "HK", "D3", "C4"], "1": ["H3", "H4", "H9", "H9", "C6"]},
                            "trick": [{"seat": 0, "cards": ["HK", "HK"]}, {"seat": 1, "cards": ["H3", "H4"]}]})
    ruling = one(cli(stdin=situation)[1])
    status, out, err = cli("--text", stdin=situation)
    assert status == 0, err
    lines = out.splitlines()
    assert "{" not in out and lines[0] == "legal: no"
    assert f"  seat 1: NOT legal — R-4.5: {ruling['plays'][1]['reason']}" in lines
    assert "  seat 0: legal — R-4.1: a lead of one pair" in lines
    assert f"winner: {ruling['winner']}" in lines and f"points: {ruling['points']}" in lines
    status, out, _ = cli("--text", stdin='{"preset": ')
    assert status == 2 and out.startswith("error: bad JSON")
    status, _, err = cli("--text", "--lines", stdin=situation)
    assert status == 2 and "not allowed with" in err
