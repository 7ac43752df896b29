"""Referee acts compose (R-10): random hands in every preset and both modes, with random referee acts
interleaved — undos (R-10.4) several in a row and across tricks, penalties (R-10.1), ends by ruling
(R-10.2 / R-10.3), adjusted results (R-10.5) and reversals of any earlier ruling.

The table plays a planned hand the way the virtual table's bots do: the next planned event is the
first one the hand does not stand on (``Hand.standing_events``), so after an undo the seat plays
its card again.  After every event:

* the live match equals the match rebuilt from its log (the state is a function of the events);
* a refused act changes nothing;
* the hand at ``k`` standing events, with the same rulings in force, is the same whenever it gets
  there (so each undo gives exactly the state before the undone play), the undone list aside;
* the hand is what its standing events alone make it: the plays undone gone, the rulings in force
  counted, the reversed ones not.
"""
import random

from hypothesis import HealthCheck, Phase as Phase_, event, given, settings, strategies as st

from shengji_table.game import events as ev
from shengji_table.game.bots import make_bot
from shengji_table.game.driver import Driver
from shengji_table.game.effects import Refusal
from shengji_table.game.match import Match
from shengji_table.game.phase import Phase
from shengji_table.game.record import replay, to_record
from shengji_table.rules.ruleset import PRESETS, Ruleset

_ACTS = tuple(ev.REFEREE_ACTS)
_OWN = ("undone",)     # the hand's snapshot: what only the log's undos make
MAX_ACTS = 40          # a hand's referee acts (each check replays the match: its undos rebuild the hand)


def planned_hand(rs: Ruleset, mode: str, seed: int) -> list:
    scratch = Match(rs, mode)
    planned: list = []
    Driver(scratch, [make_bot("random", 100 + i) for i in range(rs.players)],
           lambda e, effects: planned.append(e)).play_hand(seed)
    return planned


def game_state(m: Match) -> dict:
    snap = m.snapshot()
    for k in _OWN:
        if snap["hand"] is not None:
            snap["hand"].pop(k)
    return snap


def standing(m: Match) -> list:
    """The hand's standing game events (the referee's own acts aside)."""
    return [e for e in m.hand.standing_events() if not isinstance(e, _ACTS)] if m.hand is not None else []


def referee_act(rng, h) -> ev.Event:
    """A random referee act; undos weigh most (the hard part), then reversals of a recent ruling."""
    kind = rng.choice("uuuupprrre" + "a")
    if kind == "u":
        return ev.RefereeUndo(rng.choice(["misplay", ""]))
    if kind == "p":
        return ev.RefereePenalty(rng.randrange(7), rng.choice([5, 10, 20, 40]), "talk")
    if kind == "r":
        return ev.RefereeReverse(len(h.rulings) + 1 - rng.randrange(5), rng.choice(["wrong seat", ""]))
    if kind == "e":
        return ev.RefereeEndHand(rng.randrange(7), rng.choice(["R-10.2", "R-10.3"]), "revoke")
    return ev.RefereeAdjust(rng.randrange(-5, 206), "cards spilled")


def check_rebuilt(m: Match, rs: Ruleset, mode: str) -> None:
    again = Match(rs, mode).apply_all(m.events)
    assert again.snapshot() == m.snapshot()
    if m.hand is not None:
        assert again.hand.rulings == m.hand.rulings
        assert again.hand.standing_events() == m.hand.standing_events()


def check_standing(m: Match, rs: Ruleset, mode: str) -> None:
    """The hand is what its standing events alone make it (the undone list aside): the plays undone
    are gone, the rulings in force count, the reversed ones do not."""
    again = Match(rs, mode).apply_all(m.hand.standing_events())
    mine, theirs = m.snapshot(), again.snapshot()
    mine["hand"].pop("undone"), theirs["hand"].pop("undone")
    assert mine == theirs


@settings(suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase_.explicit, Phase_.reuse, Phase_.generate, Phase_.shrink])
@given(st.sampled_from(sorted(PRESETS)), st.sampled_from(["scanned", "open"]), st.integers(1, 10_000),
       st.integers(0, 2**32), st.sampled_from([0.03, 0.1, 0.3]))
def test_R10_referee_acts_compose_and_the_state_is_the_log(preset, mode, seed, acts_seed, rate):
    rng = random.Random(acts_seed)           # the referee's acts: what, when
    rs = Ruleset.from_preset(preset, referee_undo=True)
    plan = planned_hand(rs, mode, seed)
    # the referee acts from the play on (penalties in the draw are few and tested elsewhere)
    first_play = next(i for i, e in enumerate(plan) if isinstance(e, ev.Tap) and i > len(plan) // 3)
    m = Match(rs, mode)
    seen: dict = {}                             # (standing events, rulings in force) -> the game state there
    acts = 0
    for _ in range(20 * len(plan)):
        done = standing(m)
        assert [e.to_json() for e in done] == [e.to_json() for e in plan[:len(done)]]
        state = game_state(m)
        in_force = tuple(id(e) for e in (m.hand.standing_events() if m.hand else ()) if isinstance(e, _ACTS))
        assert seen.setdefault((len(done), in_force), state) == state, f"the hand at {len(done)} events differs"
        if len(done) >= first_play and acts < MAX_ACTS and rng.random() < rate:
            acts += 1
            a = referee_act(rng, m.hand)
            before, rulings = m.snapshot(), m.hand.rulings
            out = m.apply(a)
            if out and isinstance(out[0], Refusal):
                assert out[0].rule and out[0].reason
                assert m.snapshot() == before and m.hand.rulings == rulings
            else:
                event(f"accepted: {a.type}")
                if isinstance(a, ev.RefereeUndo) and rulings and isinstance(rulings[-1].event, ev.RefereeUndo):
                    event("two undos in a row")
                assert len(m.hand.rulings) == len(rulings) + 1 and m.hand.rulings[-1].event is a
            check_rebuilt(m, rs, mode)
            check_standing(m, rs, mode)
            continue
        if m.hand is not None and m.hand.phase == Phase.OVER and m.hand.result is not None \
                and len(done) < len(plan):
            # ended by ruling: reverse that ruling and play on
            end = [r.number for r in m.hand.rulings if isinstance(r.event, (ev.RefereeEndHand, ev.RefereeAdjust))
                   and r.number not in m.hand.voided][-1]
            out = m.apply(ev.RefereeReverse(end, "ended by mistake"))
            assert not (out and isinstance(out[0], Refusal)), out
            assert m.hand.phase != Phase.OVER and len(m.summaries) == 0
            check_rebuilt(m, rs, mode)
            continue
        if len(done) >= len(plan):
            break
        out = m.apply(plan[len(done)])
        assert not (out and isinstance(out[0], Refusal)), (plan[len(done)], out)
    assert len(standing(m)) == len(plan) and m.hand.result is not None and len(m.summaries) == 1
    check_rebuilt(m, rs, mode)
    assert replay(to_record(m)).snapshot() == m.snapshot()
