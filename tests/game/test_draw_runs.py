"""A run of draws in one pass (``Match.apply_draws`` / ``draw.draw_run``, R-7.1: a known stack's
next copy drawn by the seat on turn) against ``Match.apply`` for each draw: whole matches of several
presets with wrong draws injected (out of turn, a copy further down the stack, a bool seat, a draw
past the deal) — the same refusals, events kept and snapshots; a replay (``apply_all``, which
groups draws) and the driver without hooks (which hands the match its deal's draws as runs) give
the same records as event by event."""
import sys
from pathlib import Path

import pytest

from shengji_table.game import events as ev
from shengji_table.game.bots import make_bot
from shengji_table.game.driver import Driver
from shengji_table.game.hand import draw
from shengji_table.game.match import Match
from shengji_table.game.phase import Phase
from shengji_table.rules.ruleset import Ruleset

sys.path.insert(0, str(Path(__file__).parent))
from recorded import recorded_match, wrong_draws  # noqa: E402  (tests/game/recorded.py)

PRESETS = ["classic", "one-deck", "find-friend-5", "six-players", "three-players", "four-decks"]


def _wrong_now(match, rng) -> list:
    """Draws the engine must refuse now (now and then, while drawing)."""
    hand = match.hand
    if hand.phase != Phase.DRAWING or rng.random() > 0.15:
        return []
    out = wrong_draws(hand, rng)
    n = hand.drawn
    if n < hand.deal_size and (hand.first_seat + n) % hand.players != 1:
        out.append(ev.Draw(True, hand.stack[n]))  # a bool seat (seat 1): not draw_run's, Hand.apply's to judge
    return out


def _state(m: Match):
    return m.snapshot(), m.events[:], m.hand and ([h.faces() for h in m.hand.hands], m.hand.dealt, m.hand.events)


def _runs(log):
    """The log cut into runs of consecutive draws and single other events."""
    runs, run = [], []
    for item in log:
        if type(item[0]) is ev.Draw:
            run.append(item)
            continue
        if run:
            runs.append(run)
            run = []
        runs.append([item])
    return runs + ([run] if run else [])


@pytest.mark.parametrize("preset", PRESETS)
def test_R7_1_draw_runs_agree_with_each_draw_applied(preset, monkeypatch):
    rs, log = recorded_match(preset, 23, 2, _state, _wrong_now)
    refused = sum(1 for e, out, _ in log if type(e) is ev.Draw and out[0].type == "refusal")
    assert refused > 10
    taken = []
    def counted(hand, events):
        k = draw_run(hand, events)
        taken.append(k)
        return k
    draw_run = draw.draw_run
    monkeypatch.setattr("shengji_table.game.match.draw_run", counted)
    m = Match(rs)
    for run in _runs(log):
        if type(run[0][0]) is not ev.Draw:
            e, out, state = run[0]
            assert m.apply(e) == out and _state(m) == state
            continue
        draws, start = [e for e, *_ in run], 0
        while start < len(draws):
            bad = m.apply_draws(draws[start:])
            first = next((i for i in range(start, len(draws)) if run[i][1][0].type == "refusal"), None)
            if first is None:
                assert bad is None
                break
            assert bad == (first - start, run[first][1][0])
            assert _state(m) == run[first][2]            # nothing after the refused draw was drawn
            start = first + 1
        assert _state(m) == run[-1][2]
    assert sum(taken) >= rs.hand_size * rs.players       # the one pass took the deal's draws


@pytest.mark.parametrize("preset", PRESETS)
def test_R7_1_replay_groups_draws_with_the_same_record(preset):
    """``apply_all`` (draws in runs, refused draws dropped and the run going on) ends where the
    events applied one by one end."""
    rs, log = recorded_match(preset, 5, 2, _state, _wrong_now)
    events = [e for e, *_ in log]
    replayed, each = Match(rs).apply_all(events), Match(rs)
    for e in events:
        each.apply(e)
    assert _state(replayed) == _state(each) == log[-1][2]
    assert [h.events for h in replayed.played_hands] == [h.events for h in each.played_hands]


@pytest.mark.parametrize("preset", PRESETS)
def test_R7_1_driver_draw_runs_give_the_same_match(preset):
    """The driver without hooks (draws in runs between the declaration offers) plays the match a
    driver with a hook (every draw through ``send``) plays: the same events and summaries."""
    rs = Ruleset.from_preset(preset)
    matches = []
    for hook in (None, lambda e, out: None):
        m = Match(rs)
        d = Driver(m, [make_bot("random", 40 + i) for i in range(rs.players)], on_event=hook)
        assert d._plain() is (hook is None)
        for k in range(3):
            if not m.over:
                d.play_hand(seed=700 + k)
        matches.append(m)
    plain, hooked = matches
    assert plain.events == hooked.events and plain.summaries == hooked.summaries
    assert plain.snapshot() == hooked.snapshot()
