"""Find a friend (§9, seed 000 找朋友 / 变异打法): the dealer's calls and who answers them.

The dealer names a card and which copy — ``(HA, 2)``, "the second ♥A".  Copies are counted in the
order they are played in the tricks (every seat, the dealer included); the seat that plays the
called copy becomes the dealer's friend and the sides are known from then on.  If the dealer (or a
friend already found) plays it, the call finds nobody; a copy that is never played (buried, say)
leaves the call open to the end.  Pure: the game layer announces what :meth:`FriendTracker.observe`
reports, and the judge's ``friend`` query replays tricks through it.
"""
from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from .cards import Card
from .ruleset import Ruleset

__all__ = ["RULE", "nth_text", "check_calls", "FriendAnswer", "FriendTracker"]

RULE = "R-9 find-a-friend"


def nth_text(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth"}.get(n, f"{n}th")


def check_calls(ruleset: Ruleset, calls) -> str | None:
    """Why these calls (``(card, copy)`` pairs) are not allowed, or None when they are."""
    if len(calls) != ruleset.friend_calls:
        return f"call exactly {ruleset.friend_calls} friend(s)"
    for _card, nth in calls:
        if not 1 <= nth <= ruleset.decks:
            return f"with {ruleset.decks} decks the copy called is 1 to {ruleset.decks}, not {nth}"
    if len(set(calls)) != len(calls):
        return "the same card and copy is called twice"
    return None


class FriendAnswer(NamedTuple):
    """A called copy was played: by ``seat``; ``found`` unless that seat was already on the dealer's side."""

    seat: int
    card: Card
    nth: int
    found: bool


class FriendTracker:
    """The calls of one hand and what the plays have answered so far."""

    __slots__ = ("calls", "dealer", "friends", "spent", "seen")

    def __init__(self, calls: tuple, dealer: int):
        self.calls = tuple(calls)
        self.dealer = dealer
        self.friends: list = []        # seats found, in the order they were found
        self.spent: list = []          # calls answered (by a friend or by the dealer's side)
        self.seen: Counter = Counter() # face -> copies played so far

    def observe_faces(self, seat: int, faces) -> list:
        """Seat ``seat`` has played ``faces``; the calls this answers, in order."""
        out = []
        for face in faces:
            self.seen[face] += 1
            k = self.seen[face]
            for call in self.calls:
                if call[0] is face and call[1] == k and call not in self.spent:
                    self.spent.append(call)
                    found = seat != self.dealer and seat not in self.friends
                    if found:
                        self.friends.append(seat)
                    out.append(FriendAnswer(seat, face, k, found))
        return out
