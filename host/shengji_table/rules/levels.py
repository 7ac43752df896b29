"""A settled hand's effect on the match: every seat's level change and the next dealer (R-8.4, R-8.5, §9).

Pure: the game layer's :class:`~shengji_table.game.match.Match` and the judge's ``match`` query both
use it.  :func:`apply_settlement` turns one hand's :class:`~.settle.Settlement` into per-seat level
changes — fixed partnerships move as sides, find-a-friend shares per level right
(:func:`~.settle.share_levels`) — with must-defend levels (必打), reaching A, beyond A and the levels
a must-defend level stopped (级数不浪费, left over for the player to pass on, R-9); going down never
takes a level below 2 (:func:`~.settle.lower_level`).  :func:`pass_deal` names the next dealer.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Sequence

from .ruleset import Ruleset
from .settle import Settlement, advance_level, next_dealer, share_levels

__all__ = ["LevelStep", "apply_settlement", "pass_deal", "DEAL_RULE"]

DEAL_RULE = "R-8.5"


@dataclass(frozen=True)
class LevelStep:
    """One hand's level changes.

    ``levels`` — every seat's level after the hand; ``changes`` — ``{seat: (before, after, steps,
    reason)}`` for the seats that moved or were stopped; ``shares`` — levels won per seat;
    ``winners`` — seats that won the match; ``leftovers`` — ``{seat: levels}`` a must-defend level
    stopped, to be passed on (级数不浪费; fixed partnerships have no such choice).
    """

    levels: tuple
    changes: dict = field(default_factory=dict)
    shares: dict = field(default_factory=dict)
    winners: tuple = ()
    leftovers: dict = field(default_factory=dict)


def apply_settlement(ruleset: Ruleset, levels: Sequence[int], settlement: Settlement, declarers: Sequence[int],
                     attackers: Sequence[int], *, last_trick_seat: int | None = None) -> LevelStep:
    """Move every seat's level by one hand's ``settlement`` (R-8.4).  ``levels``: each seat's level
    before; ``declarers`` the dealer first (find a friend: then the friends found); with find a
    friend ``last_trick_seat`` (who won the last trick) decides the hard split (§9)."""
    dec, att = list(declarers), list(attackers)
    if ruleset.teams == "find-friend":
        shares = share_levels(settlement, dec, att, last_trick_seat=last_trick_seat).levels
    else:
        shares = {seat: settlement.declarers_levels for seat in dec}
        shares.update({seat: settlement.attackers_levels for seat in att})
    after = list(levels)
    changes: dict = {}
    winners = []
    leftovers: dict = {}
    for seat in range(len(after)):
        steps = shares.get(seat, 0)
        if not steps:
            continue
        ch = advance_level(ruleset, after[seat], steps, as_declarers=seat in dec)
        after[seat] = ch.level
        changes[seat] = (levels[seat], ch.level, steps, ch.reason)
        if ch.won:
            winners.append(seat)
        if ch.leftover and ruleset.teams != "fixed":
            leftovers[seat] = ch.leftover
    return LevelStep(tuple(after), changes, dict(shares), tuple(sorted(set(winners))), leftovers)


def pass_deal(ruleset: Ruleset, dealer: int, takeover: bool, first_seat: int = 0) -> tuple:
    """``(next dealer, next first seat)`` after a hand (R-8.5).  Fixed partnerships:
    :func:`~.settle.next_dealer`.  Without fixed partners the rules name no seat: the deal stays with
    the dealer when the declarers won and passes to the next seat when the attackers took over.
    Three-player bidding: no dealer until the bidding (``None``); the first bidder moves one seat on."""
    players = ruleset.players
    nd = next_dealer(ruleset, dealer, takeover, players)
    if nd is None:
        nd = (dealer + 1) % players if takeover else dealer
    if ruleset.bidding:
        return None, (first_seat + 1) % players
    return nd, first_seat
