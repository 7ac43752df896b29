"""``shengji-table league``: two bots in a duplicate league (``docs/bots.md``, "The league").

    shengji-table league --bots strong,heuristic --matches 100 --seed 1 [--preset P] [--hands H]
                         [--time-cap MS] [--jobs J] [--json]

Each match is ``--hands`` deals played twice with the bots' partnerships exchanging seats; the
result is bot A's net levels per match, its standard error, a 95 % interval and the sign test
(``game/league.py``).  ``--jobs`` plays matches in that many processes (the same result).
Bad input — an unknown bot, ``--matches`` of 0 or less, a preset without fixed partners — is one
line on stderr and exit status 2.
"""
from __future__ import annotations

import json
import sys
import time

from .preset_args import add_preset_argument, preset_ruleset


def add_arguments(parser):
    add_preset_argument(parser)
    parser.add_argument("--bots", required=True, metavar="A,B", help="the two bots, e.g. strong,heuristic")
    parser.add_argument("--matches", type=int, required=True, help="matches (each: the deals played twice)")
    parser.add_argument("--seed", type=int, default=1, help="league seed (deals and bot seeds follow from it)")
    parser.add_argument("--hands", type=int, default=1, help="deals per game (default 1)")
    parser.add_argument("--time-cap", type=float, default=None, metavar="MS",
                        help="per-decision cap in ms: a slower decision is replaced by a random legal one")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play matches in (default 1)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def _check(args, ruleset):
    from ..game.league import LeagueError, check_league
    bots = [b.strip() for b in args.bots.split(",")]
    try:
        check_league(ruleset, bots, args.matches, args.hands)
    except LeagueError as exc:
        return None, str(exc)
    if args.time_cap is not None and not args.time_cap > 0:
        return None, f"--time-cap is a time in ms above 0, not {args.time_cap:g}"
    if args.jobs < 1:
        return None, f"--jobs is 1 or more, not {args.jobs}"
    return bots, None


def _play(ruleset, games, cap, jobs):
    """Every match, in order; a progress bar of the matches on a terminal (``cli/progress.py``)."""
    from ..game.league import play_match
    from .progress import progress
    pairs = [games[i:i + 2] for i in range(0, len(games), 2)]
    out: list = []
    with progress(len(pairs), "league matches") as step:
        if jobs == 1:
            for p in pairs:
                out.append(play_match(ruleset, p, cap))
                step()
            return out
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(jobs) as pool:
            for result in pool.map(play_match, [ruleset] * len(pairs), pairs, [cap] * len(pairs)):
                out.append(result)
                step()
    return out


def run(args) -> int:
    from ..game.driver import DriverError
    from ..game.league import schedule, summarize
    ruleset = preset_ruleset(args, min_hands=None)
    if ruleset is None:
        return 2
    bots, problem = _check(args, ruleset)
    if problem or bots is None:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    games = schedule(bots, args.matches, args.seed, ruleset.players, args.hands)
    start = time.perf_counter()
    try:
        results = _play(ruleset, games, args.time_cap, args.jobs)
    except DriverError as exc:
        print(f"error: a bot's decision was refused: {exc}", file=sys.stderr)
        return 1
    wall = time.perf_counter() - start
    s = summarize([m.net for m in results])
    totals = {side: {k: sum(getattr(g, k)[side] for m in results for g in m.games) for k in ("decisions", "overruns")}
              for side in ("A", "B")}
    slowest = {side: max(g.slowest[side] for m in results for g in m.games) for side in ("A", "B")}
    if args.json:
        out = {"bots": bots, "preset": ruleset.preset, "matches": args.matches, "hands": args.hands,
               "seed": args.seed, "time_cap_ms": args.time_cap, "nets": [m.net for m in results],
               "summary": s.to_json(), "decisions": totals, "slowest_s": slowest, "wall_s": round(wall, 1)}
        print(json.dumps(out, indent=1))
        return 0
    a, b = bots
    print(f"{a} vs {b}: {s.n} matches of {args.hands} deal(s) x 2 seatings, preset {ruleset.preset}, seed {args.seed}")
    print(f"  net levels per match for {a}: mean {s.mean:+.3f}"
          + (f", standard error {s.se:.3f}, 95 % interval [{s.low:+.3f}, {s.high:+.3f}]" if s.se is not None else ""))
    print(f"  matches won {s.wins}, lost {s.losses}, drawn {s.draws}; sign test p = {s.p:.3g}")
    for side, name in (("A", a), ("B", b)):
        t = totals[side]
        print(f"  {name} ({side}): {t['decisions']} decisions, slowest {slowest[side] * 1000:.0f} ms"
              + (f", {t['overruns']} over the {args.time_cap:g} ms cap" if args.time_cap is not None else ""))
    print(f"  wall time {wall:.1f} s")
    return 0
