"""Arranged stacks: a deal where chosen seats draw chosen cards (tests, demos, teaching tables).

``stack_for(ruleset, {0: "BJ BJ S2", 1: "H2"}, kitty="D3 D4")`` returns an explicit stack for a
:class:`~.events.Deal` (``Deal(order=...)``): seat 0's first three draws are BJ BJ S2, seat 1's
first draw is H2, the kitty starts with D3 D4, and every other card follows in a fixed order.
"""
from __future__ import annotations

from ..rules.cards import Card, CardCopy, all_copies, parse_cards
from ..rules.ruleset import Ruleset

__all__ = ["stack_for", "StackError"]


class StackError(ValueError):
    """The wanted cards do not exist in the decks, or do not fit in the hands / kitty."""


def stack_for(ruleset: Ruleset, hands: dict, kitty="", first_seat: int = 0) -> tuple:
    """An explicit stack (tuple of copies, top first) giving each listed seat its listed cards first."""
    pool = list(all_copies(ruleset.decks))
    free: dict[Card, list[CardCopy]] = {}         # face -> its copies not yet placed
    for c in pool:
        free.setdefault(c.card, []).append(c)

    def take(face):
        lst = free.get(face)
        if not lst:
            raise StackError(f"no copy of {face} left in {ruleset.decks} deck(s)")
        return lst.pop(0)

    n, hs = ruleset.players, ruleset.hand_size
    wanted = {}
    for seat, cards in hands.items():
        faces = parse_cards(cards)
        if len(faces) > hs:
            raise StackError(f"seat {seat} gets {hs} cards, not {len(faces)}")
        wanted[seat] = [take(f) for f in faces]
    kitty_copies = [take(f) for f in parse_cards(kitty)]
    if len(kitty_copies) > ruleset.kitty_size:
        raise StackError(f"the kitty holds {ruleset.kitty_size} cards")
    left = {x for lst in free.values() for x in lst}
    rest = [c for c in pool if c in left]
    out = []
    for i in range(hs * n):
        seat = (first_seat + i) % n
        if wanted.get(seat):
            out.append(wanted[seat].pop(0))
        else:
            out.append(rest.pop(0))
    out += kitty_copies + rest
    return tuple(out)
