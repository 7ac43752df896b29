"""The three-player counter-declaration window (反牌 and the kitty swap, with bids and trump named
around it) and the level transfers after a settlement (级数不浪费) obey the game's contract, as every
other event does (test_entry_property.py): any sequence is accepted or refused with a rule and a
reason — never an exception — and a refused event changes nothing (the whole snapshot is compared)."""
from hypothesis import given, strategies as st

from shengji_table.game import events as ev
from shengji_table.game.effects import Refusal
from shengji_table.game.match import Match
from shengji_table.game.stack import stack_for
from shengji_table.rules.cards import all_copies, parse_card, parse_copy
from shengji_table.rules.ruleset import Ruleset

THREE = Ruleset.from_preset("three-players")
COPIES2 = list(all_copies(2))
seat3 = st.integers(-1, 3)
copy2 = st.sampled_from(COPIES2)

# calls the arranged hands really hold (seat 1: H2 H2 LJ LJ, seat 2: C2 C2 BJ BJ), and some they do not
known_calls = st.sampled_from([(1, "H2#1 H2#2"), (1, "LJ#1 LJ#2"), (2, "C2#1 C2#2"), (2, "BJ#1 BJ#2"),
                               (0, "BJ#1 BJ#2"), (1, "C2#1 C2#2"), (2, "H2#1")])
counter_events = st.one_of(
    known_calls.map(lambda sc: ev.Declare(sc[0], tuple(parse_copy(t) for t in sc[1].split()))),
    st.builds(ev.Declare, seat3, st.lists(copy2, max_size=3).map(tuple)),
    st.builds(ev.CounterDraw, seat3, st.one_of(st.none(), st.integers(0, 9))),
    st.builds(ev.CounterDraw, seat3, st.none(), st.lists(copy2, max_size=7).map(tuple)),
    st.builds(ev.CounterDraw, st.sampled_from([1, 2]), st.integers(0, 9)),
    st.builds(ev.Tap, st.sampled_from([1, 2]), st.sampled_from(
        [parse_copy(t) for t in "H2#1 H2#2 LJ#1 LJ#2 C2#1 C2#2 BJ#1 BJ#2".split()])),
    st.builds(ev.Tap, seat3, copy2),
    st.builds(ev.TakeBack, seat3, copy2),
    st.builds(ev.Confirm, seat3),
    st.builds(ev.TakeKitty, seat3),
    st.builds(ev.Bid, seat3, st.one_of(st.none(), st.integers(0, 200))),
    st.builds(ev.NameTrump, seat3, st.sampled_from(["S", "H", None, "X"])),
    st.builds(ev.PassLevels, seat3, st.lists(st.tuples(seat3, st.integers(-1, 3)), min_size=1, max_size=2).map(tuple)),
    st.builds(ev.RefuseLevels, seat3, seat3),
)


def check(m, events):
    for e in events:
        before = m.snapshot()
        out = m.apply(e)
        if out and isinstance(out[0], Refusal):
            assert out[0].rule and out[0].reason
            assert m.snapshot() == before, f"refused {e} changed the state"


@given(st.lists(counter_events, max_size=40), st.sampled_from(["scanned", "open"]), st.sampled_from(["S", None]),
       st.booleans())
def test_entry_counter_window_events_refused_cleanly(events, mode, trump, countered):
    m = Match(THREE, mode)
    if mode == "scanned":
        m.apply(ev.Deal(order=stack_for(THREE, {1: "H2 H2 LJ LJ", 2: "C2 C2 BJ BJ"})))
        while m.hand.next_draw() is not None:
            m.apply(ev.Draw(*m.hand.next_draw()))
    else:
        m.apply(ev.Deal())
    m.apply(ev.CloseDeclarations())
    m.apply(ev.Bid(0, 150))
    m.apply(ev.Bid(1, None))
    m.apply(ev.Bid(2, None))
    m.apply(ev.NameTrump(0, trump))
    assert m.hand.phase == "kitty"
    if countered:                              # half the time start inside a swap
        m.apply(ev.Declare(2, (parse_copy("BJ#1"), parse_copy("BJ#2"))))
        m.apply(ev.CounterDraw(2, 5) if mode == "scanned" else ev.CounterDraw(2))
        assert m.hand.phase == "exchange"
    check(m, events)


FF = Ruleset.from_preset("find-friend-5", must_defend=["J", "A"])
seat5 = st.integers(-1, 5)
transfer_events = st.one_of(
    st.builds(ev.PassLevels, seat5, st.lists(st.tuples(seat5, st.integers(-1, 4)), min_size=1, max_size=3).map(tuple)),
    st.builds(ev.PassLevels, st.just(0), st.lists(st.tuples(st.integers(1, 4), st.integers(1, 2)),
                                                  min_size=1, max_size=2).map(tuple)),
    st.builds(ev.RefuseLevels, seat5, seat5),
    st.builds(ev.RefuseLevels, st.integers(1, 4), st.just(0)),
    st.builds(ev.Deal, st.integers(0, 3)),
)


@given(st.lists(transfer_events, max_size=25))
def test_entry_level_transfer_events_refused_cleanly(events):
    m = Match(FF)
    m.levels = [10, 5, 3, 8, 2]
    m.apply(ev.Deal(order=stack_for(FF, {0: "H10"})))
    hand = m.hand
    m.apply(ev.Draw(*hand.next_draw()))
    m.apply(ev.Declare(0, (next(c for c in hand.hands[0] if c.card is parse_card("H10")),)))
    while hand.next_draw() is not None:
        m.apply(ev.Draw(*hand.next_draw()))
    m.apply(ev.CloseDeclarations())
    m.apply(ev.TakeKitty(0))
    for c in list(hand.kitty):
        m.apply(ev.BuryCard(0, c))
    m.apply(ev.Confirm(0))
    m.apply(ev.CallFriend(0, ((parse_card("SA"), 2),)))
    m.apply(ev.RefereeEndHand(1, "R-10.2", "revoke"))
    assert m.leftovers == {0: 3}
    check(m, events)
    assert all(2 <= lv <= 14 for lv in m.levels)
