"""Every rule id cited anywhere in the repository is defined in docs/rules.md, exactly once.

How ids are cited and defined is docs/rules.md, "Reading and citing ids":

* an id is ``R-`` and dot-separated numbers, optionally one lower-case letter (``R-4.3``, ``R-10``);
* a range ``R-4.4–4.7`` (en dash, em dash or hyphen; the end may repeat ``R-``; spaces around a dash)
  cites both ends and every id between them under the same parent;
* a list ``R-4.2/4.3`` cites each member;
* ``R-6.x`` cites ``R-6``; words after an id (``R-9 bidding``) are a label, the id is ``R-9``;
* a definition is a heading ``## R-n …`` (two to four ``#``) or a line starting ``- **R-n.m**``.

Every tracked text file is scanned (``git ls-files``; without git, the tree less ``.git``, ``.venv``
and caches), golden fixtures included: the ids they record are cited too.
"""
from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from repo_files import REPO_ROOT, repository_texts  # noqa: E402

RULES_DOC = REPO_ROOT / "docs" / "rules.md"

_NUM = r"\d+(?:\.\d+)*"
_ONE = rf"R-(?P<first>{_NUM}(?:[a-z](?![A-Za-z]))?)"
_DASH = r"(?:\s*[–—]\s*|-|\s+-\s+(?=R-))"
_RANGE = rf"(?:{_DASH}(?:R-)?(?P<last>{_NUM}(?:[a-z](?![A-Za-z]))?))?"
_MORE = rf"(?P<more>(?:/(?:R-)?{_NUM}(?:[a-z](?![A-Za-z]))?)*)"
CITATION = re.compile(rf"(?<![A-Za-z0-9]){_ONE}{_RANGE}{_MORE}")
DEFINITION = re.compile(rf"^(?:#{{2,4}} +|- \*\*)R-({_NUM}[a-z]?)(?=\*\*|\s|$)")


def _key(rule_id: str) -> tuple:
    """``"4.10b"`` → ``((4, 10), "b")``."""
    letter = rule_id[-1] if rule_id[-1].isalpha() else ""
    return tuple(int(p) for p in rule_id.rstrip("abcdefghijklmnopqrstuvwxyz").split(".")), letter


def expand(first: str, last: str | None) -> list[str] | None:
    """The ids a citation ``R-first[–last]`` names, or ``None`` for a range that cannot be read
    (different parents or depths, letters, or backwards)."""
    if last is None:
        return [first]
    (a, la), (b, lb) = _key(first), _key(last)
    if la or lb or len(a) != len(b) or a[:-1] != b[:-1] or a[-1] > b[-1]:
        return None
    prefix = ".".join(map(str, a[:-1]))
    return [f"{prefix}.{n}" if prefix else str(n) for n in range(a[-1], b[-1] + 1)]


def citations(text: str) -> list[tuple[int, str, list[str] | None]]:
    """``(line, citation text, ids or None)`` for every citation in ``text``."""
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        for m in CITATION.finditer(line):
            ids = expand(m["first"], m["last"])
            if ids is not None:
                ids = [f"R-{i}" for i in ids]
                ids += [f"R-{x.removeprefix('R-')}" for x in m["more"].split("/") if x]
            out.append((lineno, m.group(0), ids))
    return out


def definitions(text: str) -> dict[str, list[int]]:
    """``{id: [lines]}`` of the ids ``text`` defines."""
    found: dict[str, list[int]] = defaultdict(list)
    for lineno, line in enumerate(text.splitlines(), 1):
        m = DEFINITION.match(line)
        if m:
            found[f"R-{m[1]}"].append(lineno)
    return found


def undefined_citations(files: dict[str, str], defined) -> list[str]:
    """``"file:line: citation"`` for every citation in ``files`` (name → text) naming an id that
    is not in ``defined``, or a range that cannot be read."""
    problems = []
    for name, text in sorted(files.items()):
        for lineno, cited, ids in citations(text):
            if ids is None:
                problems.append(f"{name}:{lineno}: {cited!r} is a range that cannot be read")
                continue
            missing = [i for i in ids if i not in defined]
            if missing:
                problems.append(f"{name}:{lineno}: {cited!r} cites {', '.join(missing)}, not defined")
    return problems


def test_every_cited_rule_id_is_defined_in_docs_rules_md():
    defined = definitions(RULES_DOC.read_text(encoding="utf-8"))
    texts = repository_texts()
    assert len(texts) > 100, "the repository's files were not found"
    cited = {i for text in texts.values() for _, _, ids in citations(text) for i in ids or ()}
    assert len(cited) > 50, "hardly any rule ids found: is the citation pattern broken?"
    problems = undefined_citations(texts, defined)
    assert not problems, "rule ids cited but not defined in docs/rules.md:\n" + "\n".join(problems)


def test_docs_rules_md_defines_no_id_twice():
    defined = definitions(RULES_DOC.read_text(encoding="utf-8"))
    twice = {i: lines for i, lines in defined.items() if len(lines) > 1}
    assert not twice, "defined more than once in docs/rules.md: " + "; ".join(
        f"{i} at lines {', '.join(map(str, lines))}" for i, lines in sorted(twice.items()))


def test_citation_forms():
    """The forms of docs/rules.md "Reading and citing ids" (ids built from pieces so that this
    file cites nothing undefined)."""
    r = "R-"
    cases = {
        f"({r}4.3).": [f"{r}4.3"],
        f"{r}4.4–4.7 following": [f"{r}4.4", f"{r}4.5", f"{r}4.6", f"{r}4.7"],
        f"{r}4.5 – {r}4.7": [f"{r}4.5", f"{r}4.6", f"{r}4.7"],
        f"{r}3.2-{r}3.4:": [f"{r}3.2", f"{r}3.3", f"{r}3.4"],
        f"{r}8.1/8.2/8.3,": [f"{r}8.1", f"{r}8.2", f"{r}8.3"],
        f"{r}4.5/{r}4.6": [f"{r}4.5", f"{r}4.6"],
        f"`{r}6.x`": [f"{r}6"],
        f'"{r}9 bidding"': [f"{r}9"],
        f"{r}4.2's": [f"{r}4.2"],
        f"{r}7.": [f"{r}7"],
        f"{r}10.1–10.4)": [f"{r}10.1", f"{r}10.2", f"{r}10.3", f"{r}10.4"],
        f"{r}4.3a": [f"{r}4.3a"],
    }
    for text, ids in cases.items():
        found = [i for _, _, got in citations(text) for i in got or ()]
        assert found == ids, (text, found)
    assert citations(f"{r}4.7–4.4")[0][2] is None          # backwards
    assert citations(f"{r}4.7–5.2")[0][2] is None          # different parents
    assert citations("XR-1 ER-" + "1") == []                # not an id: part of a word


def test_an_undefined_id_fails_with_its_file_and_line():
    """The check can fail: an id nobody defined, cited in a file, is reported as file:line."""
    r = "R-"
    undefined = r + "99.9"
    defined = definitions(RULES_DOC.read_text(encoding="utf-8"))
    assert undefined not in defined
    files = {"docs/example.md": f"first line\nsee {undefined} and {r}4.4–4.7\n"}
    assert undefined_citations(files, defined) == [f"docs/example.md:2: '{undefined}' cites {undefined}, not defined"]
    files = {"x.py": f"# {r}4.4–{r}4.10\n"}
    assert undefined_citations(files, defined) == [f"x.py:1: '{r}4.4–{r}4.10' cites {r}4.9, {r}4.10, not defined"]
