"""docs/referee.md, "What the record promises": every test it names exists, so each claim there
stays backed by a test that shows it."""
import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _section() -> str:
    text = (ROOT / "docs" / "referee.md").read_text(encoding="utf-8")
    start = text.index("## 6. What the record promises")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else len(text)]


def test_every_test_the_promises_name_exists():
    section = _section()
    # in order; "`…::name`" is a test of the file named just before it
    named = re.findall(r"`(tests/[\w/]+\.py|…)(?:::(\w+))?`", section)
    assert len(named) >= 15
    last_file = None
    for path, name in named:
        path = last_file if path == "…" else path
        last_file = path
        file = ROOT / path
        assert file.is_file(), f"docs/referee.md names {path}, which does not exist"
        if name:
            defs = {n.name for n in ast.walk(ast.parse(file.read_text(encoding="utf-8")))
                    if isinstance(n, ast.FunctionDef)}
            assert name in defs, f"docs/referee.md names {path}::{name}, which does not exist"
