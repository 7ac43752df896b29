"""ruff finds nothing in the project (rules: ``[tool.ruff]`` in pyproject.toml); a finding fails
the run, with ruff's own report."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_ruff_finds_nothing():
    res = _ruff("--output-format", "concise", "host", "firmware", "tests", "bench")
    assert res.returncode == 0, res.stdout + res.stderr


def test_ruff_would_report_a_finding(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n", encoding="utf-8")
    res = _ruff("--config", str(ROOT / "pyproject.toml"), str(bad))
    assert res.returncode == 1 and "F401" in res.stdout
