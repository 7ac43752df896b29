"""The read model (``game/views.py``): the public view shows no hidden card — after every event of
hands in every preset and both modes, it holds no physical copy, its faces are those committed to
tricks (and the kitty once the hand is over and settled, R-7.3), and it counts the cards being
entered without naming them; the referee's view holds everything the hand knows."""
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from shengji_table.game.bots import make_bot
from shengji_table.game.driver import Driver
from shengji_table.game.match import Match
from shengji_table.game.phase import Phase
from shengji_table.game.views import PublicView, RefereeView, faces_shown
from shengji_table.rules.cards import CardCopy
from shengji_table.rules.ruleset import PRESETS, Ruleset


def copies_in(value) -> list:
    """Every physical copy anywhere inside ``value`` (tuples, lists, dicts, named tuples)."""
    if isinstance(value, CardCopy):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (tuple, list)):
        return [c for v in value for c in copies_in(v)]
    return []


def check(match: Match) -> None:
    view, ref = match.public_view(), match.referee_view()
    if match.hand is None:
        assert view is None and ref is None
        return
    hand = match.hand
    assert isinstance(view, PublicView) and isinstance(ref, RefereeView) and ref.public == view
    assert copies_in(tuple(view)) == [], "a public view names a physical copy"
    committed = Counter(c.card for t in hand.tricks for _, cards in t.plays for c in cards)
    committed += Counter(c.card for _, cards in hand.trick for c in cards)
    over = hand.phase is Phase.OVER and hand.result is not None
    if over:
        committed += Counter(c.card for c in (hand.kitty_revealed if hand.kitty_revealed is not None
                                              else hand.buried))
    else:
        assert view.kitty is None, "the kitty shows before the hand is over"
    assert not Counter(faces_shown(view)) - committed, "a public view shows a card not on the table"
    assert view.entering == (len(hand.pending) if hand.phase is Phase.PLAYING else 0)
    assert ref.hands == tuple(hand.hand_copies(s) for s in range(hand.players))
    assert ref.pending == tuple(hand.pending)


@pytest.mark.parametrize("mode", ["scanned", "open"])
@settings(max_examples=12)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(1, 10_000))
def test_R7_3_the_public_view_never_shows_a_hidden_card(mode, preset, seed):
    rs = Ruleset.from_preset(preset)
    match = Match(rs, mode)
    check(match)
    Driver(match, [make_bot("random", 40 + s) for s in range(rs.players)],
           lambda event, effects: check(match)).play_hand(seed)
    assert match.public_view().result is not None and match.public_view().kitty is not None
