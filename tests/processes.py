"""Test helper (not a test): running the ``shengji-table`` commands as separate processes.

Import it by putting this folder on ``sys.path`` (the tests run with ``--import-mode=importlib``)::

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from processes import read_until  # noqa: E402
"""
from __future__ import annotations

import select
import time


def read_until(proc, words: str, seconds: float = 20) -> str:
    """The lines ``proc`` printed until one holds ``words``; never blocks past ``seconds``
    (AssertionError with what was printed)."""
    seen = ""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, end - time.monotonic()))
        if not ready:
            break
        line = proc.stdout.readline()
        if not line:
            break
        seen += line
        if words in line:
            return seen
    raise AssertionError(f"{words!r} never printed; got:\n{seen}")
