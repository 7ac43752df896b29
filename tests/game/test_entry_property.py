"""Any sequence of table events, however wrong, is either accepted or refused with a rule and a
reason — never an exception — and a refused event never changes the state."""
from hypothesis import given, strategies as st

from shengji_table.game import events as ev
from shengji_table.game.effects import Refusal
from shengji_table.game.match import Match
from shengji_table.rules.cards import all_copies
from shengji_table.rules.ruleset import Ruleset

RS = Ruleset.from_preset("one-deck", referee_undo=True)
COPIES = list(all_copies(1))
seat = st.integers(-1, 4)
copy = st.sampled_from(COPIES)
event = st.one_of(
    st.builds(ev.Draw, seat, copy),
    st.builds(ev.Declare, seat, st.lists(copy, max_size=3).map(tuple)),
    st.just(ev.CloseDeclarations()),
    st.builds(ev.TakeKitty, seat),
    st.builds(ev.BuryCard, seat, copy),
    st.builds(ev.Tap, seat, copy),
    st.builds(ev.TakeBack, seat, copy),
    st.builds(ev.Confirm, seat),
    st.builds(ev.Challenge, seat, st.lists(copy, max_size=2).map(tuple)),
    st.builds(ev.RefereeUndo, st.just("test")),
    st.builds(ev.RefereePenalty, seat, st.integers(-10, 30), st.just("test")),
    st.builds(ev.Deal, st.integers(0, 5)),
)


@given(st.lists(event, max_size=40), st.sampled_from(["scanned", "open"]), st.booleans())
def test_entry_any_event_sequence_is_refused_or_accepted_cleanly(events, mode, to_play):
    m = Match(RS, mode)
    m.apply(ev.Deal(seed=1) if mode == "scanned" else ev.Deal())
    if mode == "scanned":                      # draw the whole stack
        while m.hand.next_draw() is not None:
            m.apply(ev.Draw(*m.hand.next_draw()))
    if to_play:                                # and half the time go on to the tricks
        m.apply(ev.CloseDeclarations())
        d = m.hand.dealer
        m.apply(ev.TakeKitty(d))
        for c in m.hand.kitty:
            m.apply(ev.BuryCard(d, c))
        m.apply(ev.Confirm(d))
        assert m.hand.phase == "playing"
    for e in events:
        before = m.snapshot()
        out = m.apply(e)
        if out and isinstance(out[0], Refusal):
            assert out[0].rule and out[0].reason
            assert m.snapshot() == before
