"""Leads and throws (R-4.1 – R-4.3).

* R-4.1: a lead is one unit, or a throw (甩牌): several units of one effective suit.
* R-4.2: a throw stands only if no other player holds, in that suit, a unit of the same kind (same
  width and length; a wider group may be cut down) that ranks higher than the throw's unit.
* R-4.3: a failed throw: the leader plays the lowest beatable unit (seed 000: 必須出欲聯出的牌中的
  最小牌), on equal rank the one with fewest cards; the rest goes back to the hand.  Lead 9 88 44:
  someone holds J → 9; someone holds QQ (which beats the 9, the 88 and the 44) or 55 → 44.  "Fewest
  cards, then the lowest" would give 9 against QQ: the seed's example wins (docs/rules.md, rulings).
  Units of equal rank and size (off-suit level cards, 7♥ and 7♣ of a no-trump throw …) are equal
  in play: the one listed first by :func:`.units.decompose` (display order ♠ ♥ ♣ ♦) is forced.
  The seat that beats it, named in ``beaten_by``, is the first in playing order from the leader.
  The penalty (none / per card / per throw) is applied by :mod:`.penalties`.
"""
from __future__ import annotations

from typing import NamedTuple

from .follow import suit_name
from .shapes import count_groups, lowest_beating
from .units import decompose
from .verdict import Verdict

__all__ = ["ThrowCheck", "check_throw", "is_throw", "check_lead"]


class ThrowCheck(NamedTuple):
    """The outcome of a throw check (a named tuple: cheap to build, one per throw checked).

    ``ok``; ``forced`` — the unit the leader must play instead when it fails (empty when ok);
    ``withdrawn`` — the cards that go back to the hand; ``beaten_by`` — ``(seat, cards)`` of a
    unit that beats ``forced``, or ``None``; ``rule`` and ``reason``.
    """

    ok: bool
    forced: tuple
    withdrawn: tuple
    beaten_by: tuple | None
    rule: str
    reason: str


def _mixed(cards, order) -> bool:
    suit = order.face_suit
    return len({suit[c.index] for c in cards}) > 1


def is_throw(cards, order) -> bool:
    """Several units of one effective suit (R-4.1)."""
    cards = list(cards)
    return bool(cards) and not _mixed(cards, order) and len(decompose(cards, order)) > 1


_ONE_UNIT_LEADS = {kind: Verdict(True, "R-4.1", f"a lead of one {kind}")
                   for kind in ("single", "pair", "triple", "quad", "tractor")}


def check_lead(cards, order, units: tuple | None = None) -> Verdict:
    """What a lead's cards alone decide: one effective suit (R-4.1), and whether throws are allowed.

    ``units``: the lead's :func:`.units.decompose`, when the caller has it already."""
    if units is not None and len(units) == 1:
        return _ONE_UNIT_LEADS[units[0].kind]       # a unit is of one suit: its kind decides
    cards = list(cards)
    if not cards:
        return Verdict(False, "R-4.1", "a lead has at least one card")
    if _mixed(cards, order):
        suits = sorted({suit_name(order.face_suit[c.index], order) for c in cards})
        return Verdict(False, "R-4.1", f"a lead is of one suit, but this mixes {' and '.join(suits)}")
    if units is None:
        units = decompose(cards, order)
    if len(units) == 1:
        return _ONE_UNIT_LEADS[units[0].kind]
    if order.ruleset.throws == "none":
        return Verdict(False, "R-4.1", "throws are not allowed in this variant: lead one unit")
    return Verdict(True, "R-4.1", f"a throw of {len(units)} units; it stands only if nobody can beat any of them")


def _forced_key(u):
    return (u.top, u.size)


def _default_forced(units):
    return min(units, key=_forced_key)


def _cards_of(hand, groups, width, order) -> tuple:
    group = order.face_group
    out = []
    for g in groups:
        taken = 0
        for c in hand:
            if taken < width and group[c.index] == g:
                out.append(c)
                taken += 1
    return tuple(order.sorted(out))


def _fail(units, forced, lead, beaten_by, rule, reason) -> ThrowCheck:
    withdrawn = list(lead)
    for c in forced.cards:
        withdrawn.remove(c)
    return ThrowCheck(False, forced.cards, tuple(withdrawn), beaten_by, rule, reason)


def _playing_order(seats, leader: int | None, players: int) -> list:
    """``seats`` in playing order from the seat after ``leader`` (seat order without a leader)."""
    if leader is None:
        return sorted(seats)
    return sorted(seats, key=lambda s: (s - leader) % players)


def check_throw(lead, others: dict, order, leader: int | None = None, units: tuple | None = None) -> ThrowCheck:
    """Check a lead against the other players' hands (``{seat: cards}``, R-4.2/R-4.3).

    A lead of one unit is always ok.  A lead mixing suits fails with rule R-4.1 and nothing forced.
    ``leader``: the seat that threw; the seat named in ``beaten_by`` is the first in playing order
    after it that can beat the forced unit (without a leader: the lowest seat number).
    ``units``: the lead's :func:`.units.decompose` when the caller has it and knows the lead is of
    one suit.
    """
    lead = tuple(lead)
    if units is None:
        if _mixed(lead, order):
            return ThrowCheck(False, (), (), None, "R-4.1", check_lead(lead, order).reason)
        units = decompose(lead, order)
    if len(units) <= 1:
        return ThrowCheck(True, (), (), None, "R-4.1", "a single unit is not a throw")
    if order.ruleset.throws == "none":
        forced = _default_forced(units)
        return _fail(units, forced, lead, None, "R-4.1",
                     f"throws are not allowed in this variant: play {forced} and take back the rest")
    suit = units[0].suit
    suit_of = order.face_suit
    seats = list(others) if len(others) == 1 else _playing_order(others, leader, order.ruleset.players)
    held = {}
    counts = {}
    for seat in seats:
        in_suit = [c for c in others[seat] if suit_of[c.index] == suit]
        held[seat] = in_suit
        counts[seat] = count_groups(in_suit, order)
    # Beatable units, each with the first seat (in playing order) that beats it and how.
    # Only the forced unit's beating cards are named, so they are picked out for it alone.
    forced = None                    # (top, size) of the forced unit, the unit, the seat, its beating run
    for u in units:
        _kind, width, length, _cards, _suit, top = u     # unpacked: a named tuple's fields read slowly
        for seat, cnt in counts.items():
            hit = lowest_beating(cnt, (width, length), top, order)
            if hit is not None:
                key = (top, width * length)
                if forced is None or key < forced[0]:
                    forced = (key, u, seat, hit)          # the first of the lowest (top, size), as min() picks
                break
    if forced is not None:
        _key, u, seat, hit = forced
        cards = _cards_of(held[seat], hit[1], u.width, order)
        return _fail(units, u, lead, (seat, cards), "R-4.3",
                     f"the throw fails: seat {seat} can beat {u} with {' '.join([c.text for c in cards])}, "
                     f"so {u} is played and the rest goes back to the hand")
    if order.decks == 4 and others and all(not cards for cards in held.values()):
        # 四副牌 (seed 000): 當其他三方沒有自己所拿花色情況下，不能進行甩牌.
        forced = _default_forced(units)
        return _fail(units, forced, lead, None, "R-4.2",
                     f"with four decks you may not throw a suit nobody else holds: play {forced} "
                     f"and take back the rest")
    return ThrowCheck(True, (), (), None, "R-4.2", f"the throw stands: nobody else holds a higher unit of the "
                                                   f"same kind in {suit_name(suit, order)}")
