"""The house variants (R-4.8, R-6.7, R-7.4, R-8.6) as a user gives them: ``--rules FILE`` and
``--option NAME=VALUE`` to ``play``; a bad value is one line on stderr, exit 2, and nothing played."""
import json
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
VARIANTS = REPO / "examples" / "rules" / "house-variants.toml"


def play(*args, cwd=REPO):
    return subprocess.run([sys.executable, "-m", "shengji_table", "play", "--seed", "4", "--hands", "1", *args],
                          capture_output=True, text=True, check=False, cwd=cwd)


def test_house_variants_rules_file_plays_and_is_recorded(tmp_path):
    record = tmp_path / "r.json"
    out = play("--rules", str(VARIANTS), "--record", str(record))
    assert out.returncode == 0, out.stderr
    rs = json.loads(record.read_text())["ruleset"]
    assert rs["preset"] == "three-decks" and rs["follow_protection"] == "longer-tuples"
    assert rs["mixed_joker_nt"] is True and rs["kitty_stealing"] is True
    assert rs["settlement_table"][3] == {"from": 120, "attackers": 0}


def test_house_variants_by_option():
    out = play("--preset", "three-decks", "--option", "follow_protection=suit-only", "--option",
               "mixed_joker_nt=yes", "--option", "kitty_stealing=on", "--option",
               "settlement_table=0:d3,5:d2,60:d1,120:a0,180:a1")
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize("option,says", [
    ("follow_protection=protect-all", "longer-tuples"),
    ("mixed_joker_nt=maybe", "true or false"),
    ("kitty_stealing=2", "true or false"),
    ("settlement_table=0:d1,40:a1,80:d1", "cannot gain"),
])
def test_house_variants_bad_values_exit_2(option, says):
    out = play("--option", option)
    assert out.returncode == 2 and says in out.stderr and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1


def test_mixed_jokers_on_two_decks_is_refused():
    out = play("--option", "mixed_joker_nt=true")
    assert out.returncode == 2 and "three-deck" in out.stderr
