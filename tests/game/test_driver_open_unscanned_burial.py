"""``Driver(scan_burial=False)``: open play where the dealer lays the kitty down without tapping it
(only the button, R-7.2), as the virtual table plays it.  The engine learns the buried cards only
when the kitty is turned over after the last trick, and the match is the same as with a scanned
burial: same plays (face for face), same settlements (R-8)."""
import re

import pytest

from shengji_table.game import events as ev
from shengji_table.game.bots import make_bot
from shengji_table.game.driver import Driver
from shengji_table.game.match import Match
from shengji_table.rules.ruleset import Ruleset


def play(preset, scan_burial, seed=11, hands=2):
    rs = Ruleset.from_preset(preset)
    m = Match(rs, "open")
    views = []
    bots = [make_bot("heuristic", seed * 100 + i) for i in range(rs.players)]
    d = Driver(m, bots, scan_burial=scan_burial)
    for s in range(seed, seed + hands):
        if m.over:
            break
        d.play_hand(s)
        hand = m.hand
        views.append(d.view(hand.dealer).kitty)     # the dealer still sees what it buried
        assert [c.card for c in hand.kitty_revealed] == [c.card for c in d.kitty]
    return m, views


def faces(events):
    # which copy of two identical cards is tapped is the table's business, not the game's
    return [re.sub(r"#\d+", "", str(e.to_json())) for e in events]


def without_burial_taps(events):
    out, burying = [], False
    for e in events:
        if isinstance(e, ev.TakeKitty):
            burying = True
        elif isinstance(e, ev.Confirm):
            burying = False
        elif burying and isinstance(e, ev.Tap):
            continue
        out.append(e)
    return out


@pytest.mark.parametrize("preset", ["classic", "one-deck", "find-friend-4"])
def test_r7_2_unscanned_burial_is_only_the_button_and_the_match_is_the_same(preset):
    unscanned, seen = play(preset, scan_burial=False)
    scanned, seen_scanned = play(preset, scan_burial=True)
    events = unscanned.events
    takes = [i for i, e in enumerate(events) if isinstance(e, ev.TakeKitty)]
    assert takes and all(isinstance(events[i + 1], ev.Confirm) for i in takes), "the burial is the button alone"
    assert len(scanned.events) - len(events) == len(takes) * unscanned.ruleset.kitty_size
    assert faces(events) == faces(without_burial_taps(scanned.events))
    assert all(kitty and len(kitty) == unscanned.ruleset.kitty_size for kitty in seen)
    assert seen == seen_scanned
    assert unscanned.levels == scanned.levels and len(unscanned.summaries) == len(scanned.summaries) == len(takes)
