"""docs/table.md stays true: every concrete enroll / deck / log command it shows is accepted by the
real argument parser, and the deck-check report it shows is what the command prints for that case."""
import re
import shlex
from pathlib import Path

import pytest

from shengji_table.cli import build_parser
from shengji_table.table.registry import DeckCheck, DeckSet, standard_order

DOC = Path(__file__).resolve().parents[2] / "docs" / "table.md"


def doc_commands():
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"^[ ]*```\w*\n(.*?)^[ ]*```", text, re.S | re.M)
    commands = []
    for block in blocks:
        joined = re.sub(r"\\\n\s*", " ", block)
        for line in joined.splitlines():
            line = line.split(" #", 1)[0].strip()
            if re.match(r"shengji-table (enroll|deck|log|serve) ", line) and not re.search(r"[|…\[]", line):
                commands.append(line)
    return commands


def test_deck_check_docs_show_enough_commands():
    kinds = {c.split()[1] for c in doc_commands()}
    assert kinds == {"enroll", "deck", "log", "serve"}
    assert len(doc_commands()) >= 10


@pytest.mark.parametrize("command", doc_commands())
def test_deck_check_docs_command_is_accepted_by_the_parser(command):
    argv = shlex.split(command)[1:]
    args = build_parser(only=argv[0]).parse_args(argv)   # argparse exits (SystemExit) on a bad option
    assert args.command_module == argv[0]


def test_deck_check_docs_report_example_is_what_the_check_prints():
    text = DOC.read_text(encoding="utf-8")
    shown = re.search(r"```\n(106 cards seen\n.*?)```", text, re.S).group(1).splitlines()
    uid = lambda n: (b"\x04" + n.to_bytes(6, "big")).hex()  # noqa: E731
    ds = DeckSet("club-red", 1, 2, {uid(n): c for n, c in enumerate(standard_order(2))})
    check = DeckCheck(ds)
    for n in range(108):
        if n not in (3, 60):
            check.tap(uid(n))
    check.tap(uid(7))
    check.tap("04aabbccddeeff")
    assert check.report().lines() == shown
