"""R-4.8 in play: whole hands with every ``follow_protection`` policy — the bots' legal follows
(``legal_follows``) are what the hand accepts (``check_follow``), so no play is refused, in three
and four decks, where triples and quads make the policies differ."""
import pytest

from shengji_table.game.bots import make_bot
from shengji_table.game.driver import run_match
from shengji_table.game.effects import Refusal
from shengji_table.game.match import Match
from shengji_table.rules.ruleset import Ruleset

POLICIES = ("longer-tuples", "tractors", "longer-tuples-and-tractors", "suit-only")


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("preset", ["three-decks", "four-decks"])
def test_R4_8_bots_play_whole_hands_and_nothing_is_refused(preset, policy):
    rs = Ruleset.from_preset(preset, follow_protection=policy)
    refusals: list = []
    for seed in range(5, 11):                                      # (seed 9 once caught a bot cutting a triple)
        m = Match(rs, "scanned")
        run_match(m, [make_bot(kind, i) for i, kind in enumerate(("random", "heuristic") * 2)], [seed],
                  on_event=lambda e, effects: refusals.extend(x for x in effects if isinstance(x, Refusal)))
        assert m.hand.phase == "over" and m.hand.result is not None
        assert refusals == [], (seed, refusals[:1])
        played = sum(len(cards) for t in m.hand.tricks for _seat, cards in t.plays)
        assert played == rs.players * rs.hand_size                 # every card of every hand


def test_R4_8_the_strong_bot_follows_by_the_protection_too():
    rs = Ruleset.from_preset("three-decks", follow_protection="longer-tuples")
    refusals: list = []
    m = Match(rs, "scanned")
    run_match(m, [make_bot(kind, i) for i, kind in enumerate(("strong", "random") * 2)], [9],
              on_event=lambda e, effects: refusals.extend(x for x in effects if isinstance(x, Refusal)))
    assert m.hand.result is not None and refusals == []


def test_R4_8_the_option_reaches_the_game():
    """The same deal and bots, with and without the shape duty: the plays differ."""
    def plays(policy):
        m = Match(Ruleset.from_preset("three-decks", follow_protection=policy), "scanned")
        run_match(m, [make_bot("random", i) for i in range(4)], [5])
        return [e.to_json() for e in m.hand.events if e.type == "tap"]
    assert plays("none") != plays("suit-only")
