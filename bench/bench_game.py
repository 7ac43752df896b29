"""Simulated hands per second, per preset, with random-legal and with heuristic bots.

Every hand goes through the real game path: a seeded deal, each card drawn to its seat, bots asked
at every decision, every card tapped at its seat and confirmed, settlement, levels.  Figures are CPU
seconds of this process (``time.process_time``) so that other load on the machine does not count;
wall-clock figures are printed beside them.  Target: ≥ 500 classic hands/s with random-legal bots
on one core (aim: 1,000); that figure is the best of three passes, since other jobs' load on a
shared machine inflates even CPU time (cache, a shared core).

Because of that load, the change of one piece of the engine is compared by the instructions it
runs, which do not depend on it: with valgrind installed, the classic random-legal hand's
instructions (callgrind, ``PYTHONHASHSEED=0``; 40 hands less 10, so start-up does not count).
"""
from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

from shengji_table.game.bots import make_bot
from shengji_table.game.driver import Driver
from shengji_table.game.match import Match
from shengji_table.rules.ruleset import PRESETS, Ruleset

TARGET = 500.0
AIM = 1000.0


def hands_per_second(preset: str, kind: str, hands: int, mode: str = "scanned") -> tuple:
    rs = Ruleset.from_preset(preset)
    done = 0
    match_no = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while done < hands:
        m = Match(rs, mode)
        d = Driver(m, [make_bot(kind, 97 * match_no + i) for i in range(rs.players)])
        while not m.over and done < hands:
            d.play_hand(seed=match_no * 1000 + done)
            done += 1
        match_no += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return done / cpu, done / wall


def best_of(passes: int, *args, **kw) -> tuple:
    """``hands_per_second`` as the best of ``passes`` passes (CPU and wall figures each)."""
    runs = [hands_per_second(*args, **kw) for _ in range(passes)]
    return max(r[0] for r in runs), max(r[1] for r in runs)


def _instructions(hands: int, code: str | None = None) -> int:
    """Instructions one process runs playing ``hands`` classic hands with random-legal bots (or
    running ``code``)."""
    code = code or (f"import sys; sys.path.insert(0, {str(pathlib.Path(__file__).parent)!r}); import bench_game; "
                    f"bench_game.hands_per_second('classic', 'random', {hands})")
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
                               sys.executable, "-c", code], capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": "0"})
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"callgrind failed: {done.stderr[-300:]}")
    return int(found.group(1))


def instructions_per_hand() -> float | None:
    """Instructions per classic hand (random-legal bots), or None without valgrind."""
    if shutil.which("valgrind") is None:
        return None
    return (_instructions(40) - _instructions(10)) / 30


def _matches(hands: int) -> list:
    """The events of ``hands_per_second``'s classic matches (random-legal bots), cut at ``hands``."""
    rs = Ruleset.from_preset("classic")
    done, match_no, out = 0, 0, []
    while done < hands:
        m = Match(rs, "scanned")
        d = Driver(m, [make_bot("random", 97 * match_no + i) for i in range(rs.players)])
        while not m.over and done < hands:
            d.play_hand(seed=match_no * 1000 + done)
            done += 1
        out.append(m.events)
        match_no += 1
    return out


def replay(path: str, hands: int) -> None:
    """Apply the first ``hands`` hands of the pickled matches at ``path`` to fresh matches: the
    engine alone (no bots, no driver).  The events are rebuilt by their constructors first, as the
    driver builds them (an unpickled instance is slower to read), sharing kept."""
    import dataclasses
    import pickle
    from shengji_table.game.events import Deal
    from shengji_table.rules.cards import CardCopy, all_copies
    with open(path, "rb") as f:
        matches = pickle.load(f)
    shared = {c.key: c for c in all_copies(4)}          # the copies every deal shares, as the driver's

    def field(v):
        if isinstance(v, CardCopy):
            return shared[v.key]
        return tuple(map(field, v)) if isinstance(v, tuple) else v

    built: dict = {}
    rs = Ruleset.from_preset("classic")
    for events in matches:
        events = [built.get(id(e)) or built.setdefault(id(e), type(e)(**{f.name: field(getattr(e, f.name))
                                                                         for f in dataclasses.fields(e)}))
                  for e in events]
        deals = [i for i, e in enumerate(events) if type(e) is Deal]
        if hands <= 0:
            break
        Match(rs, "scanned").apply_all(events[:deals[hands]] if len(deals) > hands else events)
        hands -= len(deals)


def replay_instructions_per_hand() -> float | None:
    """Instructions per classic hand of the engine alone, replaying the recorded events of 40 hands
    less 10 (callgrind, as ``instructions_per_hand``), or None without valgrind."""
    if shutil.which("valgrind") is None:
        return None
    import pickle
    with tempfile.TemporaryDirectory() as tmp:
        with open(f"{tmp}/events.pkl", "wb") as f:
            pickle.dump(_matches(40), f)
        code = (f"import sys; sys.path.insert(0, {str(pathlib.Path(__file__).parent)!r}); import bench_game; "
                f"bench_game.replay({tmp + '/events.pkl'!r}, {{}})")
        return (_instructions(40, code.format(40)) - _instructions(10, code.format(10))) / 30


def main(hands_random: int = 60, hands_heuristic: int = 20) -> None:
    # the interpreter's build moves every figure here (a profile-optimised, static build runs the
    # same hand in fewer and faster instructions than an --enable-shared one)
    print(f"interpreter: {sys.executable} (Python {sys.version.split()[0]})")
    print(f"{'preset':28s} {'random hands/s':>16s} {'heuristic hands/s':>18s}   (CPU time; wall in brackets)")
    classic = None
    for preset in PRESETS:
        r_cpu, r_wall = (best_of(3, preset, "random", hands_random) if preset == "classic"
                         else hands_per_second(preset, "random", hands_random))
        h_cpu, h_wall = hands_per_second(preset, "heuristic", hands_heuristic)
        if preset == "classic":
            classic = r_cpu
        print(f"{preset:28s} {r_cpu:8.1f} [{r_wall:5.1f}] {h_cpu:10.1f} [{h_wall:5.1f}]", flush=True)
    for preset in ("classic", "three-players"):    # open play: the driver keeps the hands, revokes proven late
        r_cpu, r_wall = hands_per_second(preset, "random", hands_random, mode="open")
        h_cpu, h_wall = hands_per_second(preset, "heuristic", hands_heuristic, mode="open")
        print(f"{preset + ' (open play)':28s} {r_cpu:8.1f} [{r_wall:5.1f}] {h_cpu:10.1f} [{h_wall:5.1f}]", flush=True)
    verdict = "meets" if classic >= TARGET else "MISSES"
    print(f"classic with random-legal bots (best of 3): {classic:.1f} hands/s — {verdict} the target of "
          f"≥ {TARGET:.0f} hands/s (aim {AIM:.0f})")
    ins = instructions_per_hand()
    print("instructions per classic hand (callgrind, load-independent): "
          + (f"{ins / 1e6:.2f} M" if ins is not None else "valgrind is not installed"), flush=True)
    rep = replay_instructions_per_hand()
    if rep is not None:
        print(f"  of which the engine replaying the hand's events (no bots, no driver): {rep / 1e6:.2f} M", flush=True)


if __name__ == "__main__":
    main()
