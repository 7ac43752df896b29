"""Find a friend (§9, seed 000 找朋友 / 变异打法): the dealer's calls and who answers them.

The dealer names a card and which copy — ``(HA, 2)``, "the second ♥A".  Copies are counted in the
order they are played in the tricks (every seat, the dealer included); the seat that plays the
called copy becomes the dealer's friend and the sides are known from then on.  If the dealer (or a
friend already found) plays it, the call finds nobody; a copy that is never played (buried, say)
leaves the call open to the end.  Levels are shared by ``rules.settle.share_levels``; the search
itself is ``rules.friend``.
"""
from __future__ import annotations

from ..rules.friend import RULE, FriendTracker, check_calls, nth_text
from .effects import Announce

__all__ = ["FriendSearch", "check_calls", "nth_text", "RULE"]


class FriendSearch(FriendTracker):
    """The calls of one hand and what the plays have answered so far, announced
    (``rules.friend.FriendTracker`` follows the search)."""

    __slots__ = ()

    def announce_calls(self, seat: int) -> Announce:
        text = "; ".join(f"the {nth_text(n)} {c.unicode()}" for c, n in self.calls)
        return Announce("friend", f"Seat {seat} calls for a friend: {text}.", RULE, msg="friend.calls",
                        args={"seat": seat, "calls": [[nth_text(n), c.unicode()] for c, n in self.calls]})

    def observe(self, seat: int, cards) -> list:
        """Seat ``seat`` has played ``cards`` (copies); return the announcements it causes."""
        out = []
        for a in self.observe_faces(seat, [c.card for c in cards]):
            name = f"the {nth_text(a.nth)} {a.card.unicode()}"
            if not a.found:
                out.append(Announce("friend", f"Seat {seat} plays {name}, already on the dealer's side: "
                                              "this call finds no friend.", RULE, msg="friend.no-friend",
                                    args={"seat": seat, "nth": nth_text(a.nth), "card": a.card.unicode()}))
            else:
                out.append(Announce("friend", f"Seat {seat} plays {name} and is the dealer's friend.", RULE,
                                    msg="friend.found", args={"seat": seat, "nth": nth_text(a.nth),
                                                              "card": a.card.unicode()}))
        return out
