"""The repository stands on its own: no tracked file points at documents kept outside it (the rules
digest, the founders' notes, the hardware and board notes) or at how the work was organised.  What
those references meant is now in docs/ (rules.md, hardware-notes.md, board-schema.md).

The pattern is put together from pieces so that this file does not match it.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from repo_files import repository_texts  # noqa: E402

_OUTSIDE = ["\\.\\./" + "shared", "shared" + "/", "RULES" + "\\.md", "HARDWARE" + "-NOTES",
            "BOARD" + "-SCHEMA", "ARCHITECTURE" + "\\.md"]
_ORGANISATION = ["[Ii]" + "ssue [0-9]", "\\b" + "ga" + "ps?" + "\\b", "\\b" + "wa" + "ve" + "\\b"]
FORBIDDEN = re.compile("|".join(_OUTSIDE + _ORGANISATION))


def hits(files: dict[str, str]) -> list[str]:
    """``"file:line: text"`` for every line of ``files`` (name → text) that matches."""
    out = []
    for name, text in sorted(files.items()):
        for lineno, line in enumerate(text.splitlines(), 1):
            if FORBIDDEN.search(line):
                out.append(f"{name}:{lineno}: {line.strip()[:120]}")
    return out


def test_no_tracked_file_refers_outside_the_repository():
    files = repository_texts()
    assert len(files) > 100, "the repository's files were not found"
    found = hits(files)
    assert not found, "references outside the repository or to how the work was organised:\n" + "\n".join(found)


def test_the_pattern_finds_what_it_should():
    bad = {"a.md": "see ../" + "sha" + "red/x", "b.py": "# " + "RULES" + ".md §9", "c.py": "(is" + "sue 2)",
           "d.txt": "no ga" + "ps here", "e.md": "first wa" + "ve"}
    assert [h.split(":")[0] for h in hits(bad)] == sorted(bad)
    good = {"f.py": "test_gaps_first_dealer.py, last_ack_gap_us, ACK_GAP_MS, docs/rules.md, waveform"}
    assert hits(good) == []
