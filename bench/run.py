"""Run every benchmark in this folder (bench_*.py) and print its figures.

Each bench_*.py has a ``main()`` that prints its own table (bench_timing.py: the datasheet timing
budget of the scan loop, polls per second per seat and tap latency for table-4 and table-6).  Speed
targets live here, never as timing assertions in tests.  ``python bench/run.py rules`` runs only
bench_rules.py.

``--against REV`` measures another git revision in the same run: a temporary ``git worktree`` of
REV is made, and each bench module (this tree's file, so both sides are measured the same way) runs
twice as a process of its own, once with ``PYTHONPATH`` at that tree's ``host/`` and once at this
tree's.  Lines that read the same but for their figures are printed once, each figure that differs
followed by ``{REV: figure, ×ratio}`` (ratio = this tree ÷ REV).  Lines that differ otherwise are
printed from both sides.  Where this tree's bench file cannot run against REV's code (an API it
uses changed), REV's own bench file is run for REV, and the output says so.  ``--rounds N``
measures both sides N times in turn, each figure the median of its N runs (CPU time on a shared
machine moves by a third between runs).  The worktree is removed afterwards
(``docs/benchmarks.md``)::

    python bench/run.py game rules --against main --rounds 3
    make bench AGAINST=a0f0b54 BENCH="game rules" ROUNDS=3
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
SPACE = re.compile(r"\s+")


def skeleton(line: str) -> str:
    """A line without its figures and spacing (a figure's width moves the padding around it)."""
    return SPACE.sub("", NUMBER.sub("#", line))


def _benches(wanted: list) -> list:
    """The bench files named in ``wanted`` (all when empty); an unknown name is an error."""
    paths = {p.stem[len("bench_"):]: p for p in sorted(HERE.glob("bench_*.py"))}
    unknown = [w for w in wanted if w not in paths]
    if unknown:
        raise SystemExit(f"error: no benchmark {', '.join(unknown)} (there are: {', '.join(paths)})")
    return [(name, p) for name, p in paths.items() if not wanted or name in wanted]


def run_here(wanted: list) -> None:
    """Every bench module in this process, its table as it prints it."""
    for name, path in _benches(wanted):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        print(f"== {name} ==", flush=True)
        started = time.perf_counter()
        module.main()
        print(f"   ({time.perf_counter() - started:.1f} s)\n", flush=True)


def _git(*args: str, cwd: pathlib.Path = ROOT) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"error: git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout.strip()


def _worktree(rev: str, where: pathlib.Path) -> pathlib.Path:
    """A detached worktree of ``rev`` at ``where``, its firmware and boards linked into its package
    as the editable install maps them (``shengji_table._firmware``, ``shengji_table._boards``)."""
    found = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], cwd=ROOT,
                           capture_output=True, text=True)
    if found.returncode != 0 or rev.startswith("-"):
        raise SystemExit(f"error: {rev!r} is not a git revision of {ROOT} (a commit, branch or tag)")
    commit = found.stdout.strip()
    _git("worktree", "add", "--detach", "--quiet", str(where), commit)
    package = where / "host" / "shengji_table"
    for name, folder in (("_firmware", "firmware"), ("_boards", "boards")):
        if (where / folder).is_dir() and not (package / name).exists():
            (package / name).symlink_to(where / folder, target_is_directory=True)
    return where


def _measure(bench: pathlib.Path, tree: pathlib.Path) -> subprocess.CompletedProcess:
    """Run ``bench`` as a script with ``tree``'s host package first on the path (stderr shown)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree / "host"), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, str(bench)], cwd=tree, env=env, stdout=subprocess.PIPE,
                          text=True)


def _ratio(mine: float, theirs: float) -> str:
    return f"×{mine / theirs:.2f}" if theirs else "×—"


def merge(mine: str, theirs: str, label: str) -> list:
    """This tree's output beside REV's (``label``), line by line: see the module docstring."""
    a, b = mine.splitlines(), theirs.splitlines()
    out = []
    for i in range(max(len(a), len(b))):
        x, y = (a[i] if i < len(a) else ""), (b[i] if i < len(b) else "")
        if skeleton(x) != skeleton(y):
            out += [f"  this tree: {x}", f"  {label}: {y}"] if x or y else [""]
            continue
        theirs_numbers = iter(NUMBER.findall(y))

        def beside(m: re.Match, numbers=theirs_numbers) -> str:
            old = next(numbers)
            if old == m.group():
                return old
            new_value, old_value = _value(m.group()), _value(old)
            return f"{m.group()} {{{label}: {old}, {_ratio(new_value, old_value)}}}"
        out.append(NUMBER.sub(beside, x))
    return out


def _value(text: str) -> float:
    return float(text.replace(",", ""))


def median_output(outputs: list) -> str:
    """Several runs' outputs as one: each figure the median of that figure over the runs whose
    line reads the same but for its figures (of an even number, the lower middle one: a figure
    one run printed, as it printed it)."""
    runs = [o.splitlines() for o in outputs]
    out = []
    for i, line in enumerate(runs[0]):
        same = [r[i] for r in runs if i < len(r) and skeleton(r[i]) == skeleton(line)]
        columns = iter(zip(*(NUMBER.findall(x) for x in same)))

        def middle(_m: re.Match, columns=columns) -> str:
            column = sorted(next(columns), key=_value)
            return column[(len(column) - 1) // 2]
        out.append(NUMBER.sub(middle, line))
    return "\n".join(out)


def run_against(wanted: list, rev: str, rounds: int = 1) -> int:
    """Each bench module against ``rev`` and against this tree, side by side (``rounds`` times in
    turn, each figure the median); the exit status."""
    benches = _benches(wanted)
    label = rev if len(rev) <= 12 else rev[:12]
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="shengji-bench-"))
    where = tmp / "tree"
    status = 0
    try:
        _worktree(rev, where)
        print(f"this tree: {ROOT}; {label}: {_git('rev-parse', '--short', 'HEAD', cwd=where)} "
              f"({_git('log', '-1', '--format=%s', cwd=where)}); ratio = this tree ÷ {label}\n", flush=True)
        for name, path in benches:
            turns = f"{rounds} times in turn, each figure the median" if rounds > 1 else "then this tree"
            print(f"== {name} ==  (measuring {label}, {turns})", flush=True)
            started = time.perf_counter()
            theirs_bench, note = path, ""
            mine, theirs = [], []
            for _ in range(rounds):
                run = _measure(theirs_bench, where)
                own = where / "bench" / path.name
                if run.returncode != 0 and theirs_bench == path and own.is_file():
                    theirs_bench, note = own, f"   ({label} measured with its own {own.name})"
                    run = _measure(own, where)
                theirs.append(run)
                mine.append(_measure(path, ROOT))
            if any(r.returncode != 0 for r in mine + theirs):
                status = 1
                print(f"   error: the bench failed (this tree rc {[r.returncode for r in mine]}, {label} rc "
                      f"{[r.returncode for r in theirs]}); its output follows", flush=True)
            merged = merge(median_output([r.stdout.rstrip("\n") for r in mine]),
                           median_output([r.stdout.rstrip("\n") for r in theirs]), label)
            print("\n".join(merged))
            print(f"{note}\n   ({time.perf_counter() - started:.1f} s, both)\n", flush=True)
    finally:
        if where.exists():
            subprocess.run(["git", "worktree", "remove", "--force", str(where)], cwd=ROOT, capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, capture_output=True)
    return status


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(prog="bench/run.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="the benchmarks to run (bench_NAME.py); all when none")
    parser.add_argument("--against", metavar="REV", help="also measure this git revision, side by side")
    parser.add_argument("--rounds", type=int, default=1, metavar="N",
                        help="with --against: measure both N times in turn, each figure the median (default 1)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error(f"--rounds is 1 or more, not {args.rounds}")
    if args.against:
        return run_against(args.names, args.against, args.rounds)
    run_here(args.names)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
