"""Test helper (not a test): a match played by random bots with wrong events injected, every event
recorded with its effects and a state — what a short cut's test replays through the general path."""
from __future__ import annotations

import random
from collections.abc import Callable

from shengji_table.game.bots import make_bot
from shengji_table.game.driver import Driver
from shengji_table.game.events import Draw
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


def wrong_draws(hand, rng) -> list:
    """Draws the engine must refuse now: the right copy by another seat, the seat on turn with a
    copy further down the stack, any draw once every seat holds its hand."""
    n, stack = hand.drawn, hand.stack
    if n >= hand.deal_size:
        return [Draw(rng.randrange(hand.players), stack[n])]
    seat = (hand.first_seat + n) % hand.players
    out = [Draw((seat + 1) % hand.players, stack[n])]
    if n + 1 < len(stack):
        out.append(Draw(seat, stack[rng.randrange(n + 1, len(stack))]))
    return out
