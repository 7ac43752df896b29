"""Winning a trick, ruffs and points (R-5), and the units a hand could lead (for bots).

* R-5.1: only a play with the lead's shape can win; within the led suit a higher play of that shape
  beats the best so far; on equal rank the earlier play stays best (R-2.4).
* R-5.2: a player void in a led plain suit may ruff with trumps; the ruff wins only with the lead's
  shape (at least the lead's tractors and pairs of the same lengths), else it is a discard.
* R-5.3: ruffs, and same-suit plays of a throw's shape, compare the highest-ranked unit of the
  lead's largest kind (tractor, then triple/pair, then single).
* R-3.6 (four decks): for a one-unit tractor lead, a run of the same number of cards but wider
  groups (and a quad against a two-pair tractor) has the lead's shape and beats any narrower run.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from operator import add

from .cards import ALL_FACES
from .shapes import best_top, count_groups
from .units import decompose

__all__ = ["Play", "Trick", "winning_index", "single_winner", "single_strengths", "trick_points",
           "lead_candidates", "TrickShape"]


@dataclass(frozen=True, slots=True, init=False)
class Play:
    """One seat's cards in a trick (lead first in a trick's list): ``Play(seat, cards)``, the cards
    kept as a tuple.  Built for every play (a game's, a bot's, the judge's by the thousand): the
    constructor stores the two slots through their own setters, without a frozen dataclass's
    ``object.__setattr__`` per field."""

    seat: int
    cards: tuple

    def __init__(self, seat: int, cards) -> None:
        _SET_SEAT(self, seat)
        _SET_CARDS(self, cards if isinstance(cards, tuple) else tuple(cards))


# the slots' own setters: cheaper than object.__setattr__, which looks the name up first
_SET_SEAT, _SET_CARDS = Play.__dict__["seat"].__set__, Play.__dict__["cards"].__set__


def _largest(components) -> tuple:
    """The lead's largest kind (R-5.3): tractors first, then the most cards, then the widest; the
    first of equals (as max() keeps it)."""
    best = components[0]
    best_key = (best[1] >= 2, best[0] * best[1], best[0])
    for c in components:
        key = (c[1] >= 2, c[0] * c[1], c[0])
        if key > best_key:
            best, best_key = c, key
    return best


class TrickShape:
    """The lead of a trick, analysed once: compares any later play with it (R-5)."""

    __slots__ = ("order", "suit", "count", "units", "components", "main", "rest", "single", "lead", "_lead_key")

    def __init__(self, lead, order, units: tuple | None = None):
        lead = tuple(lead)
        self.order = order
        self.lead = lead
        self._lead_key: tuple | None = None     # the lead's own key, () when it has none
        self.count = len(lead)
        self.suit = order.face_suit[lead[0].index] if lead else None
        self.units = units = decompose(lead, order) if units is None else units
        if len(units) == 1:          # one unit (the commonest lead): it is the largest kind
            u = self.single = units[0]
            self.main = (u.width, u.length)
            self.components: tuple = (self.main,)
            self.rest: tuple = ()
            return
        self.components = tuple([(u.width, u.length) for u in units])
        self.single = None
        main = _largest(self.components) if self.components else (1, 1)
        rest = list(self.components)
        rest.remove(main)
        self.main, self.rest = main, tuple(rest)

    def key(self, cards) -> tuple | None:
        """How strongly ``cards`` (all of one effective suit) meet the lead's shape; None if not."""
        cards = tuple(cards)
        if len(cards) != self.count:
            return None
        order = self.order
        u = self.single
        if u is not None and u.width == 1:
            return (1, order.face_rank[cards[0].index])
        if u is not None and u.length == 1:
            # a pair, triple or quad lead: a play meets it exactly when it is one group (of
            # the lead's count, so of its width), by counting — what _key finds by splitting it
            group = order.face_group
            g = group[cards[0].index]
            for c in cards:
                if group[c.index] != g:
                    return None
            return (u.width, order.face_rank[g])
        if cards == self.lead:          # the lead itself: worked out once (a throw's costs a search)
            if self._lead_key is None:
                self._lead_key = self._key(cards) or ()
            return self._lead_key or None
        return self._key(cards)

    def _key(self, cards) -> tuple | None:
        order = self.order
        if self.single is not None:
            u = self.single
            units = decompose(cards, order)
            if len(units) != 1:
                return None
            v = units[0]
            if v.width == u.width and v.length == u.length:
                return (v.width, v.top)
            if (order.decks == 4 and u.length >= 2 and v.width > u.width
                    and (v.length >= 2 or (v.width == 4 and u.width == 2 and u.length == 2))):
                return (v.width, v.top)
            return None
        counts = count_groups(cards, order)
        top = best_top(counts, self.main, self.rest, order)
        return None if top is None else (0, top)


def winning_index(plays, order, shape: TrickShape | None = None) -> int:
    """Index (into ``plays``, lead first) of the play that currently wins the trick (R-5).

    Plays with the wrong number of cards, or mixing suits, never win.
    """
    if type(plays) is not list and type(plays) is not tuple:
        plays = list(plays)
    if not plays:
        raise ValueError("a trick has at least a lead")
    if shape is None:
        first = plays[0]
        if len(first.cards if type(first) is Play else first) == 1:
            return single_winner(plays, order)       # the commonest trick: without converting the plays
    plays = [p if type(p) is tuple else p.cards if type(p) is Play else tuple(p) for p in plays]
    return _shaped_winner(plays, order, TrickShape(plays[0], order) if shape is None else shape)


def _shaped_winner(plays: list, order, shape: TrickShape) -> int:
    """:func:`winning_index` by the lead's shape (``plays``: card tuples)."""
    suit_of = order.face_suit
    lead_suit = shape.suit
    best, best_key, best_ruff = 0, shape.key(plays[0]) or (0, -1), False
    for i in range(1, len(plays)):
        cards = plays[i]
        if len(cards) != shape.count or not cards:
            continue
        s = suit_of[cards[0].index]
        mixed = False
        for c in cards:              # a plain loop: cheaper than any() over a generator
            if suit_of[c.index] != s:
                mixed = True
                break
        if mixed:
            continue
        if s == lead_suit:
            if best_ruff:
                continue
            ruff = False
        elif s == "T":
            ruff = True
        else:
            continue
        key = shape.key(cards)
        if key is None:
            continue
        if ruff and not best_ruff:
            best, best_key, best_ruff = i, key, True
        elif key > best_key:
            best, best_key = i, key
    return best


def single_winner(plays, order) -> int:
    """``winning_index`` of a one-card lead, by rank alone: the highest card of the led suit wins,
    a trump ruffs it, a higher trump over-ruffs; on equal rank the earlier card stays (R-5.1, R-5.2).
    ``plays``: :class:`Play`\\ s (the game's kept face plays) or card sequences.  The first of the
    highest :func:`single_strengths` (a play of more than one card never wins)."""
    first = plays[0]
    lead = (first.cards if type(first) is Play else first)[0].index
    suit = order.face_suit[lead]
    strength = order.derived.get(("single strengths", suit)) or single_strengths(order, suit)
    best, best_value = 0, strength[lead]
    for i in range(1, len(plays)):
        cards = plays[i]
        if type(cards) is Play:
            cards = cards.cards
        if len(cards) == 1 and strength[cards[0].index] > best_value:
            best, best_value = i, strength[cards[0].index]
    return best


_RUFF = 1000              # above every rank (a rank is a place in the order: a few dozen at most)


def single_strengths(order, suit: str) -> tuple:
    """By face index, what a one card is worth in a one-card trick led in effective suit ``suit``:
    its rank in the led suit, a trump's rank lifted above them all (a ruff, R-5.2), below zero for
    a discard.  The first of the highest wins — :func:`single_winner` in one ``max`` (R-5.1, R-2.4).
    Kept in the order's memo (built in C: a rank plus its suit's offset)."""
    key = ("single strengths", suit)
    table = order.derived.get(key)
    if table is None:
        offset = {suit: 0, "T": _RUFF} if suit != "T" else {suit: 0}
        table = order.memo(key, lambda: tuple(map(add, order.face_rank,
                                                  map(offset.get, order.face_suit, repeat(-_RUFF)))))
    return table


@dataclass(frozen=True, slots=True)
class Trick:
    """The plays of one trick in order, lead first: who leads, who wins under an order, its points.

    Example: ``Trick((Play(0, parse_cards("AS")), Play(1, parse_cards("5S")))).points()`` is 5, and
    ``.winner(order)`` is 0 under any order with spades plain.
    """

    plays: tuple[Play, ...]

    @property
    def leader(self) -> int:
        return self.plays[0].seat

    @property
    def lead(self) -> tuple:
        return self.plays[0].cards

    def winner(self, order) -> int:
        """The seat whose play wins the trick (R-5)."""
        return self.plays[winning_index(self.plays, order)].seat

    def points(self) -> int:
        return trick_points(self.plays)


def trick_points(plays) -> int:
    """Points in the cards of a trick (R-1.4, R-5.4)."""
    total = 0
    for p in plays:
        for c in (p.cards if type(p) is Play else p):
            total += c.points
    return total


def lead_candidates(hand, order) -> list:
    """Every single unit the hand could lead (singles, pairs, triples, quads, every tractor).

    Each is a tuple of cards, high → low; suits in display order.  A throw is not a single unit and
    is not listed.  (A random bot draws from it at every lead.)
    """
    if order.ruleset.two_colour:
        return _candidates_by_group(hand, order)
    return _candidates_by_face(hand, order)


def _candidates_by_group(hand, order) -> list:
    """:func:`lead_candidates` for any order: by identity groups (two colours: ♥K♦K is a pair)."""
    rank, suit_of = order.face_rank, order.face_suit
    out: list = []
    by_group: dict = {}                  # the groups of two or more cards: where tractors come from
    by_suit_pos: dict = {}
    widest = 1
    groups = _groups_by_display(hand, order)
    for g, cards in groups.items():
        n = len(cards)
        if n == 1:
            out.append((cards[0],))
            continue
        prev = None
        for c in cards:                      # distinct faces (two colours: ♥K and ♦K)
            if c is not prev:
                out.append((c,))
                prev = c
        for w in range(2, n + 1):
            out.append(tuple(cards[:w]))
        widest = max(widest, n)
        by_group[g] = cards
        by_suit_pos.setdefault(suit_of[g], {}).setdefault(rank[g], []).append(g)
    if by_suit_pos:
        _tractors(by_suit_pos, by_group, widest, out)
    return out


_SINGLE = tuple((f,) for f in ALL_FACES)      # each face as a one-card lead


def _candidates_by_face(hand, order) -> list:
    """:func:`lead_candidates` where every face is its own group (no two colours), the same list in
    the same order from the hand's face numbers: only the faces held two or more times are walked."""
    idx = sorted([c.index for c in hand])
    distinct = sorted(set(idx), key=order.face_display.__getitem__)
    if len(distinct) == len(idx):                 # no pair at all: every card a single
        return [_SINGLE[i] for i in distinct]
    count = dict.fromkeys(distinct, 1)
    for a, b in zip(idx, idx[1:]):
        if a == b:
            count[a] += 1
    rank, suit_of = order.face_rank, order.face_suit
    out: list = []
    by_suit_pos: dict = {}        # suit → {rank position: the faces there held two or more times}
    widest = 1
    for i in distinct:
        out.append(_SINGLE[i])
        k = count[i]
        if k > 1:
            f = ALL_FACES[i]
            out.extend([(f,) * w for w in range(2, k + 1)])
            widest = max(widest, k)
            by_suit_pos.setdefault(suit_of[i], {}).setdefault(rank[i], []).append(i)
    for bypos in by_suit_pos.values():
        if len(bypos) >= 2:       # one position holds a tuple: no tractor in this suit
            _runs_by_face(bypos, count, widest, out)
    return out


def _runs_by_face(bypos: dict, count: dict, widest: int, out: list) -> None:
    """The tractors of one suit, appended to ``out``: for each width from 2, every run of adjacent
    positions of ``bypos`` (rank position → the faces there held two or more times)."""
    for w in range(2, widest + 1):
        for start in bypos:   # every run of adjacent positions from here (off-suit level cards share one)
            if start + 1 not in bypos:
                continue      # no neighbour above: no run starts here
            runs: list = [()]
            p = start
            while True:
                here = [i for i in bypos.get(p, ()) if count[i] >= w]
                if not here:
                    break
                runs = [(ALL_FACES[i],) * w + r for r in runs for i in here]   # high → low
                if p > start:
                    out.extend(runs)
                p += 1


def _groups_by_display(hand, order) -> dict:
    """``{group: its cards, high → low}`` in display order of each group's first card."""
    group = order.face_group
    by_group: dict = {}
    for i in sorted([c.index for c in hand], key=order.face_display.__getitem__):
        cards = by_group.get(group[i])
        if cards is None:
            by_group[group[i]] = [ALL_FACES[i]]
        else:
            cards.append(ALL_FACES[i])
    return by_group


def _tractors(by_suit_pos: dict, by_group: dict, widest: int, out: list) -> None:
    """Append every run of ≥ 2 adjacent positions with a group of ≥ w cards at each, per width w
    (two colours: several groups can share a position, so each choice is a tractor)."""
    for bypos in by_suit_pos.values():
        if len(bypos) < 2:
            continue                         # one position holds a group: no run in this suit
        for w in range(2, widest + 1):
            for start in bypos:
                chains: list = [[]]
                p = start
                while True:
                    gs = [g for g in bypos.get(p, ()) if len(by_group[g]) >= w]
                    if not gs:
                        break
                    chains = [ch + [g] for ch in chains for g in gs]
                    if p > start:
                        for ch in chains:
                            cards = []
                            for g in reversed(ch):
                                cards.extend(by_group[g][:w])
                            out.append(tuple(cards))
                    p += 1
