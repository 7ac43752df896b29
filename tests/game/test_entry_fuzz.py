"""Card-entry refusals under fire: during whole hands played by bots, wrong events (out of turn,
a copy already played, confirm by a follower, a card of another seat) are injected; every one is
refused with a rule and a reason, and the state (whole snapshot) is exactly as before."""
import random

import pytest

from shengji_table.game import events as ev
from shengji_table.game.bots import make_bot
from shengji_table.game.driver import Driver
from shengji_table.game.effects import Refusal
from shengji_table.game.match import Match
from shengji_table.rules.ruleset import Ruleset


def bogus_events(hand, rng):
    n = hand.players
    turn = hand.turn
    out = []
    others = [s for s in range(n) if s != turn]
    s = rng.choice(others)
    if hand.hands[s]:
        out.append((ev.Tap(s, rng.choice(sorted(hand.hands[s], key=hash))), "table.out-of-turn"))
    if hand.played:
        out.append((ev.Tap(turn, rng.choice(sorted(hand.played, key=hash))), None))
    if hand.trick:
        out.append((ev.Confirm(turn), "R-4.4"))
    owner = rng.choice(others)
    if hand.hands[owner]:
        out.append((ev.Tap(turn, rng.choice(sorted(hand.hands[owner], key=hash))), "table.wrong-seat"))
    out.append((ev.Confirm(s), "table.out-of-turn"))
    return out


@pytest.mark.parametrize("preset", ["classic", "find-friend-5", "six-players"])
def test_entry_injected_wrong_events_are_refused_and_change_nothing(preset):
    rs = Ruleset.from_preset(preset)
    m = Match(rs)
    rng = random.Random(5)
    checked = [0]

    def inject(match):
        hand = match.hand
        if hand.phase != "playing" or hand.pending or rng.random() > 0.3:
            return
        for event, rule in bogus_events(hand, rng):
            before = match.snapshot()
            out = match.apply(event)
            assert out and isinstance(out[0], Refusal), (event, out)
            assert out[0].reason
            if rule is not None:
                assert out[0].rule == rule, (event, out[0])
            else:
                assert out[0].rule in ("table.twice", "table.already-played")
            assert match.snapshot() == before
            checked[0] += 1

    Driver(m, [make_bot("random", i) for i in range(rs.players)], check=inject).play_hand(seed=21)
    assert m.summaries and checked[0] > 50
