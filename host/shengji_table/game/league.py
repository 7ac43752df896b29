"""A duplicate league between two bots: paired deals with the partnerships exchanging seats.

Match ``i`` is ``hands`` deals (seeds drawn from the league seed) played twice from the start of a
match: game 0 with bot A in the even seats and bot B in the odd ones, game 1 with the same deals
and the bots' partnerships exchanged — so each bot holds both sides of every deal and the luck of
the cards cancels (the duplicate principle).  The result of a game is the *net levels* of A's
side: the levels its partnership went up (R-8.1) minus those B's went up; a match's result is the
sum over its two games.  Fixed partnerships only (the sides must be the bots').

Statistics over the matches (:func:`summarize`): mean net levels, its standard error, a 95 %
interval (Student's t), and the two-sided exact sign test on the matches that were not drawn.

The time cap (:class:`TimedBot`): a decision that takes longer than the cap is not used; the
seat's fallback bot (random-legal, its own seed) answers instead, and the overrun is counted.
A bot cannot be interrupted mid-thought, so the cap costs it the quality of its play, not time.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..rules.ruleset import Ruleset
from .bots import BOTS, RandomLegalBot, make_bot
from .driver import Driver
from .match import Match

__all__ = ["Game", "GameResult", "MatchResult", "Summary", "TimedBot", "LeagueError", "schedule", "play_game",
           "play_match", "summarize", "sign_test", "t_quantile"]


class LeagueError(ValueError):
    """A league that cannot be played as asked (unknown bot, no matches, teams not fixed)."""


@dataclass(frozen=True)
class Game:
    """One game of a match: the bot kind in each seat, the deal seeds, each seat's bot seed.
    ``a_parity``: the seats of bot A's side are those with ``seat % 2 == a_parity``."""

    match: int
    game: int
    seats: tuple
    deals: tuple
    bot_seeds: tuple
    a_parity: int


@dataclass
class GameResult:
    """A played game: A's net levels, the deal seeds played (in order), the levels at the end, and
    per side ("A"/"B") decisions taken and cap overruns."""

    game: Game
    net: int
    seeds: list = field(default_factory=list)
    levels: tuple = ()
    decisions: dict = field(default_factory=dict)
    overruns: dict = field(default_factory=dict)
    slowest: dict = field(default_factory=dict)     # side -> longest decision, seconds


@dataclass
class MatchResult:
    """A match's two games and their summed net levels for A."""

    index: int
    games: tuple
    net: int


def check_league(ruleset: Ruleset, bots: Sequence[str], matches: int, hands: int = 1) -> None:
    """Raise :class:`LeagueError` for a league that cannot be played (said plainly)."""
    if len(bots) != 2:
        raise LeagueError(f"a league is between two bots, A,B — not {len(bots)}")
    for b in bots:
        if b not in BOTS:
            raise LeagueError(f"unknown bot {b!r}; valid bots: {', '.join(BOTS)}")
    if isinstance(matches, bool) or not isinstance(matches, int) or matches <= 0:
        raise LeagueError(f"the number of matches is a whole number above 0, not {matches!r}")
    if isinstance(hands, bool) or not isinstance(hands, int) or hands <= 0:
        raise LeagueError(f"the hands per game are a whole number above 0, not {hands!r}")
    if ruleset.teams != "fixed" or ruleset.players % 2:
        raise LeagueError(f"preset {ruleset.preset!r} has no fixed partnerships: a league needs two fixed sides")


def schedule(bots: Sequence[str], matches: int, seed: int, players: int, hands: int = 1) -> list[Game]:
    """Every game of the league in order: for each match its two games, same deals and bot seeds,
    A's partnership in the even seats first and then in the odd seats."""
    rng = random.Random(seed)
    a, b = bots
    out = []
    for i in range(matches):
        deals = tuple(rng.randrange(2 ** 31) for _ in range(hands))
        bot_seeds = tuple(rng.randrange(2 ** 31) for _ in range(players))
        for g, parity in enumerate((0, 1)):
            seats = tuple(a if s % 2 == parity else b for s in range(players))
            out.append(Game(i, g, seats, deals, bot_seeds, parity))
    return out


class TimedBot:
    """A bot under a per-decision time cap (seconds; None: no cap).  Over the cap, the decision is
    discarded and ``fallback`` answers the same view; ``overruns`` counts those."""

    def __init__(self, bot, cap: float | None, fallback, clock: Callable[[], float] = time.perf_counter):
        self.bot = bot
        self.cap = cap
        self.fallback = fallback
        self.clock = clock
        self.decisions = 0
        self.overruns = 0
        self.slowest = 0.0

    def choose(self, view):
        start = self.clock()
        decision = self.bot.choose(view)
        spent = self.clock() - start
        self.decisions += 1
        self.slowest = max(self.slowest, spent)
        if self.cap is not None and spent > self.cap:
            self.overruns += 1
            return self.fallback.choose(view)
        return decision


def play_game(ruleset: Ruleset, game: Game, cap_ms: float | None = None,
              clock: Callable[[], float] = time.perf_counter, factory=make_bot) -> GameResult:
    """Play one game from a fresh match; A's net levels and the time-cap counts per side."""
    cap = None if cap_ms is None else cap_ms / 1000.0
    bots = [TimedBot(factory(kind, game.bot_seeds[s]), cap, RandomLegalBot(game.bot_seeds[s] ^ 0xFA11), clock)
            for s, kind in enumerate(game.seats)]
    match = Match(ruleset)
    driver = Driver(match, bots)
    played = []
    for seed in game.deals:
        if match.over:
            break
        driver.play_hand(seed)
        played.append(seed)
    start = ruleset.start_level
    a_seat, b_seat = game.a_parity, 1 - game.a_parity
    net = (match.levels[a_seat] - start) - (match.levels[b_seat] - start)
    res = GameResult(game, net, played, tuple(match.levels))
    for side, parity in (("A", a_seat), ("B", b_seat)):
        mine = [bots[s] for s in range(len(bots)) if s % 2 == parity]
        res.decisions[side] = sum(t.decisions for t in mine)
        res.overruns[side] = sum(t.overruns for t in mine)
        res.slowest[side] = max(t.slowest for t in mine)
    return res


def play_match(ruleset: Ruleset, games: Sequence[Game], cap_ms: float | None = None,
               clock: Callable[[], float] = time.perf_counter, factory=make_bot) -> MatchResult:
    """Play a match's two games (from :func:`schedule`) and sum A's net levels."""
    results = tuple(play_game(ruleset, g, cap_ms, clock, factory) for g in games)
    return MatchResult(games[0].match, results, sum(r.net for r in results))


# ---- statistics --------------------------------------------------------------------------------

def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test: the chance, if both bots were equal, of a split at least this
    uneven among ``wins + losses`` decided matches (binomial, p = ½).  1.0 with none decided."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def t_quantile(df: int, p: float = 0.975) -> float:
    """Student's t quantile by the Cornish–Fisher expansion around the normal one (within 0.01
    of the exact value from 4 degrees of freedom; the table's values for 1 to 3 at p = 0.975)."""
    if df <= 0:
        raise ValueError("degrees of freedom are 1 or more")
    if p == 0.975 and df <= 3:
        return (12.706, 4.303, 3.182)[df - 1]
    from statistics import NormalDist
    z = NormalDist().inv_cdf(p)
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


@dataclass(frozen=True)
class Summary:
    """Net levels per match for bot A: ``n`` matches, mean, standard error, 95 % interval
    (``low``, ``high``), matches won / lost / drawn, and the sign test's two-sided ``p``."""

    n: int
    mean: float
    se: float | None
    low: float | None
    high: float | None
    wins: int
    losses: int
    draws: int
    p: float

    def to_json(self) -> dict:
        return {k: getattr(self, k) for k in ("n", "mean", "se", "low", "high", "wins", "losses", "draws", "p")}


def summarize(nets: Sequence[float]) -> Summary:
    """The league's statistics over the matches' net levels (standard error and interval need 2
    matches or more; ``None`` below)."""
    n = len(nets)
    if n == 0:
        raise ValueError("no matches to summarize")
    mean = sum(nets) / n
    wins = sum(1 for x in nets if x > 0)
    losses = sum(1 for x in nets if x < 0)
    se = low = high = None
    if n >= 2:
        sd = math.sqrt(sum((x - mean) ** 2 for x in nets) / (n - 1))
        se = sd / math.sqrt(n)
        half = t_quantile(n - 1) * se
        low, high = mean - half, mean + half
    return Summary(n, mean, se, low, high, wins, losses, n - wins - losses, sign_test(wins, losses))
