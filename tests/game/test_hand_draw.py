"""The draw with scanned hands: each card reaches a seat in playing order; with a physical shuffle
(no seed, no order) the draws themselves say which card went where and the kitty is what is left."""
from shengji_table.game import events as ev
from shengji_table.game.effects import Refusal
from shengji_table.game.match import Match
from shengji_table.rules.cards import all_copies
from shengji_table.rules.ruleset import Ruleset


def refused(out, rule):
    return bool(out) and isinstance(out[0], Refusal) and out[0].rule == rule


def test_hand_draw_physical_shuffle_scanned():
    rs = Ruleset.from_preset("classic")
    m = Match(rs)
    m.apply(ev.Deal())
    copies = list(all_copies(2))[::-1]            # any order the table happens to produce
    assert refused(m.apply(ev.Draw(1, copies[0])), "table.draw-order")   # seat 0 draws first
    for i in range(100):
        assert not isinstance(m.apply(ev.Draw(i % 4, copies[i]))[0], Refusal)
        if i == 4:
            assert refused(m.apply(ev.Draw(1, copies[0])), "table.twice")
    assert refused(m.apply(ev.Draw(0, copies[100])), "R-7.1")          # hands are full
    m.apply(ev.CloseDeclarations())
    assert sorted(m.hand.kitty) == sorted(copies[100:])
    assert all(len(h) == 25 for h in m.hand.hands)


def test_hand_draw_known_stack_must_match():
    rs = Ruleset.from_preset("one-deck")
    m = Match(rs)
    m.apply(ev.Deal(seed=3))
    seat, top = m.hand.next_draw()
    other = next(c for c in all_copies(1) if c != top)
    out = m.apply(ev.Draw(seat, other))
    assert refused(out, "table.draw-card") and str(top) in out[0].reason
    assert not isinstance(m.apply(ev.Draw(seat, top))[0], Refusal)


def test_hand_deal_with_bad_order_refused_r1_1():
    rs = Ruleset.from_preset("one-deck")
    m = Match(rs)
    copies = list(all_copies(1))
    out = m.apply(ev.Deal(order=tuple(copies[:-1] + copies[:1])))     # a duplicate, a missing card
    assert refused(out, "R-1.1")
    assert m.hand is None
