"""``bench/run.py --against REV``: another git revision measured in the same run, its figures
printed beside this tree's with the ratio, its temporary worktree removed afterwards."""
import importlib.util
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _run_module():
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "bench" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _git_checkout() -> bool:
    return shutil.which("git") is not None and subprocess.run(
        ["git", "rev-parse", "--git-dir"], cwd=ROOT, capture_output=True).returncode == 0


def _worktrees() -> set:
    """The temporary worktrees ``--against`` makes that exist now."""
    listed = subprocess.run(["git", "worktree", "list", "--porcelain"], cwd=ROOT, capture_output=True,
                            text=True).stdout
    return {line for line in listed.splitlines() if "shengji-bench-" in line}


def test_figures_that_differ_get_the_other_figure_and_the_ratio():
    merge = _run_module().merge
    mine = "classic                         534.9 [487.8]       97.2 [ 89.4]\n2 decks: 25-card hands\nseed 7"
    theirs = "classic                         500.0 [570.5]      104.7 [102.5]\n2 decks: 25-card hands\nseed 8 x"
    out = merge(mine, theirs, "main")
    assert out[0] == ("classic                         534.9 {main: 500.0, ×1.07} [487.8 {main: 570.5, ×0.86}]"
                      "       97.2 {main: 104.7, ×0.93} [ 89.4 {main: 102.5, ×0.87}]")
    assert out[1] == "2 decks: 25-card hands"            # the same figures: the line once, as it is
    assert out[2:] == ["  this tree: seed 7", "  main: seed 8 x"]   # other words: both lines


def test_a_figure_of_zero_on_the_other_side_has_no_ratio():
    assert _run_module().merge("lost 3", "lost 0", "r") == ["lost 3 {r: 0, ×—}"]


@pytest.mark.skipif(not _git_checkout(), reason="needs a git checkout of the project")
def test_an_unknown_revision_is_refused_and_nothing_is_made():
    before = _worktrees()
    done = subprocess.run([sys.executable, "bench/run.py", "timing", "--against", "no-such-revision-xyz"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "'no-such-revision-xyz' is not a git revision" in done.stderr
    assert _worktrees() <= before


@pytest.mark.skipif(not _git_checkout(), reason="needs a git checkout of the project")
def test_against_head_prints_both_sides_and_removes_its_worktree():
    before = _worktrees()
    done = subprocess.run([sys.executable, "bench/run.py", "timing", "--against", "HEAD"],
                          cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ratio = this tree ÷ HEAD" in done.stdout
    assert "== timing ==  (measuring HEAD, then this tree)" in done.stdout
    assert "polls/s per seat" in done.stdout                 # the bench's own table, merged
    assert _worktrees() <= before


def test_rounds_give_each_figure_its_median_run():
    median_output = _run_module().median_output
    runs = ["hands/s 510.5 [300]\nseed 7", "hands/s 490.1 [100]\nseed 7", "hands/s 530.0 [200]\nseed 7\nmore 1"]
    assert median_output(runs) == "hands/s 510.5 [200]\nseed 7"
    # of an even number the lower middle one, as that run printed it; a line that reads otherwise
    # in one run is left out of that line's median
    assert median_output(["t 1,200 ms", "t 900 ms", "x 5 ms", "t 1,000 ms"]) == "t 1,000 ms"


def test_rounds_below_one_are_refused():
    done = subprocess.run([sys.executable, "bench/run.py", "timing", "--against", "HEAD", "--rounds", "0"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--rounds is 1 or more, not 0" in done.stderr
