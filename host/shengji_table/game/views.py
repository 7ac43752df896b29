"""The read model of the hand in play: what the layers above the game read, built in one place.

* :class:`PublicView` — what anyone at or around the table may see: the screen, the voice, the
  public web page, a club page.  Never a hand, the stack, the cards being entered (only how many)
  or the kitty before the hand is over.  Cards are faces, never physical copies.
* :class:`RefereeView` — everything: the public view plus every hand, the cards being entered, the
  kitty as dealt and as buried, and the hand's rulings (the referee's console, the table's own
  card entry).
* What one seat may know is :class:`~.view.SeatView` (``Hand.view``), the bots' contract.

The hidden-information policy is a property of these types: a public view holds no field a hand or
the kitty could reach before the hand is over (``tests/game/test_views.py`` plays hands in every
preset and checks it).  Build them with :func:`public_view` and :func:`referee_view` (``Match``
answers both as :meth:`Match.public_view` and :meth:`Match.referee_view`)::

    view = match.public_view()
    if view is not None and view.phase is Phase.PLAYING:
        print(f"seat {view.turn} to play; attackers {view.attackers_points}")
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..rules.trick import Play
from .phase import Phase
from .view import TrickView

if TYPE_CHECKING:
    from ..rules.cards import Card, CardCopy
    from .hand import Hand, HandResult
    from .match import Match

__all__ = ["PublicView", "RefereeView", "public_view", "referee_view", "faces_shown"]


class PublicView(NamedTuple):
    """The hand in play as everybody sees it."""

    number: int                      # the hand's number in the match, from 1
    phase: Phase
    players: int
    teams: str                       # the ruleset's kind of sides: fixed, find-friend, solo
    dealer: int | None               # None until the draw decides it
    level: int                       # the level played
    levels: tuple                    # every seat's level as the hand began (the match's once settled)
    trump_fixed: bool                # trump is fixed (from the kitty on)
    trump: str | None                # the trump suit once fixed (None: no trump)
    call: tuple | None               # the standing call ``(seat, suit)`` while it is public
    turn: int | None                 # the seat the hand waits for (draw, bidding, play)
    kitty_holder: int | None         # the seat that holds the kitty (the dealer; 炒地皮: who took it last)
    leader: int | None
    trick: tuple                     # the trick being laid: ``Play(seat, faces)`` per committed play
    tricks: tuple                    # the tricks taken: :class:`~.view.TrickView`
    entering: int                    # how many cards the seat on turn has entered, in play
    points: tuple                    # points won per seat (all 0 before the dealer is known)
    attackers_points: int
    declarers: tuple                 # the dealer's side as known now, dealer first
    attackers: tuple | None          # None while a friend is still to be found
    friend_calls: tuple              # find a friend: ``((face, nth), …)``
    friends: tuple                   # the friends found
    committed: int                   # the plays committed in the hand (a play clock's progress)
    undos: int                       # the plays the referee undid (and did not reverse)
    result: HandResult | None        # once the hand is over
    kitty: tuple | None              # the kitty's faces once the hand is over and settled
    penalty: int = 0                 # the net penalty points the referee added to the attackers

    @property
    def last_trick(self) -> TrickView | None:
        return self.tricks[-1] if self.tricks else None


class RefereeView(NamedTuple):
    """The hand in play with nothing hidden."""

    public: PublicView
    hands: tuple                     # per seat, the copies held (scanned hands; empty in open play)
    pending: tuple                   # the copies the seat on turn has entered, not committed
    kitty: tuple                     # the kitty as dealt (copies)
    buried: tuple                    # the cards buried (copies)
    rulings: tuple                   # the hand's rulings as JSON (``referee.Ruling.to_json``)
    undone: tuple                    # ``(seat, copies, reason)`` of the plays undone and not reversed
    penalties: tuple                 # ``(seat at fault, points, reason)``
    call: tuple | None               # the standing call ``(seat, suit)``, public or not


def _faces(copies) -> tuple:
    return tuple(c.card for c in copies)


def _friend_open(hand: Hand) -> bool:
    search = hand.friend_search
    return search is None or len(search.spent) < len(search.calls)


def _sides(hand: Hand) -> dict:
    """The view's fields that follow the sides: who declares, who attacks (None while a friend is
    still to be found), the points, the referee's penalties net of the attackers'."""
    if hand.dealer is None:
        zeros = (0,) * hand.players
        return {"declarers": (), "attackers": None, "points": zeros, "attackers_points": 0, "penalty": 0}
    declarers = tuple(hand.declarers())
    unknown = hand.ruleset.teams == "find-friend" and _friend_open(hand) and hand.result is None
    return {"declarers": declarers,
            "attackers": None if unknown else tuple(s for s in range(hand.players) if s not in declarers),
            "points": tuple(hand.won), "attackers_points": hand.attackers_points(),
            "penalty": sum(p if s in declarers else -p for s, p, _ in hand.penalties)}


def _trump(hand: Hand) -> dict:
    """The view's trump fields: fixed from the kitty on; before, the standing call while it is public."""
    standing = hand.standing
    fixed = hand.order is not None
    public_call = standing is not None and not hand.ruleset.hidden_declarations and not fixed
    return {"trump_fixed": fixed, "trump": hand.trump if fixed else None,
            "call": (standing.seat, standing.trump) if public_call else None}  # type: ignore[union-attr]


def _kitty_shown(hand: Hand) -> tuple | None:
    """The kitty's faces once the hand is over and settled (R-7.3); None before."""
    if hand.phase is not Phase.OVER or hand.result is None:
        return None
    return _faces(hand.kitty_revealed if hand.kitty_revealed is not None else hand.buried)


def public_view(match: Match) -> PublicView | None:
    """The public view of the match's hand in play (None before the first deal)."""
    hand = match.hand
    if hand is None:
        return None
    playing = hand.phase is Phase.PLAYING
    return PublicView(
        number=hand.number, phase=hand.phase, players=hand.players, teams=hand.ruleset.teams, dealer=hand.dealer,
        level=hand.level, levels=tuple(hand.levels) if hand.result is None else tuple(match.levels),
        turn=hand.turn, kitty_holder=hand.dealer if hand.kitty_holder is None else hand.kitty_holder,
        leader=hand.leader if playing else None,
        trick=tuple(Play(s, _faces(cards)) for s, cards in hand.trick), tricks=hand.trick_views,
        entering=len(hand.pending) if playing else 0,
        friend_calls=tuple(hand.friend_calls), friends=tuple(s for s in hand.friends if s != hand.dealer),
        committed=sum(hand.played_count), undos=len(hand.undone), result=hand.result, kitty=_kitty_shown(hand),
        **_trump(hand), **_sides(hand))


def referee_view(match: Match) -> RefereeView | None:
    """Everything of the match's hand in play (None before the first deal)."""
    hand = match.hand
    pub = public_view(match)
    if hand is None or pub is None:
        return None
    copies: tuple[tuple[CardCopy, ...], ...] = tuple(hand.hand_copies(s) for s in range(hand.players))
    return RefereeView(
        public=pub, hands=copies, pending=tuple(hand.pending), kitty=tuple(hand.kitty), buried=tuple(hand.buried),
        rulings=tuple(r.to_json(hand.voided) for r in hand.rulings), undone=tuple(hand.undone),
        penalties=tuple(hand.penalties),
        call=(hand.standing.seat, hand.standing.trump) if hand.standing is not None else None)


def faces_shown(view: PublicView) -> list[Card]:
    """Every face a public view shows (its trick, its tricks, its kitty once over): the hidden
    information test's reading of it."""
    out: list = [c for p in view.trick for c in p.cards]
    out += [c for t in view.tricks for p in t.plays for c in p.cards]
    out += list(view.kitty or ())
    return out
