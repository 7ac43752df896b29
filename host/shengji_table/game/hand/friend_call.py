"""Find a friend: after the burial the dealer calls a card and which copy; whoever plays that copy
joins the dealer's side (``game/friend.py`` follows the search)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from ..effects import ring
from ..friend import RULE as FRIEND_RULE, FriendSearch, check_calls
from ..phase import Phase
from .play import start_play

if TYPE_CHECKING:
    from .core import Hand

__all__ = ["after_burial", "call_friend"]


def after_burial(hand: Hand) -> list:
    """The kitty is buried: the dealer calls a friend (find a friend), else play begins."""
    if hand.ruleset.teams == "find-friend" and hand.ruleset.friend_calls:
        hand.phase = Phase.FRIEND
        hand.turn = hand.dealer
        return [ring(hand.dealer_seat(), "turn")]
    return start_play(hand)


def call_friend(hand: Hand, e: ev.CallFriend) -> list:
    if e.seat != hand.dealer:
        return hand.refuse(e.seat, e, FRIEND_RULE, f"the dealer (seat {hand.dealer}) calls the friend")
    why = check_calls(hand.ruleset, e.calls)
    if why is not None:
        return hand.refuse(e.seat, e, FRIEND_RULE, why)
    hand.friend_search = FriendSearch(e.calls, hand.dealer)
    return [hand.friend_search.announce_calls(e.seat)] + start_play(hand)
