"""The gesture table (table/gestures.py) is the one statement of what a tap, a press and a long press
mean in each phase: the controller reads it forwards, the virtual table's players backwards
(sim/players.py), and docs/table.md lists every row.

The two directions agree: every preset, both modes, bots play whole hands at a controller (no link)
by the players' :func:`next_action`; for every action the row the controller takes for that gesture
makes the planned event's kind, and the match comes out as the game layer's own driver plays it.
"""
import ast
import json
import pathlib

import pytest

from shengji_table.game import events as ev
from shengji_table.game.phase import Phase
from shengji_table.rules.ruleset import PRESETS, Ruleset
from shengji_table.sim import players
REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
from shengji_table.sim.players import deal_for, hand_seeds, make_bots, next_action, plan_hand, play_direct
from shengji_table.sim.virtual_table import sim_deck_set, sim_pages, sim_uid
from shengji_table.table import gestures as G
from shengji_table.table import protocol as P
from shengji_table.table.controller import Controller
from shengji_table.table.controller.dispatch import STEPS

BOARDS = sorted((json.loads(p.read_text()) for p in (REPO_ROOT / "boards").glob("table-*.json")),
                key=lambda b: b["seats"])
HOST = REPO_ROOT / "host" / "shengji_table"


def board_for(rs):
    return next(b for b in BOARDS if b["seats"] >= rs.players)


# ---- the table itself ------------------------------------------------------------------------------

def test_every_phase_and_gesture_has_rows_ending_in_a_row_that_always_holds():
    assert set(G.TABLE) == {(p, g) for p in Phase for g in G.Gesture}
    for key, rows in G.TABLE.items():
        assert rows and rows[-1].when is G.ALWAYS, key
        assert all(r.gesture is key[1] and r.phase in (None, key[0]) for r in rows), key


def test_every_step_is_one_method_of_the_controller():
    assert set(STEPS) == set(G.Step)
    for step, name in STEPS.items():
        assert callable(getattr(Controller, name, None)), (step, name)


def test_the_players_know_how_to_perform_every_row_that_makes_a_game_event():
    steps = {r.step for rows in G.TABLE.values() for r in rows if r.event is not None}
    assert steps <= set(players._HOW), steps - set(players._HOW)
    for rows in G.TABLE.values():
        for r in rows:
            if r.event is not None:
                assert r in G.performing(r.phase or Phase.PLAYING, r.kind) or r.phase is None


def test_docs_table_md_lists_every_row():
    text = (REPO_ROOT / "docs" / "table.md").read_text(encoding="utf-8")
    assert G.markdown() in text, ("docs/table.md's gesture section is not the table's: run "
                                  "`python -m shengji_table.table.gestures docs/table.md`")
    for rows in G.TABLE.values():
        for r in rows:
            assert f"| {r.gesture} | {'' if r.when is G.ALWAYS else r.when.text} |" in text, r


# ---- forwards and backwards agree ------------------------------------------------------------------

def _act(c, action, e, seen):
    """Perform ``action`` at the controller; check the row of each gesture against ``e``."""
    kind, where = action[0], action[1]
    if kind == "tap":
        seat = None if where == c.centre else where
        g = G.Gesture.CENTRE_TAP if seat is None else G.Gesture.SEAT_TAP
        row = c.gesture_row(g, seat, action[2])
        assert row.kind == e.type, (e.to_json(), row)
        seen.add((G.phase_of(c.match.hand), e.type, row.step))
        c.on_tap(where, sim_uid(action[2]), sim_pages(action[2]))
        return
    buttons = {"press": (P.PRESS, P.RELEASE), "long": (P.PRESS, P.LONG_PRESS, P.RELEASE),
               "hold": (P.PRESS, P.LONG_PRESS), "release": (P.RELEASE,)}[kind]
    gestures = {P.PRESS: G.Gesture.PRESS, P.RELEASE: G.Gesture.RELEASE, P.LONG_PRESS: G.Gesture.LONG_PRESS}
    made = []
    for b in buttons:
        row = c.gesture_row(gestures[b], where)
        if not made:                  # (a release after the event was made belongs to the next phase)
            if row.kind is not None:
                assert row.kind == e.type, (e.to_json(), action, row)
                seen.add((G.phase_of(c.match.hand), e.type, row.step))
                made.append(row)
            else:
                assert row.step in (G.Step.WAIT, G.Step.NONE, G.Step.UNHOLD), (e.to_json(), row)
        c.on_button(where, b)
    assert made, (e.to_json(), action)


def play_at_controller(preset, mode, seed=7, hands=2, bots="heuristic", **options):
    rs = Ruleset.from_preset(preset, **options)
    seeds = hand_seeds(seed, hands)
    c = Controller(rs, mode, board_for(rs), sim_deck_set(rs.decks), deal_for(mode, seeds))
    c.start()
    bots = make_bots(bots, seed, rs.players)
    seen: set = set()
    plans: dict = {}
    for _ in range(20000):
        m = c.match
        hand = m.hand
        if m.over or (hand.phase == Phase.OVER and hand.result is not None and len(m.summaries) >= hands):
            return c, seen
        start = max(i for i, e in enumerate(m.events) if isinstance(e, ev.Deal))
        if hand.number not in plans:
            plans[hand.number] = plan_hand(rs, mode, m.events[:start], seeds[hand.number - 1], bots)
        plan, done = plans[hand.number], m.events[start:]
        assert [e.to_json() for e in done] == [e.to_json() for e in plan[:len(done)]]
        _act(c, next_action(c, plan[len(done)]), plan[len(done)], seen)
    raise AssertionError("the hand does not end")


SEEN: set = set()
RAN: set = set()


@pytest.mark.parametrize("mode", ["scanned", "open"])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_players_gestures_make_the_planned_events(preset, mode):
    c, seen = play_at_controller(preset, mode)
    SEEN.update(seen)
    RAN.add((preset, mode))
    assert [e.to_json() for e in c.match.events] == \
        [e.to_json() for e in play_direct(c.ruleset, mode, 7, 2).events]


@pytest.mark.parametrize("mode", ["scanned", "open"])
def test_the_players_steal_the_kitty_at_the_table_R_7_4(mode):
    # seed 37: a seat counters after the burial (炒地皮), takes the kitty and buries anew
    c, seen = play_at_controller("classic", mode, seed=37, hands=1, kitty_stealing=True)
    assert c.match.hand.kitty_holder is not None
    assert (Phase.STEAL, "declare", G.Step.SHOW) in seen and (Phase.STEAL, "close_declarations", G.Step.CLOSE) in seen
    assert [e.to_json() for e in c.match.events] == \
        [e.to_json() for e in play_direct(c.ruleset, mode, 37, 1).events]


@pytest.mark.parametrize("preset,seed", [("classic", 2), ("one-deck", 5), ("find-friend-4", 11)])
def test_the_players_challenge_a_throw_in_open_play(preset, seed):
    # random bots throw what an opponent can beat (the heuristic bots do not); in these hands the
    # driver's challenger is not the seat on turn
    c, seen = play_at_controller(preset, "open", seed=seed, hands=1, bots="random")
    SEEN.update(seen)
    RAN.add((preset, "random"))
    assert any(step is G.Step.CHALLENGE for _, _, step in seen)
    assert [e.to_json() for e in c.match.events] == \
        [e.to_json() for e in play_direct(c.ruleset, "open", seed, 1, bots="random").events]


def test_the_seat_on_turn_challenges_a_throw_by_holding_its_button_R_4_3():
    # the game layer's driver lets the first opponent in playing order challenge, the seat on turn
    # included; at the table that seat's tap is its play, so it holds its button down (a long
    # press), taps the cards that beat the throw and lets go
    c, seen = play_at_controller("classic", "open", seed=1, hands=1, bots="random")
    SEEN.update(seen)
    assert (Phase.PLAYING, "challenge", G.Step.HOLD_CHALLENGE) in seen
    challenges = [e for e in c.match.events if isinstance(e, ev.Challenge)]
    assert challenges
    assert [e.to_json() for e in c.match.events] == \
        [e.to_json() for e in play_direct(c.ruleset, "open", 1, 1, bots="random").events]


def test_without_the_hold_the_seat_on_turn_taps_its_play_not_a_challenge():
    """A tap by the seat on turn, button up, is card entry even while a throw is open (R-4.3)."""
    rs = Ruleset.from_preset("classic")
    at = G.At(_ThrowOpen(), seat=1, mode="open")
    assert G.resolve(G.Gesture.SEAT_TAP, at).step is G.Step.TAP
    held = G.At(_ThrowOpen(), seat=1, mode="open", held=True)
    assert G.resolve(G.Gesture.SEAT_TAP, held).step is G.Step.SHOW_CHALLENGE
    assert G.resolve(G.Gesture.LONG_PRESS, at).step is G.Step.HOLD_CHALLENGE
    assert G.resolve(G.Gesture.PRESS, at).step is G.Step.WAIT
    assert rs.players == 4


class _ThrowOpen:
    """The few attributes of a hand the rows read: seat 0 has thrown, seat 1 is on turn."""
    phase, throw_window, turn, pending, trick = Phase.PLAYING, True, 1, [], [(0, ())]


def test_the_matches_above_perform_every_kind_of_entry():
    if len(RAN) < 2 * len(PRESETS) + 3:
        pytest.skip("run with every match above")
    steps = {s for _, _, s in SEEN}
    assert any(s is G.Step.CHALLENGE for s in steps)
    # the bots never bury on the centre reader (they tap at their seat) and never take a card
    # back (test_players_take_back.py does); a press with the suit chosen (TRUMP_STEP) changes nothing
    missing = {r.step for rows in G.TABLE.values() for r in rows if r.event is not None} - steps
    assert missing == {G.Step.BURY, G.Step.TRUMP_STEP, G.Step.TAKE_BACK}, missing


# ---- phases named, not spelled -----------------------------------------------------------------------

PHASE_NAMES = {p.value for p in Phase}
# phase.py spells the names once; the rules layer has no phases
EXEMPT = {"game/phase.py"}


def _literal_strings(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        for elt in node.elts:
            yield from _literal_strings(elt)


def _spelled(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            named = [s for s in sides if isinstance(s, ast.Attribute) and s.attr in ("phase", "mode")]
            if named:
                for s in sides:
                    for v in _literal_strings(s):
                        if v in PHASE_NAMES | {"scanned", "open"}:
                            yield node.lineno, v
        elif isinstance(node, ast.keyword) and node.arg == "phase":
            for v in _literal_strings(node.value):
                yield node.value.lineno, v


def test_no_phase_or_mode_is_spelled_as_a_string_outside_the_enum():
    found = []
    for path in sorted(HOST.rglob("*.py")):
        rel = path.relative_to(HOST).as_posix()
        if rel in EXEMPT or rel.startswith("rules/"):
            continue
        for line, value in _spelled(ast.parse(path.read_text(encoding="utf-8"))):
            found.append(f"{rel}:{line}: {value!r}")
    assert not found, found
