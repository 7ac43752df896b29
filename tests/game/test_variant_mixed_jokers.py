"""R-6.7 in the hand: with ``mixed_joker_nt`` a small and a big joker are offered and accepted as a
no-trump call while the cards are drawn (three decks); without it they are refused (R-6.3)."""
from shengji_table.game.effects import Refusal
from shengji_table.rules.cards import parse_cards


def refused(out, rule=None):
    return bool(out) and isinstance(out[0], Refusal) and (rule is None or out[0].rule == rule)


def test_R6_7_a_mixed_joker_pair_is_offered_and_declared_in_the_draw(table):
    mixed = set(parse_cards("LJ BJ"))
    t = table("three-decks", {1: "LJ BJ"}, mixed_joker_nt=True)
    t.draw()
    assert any(len(o) == 2 and set(o) == mixed for o in t.hand.view(1).expect.options)
    assert not refused(t.declare(1, "LJ BJ"))
    t.close()
    assert t.hand.trump is None and t.hand.dealer == 1


def test_R6_7_off_the_mixed_pair_is_neither_offered_nor_accepted(table):
    t = table("three-decks", {1: "LJ BJ"})
    t.draw()
    assert not any(set(o) == set(parse_cards("LJ BJ")) for o in t.hand.view(1).expect.options)
    assert refused(t.declare(1, "LJ BJ"), "R-6.3")
