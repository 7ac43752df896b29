"""The kitty (底牌) and its bonus (扣底), R-7.

Kitty sizes (R-7.1) are ruleset values (``Ruleset.kitty_size``); checking a buried kitty's size is
``penalties.check_kitty_size``.  When the attackers win the last trick, the kitty's points times a
multiplier go to them (R-7.3).  The multiplier comes from the largest unit of the last trick's
winning play (for a throw, its largest unit), by one of two conventions (``kitty_multiplier``):

* ``power`` (seeds 000/002, default): 2^n, n = cards in the unit with the most cards — single 2,
  pair 4, triple 8, two-pair tractor 16, three-pair tractor 64, 444 555 64 — capped at
  ``kitty_multiplier_cap`` (64).
* ``linear`` (seed 003): the seed checks, in this order, Titanic 2·3^len, triple 6, tractor 2·2^len,
  pair 4, single 2 ("且不再計算其他牌型": the first kind present decides).  That is 2·w^len for a
  unit of w-card groups, with the unit chosen by widest group first, then longest; quads (four
  decks, not in the seed) follow the same formula.  The seed names no cap, so none applies.
"""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence

from .cards import Card
from .ruleset import Ruleset
from .units import decompose

__all__ = ["KittyRuling", "largest_unit", "kitty_multiplier", "kitty_bonus", "kitty_points", "rule_kitty"]


@dataclass(frozen=True)
class KittyRuling:
    """Multiplier, the unit it came from, and the bonus (kitty points × multiplier)."""

    multiplier: int
    unit: object
    points: int
    bonus: int
    rule: str
    reason: str


def kitty_points(kitty: Sequence[Card]) -> int:
    """Points in the kitty (R-1.4)."""
    return sum(c.points for c in kitty)


def largest_unit(ruleset: Ruleset, winning_cards: Sequence[Card], order):
    """The unit of the winning play that sets the multiplier under the ruleset's convention."""
    units = decompose(tuple(winning_cards), order)
    if not units:
        raise ValueError("the winning play of the last trick has no cards")
    if ruleset.kitty_multiplier == "linear":
        return max(units, key=lambda u: (u.width, u.length))
    return max(units, key=lambda u: (len(u.cards), u.width))


def _multiplier_of(ruleset: Ruleset, unit) -> int:
    if ruleset.kitty_multiplier == "linear":
        return 2 * unit.width ** unit.length
    return min(2 ** len(unit.cards), ruleset.kitty_multiplier_cap)


def kitty_multiplier(ruleset: Ruleset, winning_cards: Sequence[Card], order) -> int:
    """R-7.3: the multiplier for a last trick won by the attackers with ``winning_cards``."""
    return _multiplier_of(ruleset, largest_unit(ruleset, winning_cards, order))


def kitty_bonus(ruleset: Ruleset, kitty: Sequence[Card], winning_cards: Sequence[Card], order) -> int:
    """R-7.3: points the attackers add for the kitty when they won the last trick."""
    return kitty_points(kitty) * kitty_multiplier(ruleset, winning_cards, order)


_KIND_NAME = {1: "single", 2: "pair", 3: "triple", 4: "quad"}


def _unit_name(unit) -> str:
    if unit.length > 1:
        return f"{unit.length}-{_KIND_NAME.get(unit.width, 'group')} tractor"
    return _KIND_NAME.get(unit.width, unit.kind)


def rule_kitty(ruleset: Ruleset, kitty: Sequence[Card], winning_cards: Sequence[Card], order) -> KittyRuling:
    """The whole R-7.3 ruling with a sentence: multiplier, unit, kitty points and bonus."""
    unit = largest_unit(ruleset, winning_cards, order)
    mult = _multiplier_of(ruleset, unit)
    pts = kitty_points(kitty)
    if ruleset.kitty_multiplier == "linear":
        how = f"2·{unit.width}^{unit.length}"
    else:
        how = f"2^{len(unit.cards)}" + (f", capped at {ruleset.kitty_multiplier_cap}"
                                        if 2 ** len(unit.cards) > mult else "")
    reason = (f"the last trick was won with a {_unit_name(unit)}: the kitty's {pts} points count "
              f"×{mult} ({how}), {pts * mult} points.")
    return KittyRuling(mult, unit, pts, pts * mult, "R-7.3", reason)
