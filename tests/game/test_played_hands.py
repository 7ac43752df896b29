"""``Match.played_hands``: the match keeps only the hand in play and rebuilds the hands before it
from its accepted events (R-8: each hand settled, its levels and next dealer carried into the
next, so a hand is rebuilt by replaying every one before it).  Against the hands themselves, kept
by the test as they were played: whole matches of several presets and both modes, random and
heuristic bots, a match started from a duplicate board's level and dealer, a referee's undo."""
import pytest

from shengji_table.game import events as ev
from shengji_table.game.bots import make_bot
from shengji_table.game.driver import Driver
from shengji_table.game.match import Match
from shengji_table.rules.ruleset import Ruleset

PRESETS = ["classic", "one-deck", "find-friend-5", "six-players", "three-players", "four-decks"]
# what a hand is to its readers (export, records, the table's summaries)
FIELDS = ("number", "dealer", "level", "trump", "phase", "events", "declarations", "dealt_kitty", "buried",
          "exchanges", "tricks", "trick_views", "won", "penalties", "undone", "result")


def _play(rs, mode: str, kind: str, hands: int, **start) -> tuple:
    """A match of up to ``hands`` hands, and each hand as the match dealt it."""
    match = Match(rs, mode, **start)
    driver = Driver(match, [make_bot(kind, 11 * s + hands) for s in range(rs.players)])
    played = []
    while not match.over and len(played) < hands:
        driver.play_hand(seed=len(played) + 7 * hands)
        played.append(match.hand)
    return match, played


def _same(rebuilt, played) -> None:
    assert len(rebuilt) == len(played)
    assert rebuilt[-1] is played[-1]                      # the hand in play is the match's own
    for again, hand in zip(rebuilt, played):
        for name in FIELDS:
            assert getattr(again, name) == getattr(hand, name), (hand.number, name)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("mode,kind", [("scanned", "random"), ("scanned", "heuristic"), ("open", "random")])
def test_R8_played_hands_rebuilt_from_the_events_are_the_hands_played(preset, mode, kind):
    match, played = _play(Ruleset.from_preset(preset), mode, kind, 5)
    _same(match.played_hands, played)
    assert [h.number for h in match.played_hands] == list(range(1, len(played) + 1))


def test_R8_played_hands_of_a_match_started_at_a_level_and_dealer():
    rs = Ruleset.from_preset("classic")
    match, played = _play(rs, "scanned", "random", 3, levels=(7, 7, 7, 7), dealer=2)
    _same(match.played_hands, played)
    assert match.played_hands[0].dealer == 2 and match.played_hands[0].level == 7


def test_R8_played_hands_keep_a_referee_undo():
    """A hand with a play the referee undid (R-10.4's option: the hand is rebuilt from its events)
    and played again is rebuilt the same, undo and all."""
    rs = Ruleset.from_preset("classic", referee_undo=True)
    recorded = Match(rs)
    Driver(recorded, [make_bot("random", s) for s in range(4)]).play_hand(seed=3)
    events = recorded.events
    match = Match(rs)
    k = -1
    while match.hand is None or not match.hand.tricks:     # up to the first trick's last play
        k += 1
        match.apply(events[k])
    assert type(events[k]) is ev.Tap and len(match.hand.tricks) == 1
    assert type(match.apply(ev.RefereeUndo("a wrong card"))[0]).__name__ != "Refusal"
    assert not match.hand.tricks
    laid = len(match.hand.undone[0][1])       # the play's taps, the last of them events[k]
    match.apply_all(events[k + 1 - laid:])
    first = match.hand
    assert first.undone and first.result is not None
    Driver(match, [make_bot("random", s) for s in range(4)]).play_hand(seed=4)
    _same(match.played_hands, [first, match.hand])
