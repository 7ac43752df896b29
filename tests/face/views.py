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
