"""The heuristic bot: plays sensibly, so that a simulated table is a fair opponent and a partner.

It answers every decision of :mod:`shengji_table.game.decisions` from what the seat may know, and
delegates to one policy module per kind of decision:

* card play (lead, follow) — :mod:`.play_policy`: keeps pairs and tractors whole, leads
  unbeatable units and safe throws, follows low when the trick is lost, feeds points to a partner's
  winning trick, ruffs point tricks when void, over-ruffs when it can;
* burial as dealer — :mod:`.kitty_policy`: low, pointless side cards, never trumps;
* declaring, bidding, naming trump, calling a friend — :mod:`.call_policy`.

Deterministic: the same view gives the same decision (``seed`` is kept only so that every bot
has the same constructor).
"""
from __future__ import annotations

from collections import Counter

from ..decisions import Bid, Bury, CallFriend, Declare, FriendCall, NameTrump, Pass, PlayCards
from ..phase import Phase
from ..view import SeatView
from . import call_policy, kitty_policy, play_policy
from .knowledge import known_voids, unseen_cards

__all__ = ["HeuristicBot", "teammates_of", "seen_cards", "situation"]


def teammates_of(view: SeatView) -> frozenset:
    """Seats known to be on this seat's side (itself included).

    Fixed partnerships alternate seats (4 players: 0 2 | 1 3; 6 players: 0 2 4 | 1 3 5).  With
    find-a-friend or solo play the dealer's side is ``view.declarers``, plus this seat when it holds
    a called copy that is still to come (it will be the friend when it plays it); everybody else
    attacks together — as far as an attacker knows, which until every call is settled is only
    itself.
    """
    me = view.seat
    rs = view.ruleset
    if rs.teams == "fixed":
        return frozenset(s for s in range(view.players) if (s - me) % 2 == 0)
    declarers = frozenset(view.declarers)
    if me in declarers:
        return declarers
    if rs.teams == "solo" and declarers:
        return frozenset(s for s in range(view.players) if s not in declarers)
    played = Counter(seen_cards(view, include_kitty=False))
    held = Counter(view.hand)
    pending = [(card, nth) for card, nth in view.friend_calls if played[card] < nth]
    if any(nth <= played[card] + held[card] for card, nth in pending):
        return declarers | {me} | ({view.dealer} if view.dealer is not None else set())
    if view.friend_calls and not pending and declarers:
        return frozenset(s for s in range(view.players) if s not in declarers)
    return frozenset((me,))


def seen_cards(view: SeatView, include_kitty: bool = True) -> list:
    """Every card this seat has seen leave the unknown: played cards, and (``include_kitty``) the
    kitty it holds or buried."""
    seen = [c for t in view.tricks for p in t.plays for c in p.cards]
    seen.extend(c for p in view.trick for c in p.cards)
    if include_kitty and view.kitty is not None and view.phase == Phase.PLAYING:
        seen.extend(view.kitty)
    return seen


def situation(view: SeatView) -> play_policy.TrickSituation:
    """The play policy's input, built from the view."""
    if view.order is None:
        raise ValueError("a card play needs the hand's trump order, and this view has none")
    # Kitty cards shown to all (three players) stay "unseen": the dealer may have taken them up.
    unseen = unseen_cards(view.ruleset.decks, view.hand, seen_cards(view))
    return play_policy.TrickSituation(
        seat=view.seat,
        hand=tuple(view.hand),
        plays=tuple(view.trick),
        order=view.order,
        players=view.players,
        teammates=teammates_of(view),
        unseen=tuple(unseen),
        throws_allowed=view.ruleset.throws == "allowed",
        declarer_side=view.is_declarer(),
        voids=known_voids([t.plays for t in view.tricks] + [view.trick], view.order),
        friend_suits=_pending_friend_suits(view),
    )


def _pending_friend_suits(view: SeatView) -> tuple:
    """As find-a-friend dealer: the plain suits of called cards not yet played (so not found)."""
    if view.seat != view.dealer or not view.friend_calls or view.order is None:
        return ()
    played = Counter(seen_cards(view, include_kitty=False))
    suits = []
    for card, nth in view.friend_calls:
        suit = view.order.suit_of(card)
        if played[card] < nth and suit != "T" and suit not in suits:
            suits.append(suit)
    return tuple(suits)


class HeuristicBot:
    """Plays by the hand-written heuristics of the policy modules (see the module doc)."""

    name = "heuristic"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def choose(self, view: SeatView):
        """The decision for ``view.expect``."""
        kind = view.expect.kind
        if kind == "lead":
            return PlayCards(play_policy.choose_lead(situation(view)))
        if kind == "follow":
            return PlayCards(play_policy.choose_follow(situation(view)))
        if kind == "bury":
            return Bury(kitty_policy.choose_burial(view.hand, view.expect.count, view.order))
        if kind == "declare":
            cards = call_policy.choose_declaration(
                view.hand, view.expect.options, view.ruleset, view.level,
                standing_is_teammate=self._standing_is_teammate(view))
            return Pass() if cards is None else Declare(cards)
        if kind == "bid":
            # Before the first bid the last bidder may not pass; the view does not say who is
            # last, so the bot bids whenever nobody has.
            bid = call_policy.choose_bid(view.hand, view.expect.options, view.ruleset, view.level,
                                         must_bid=view.standing_bid is None)
            return Pass() if bid is None else Bid(bid)
        if kind == "name_trump":
            return NameTrump(call_policy.choose_trump(view.hand, view.expect.options, view.ruleset, view.level))
        if kind == "call_friend":
            calls = call_policy.choose_friend_calls(view.hand, view.expect.count, view.order, view.ruleset.decks)
            return CallFriend(tuple(FriendCall(card, nth) for card, nth in calls))
        raise ValueError(f"the heuristic bot has no answer for a {kind!r} decision")

    @staticmethod
    def _standing_is_teammate(view: SeatView) -> bool:
        """Whether the call standing in the draw is this seat's or its fixed partner's (never
        overcall your own side)."""
        seat = view.standing_seat
        if seat is None:
            return False
        return seat in teammates_of(view)
