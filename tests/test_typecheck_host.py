"""The host package type-checks clean: the venv's mypy, with the repository's ``mypy.ini``, over
``host/shengji_table`` (the firmware has its own check against the rp2 stubs, in
tests/firmware/test_build_firmware.py).
"""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "mypy.ini"
PACKAGE = ROOT / "host" / "shengji_table"


def _mypy(cache_dir, *args):
    # A fresh cache per session: the result never depends on what an earlier run left behind.
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(CONFIG),
                           "--cache-dir", str(cache_dir), "--no-color-output", "--no-error-summary", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("mypy-cache")


def test_typecheck_host_package_has_no_errors(cache_dir):
    proc = _mypy(cache_dir, str(PACKAGE.relative_to(ROOT)))
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    assert proc.returncode == 0 and not errors, (
        f"mypy reports {len(errors)} error(s) in host/shengji_table:\n" + proc.stdout + proc.stderr)


def test_typecheck_config_covers_every_host_module(cache_dir):
    """``mypy.ini``'s ``files`` takes in every module of the package (none excluded or skipped)."""
    proc = _mypy(cache_dir, "--error-summary")     # files from mypy.ini
    assert proc.returncode == 0, proc.stdout + proc.stderr
    m = re.search(r"Success: no issues found in (\d+) source files", proc.stdout)
    assert m, proc.stdout
    assert int(m.group(1)) == len(list(PACKAGE.rglob("*.py")))


def test_typecheck_config_reports_a_wrong_type(cache_dir, tmp_path):
    """The configuration is live: a wrong type inside the package is reported, not silenced.

    mypy reads a copy of ``game/stack.py`` with one bad line added in place of the real file
    (``--shadow-file``), so the package itself is never touched."""
    target = PACKAGE / "game" / "stack.py"
    shadow = tmp_path / "stack.py"
    shadow.write_text(target.read_text() + "\n_probe: str = len(())\n")
    proc = _mypy(cache_dir, "--shadow-file", str(target.relative_to(ROOT)), str(shadow),
                 str(PACKAGE.relative_to(ROOT)))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and errors[0].startswith("host/shengji_table/game/stack.py:"), proc.stdout
    assert 'expression has type "int", variable has type "str"' in errors[0]
