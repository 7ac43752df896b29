"""Test helper (not a test): a real file system that fills up, for the full-disk tests.

Import it by putting this folder on ``sys.path`` (the tests run with ``--import-mode=importlib``)::

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from full_disk import small_tmpfs  # noqa: E402
"""
from __future__ import annotations

import contextlib
import os
import pathlib
import subprocess

import pytest


@contextlib.contextmanager
def small_tmpfs(where: pathlib.Path, size: str):
    """A tmpfs of ``size`` (``mount -o size=…``) at ``where``, unmounted afterwards.  Mounting needs
    root and a system that lets this process mount (a container may not): otherwise the test is
    skipped with the reason (the RLIMIT_FSIZE test in tests/store/test_log_faults.py runs anyway)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
