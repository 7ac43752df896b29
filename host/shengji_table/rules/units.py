"""Units (牌型) and the canonical split of a play into units (R-3).

A *unit* is a single, a pair, a triple, a quad (R-3.1) or a tractor: two or more groups of the same
width at adjacent positions of one effective suit (R-3.2 pairs, R-3.5 triples = Titanic, R-3.6
quads).  Adjacency is a difference of 1 in :meth:`TrumpOrder.rank_of`, so the level rank (and the
permanent twos) joining their neighbours, the trump chain across level cards and jokers (R-3.3), "equal ranks
are not adjacent" and "no wrap-around" (R-3.4) all follow from the order tables.

:func:`decompose` is the canonical split used for throws, rulings and the kitty multiplier: widest
groups first; at each width the longest run first (ties: the higher run), then the plain groups.
"""
from __future__ import annotations

from functools import partial
from typing import NamedTuple

from .cards import ALL_FACES, multiset_key

__all__ = ["Unit", "decompose", "is_single_unit", "shape_of", "KINDS"]

KINDS = {1: "single", 2: "pair", 3: "triple", 4: "quad"}


class Unit(NamedTuple):
    """One unit: ``kind`` (single/pair/triple/quad/tractor), ``width`` (cards per group),
    ``length`` (groups), ``cards`` (high → low), ``suit`` (effective) and ``top`` (rank_of of its
    highest group).  Immutable; a named tuple because plays are split into units very often and a
    tuple is built several times faster than a frozen dataclass."""

    kind: str
    width: int
    length: int
    cards: tuple
    suit: str
    top: int

    @property
    def component(self) -> tuple:
        """``(width, length)``."""
        return (self.width, self.length)

    @property
    def size(self) -> int:
        return self.width * self.length

    def as_json(self) -> dict:
        """The judge's form: ``{"kind", "width", "length", "cards"}``."""
        texts = []
        for c in self.cards:
            texts.append(c.text)
        return {"kind": self.kind, "width": self.width, "length": self.length, "cards": texts}

    def __str__(self) -> str:
        return " ".join([c.text for c in self.cards])


# Builds a Unit from its field tuple in C (Unit(...) goes through a Python-level __new__).
_unit = partial(tuple.__new__, Unit)


def _singles(order) -> tuple:
    """Every face as a single of this order, by ``Card.index`` (built once per order and kept
    beside its memo, which a cold benchmark clears)."""
    singles = order.singles
    if singles is None:
        suit, rank = order.face_suit, order.face_rank
        singles = tuple(_unit(("single", 1, 1, (c,), suit[c.index], rank[c.index])) for c in ALL_FACES)
        object.__setattr__(order, "singles", singles)
    return singles


def _make_unit(width: int, groups_hi_lo, cards_of, suit: str, top: int, order) -> Unit:
    cards = []
    for g in groups_hi_lo:
        pool = cards_of[g]
        cards.extend(pool[:width])
        del pool[:width]
    length = len(groups_hi_lo)
    kind = "tractor" if length >= 2 else KINDS[width]
    return _unit((kind, width, length, tuple(cards), suit, top))


def _groups_by_position(counts: dict, w: int, rank, sort) -> dict:
    """Rank position → the group standing there, among the groups with at least ``w`` cards left;
    at a shared position, the group with most cards, then the higher face."""
    bypos: dict = {}
    for g, n in counts.items():
        if n >= w:
            p = rank[g]
            cur = bypos.get(p)
            if cur is None or (n, -sort[g][2]) > (counts[cur], -sort[cur][2]):
                bypos[p] = g
    return bypos


def _longest_run(positions: list):
    """``(start, length)`` of the longest run of adjacent positions in the sorted ``positions``
    (ties: the higher run), or ``None`` when no two are adjacent."""
    best = None
    i = 0
    while i < len(positions):
        j = i
        while j + 1 < len(positions) and positions[j + 1] == positions[j] + 1:
            j += 1
        length = j - i + 1
        if length >= 2 and (best is None or length >= best[1]):
            best = (i, length)
        i = j + 1
    return best


def _decompose_suit(cards, suit: str, order) -> list:
    """The units of cards of one effective suit, in the canonical order (widest/longest first)."""
    rank, group = order.face_rank, order.face_group
    # high → low by display position (a C-level key: no Python call per card)
    indices = []
    for c in cards:
        indices.append(c.index)
    indices.sort(key=order.face_display.__getitem__)
    cards_of: dict = {}
    for i in indices:
        g = group[i]
        pool = cards_of.get(g)
        if pool is None:
            cards_of[g] = [ALL_FACES[i]]
        else:
            pool.append(ALL_FACES[i])
    # The two commonest plays, by counting: all singles (already high → low, as the sort key of one
    # suit is its rank), or one group (a single, pair, triple or quad).
    if len(cards_of) == len(indices):
        singles = _singles(order)
        return [singles[i] for i in indices]
    if len(cards_of) == 1:
        g, n = group[indices[0]], len(indices)
        return [_unit((KINDS[n], n, 1, tuple(cards_of[g]), suit, rank[g]))]
    counts = {g: len(v) for g, v in cards_of.items()}
    plain = _without_runs(counts, cards_of, suit, order)
    if plain is not None:
        return plain
    return _split_with_runs(counts, cards_of, suit, order)


def _split_with_runs(counts: dict, cards_of: dict, suit: str, order) -> list:
    """The general split, when a tractor may form: for each width, widest first, the longest runs
    (ties: the highest), then that width's plain groups; the singles last (R-3)."""
    rank, sort = order.face_rank, order.face_sort
    units = []
    max_w = max(counts.values())
    for w in range(max_w, 1, -1):
        # Runs of width w, longest first (ties: highest).
        while True:
            bypos = _groups_by_position(counts, w, rank, sort)
            positions = sorted(bypos)
            best = _longest_run(positions)
            if best is None:
                break
            i, length = best
            gs = [bypos[p] for p in reversed(positions[i:i + length])]
            units.append(_make_unit(w, gs, cards_of, suit, positions[i + length - 1], order))
            for g in gs:
                counts[g] -= w
        # Then the plain groups of width w, highest first.
        for g in sorted([g for g, n in counts.items() if n >= w], key=rank.__getitem__, reverse=True):
            while counts[g] >= w:
                units.append(_make_unit(w, [g], cards_of, suit, rank[g], order))
                counts[g] -= w
    for g in sorted([g for g, n in counts.items() if n], key=rank.__getitem__, reverse=True):
        for _ in range(counts[g]):
            units.append(_make_unit(1, [g], cards_of, suit, rank[g], order))
    units.sort(key=_unit_order)
    return units


def _without_runs(counts: dict, cards_of: dict, suit: str, order) -> list | None:
    """The split by counting when no tractor can form — no two groups of two or more cards at
    adjacent positions: each such group is one unit (widest first, then highest), then the singles
    (highest first); equal keys keep the display order, as the general split does.  ``None`` when a
    run is possible (then the general split decides)."""
    rank = order.face_rank
    wide = [g for g, n in counts.items() if n >= 2]
    positions = sorted({rank[g] for g in wide})
    for a, b in zip(positions, positions[1:]):
        if b - a == 1:
            return None
    # widest first, then highest; equal keys keep their order (a stable sort, reverse included)
    wide.sort(key=rank.__getitem__, reverse=True)
    wide.sort(key=counts.__getitem__, reverse=True)
    units = [_unit((KINDS[counts[g]], counts[g], 1, tuple(cards_of[g]), suit, rank[g])) for g in wide]
    singles = _singles(order)
    units += [singles[cards_of[g][0].index] for g in sorted([g for g, n in counts.items() if n == 1],
                                                               key=rank.__getitem__, reverse=True)]
    return units


def _unit_order(u: Unit):
    return (-(u.length >= 2), -u.width * u.length, -u.width, -u.top)


def decompose(cards, order) -> tuple:
    """The canonical split of a play into units, widest/longest first (R-3).

    A play mixing effective suits (a follower's discard) is split suit by suit, trumps first.
    """
    if not isinstance(cards, (tuple, list)):
        cards = list(cards)
    if not cards:
        return ()
    if len(cards) == 1:
        return (_singles(order)[cards[0].index],)
    if len(cards) == 2:              # a pair or two singles: split at once, cheaper than the memo
        return _decompose(cards, order)
    key = ("decompose", multiset_key(cards))
    memo = order.derived
    units = memo.get(key)
    if units is None:
        units = _decompose(cards, order)
        if len(memo) >= order.MEMO_LIMIT:
            memo.clear()
        memo[key] = units
    return units


def _decompose(cards, order) -> tuple:
    group = order.face_group
    n = len(cards)
    g0 = group[cards[0].index]
    if n <= 4:
        for c in cards:
            if group[c.index] != g0:
                break
        else:                        # one group (a pair, triple or quad): one unit, by counting
            return (_unit((KINDS[n], n, 1, tuple(order.sorted(cards)) if order.ruleset.two_colour else tuple(cards),
                           order.face_suit[cards[0].index], order.face_rank[g0])),)
    indices = []
    groups = set()
    for c in cards:
        i = c.index
        indices.append(i)
        groups.add(group[i])
    if len(groups) == len(indices):
        # No two identical cards (the commonest play): singles in display order, which is trumps
        # first, then ♠ ♥ ♣ ♦, each high → low — the canonical order of singles.
        singles = _singles(order)
        indices.sort(key=order.face_display.__getitem__)
        return tuple([singles[i] for i in indices])
    suit_of = order.face_suit
    by_suit: dict = {}
    for c in cards:
        s = suit_of[c.index]
        if s in by_suit:
            by_suit[s].append(c)
        else:
            by_suit[s] = [c]
    if len(by_suit) == 1:
        s, part = by_suit.popitem()
        return tuple(_decompose_suit(part, s, order))
    units = []
    for s in order.effective_suits:
        part = by_suit.get(s)
        if part is not None:
            units.extend(_decompose_suit(part, s, order))
    return tuple(units)


def is_single_unit(cards, order) -> bool:
    """Whether ``cards`` form exactly one unit (a lead that is not a throw, R-4.1)."""
    cards = list(cards)
    if not cards:
        return False
    return len(decompose(cards, order)) == 1


def shape_of(units) -> tuple:
    """The shape signature of a play: its units' ``(width, length)``, largest first."""
    if len(units) == 1:
        u = units[0]
        return ((u.width, u.length),)
    # sorted by tuples built once (equal keys are equal components, so the order is the same)
    keyed = sorted([(-(u.length >= 2), -u.width * u.length, -u.width, u.width, u.length) for u in units])
    return tuple([(k[3], k[4]) for k in keyed])
