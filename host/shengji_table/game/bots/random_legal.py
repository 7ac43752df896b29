"""The random-legal bot: at every decision a random legal answer, from its own seeded generator.

Reproducible: a bot built with the same seed, asked the same views in the same order, gives the
same answers (it never touches the global ``random`` state).

"Uniform" is exact where the choices are few (declare or pass, bids, trump, the card to bury or to
lead as one unit) and approximate where listing every legal play would be too slow (following a
big lead, throws): there the bot draws one legal play directly (see :mod:`.sampling`).
"""
from __future__ import annotations

import random

from ...rules.cards import SUITS, Card
from ..decisions import ONE_CARD_PLAYS, Bid, Bury, CallFriend, Declare, FriendCall, NameTrump, Pass, PlayCards
from ..view import SeatView
from .sampling import random_follow, random_lead, random_single

__all__ = ["RandomLegalBot"]


class RandomLegalBot:
    """Chooses uniformly among legal decisions (approximately so for plays, see the module doc).

    ``throw_rate``: how often a lead is a random throw (which may fail, R-4.3) instead of one unit;
    0 where the ruleset forbids throws.
    """

    name = "random"

    def __init__(self, seed: int = 0, throw_rate: float = 0.05):
        self.seed = seed
        self.rng = random.Random(seed)
        self.throw_rate = throw_rate

    def choose(self, view: SeatView):
        """The decision for ``view.expect`` (see :mod:`shengji_table.game.view`)."""
        kind = view.expect.kind
        rng = self.rng
        if kind == "follow":
            lead = view.trick[0].cards          # view.lead without the property's call
            if len(lead) == 1:                  # the commonest decision: one shared answer per face
                return ONE_CARD_PLAYS[random_single(lead[0], view.hand, view.order, rng).index]
            return PlayCards(random_follow(lead, view.hand, view.order, rng))
        if kind == "lead":
            rate = self.throw_rate if view.ruleset.throws == "allowed" else 0.0
            cards = random_lead(view.hand, view.order, rng, rate)
            return ONE_CARD_PLAYS[cards[0].index] if len(cards) == 1 else PlayCards(cards)
        if kind in ("declare", "bid"):
            options = list(view.expect.options)
            # Passing is legal except for the last bidder when nobody has bid, which the view does
            # not tell apart: before the first bid the bot always bids.
            may_pass = kind == "declare" or view.standing_bid is not None
            pick = rng.randrange(len(options) + may_pass)   # index len(options) is "pass"
            if pick == len(options):
                return Pass()
            return Declare(tuple(options[pick])) if kind == "declare" else Bid(options[pick])
        if kind == "name_trump":
            return NameTrump(rng.choice(list(view.expect.options)))
        if kind == "bury":
            return Bury(tuple(rng.sample(list(view.hand), view.expect.count)))
        if kind == "call_friend":
            return CallFriend(self._friend_calls(view))
        raise ValueError(f"the random bot has no answer for a {kind!r} decision")

    def _friend_calls(self, view: SeatView) -> tuple:
        faces = [Card(s, r) for s in SUITS for r in range(2, 15)]
        picked = self.rng.sample(faces, view.expect.count)
        return tuple(FriendCall(card, self.rng.randint(1, view.ruleset.decks)) for card in picked)
