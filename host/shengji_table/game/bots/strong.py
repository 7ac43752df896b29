"""The strong bot: the heuristic's candidate plays, each judged by rollouts in sampled worlds.

At a lead or a follow it

1. lists a few candidate plays: the heuristic's own choice first, then (leading) the highest
   multi-card unit and the highest and lowest single of each suit, (following) the cheapest play,
   the cheapest that wins the trick now and the richest in points — every one legal;
2. draws ``samples`` worlds or more (near the end of the hand, where rollouts are short, as many
   as ``move_budget`` rollout moves allow, up to 40; :mod:`.worlds`): the cards it cannot see
   dealt to the other seats and the kitty, consistent with what the seat knows — its hand, the
   cards played, the kitty it buried, the voids shown — and nothing else (the view is its only
   input);
3. plays each candidate in every world and the rest of the hand for all seats (:mod:`.rollout`,
   policy ``mixed``: the heuristic for the next moves and for the end of the hand, a cheap version
   of it, :mod:`.quick_policy`, in between; the same worlds for every candidate so that they are
   compared on equal deals);
4. takes the candidate with the best mean outcome — the settlement's levels for its side (R-8.1),
   a little for the deal, a points tie-break — if its advantage over the heuristic's choice,
   paired world by world, exceeds one standard error (:func:`best_option`); else the heuristic's.

Every other decision (declaring, burying, calls) is the heuristic's, and so is card play where
the teams are not fixed (find-a-friend, three players: a rollout would need to guess the teams).
Reproducible: the worlds come from the bot's own ``random.Random(seed)``; ``budget`` (seconds),
when set, stops drawing worlds once spent — faster, but then no longer a pure function of the seed.
"""
from __future__ import annotations

import math
import random
import time

from ...rules.trick import Play, TrickShape, lead_candidates, winning_index
from ..decisions import PlayCards
from ..view import SeatView
from . import play_policy
from .heuristic import HeuristicBot, situation
from .rollout import Rollout, utility
from .worlds import WorldError, knowledge_of, sample_world

__all__ = ["StrongBot", "lead_options", "follow_options"]

SAMPLES = 12           # worlds per decision, at least ...
MOVE_BUDGET = 4000     # ... and more near the end, where rollouts are short: about this many rollout
MAX_SAMPLES = 40       # moves a decision, up to this many worlds
MAX_CANDIDATES = 5     # plays compared per decision
MARGIN = 1.0           # standard errors an alternative must beat the heuristic's choice by


def lead_options(sit: play_policy.TrickSituation, limit: int = MAX_CANDIDATES) -> list:
    """Candidate leads: the heuristic's, then per suit the highest multi-card unit, the highest and
    the lowest single (one unit each, always legal)."""
    order = sit.order
    out = [tuple(play_policy.choose_lead(sit))]
    by_suit: dict = {}
    for unit in lead_candidates(sit.hand, order):
        by_suit.setdefault(order.suit_of(unit[0]), []).append(tuple(unit))
    extra = []
    for units in by_suit.values():
        multi = [u for u in units if len(u) > 1]
        singles = [u for u in units if len(u) == 1]
        if multi:
            extra.append(max(multi, key=lambda u: (len(u), order.rank_of(u[0]))))
        if singles:
            extra.append(max(singles, key=lambda u: order.rank_of(u[0])))
            extra.append(min(singles, key=lambda u: (order.rank_of(u[0]), u[0].points)))
    return _first_distinct(out + extra, limit)


def follow_options(sit: play_policy.TrickSituation, limit: int = MAX_CANDIDATES) -> list:
    """Candidate follows: the heuristic's, the cheapest, the cheapest that wins now, the one with
    the most points (each one of ``play_policy.follow_candidates``, so legal)."""
    order = sit.order
    cands = [tuple(c) for c in play_policy.follow_candidates(sit)]
    mine = tuple(play_policy.choose_follow(sit))
    if len(cands) <= 1:
        return [mine]
    values = play_policy.card_values(order)
    counts = play_policy.group_counts(sit.hand, order)

    def cost(c):
        return play_policy.play_cost(c, counts, values, order)

    plays = list(sit.plays)
    shape = TrickShape(plays[0].cards, order)
    winners = [c for c in cands if winning_index(plays + [Play(sit.seat, c)], order, shape) == len(plays)]
    picks = [mine, min(cands, key=cost)]
    if winners:
        picks.append(min(winners, key=cost))
    picks.append(max(cands, key=lambda c: (sum(x.points for x in c), -cost(c))))
    picks.append(max(cands, key=cost))
    return _first_distinct(picks, limit)


def _first_distinct(plays: list, limit: int) -> list:
    out: list = []
    seen: set = set()
    for p in plays:
        key = tuple(sorted(p, key=lambda c: c.index))
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out[:limit]


def best_option(outcomes: list) -> int:
    """Index of the option to play, given each option's outcomes in the same worlds: the best mean,
    if its advantage over option 0 (the heuristic's choice) exceeds :data:`MARGIN` standard errors
    of the paired differences — the samples are few, so a lucky-looking alternative is not enough.
    """
    n = len(outcomes[0])
    means = [sum(o) / n for o in outcomes]
    best = max(range(len(outcomes)), key=lambda i: (means[i], -i))
    if best == 0 or n < 2:
        return best if n >= 2 else 0
    diffs = [a - b for a, b in zip(outcomes[best], outcomes[0])]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return best if mean > MARGIN * math.sqrt(var / n) else 0


class StrongBot:
    """Determinised sampling with heuristic rollouts for card play (see the module doc)."""

    name = "strong"

    def __init__(self, seed: int = 0, samples: int = SAMPLES, candidates: int = MAX_CANDIDATES,
                 budget: float | None = None, policy: str = "mixed", move_budget: int = MOVE_BUDGET):
        self.seed = seed
        self.policy = policy
        self.rng = random.Random(seed)
        self.samples = samples
        self.move_budget = move_budget
        self.candidates = candidates
        self.budget = budget
        self.heuristic = HeuristicBot(seed)

    def choose(self, view: SeatView):
        """The decision for ``view.expect``: searched for card play, the heuristic's otherwise."""
        kind = view.expect.kind
        if kind not in ("lead", "follow") or view.ruleset.teams != "fixed" or view.dealer is None:
            return self.heuristic.choose(view)
        sit = situation(view)
        options = (lead_options if kind == "lead" else follow_options)(sit, self.candidates)
        if len(options) == 1:
            return PlayCards(options[0])
        try:
            know = knowledge_of(view)
        except WorldError:
            return PlayCards(options[0])
        return PlayCards(options[self._best(view, know, options)])

    def _best(self, view: SeatView, know, options: list) -> int:
        """Index of the option with the best mean utility over the sampled worlds."""
        start = time.perf_counter()
        outcomes: list = [[] for _ in options]
        side = view.is_declarer()
        moves = len(view.hand) + sum(know.sizes.values())
        samples = max(self.samples, min(MAX_SAMPLES, self.move_budget // max(1, moves * len(options))))
        for _ in range(samples):
            world = sample_world(view, know, self.rng)
            for i, cards in enumerate(options):
                ro = Rollout(view, world, view.attackers_points, self.policy)
                ro.play(view.seat, cards)
                outcomes[i].append(utility(view.ruleset, ro.run(), side))
            if self.budget is not None and time.perf_counter() - start > self.budget:
                break
        return best_option(outcomes)
