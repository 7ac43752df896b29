"""The duplicate league (game/league.py): pairing, statistics on known inputs, the time cap."""
from __future__ import annotations

import math

import pytest

from shengji_table.game.league import (LeagueError, TimedBot, check_league, play_game, play_match, schedule,
                                       sign_test, summarize, t_quantile)
from shengji_table.game.view import Expect
from shengji_table.rules.ruleset import Ruleset

CLASSIC = Ruleset.from_preset("classic")


# ---- pairing ------------------------------------------------------------------------------------

def test_every_deal_is_played_twice_with_the_partnerships_exchanged():
    games = schedule(("strong", "heuristic"), 5, seed=3, players=4, hands=2)
    assert len(games) == 10
    for i in range(5):
        first, second = games[2 * i], games[2 * i + 1]
        assert (first.match, first.game, second.match, second.game) == (i, 0, i, 1)
        assert first.deals == second.deals and len(first.deals) == 2          # same deals, same order
        assert first.bot_seeds == second.bot_seeds
        assert first.seats == ("strong", "heuristic", "strong", "heuristic")
        assert second.seats == ("heuristic", "strong", "heuristic", "strong")
        assert (first.a_parity, second.a_parity) == (0, 1)
    assert len({g.deals for g in games}) == 5                                  # matches differ
    assert schedule(("strong", "heuristic"), 5, seed=3, players=4, hands=2) == games
    assert schedule(("strong", "heuristic"), 5, seed=4, players=4, hands=2) != games


def test_six_players_alternate_the_two_sides():
    g0, g1 = schedule(("random", "heuristic"), 1, seed=1, players=6)
    assert g0.seats == ("random", "heuristic") * 3 and g1.seats == ("heuristic", "random") * 3


def test_a_game_plays_the_deals_in_their_order_and_nets_the_levels():
    game = schedule(("heuristic", "random"), 1, seed=11, players=4, hands=3)[1]
    res = play_game(CLASSIC, game)
    assert res.seeds == list(game.deals)[:len(res.seeds)] and res.seeds
    a, b = res.levels[game.a_parity], res.levels[1 - game.a_parity]
    assert res.net == (a - CLASSIC.start_level) - (b - CLASSIC.start_level)


def test_a_bot_against_itself_nets_zero_in_every_match():
    """Seats exchanged with the same seeds: game 1 is game 0 with the sides' names swapped, so the
    two games cancel exactly (they would add up if the seats were not exchanged)."""
    games = schedule(("heuristic", "heuristic"), 4, seed=5, players=4)
    nets = []
    for i in range(4):
        m = play_match(CLASSIC, games[2 * i:2 * i + 2])
        assert m.games[0].net == -m.games[1].net
        nets.append(m.net)
    assert nets == [0, 0, 0, 0]
    assert any(play_match(CLASSIC, games[2 * i:2 * i + 2]).games[0].net for i in range(4))


def test_bad_leagues_are_refused():
    with pytest.raises(LeagueError, match="unknown bot 'nope'"):
        check_league(CLASSIC, ["nope", "random"], 3)
    for n in (0, -2):
        with pytest.raises(LeagueError, match="above 0"):
            check_league(CLASSIC, ["random", "random"], n)
    with pytest.raises(LeagueError, match="two bots"):
        check_league(CLASSIC, ["random"], 3)
    with pytest.raises(LeagueError, match="fixed partnerships"):
        check_league(Ruleset.from_preset("find-friend-4"), ["random", "heuristic"], 3)


# ---- statistics -----------------------------------------------------------------------------------

def test_sign_test_is_the_exact_two_sided_binomial_tail():
    assert sign_test(0, 0) == 1.0
    assert sign_test(10, 0) == sign_test(0, 10) == 2 / 1024
    assert sign_test(3, 7) == pytest.approx(2 * (1 + 10 + 45 + 120) / 1024)
    assert sign_test(5, 5) == 1.0                                              # capped at 1
    assert sign_test(60, 40) == pytest.approx(0.056887933, abs=1e-8)           # R: binom.test(60, 100)


def test_t_quantiles_match_the_tables():
    table = ((1, 12.706), (2, 4.303), (3, 3.182), (4, 2.776), (5, 2.571), (10, 2.228), (30, 2.042), (1000, 1.962))
    for df, exact in table:
        assert t_quantile(df) == pytest.approx(exact, abs=0.01)
    with pytest.raises(ValueError):
        t_quantile(0)


def test_summary_of_known_nets():
    s = summarize([1, 2, 3, 4, 0, -1])
    assert s.n == 6 and s.mean == pytest.approx(1.5)
    sd = math.sqrt(sum((x - 1.5) ** 2 for x in [1, 2, 3, 4, 0, -1]) / 5)
    assert s.se == pytest.approx(sd / math.sqrt(6))
    assert (s.low, s.high) == pytest.approx((1.5 - 2.571 * s.se, 1.5 + 2.571 * s.se), abs=0.01)
    assert (s.wins, s.losses, s.draws) == (4, 1, 1)
    assert s.p == pytest.approx(sign_test(4, 1))
    one = summarize([2])
    assert one.se is None and one.low is None and one.mean == 2
    with pytest.raises(ValueError):
        summarize([])


# ---- the time cap ----------------------------------------------------------------------------------

class _Clock:
    """A clock the test moves: each reading advances it by ``step`` seconds."""

    def __init__(self, step: float):
        self.t, self.step = 0.0, step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


class _Fixed:
    def __init__(self, answer):
        self.answer = answer

    def choose(self, view):
        return self.answer


def test_a_decision_over_the_cap_is_replaced_by_the_fallback_and_counted():
    slow = TimedBot(_Fixed("slow"), cap=0.5, fallback=_Fixed("fallback"), clock=_Clock(1.0))
    assert slow.choose(None) == "fallback" and (slow.decisions, slow.overruns) == (1, 1)
    fast = TimedBot(_Fixed("mine"), cap=0.5, fallback=_Fixed("fallback"), clock=_Clock(0.1))
    assert fast.choose(None) == "mine" and (fast.decisions, fast.overruns) == (1, 0)
    uncapped = TimedBot(_Fixed("mine"), cap=None, fallback=_Fixed("fallback"), clock=_Clock(100.0))
    assert uncapped.choose(Expect("lead")) == "mine" and uncapped.overruns == 0


def test_a_capped_game_is_finished_by_legal_fallback_plays():
    """With a cap no decision meets, every decision is the random fallback's, counted for both
    sides — and the game still ends legally (the driver refuses any illegal play)."""
    game = schedule(("heuristic", "heuristic"), 1, seed=2, players=4)[0]
    res = play_game(CLASSIC, game, cap_ms=1e-9)
    assert res.overruns == res.decisions and res.decisions["A"] > 25
    free = play_game(CLASSIC, game)
    assert free.overruns == {"A": 0, "B": 0}

