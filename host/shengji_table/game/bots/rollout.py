"""Playing the rest of a hand out in one sampled world, fast, for the strong bot's search.

Not the game: no events, no card entry, no refusals — the rules layer only (who wins a trick,
its points, whether a throw stands, the kitty bonus, R-4.2, R-5, R-7.3).  Every seat plays by
``policy``: ``quick`` (:mod:`.quick_policy`, the default: cheap), ``heuristic``
(:mod:`.play_policy`, ~8 times dearer) or ``mixed`` (the heuristic for the next
:data:`MIXED_HORIZON` moves, where a decision's consequences are nearest, then quick; the
heuristic throughout once :data:`MIXED_FULL` moves or fewer remain), each from what *it* would
know in that world: its own hand in the world, the cards played, the kitty if it is the dealer,
the voids shown.  Fixed partnerships only (the
teams are then known to all).

The result is the attackers' points at the end of the hand (captured plus the kitty bonus), which
:func:`utility` turns into the settlement's levels (R-8.1) as seen by one side.
"""
from __future__ import annotations

from collections import Counter

from ...rules.cards import full_deck
from ...rules.kitty import kitty_bonus
from ...rules.settle import settle
from ...rules.throw import check_throw
from ...rules.trick import Play, trick_points, winning_index
from . import play_policy
from .quick_policy import quick_follow, quick_lead
from .worlds import World

__all__ = ["Rollout", "utility"]

TAKEOVER_WEIGHT = 0.25    # losing the deal is worth a little beyond the levels (the next hand)
POINTS_WEIGHT = 1 / 400   # a tie-break inside one settlement band: fewer points conceded is better
POLICIES = ("quick", "heuristic", "mixed")
MIXED_HORIZON = 8         # "mixed": the heuristic for this many moves, then the quick policy,
MIXED_FULL = 40           # ... or for all of them when no more remain (the end, where the kitty is won)


class Rollout:
    """The state of one play-out: every seat's hand, the trick so far, the attackers' points."""

    def __init__(self, view, world: World, attackers_points: int, policy: str = "quick"):
        if policy not in POLICIES:
            raise ValueError(f"a rollout policy is one of {', '.join(POLICIES)}, not {policy!r}")
        self.policy = policy
        self.order = view.order
        self.rs = view.ruleset
        self.n = view.players
        self.dealer = view.dealer
        self.hands = [list(h) for h in world.hands]
        self.kitty = world.kitty
        self.trick = list(view.trick)
        self.leader = view.leader if view.trick else view.seat
        self.attackers = frozenset(s for s in range(self.n) if (s - view.dealer) % 2 != 0)
        self.points = attackers_points
        self.throws = view.ruleset.throws == "allowed"
        # cards not yet played, as a multiset (what nobody has seen leave the game)
        left = Counter({c: self.rs.decks for c in full_deck()})
        for t in view.tricks:
            for p in t.plays:
                left.subtract(p.cards)
        for p in view.trick:
            left.subtract(p.cards)
        self.left = left
        from .knowledge import known_voids
        self.voids = known_voids([t.plays for t in view.tricks] + [view.trick], view.order)

    def _situation(self, seat: int) -> play_policy.TrickSituation:
        unseen = self.left.copy()
        unseen.subtract(self.hands[seat])
        if seat == self.dealer:
            unseen.subtract(self.kitty)
        teammates = frozenset(s for s in range(self.n) if (s - seat) % 2 == 0)
        return play_policy.TrickSituation(
            seat=seat, hand=tuple(self.hands[seat]), plays=tuple(self.trick), order=self.order,
            players=self.n, teammates=teammates, unseen=tuple(unseen.elements()),
            throws_allowed=self.throws, declarer_side=seat not in self.attackers, voids=self.voids)

    def play(self, seat: int, cards) -> None:
        """``seat`` plays ``cards`` (a lead that is a failed throw is cut to its forced unit)."""
        order = self.order
        if not self.trick and len(cards) > 1:
            others = {s: self.hands[s] for s in range(self.n) if s != seat}
            chk = check_throw(cards, others, order)
            if not chk.ok and chk.forced:
                cards = chk.forced
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        self.left.subtract(cards)
        if self.trick:
            lead = self.trick[0].cards
            suit = order.suit_of(lead[0])
            if sum(1 for c in cards if order.suit_of(c) == suit) < len(lead):
                self.voids.setdefault(seat, set()).add(suit)
        self.trick.append(Play(seat, tuple(cards)))
        if len(self.trick) == self.n:
            self._finish_trick()

    def _finish_trick(self) -> None:
        plays = self.trick
        win = plays[winning_index(plays, self.order)]
        if win.seat in self.attackers:
            self.points += trick_points(plays)
            if not self.hands[win.seat]:          # the last trick: the kitty bonus
                self.points += kitty_bonus(self.rs, self.kitty, win.cards, self.order)
        self.leader = win.seat
        self.trick = []

    def _out(self, seat: int) -> dict:
        """``{effective suit: highest rank}`` of the cards still out as ``seat`` sees them."""
        order = self.order
        mine = Counter(self.hands[seat])
        if seat == self.dealer:
            mine.update(self.kitty)
        out: dict = {}
        for c, k in self.left.items():
            if k > mine[c]:
                s, r = order.suit_of(c), order.rank_of(c)
                if r > out.get(s, -1):
                    out[s] = r
        return out

    def run(self) -> int:
        """Play every remaining card by the policy; the attackers' final points."""
        moves = sum(map(len, self.hands))
        careful = {"quick": 0, "heuristic": moves,
                   "mixed": moves if moves <= MIXED_FULL else MIXED_HORIZON}[self.policy]
        while any(self.hands):
            seat = (self.leader + len(self.trick)) % self.n
            careful -= 1
            if careful < 0:
                cards = (quick_follow(self.trick, self.hands[seat], self.order, seat, self.n) if self.trick
                         else quick_lead(self.hands[seat], self._out(seat), self.order))
            else:
                sit = self._situation(seat)
                cards = play_policy.choose_follow(sit) if self.trick else play_policy.choose_lead(sit)
            self.play(seat, cards)
        return self.points


def utility(ruleset, attackers_points: int, declarer_side: bool) -> float:
    """How good a hand's end is for one side: its levels minus the other side's (R-8.1), a little
    for keeping or taking the deal, and a points tie-break."""
    s = settle(ruleset, attackers_points)
    value = (s.declarers_levels - s.attackers_levels
             - (TAKEOVER_WEIGHT if s.takeover else -TAKEOVER_WEIGHT) - POINTS_WEIGHT * attackers_points)
    return value if declarer_side else -value
