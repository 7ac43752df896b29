"""Random orders and hands for tests that compare a shortcut with the rules' general list."""
from __future__ import annotations

from shengji_table.rules.cards import all_copies
from shengji_table.rules.order import TrumpOrder


def random_orders_and_hands(rs, rng, count: int):
    """``count`` pairs ``(order, hand)``: a random level and trump of ruleset ``rs`` and a hand of a
    random size (one card up to a hand and thirty more), half of them sorted as views hold them."""
    copies = list(all_copies(rs.decks))
    for _ in range(count):
        order = TrumpOrder(rs, rng.randint(2, 14), rng.choice(["S", "H", "C", "D", None]))
        size = rng.choice([1, 2, 5, 12, rs.hand_size, min(len(copies), rs.hand_size + 30)])
        hand = [c.card for c in rng.sample(copies, size)]
        if rng.random() < 0.5:
            hand.sort(key=lambda f: f.index)      # as views hold it; any order gives the same result
        yield order, hand
