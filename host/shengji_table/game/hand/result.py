"""How a hand ended."""
from __future__ import annotations

from dataclasses import dataclass

from ...rules.cards import Card
from ...rules.settle import Settlement

__all__ = ["HandResult"]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandResult:
    """How a hand ended: the settlement (``rules.settle.Settlement``) and everything that led to it.

    ``declarers``/``attackers`` are the final sides (dealer first); ``captured`` the attackers'
    trick points, ``kitty_points``/``multiplier``/``bonus`` the kitty (R-7.3), ``penalty`` the net
    penalty points added to the attackers (R-10.1), ``ruling`` the R-10 ruling that ended the hand
    early (or None) with ``at_fault``.
    """

    settlement: Settlement
    declarers: tuple[int, ...]
    attackers: tuple[int, ...]
    captured: int
    kitty_points: int | None         # None when a ruling ended the hand before the kitty counted
    multiplier: int
    bonus: int
    penalty: int
    last_winner: int | None          # None when a ruling ended the hand
    last_cards: tuple[Card, ...]
    ruling: str | None
    at_fault: int | None
    bid: int | None

    def to_json(self) -> dict:
        s = self.settlement
        return {
            "attackers_points": s.attackers_points, "declarers_levels": s.declarers_levels,
            "attackers_levels": s.attackers_levels, "takeover": s.takeover, "rule": s.rule, "reason": s.reason,
            "declarers": list(self.declarers), "attackers": list(self.attackers), "captured": self.captured,
            "kitty_points": self.kitty_points, "multiplier": self.multiplier, "bonus": self.bonus,
            "penalty": self.penalty, "last_winner": self.last_winner,
            "last_cards": [str(c) for c in self.last_cards or ()], "ruling": self.ruling,
            "at_fault": self.at_fault, "bid": self.bid,
        }
