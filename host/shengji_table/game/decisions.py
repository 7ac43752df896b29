"""What a bot answers: one decision per :class:`~.view.Expect` (the table in :mod:`.view`).

These are a bot's answers, not game events: the driver (``game/driver.py``) turns each into the
events a physical table produces.  Several share a name with an event of :mod:`.events`
(``Declare``, ``Bid``, ``NameTrump``, ``CallFriend``) — the module says which is meant.  Cards are
faces (:class:`~shengji_table.rules.cards.Card`); the driver picks the copies.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..rules.cards import ALL_FACES, Card

__all__ = ["Decision", "PlayCards", "ONE_CARD_PLAYS", "Bury", "Declare", "Pass", "Bid", "NameTrump",
           "CallFriend", "FriendCall"]


@dataclass(frozen=True, init=False)
class PlayCards:
    """Lead or follow with these cards (faces): ``PlayCards(cards)``.  A bot answers about 90 plays a
    hand: the constructor stores the one field in one call."""

    cards: tuple

    def __init__(self, cards: tuple) -> None:
        _set(self, "cards", cards)


_set = object.__setattr__

# ONE_CARD_PLAYS[i]: the play of face i alone, one instance for the process (a decision is immutable,
# and most plays are one card: an index read instead of building the answer)
ONE_CARD_PLAYS: tuple = tuple(PlayCards((f,)) for f in ALL_FACES)


@dataclass(frozen=True)
class Bury:
    """Bury these cards (exactly ``expect.count`` of them) as the new kitty (R-7.2)."""

    cards: tuple


@dataclass(frozen=True)
class Declare:
    """Show these level cards / jokers to declare or overcall trump (R-6)."""

    cards: tuple


@dataclass(frozen=True)
class Pass:
    """Do nothing now: no declaration, no bid."""


@dataclass(frozen=True)
class Bid:
    """Bid a points target for the attackers (three-player bidding, §9); lower than the standing bid."""

    points: int


@dataclass(frozen=True)
class NameTrump:
    """The bidding winner names the trump suit ('S','H','C','D', or None for no-trump)."""

    suit: str | None


@dataclass(frozen=True)
class FriendCall:
    """"The ``nth`` copy of ``card`` to be played" — e.g. ``FriendCall(HA, 2)``: the second ♥A."""

    card: Card
    nth: int


@dataclass(frozen=True)
class CallFriend:
    """Find-a-friend: the dealer's calls, one :class:`FriendCall` per friend sought."""

    calls: tuple


Decision = PlayCards | Bury | Declare | Pass | Bid | NameTrump | CallFriend
