"""What the public state gives the page beyond the hand's view: the players' names on every seat
as the CLI holds them (a tuple in seat order) or as a mapping, the settlement's marks for the
points bar (R-8), the attackers' points with the referee's penalties (R-10.1) and, once the hand is
over, the result by source — tricks, kitty × multiplier (R-7.3), penalties — with the next dealer
(R-8.5)."""
import argparse
import json
import sys
import urllib.request
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
from webtable import feed_until, make_table, tricks  # noqa: E402

from shengji_table.face.web.state import public_state, seat_names  # noqa: E402
from shengji_table.game import events as ev  # noqa: E402
from shengji_table.rules.ruleset import PRESETS, Ruleset  # noqa: E402
from shengji_table.rules.settle import marks, next_dealer, settle  # noqa: E402

NAMES = ("李明", "王芳", "赵强", "陈静")


def test_the_names_the_cli_holds_reach_the_served_page(tmp_path):
    """``--players 李明,王芳,赵强,陈静`` is a tuple in ``args.names``: the served state names every seat."""
    pytest.importorskip("uvicorn")
    from shengji_table.cli.web_args import start_web
    svc, events = make_table(tmp_path / "log.db")
    feed_until(svc, events, 0, tricks(1))
    args = argparse.Namespace(web="127.0.0.1:0", names=NAMES, referee_pin_file=None, spectator_delay=0.0,
                              web_tls=None)
    web = start_web(args, svc, say=lambda text: None)
    try:
        with urllib.request.urlopen(web.url + "api/table", timeout=10) as r:
            state = json.loads(r.read().decode())
    finally:
        web.stop()
    assert [s["name"] for s in state["seats"]] == list(NAMES)


def test_names_as_a_mapping_or_a_sequence_and_nothing_else():
    assert seat_names(("Li", "Wang"), 4) == {0: "Li", 1: "Wang"}
    assert seat_names({"1": "Wang", 3: "Chen", "9": "X", "x": "Y", 2: ""}, 4) == {1: "Wang", 3: "Chen"}
    assert seat_names(None, 4) == {} and seat_names((), 4) == {}


@settings(max_examples=200, deadline=None)
@given(preset=st.sampled_from(sorted(p for p in PRESETS if not Ruleset.from_preset(p).bidding)),
       points=st.integers(5, 400).map(lambda p: p - p % 5))
def test_the_marks_give_the_settlement_at_every_points(preset, points):
    """R-8: the outcome at P is the outcome of the last mark at or below P (up to the points in play)."""
    ruleset = Ruleset.from_preset(preset)
    p = min(points, ruleset.total_points)
    found = marks(ruleset)
    row = [m for m in found if m[0] <= p][-1]
    s = settle(ruleset, p)
    assert row[1:] == (s.declarers_levels, s.attackers_levels, s.takeover)
    assert [m[0] for m in found] == sorted({m[0] for m in found})


def test_the_page_counts_penalties_and_shows_the_result_by_source(tmp_path):
    """R-10.1: a penalty against the declarers shows in the attackers' points at once; R-7.3, R-8.5:
    once over, the points are the settlement's with the kitty, and the next dealer is given."""
    svc, events = make_table(tmp_path / "log.db", hands=2)
    i = feed_until(svc, events, 0, tricks(2))
    hand = svc.controller.match.hand
    before = public_state(svc.controller, NAMES)["points"]["attackers"]
    with svc.lock:
        svc.referee(ev.RefereePenalty(hand.dealer, 20, "a card shown"))
    state = public_state(svc.controller, NAMES)
    assert state["points"]["attackers"] == before + 20 and state["points"]["penalty"] == 20
    assert [m["points"] for m in state["marks"]][1:4] == [20, 40, 60] and state["settlement"] is None
    feed_until(svc, events, i, lambda s: s.controller.match.hand.result is not None)
    state = public_state(svc.controller, NAMES)
    result = svc.controller.match.hand.result
    got = state["settlement"]
    assert got["penalty"] == 20 and got["captured"] == result.captured and got["bonus"] == result.bonus
    assert state["points"]["attackers"] == result.captured + result.bonus + 20 == got["attackers_points"]
    assert got["next_dealer"] == next_dealer(svc.controller.ruleset, hand.dealer, got["takeover"])
