"""The referee at the virtual table (the real firmware under MicroPython, bots tapping virtual
cards): a penalty and an end of hand by ruling from the console's thread while the serve loop
runs, and a pause during which the table refuses taps — the bots wait, the match carries on after
the resume and the log replays to the same match."""
import threading
import time

import pytest

from shengji_table.game import events as ev
from shengji_table.game.match import Match
from shengji_table.rules.ruleset import Ruleset
from shengji_table.sim.match_runner import SimHost
from shengji_table.sim.virtual_table import VirtualTable
from shengji_table.store.log import EventLog

pytestmark = pytest.mark.micropython


def test_referee_actions_while_the_virtual_table_plays(tmp_path):
    with VirtualTable() as vt:
        host = SimHost(vt.device, tmp_path / "vt.db", preset="one-deck", seed=7, hands=2)
        done = {}

        def referee():
            def hand():
                return host.controller.match.hand
            while hand() is None or len(hand().tricks) < 2:
                time.sleep(0.01)
            done["penalty"] = host.service.referee(ev.RefereePenalty(0, 10, "talking across the table"))
            done["pause"] = host.service.pause("a card on the floor")
            time.sleep(0.5)
            done["resume"] = host.service.resume()
            while hand().number < 2 or len(hand().tricks) < 1:
                time.sleep(0.01)
            done["end"] = host.service.referee(ev.RefereeEndHand(1, "R-10.3", "a card short"))
        try:
            host.start()
            t = threading.Thread(target=referee, daemon=True)
            t.start()
            assert host.run(timeout=120), "the match did not finish"
            t.join(5)
        finally:
            host.close()
    assert all(not out.refusals for out in done.values()), {k: v.refusals for k, v in done.items()}
    with EventLog(tmp_path / "vt.db") as log:
        games = log.game_events()
        types = [g["type"] for g in games]
        assert "referee_penalty" in types and "referee_end_hand" in types
        m = Match(Ruleset.from_preset("one-deck")).apply_all(ev.event_from_json(g) for g in games)
        assert len(m.summaries) == 2 and m.summaries[1]["result"]["rule"] == "R-10.3"
        acts = [e.payload["referee"]["action"] for e in log.entries(kind="meta") if "referee" in e.payload]
        assert acts == ["referee_penalty", "pause", "resume", "referee_end_hand"]
