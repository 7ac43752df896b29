"""What one seat may see, and what a bot may answer: the contract between the game and its bots.

A bot never touches the game state.  At each decision point the game builds a :class:`SeatView` for
one seat — frozen, holding only what that seat is allowed to know (its own hand; the kitty only while
it holds it; tricks already played; teams as far as they are known) — and calls
``bot.choose(view)``.  The bot returns one :class:`Decision`.  The driver (``game/driver.py``) turns
that decision into the very events a physical table produces (each card tapped at the seat, then
confirm), so bots exercise the real card-entry path and their choices are checked like a person's.

Which decision is asked for is ``view.expect.kind``:

==============  ============================================================  =====================
``expect.kind``  meaning                                                        answer
==============  ============================================================  =====================
``declare``     a card has just reached this seat during the draw (R-6), or     :class:`Declare` or
                (three players) trump is named and the seat may counter-declare  :class:`Pass`
                (反牌); ``expect.options`` lists every declaration valid now
``bid``         three-player bidding (§9): bid a lower points target            :class:`Bid` or
                (``expect.options`` holds the allowed targets)                    :class:`Pass`
``name_trump``  the bidding winner names the trump suit (``expect.options``)     :class:`NameTrump`
``bury``        bury ``expect.count`` cards (R-7.2); ``view.hand`` includes      :class:`Bury`
                the kitty — or, as counter-declarer, lay back the cards drawn
                from the kitty (three players, 反牌)
``call_friend`` find-a-friend: name ``expect.count`` cards and which copy       :class:`CallFriend`
``lead``        lead a unit or a throw (R-4.1)                                  :class:`PlayCards`
``follow``      follow with exactly ``expect.count`` cards (R-4.4)              :class:`PlayCards`
==============  ============================================================  =====================

Cards in views and decisions are faces (:class:`~shengji_table.rules.cards.Card`): the rules never
depend on which physical copy is played (R-1.2); the driver picks the copies.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

from ..rules.ruleset import Ruleset

if TYPE_CHECKING:  # the rules layer's order and play types; imported lazily to keep this light
    from .decisions import Decision
    from ..rules.order import TrumpOrder

__all__ = [
    "SeatView", "Expect", "TrickView",
    "Bot",
]

EXPECT_KINDS = ("declare", "bid", "name_trump", "bury", "call_friend", "lead", "follow", "none")


@dataclass(frozen=True)
class Expect:
    """What the game waits for from this seat.

    ``count``: cards to bury / to follow with / friends to call; 0 when it does not apply.
    ``options``: for ``declare`` a tuple of card tuples (each a declaration valid now), for ``bid``
    the allowed targets (ints), for ``name_trump`` the suits ('S','H','C','D' or None for NT).
    """

    kind: str
    count: int = 0
    options: tuple = ()


@dataclass(frozen=True, init=False)
class TrickView:
    """A finished trick: its plays in order (``Play(seat, cards)``), its winner and its points.
    ``TrickView(plays, winner, points)`` fills the fields in one call (one view a trick)."""

    plays: tuple
    winner: int
    points: int

    def __init__(self, plays: tuple, winner: int, points: int) -> None:
        object.__setattr__(self, "__dict__", {"plays": plays, "winner": winner, "points": points})


class SeatView(NamedTuple):
    """Everything seat ``seat`` may know at a decision point.  Immutable: a named tuple (built for
    every decision, from kept parts, in one C call; change a copy with ``view._replace(...)``).

    * ``ruleset`` — the rules in force; ``players`` — number of seats (0 … players-1, playing order).
    * ``phase`` — a :class:`~shengji_table.game.phase.Phase` (a ``str``): ``DRAWING`` | ``BIDDING`` |
      ``TRUMP`` | ``KITTY`` | ``EXCHANGE`` | ``BURYING`` | ``FRIEND`` | ``PLAYING``.
    * ``level`` — the rank being played (the dealer's level, R-2); ``levels`` — every seat's level.
    * ``trump`` — 'S','H','C','D', or None for no-trump; during the draw: the standing declaration.
    * ``order`` — the :class:`TrumpOrder` for ``level``/``trump`` (None while the draw is open).
    * ``hand`` — this seat's cards (faces) in a stable order (face index; sort with ``order.sorted``).
    * ``trick`` — plays of the current trick so far (lead first); ``leader`` its leader seat.
    * ``tricks`` — finished tricks of this hand, oldest first (every card played is public).
    * ``points`` — points won so far by each seat (tuple indexed by seat).
    * ``attackers_points`` — points the attackers have captured so far, as far as teams are known.
    * ``dealer`` — the dealer (None in the first hand until somebody declares, R-6.6).
    * ``declarers`` — seats known to be on the dealer's side (the dealer, its fixed partners, or
      friends revealed so far); ``friend_calls`` — the calls made (find-a-friend).
    * ``kitty`` — the kitty's cards, only while this seat holds or buried it; else None.
    * ``shown_kitty`` — kitty cards shown to everybody (three-player bidding).
    * ``standing_bid`` — the lowest bid so far (bidding), or None.
    * ``expect`` — what the game waits for from this seat (see the module doc).
    * ``standing_seat`` — during the draw, the seat whose declaration stands (None when nobody has
      declared, or when declarations are hidden, R-6.5).
    """

    ruleset: Ruleset
    seat: int
    players: int
    phase: str
    level: int
    levels: tuple
    trump: str | None
    order: TrumpOrder | None
    hand: tuple
    trick: tuple
    leader: int | None
    tricks: tuple
    points: tuple
    attackers_points: int
    dealer: int | None
    declarers: frozenset
    friend_calls: tuple
    kitty: tuple | None
    shown_kitty: tuple
    standing_bid: int | None
    expect: Expect
    standing_seat: int | None = None

    @classmethod
    def adopt(cls, fields: dict) -> SeatView:
        """The view whose fields are ``fields`` (every field by name, checked)."""
        if len(fields) != _FIELD_COUNT or fields.keys() != _FIELD_SET:
            missing, unknown = sorted(_FIELD_SET - fields.keys()), sorted(fields.keys() - _FIELD_SET)
            raise TypeError(f"a SeatView has the fields {', '.join(cls._fields)}; "
                            f"missing {missing}, unknown {unknown}")
        return cls(**fields)

    @property
    def lead(self) -> tuple:
        """The cards led in the current trick (empty when this seat leads)."""
        return self.trick[0].cards if self.trick else ()

    def is_declarer(self, seat: int | None = None) -> bool:
        """Whether ``seat`` (default: this seat) is known to be on the dealer's side."""
        return (self.seat if seat is None else seat) in self.declarers


_FIELD_SET = frozenset(SeatView._fields)
_FIELD_COUNT = len(_FIELD_SET)


class Bot(Protocol):
    """A seat filler.  ``choose`` must be a pure function of the view and the bot's own seeded state."""

    def choose(self, view: SeatView) -> Decision:  # pragma: no cover - protocol
        ...
