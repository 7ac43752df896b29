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


def run_on_a_terminal(args: list, *, timeout: float, cwd=None) -> tuple:
    """Run ``args`` with its stderr on a pseudo-terminal (100 columns; stdout a pipe), as a person
    at a terminal runs it with its output redirected: ``(exit status, stdout text, terminal bytes)``."""
    import os
    import pty
    import subprocess
    master, slave = pty.openpty()
    proc = subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL,
                            env={**os.environ, "COLUMNS": "100", "TERM": "xterm"})
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:                           # the child closed the terminal: EIO
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert proc.stdout is not None
    out = proc.stdout.read().decode()
    return proc.wait(timeout=timeout), out, seen
