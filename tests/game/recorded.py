"""Test helper (not a test): a match played by random bots with wrong events injected, every event
recorded with its effects and a state — what a short cut's test replays through the general path."""
from __future__ import annotations

import random
from collections.abc import Callable

from shengji_table.game.bots import make_bot
from shengji_table.game.driver import Driver
from shengji_table.game.match import Match
from shengji_table.rules.ruleset import Ruleset


def recorded_match(preset: str, seed: int, hands: int, state: Callable, wrong: Callable) -> tuple:
    """``(ruleset, [(event, effects, state(match)), …])`` of up to ``hands`` hands: after each of
    the driver's events, ``wrong(match, rng)`` may give events to send as well (they are recorded
    the same way, refused or not)."""
    rs = Ruleset.from_preset(preset)
    m = Match(rs)
    rng = random.Random(seed)
    log: list = []
    apply = m.apply

    def logged(e):
        out = apply(e)
        log.append((e, out, state(m)))
        return out

    m.apply = logged                   # the driver's events are recorded too

    def inject(match):
        for e in wrong(match, rng):
            logged(e)

    d = Driver(m, [make_bot("random", seed + i) for i in range(rs.players)], check=inject)
    for k in range(hands):
        if m.over:
            break
        d.play_hand(seed=seed * 100 + k)
    return rs, log
