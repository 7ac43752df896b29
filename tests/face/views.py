"""Shared by the face tests: a controller driven through a whole hand of a preset (the game
layer's reference match replayed through the controller's own effects), with the public texts
it gave and a snapshot of the view at chosen moments."""
import json

from shengji_table.rules.ruleset import Ruleset
from shengji_table.sim.demo import BOARDS
from shengji_table.sim.players import deal_for, hand_seeds, play_direct
from shengji_table.sim.virtual_table import sim_deck_set
from shengji_table.table.controller import Controller, Outcome


def board_for(ruleset):
    path = next(b for b in BOARDS if json.loads(b.read_text())["seats"] >= ruleset.players)
    return json.loads(path.read_text())


def replay(preset: str, mode: str = "scanned", seed: int = 7, hands: int = 1, at=None):
    """Yield ``(controller, texts)`` after every game event of the reference match; ``texts``:
    the public sentences (``Outcome.texts``) of that event, in order."""
    rs = Ruleset.from_preset(preset)
    ref = play_direct(rs, mode, seed, hands)
    c = Controller(rs, mode, board_for(rs), sim_deck_set(rs.decks), deal_for(mode, hand_seeds(seed, hands)))
    for e in ref.events:
        out = Outcome()
        c._game(e, out)
        yield c, list(out.texts)


def play_at_table(preset: str, mode: str = "scanned", seed: int = 7, hands: int = 1):
    """The match played at a controller by the virtual table's players (taps and presses, as
    ``demo`` plays it); returns ``(controller, every public sentence, in order)`` — the
    controller's own (bids, trump and friend calls being entered) included."""
    from shengji_table.game import events as ev
    from shengji_table.game.phase import Phase
    from shengji_table.sim.players import make_bots, next_action, plan_hand
    from shengji_table.sim.virtual_table import sim_pages, sim_uid
    from shengji_table.table import protocol as P
    rs = Ruleset.from_preset(preset)
    seeds = hand_seeds(seed, hands)
    c = Controller(rs, mode, board_for(rs), sim_deck_set(rs.decks), deal_for(mode, seeds))
    texts = list(c.start().texts)
    bots, plans = make_bots("heuristic", seed, rs.players), {}
    for _ in range(20000):
        m, hand = c.match, c.match.hand
        if m.over or (hand.phase == Phase.OVER and hand.result is not None and len(m.summaries) >= hands):
            return c, texts
        start = max(i for i, e in enumerate(m.events) if isinstance(e, ev.Deal))
        if hand.number not in plans:
            plans[hand.number] = plan_hand(rs, mode, m.events[:start], seeds[hand.number - 1], bots)
        action = next_action(c, plans[hand.number][len(m.events) - start])
        if action[0] == "tap":
            texts += c.on_tap(action[1], sim_uid(action[2]), sim_pages(action[2])).texts
            continue
        buttons = (P.PRESS, P.RELEASE) if action[0] == "press" else (P.PRESS, P.LONG_PRESS, P.RELEASE)
        for b in buttons:
            texts += c.on_button(action[1], b).texts
    raise AssertionError("the hand does not end")
