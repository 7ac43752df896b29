"""Trump membership and card order (R-2).

:class:`TrumpOrder` answers, for one hand (a ruleset, the level rank r and the trump suit t or
no-trump), three questions about every card face, all precomputed into tables indexed by
``Card.index`` so the follow/throw/trick code never re-derives them:

* ``suit_of(card)`` — the *effective* suit: ``'T'`` for every trump (R-2.1; all trumps form one
  suit), else the plain suit letter.  With the two-colour option (R-2.5) ``'H'`` stands for red
  (♥♦) and ``'S'`` for black (♠♣).
* ``rank_of(card)`` — the card's position within its effective suit, 0 for the lowest.  Equal-ranked
  cards (the level cards of the other suits, the off-suit permanent twos, R-2.2) share a position;
  adjacent positions differ by exactly 1, so taking the level rank out joins its neighbours (R-3.2).
* ``group_of(card)`` — which cards are "identical" for pairs, triples and quads: the face itself, or
  with two colours the (colour, rank) so that ♥K♦K is a pair (R-2.5).
"""
from __future__ import annotations

from operator import itemgetter, neg
from typing import Any, ClassVar

from .cards import ALL_FACES, JOKER, SMALL_JOKER_RANK, SUITS, Card

__all__ = ["TrumpOrder", "TRUMP", "OrderError"]

TRUMP = "T"
_COLOUR = {"S": "S", "C": "S", "H": "H", "D": "H"}   # two-colour: black is 'S', red is 'H'
_SAME = {s: s for s in SUITS}
_DISPLAY_SUIT = {TRUMP: 0, "S": 1, "H": 2, "C": 3, "D": 4}


_MISSING = object()
_INDICES = range(len(ALL_FACES))
# where a face's printed suit sorts among equal ranks (jokers: first)
_SUIT_PLACE = tuple(_DISPLAY_SUIT[c.suit] if c.suit != JOKER else 0 for c in ALL_FACES)


class OrderError(ValueError):
    """A level or trump suit that cannot exist."""


class TrumpOrder:
    """The trump set and card order of one hand.  Immutable; build once per hand and reuse.

    ``TrumpOrder(ruleset, level, trump)``: ``level`` is the level rank 2..14, ``trump`` one of
    ``'S' 'H' 'C' 'D'`` or ``None`` (or ``'NT'``) for no-trump.
    """

    __slots__ = ("ruleset", "level", "trump", "decks", "face_suit", "face_rank", "face_group",
                 "face_trump", "face_sort", "face_display", "faces_in_display", "_top_rank", "_members",
                 "effective_suits", "derived", "singles", "suit_pick")
    ruleset: Any
    level: int
    trump: str | None
    decks: int
    # The public per-face tables: tuples indexed by ``Card.index``, read directly by the follow,
    # throw, trick and bot code (a table look-up is the fast form; the methods below wrap them).
    face_suit: tuple
    """The effective suit of each face: ``'T'`` for every trump, else its (colour's) suit letter."""
    face_rank: tuple
    """The position of each face within its effective suit, 0 for the lowest (R-2.2, R-3.2)."""
    face_group: tuple
    """The identity group of each face: equal groups pair (the face, or (colour, rank), R-2.5)."""
    face_trump: tuple
    """Whether each face is a trump (R-2.1)."""
    face_sort: tuple
    """Each face's display sort key (effective suit's place, −rank, printed suit's place)."""
    face_display: tuple
    """Each face's place in display order as one int, 0 the first shown (a cheap sort key)."""
    faces_in_display: tuple
    """Every face in display order (``face_display`` inverted)."""
    effective_suits: tuple
    """The effective suits of this hand in display order (``'T'`` first)."""
    suit_pick: dict
    """Effective suit → (its face indices in display order, an ``itemgetter`` of them): a hand's
    counts of one suit's faces in one C call."""
    singles: tuple | None
    """Every face as a single :class:`~.units.Unit`, filled by ``rules.units`` on first use."""
    derived: dict
    """Values derived only from this order and a key (a lead's analysis, a follow rule): read with
    ``derived.get(key)``, filled through :meth:`memo`, which bounds it."""
    _top_rank: dict
    _members: dict

    def __init__(self, ruleset, level: int, trump: str | None):
        trump = _checked(level, trump)
        object.__setattr__(self, "ruleset", ruleset)
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "trump", trump)
        object.__setattr__(self, "decks", ruleset.decks)
        two_colour = ruleset.two_colour
        perm_twos = ruleset.permanent_twos and level != 2
        eff = (_COLOUR if two_colour else _SAME).__getitem__     # a plain suit's effective suit, in C
        t = eff(trump) if trump is not None else None

        # Plain-suit (and trump-suit) ranks, low → high, without the level and permanent twos.
        plain_ranks = [r for r in range(2, 15) if r != level and not (perm_twos and r == 2)]
        plain_pos = {r: i for i, r in enumerate(plain_ranks)}
        top_plain = len(plain_ranks)          # first position above the plain ranks (trump suit)
        pos = _trump_positions(top_plain, perm_twos, t is not None)
        pos_bj = pos["big_joker"]
        suit, rank, group, is_trump = _face_tables(level, t, perm_twos, two_colour, eff, plain_pos, pos)
        object.__setattr__(self, "face_suit", tuple(suit))
        object.__setattr__(self, "face_rank", tuple(rank))
        object.__setattr__(self, "face_group", tuple(group))
        object.__setattr__(self, "face_trump", tuple(is_trump))
        object.__setattr__(self, "_top_rank", {TRUMP: pos_bj, **{eff(s): top_plain - 1 for s in SUITS}})
        # (display place of the effective suit, −rank, place of the printed suit), zipped in C
        sort = list(zip(map(_DISPLAY_SUIT.__getitem__, suit), map(neg, rank), _SUIT_PLACE))
        object.__setattr__(self, "face_sort", tuple(sort))
        by_display, display, members = _display_tables(suit, sort)
        object.__setattr__(self, "face_display", tuple(display))
        object.__setattr__(self, "faces_in_display", tuple([ALL_FACES[i] for i in by_display]))
        object.__setattr__(self, "derived", {})
        object.__setattr__(self, "singles", None)
        object.__setattr__(self, "_members", {k: tuple([ALL_FACES[i] for i in m]) for k, m in members.items()})
        object.__setattr__(self, "effective_suits", tuple(members))
        # A hand's counts of one suit's faces in one C call (rules.follow reads a suit per check).
        object.__setattr__(self, "suit_pick", {k: (tuple(m), itemgetter(*m)) for k, m in members.items()})

    _CACHE: ClassVar[dict] = {}
    _CACHE_LIMIT: ClassVar[int] = 1024

    @classmethod
    def of(cls, ruleset, level: int, trump: str | None) -> TrumpOrder:
        """The one order of ``(ruleset, level, trump)``, built once and shared (orders are
        immutable, so a judge or a bot asking about many situations pays for the tables once)."""
        # Keyed by the ruleset's identity (hashing a 27-field ruleset costs more than the look-up);
        # the entry keeps the ruleset alive, so its id cannot be reused while it is cached.
        key = (id(ruleset), level, None if trump == "NT" else trump)
        try:
            entry = cls._CACHE.get(key)
        except TypeError:            # an unhashable level or trump: the constructor says what is wrong
            return cls(ruleset, level, trump)
        if entry is not None and entry[0] is ruleset:
            return entry[1]
        order = cls(ruleset, level, trump)
        if len(cls._CACHE) >= cls._CACHE_LIMIT:
            cls._CACHE.clear()
        cls._CACHE[key] = (ruleset, order)
        return order

    def __setattr__(self, name, value):
        raise AttributeError("TrumpOrder is immutable")

    def __repr__(self) -> str:
        return f"TrumpOrder(level={self.level}, trump={self.trump or 'NT'}, decks={self.decks})"

    MEMO_LIMIT = 50_000

    def memo(self, key, compute):
        """A value derived only from this order and ``key`` (e.g. a lead's analysis), computed once.

        The order stays immutable to its users; this cache is invisible apart from speed (a game
        asks about the same plays many times).  Bounded: cleared when it grows past a limit.
        """
        memo = self.derived
        value = memo.get(key, _MISSING)
        if value is not _MISSING:
            return value
        if len(memo) >= self.MEMO_LIMIT:
            memo.clear()
        value = memo[key] = compute()
        return value

    # ---- per-card questions (table look-ups) ------------------------------------------------
    def is_trump(self, card: Card) -> bool:
        """R-2.1: jokers, level cards, the trump suit (and every 2 with permanent twos)."""
        return self.face_trump[card.index]

    def suit_of(self, card: Card) -> str:
        """Effective suit: ``'T'`` for trumps, else ``S H C D`` (two colours: ``S`` black, ``H`` red)."""
        return self.face_suit[card.index]

    def rank_of(self, card: Card) -> int:
        """Position within the effective suit, 0 = lowest; equal ranks share, adjacent differ by 1."""
        return self.face_rank[card.index]

    def group_of(self, card: Card) -> int:
        """Cards with the same group are identical for pairs/triples/quads (R-3.1, R-2.5)."""
        return self.face_group[card.index]

    def sort_key(self, card: Card) -> tuple:
        """Display order, high → low: trumps first (BJ LJ …), then ♠ ♥ ♣ ♦, each high → low."""
        return self.face_sort[card.index]

    def sorted(self, cards) -> list:
        """``cards`` sorted for display, high → low."""
        # one int per face, looked up in C (identical faces are the same object, so order among
        # them does not matter)
        return [ALL_FACES[i] for i in sorted([c.index for c in cards], key=self.face_display.__getitem__)]

    def top_rank(self, suit: str) -> int:
        """The highest position in an effective suit."""
        return self._top_rank[suit]

    def suit_members(self, suit: str) -> tuple:
        """Every face in an effective suit, high → low."""
        return self._members.get(suit, ())

    def suits(self) -> tuple:
        """The effective suits of this hand (``'T'`` first)."""
        return self.effective_suits

    def compare(self, a: Card, b: Card) -> int:
        """Within one effective suit: >0 if ``a`` ranks above ``b``, 0 if equal (R-2.4: the earlier wins)."""
        return self.face_rank[a.index] - self.face_rank[b.index]


def _checked(level, trump) -> str | None:
    """The trump suit (None for no-trump) of a valid ``(level, trump)``, else :class:`OrderError`."""
    if not isinstance(level, int) or not 2 <= level <= 14:
        raise OrderError(f"the level is a rank 2..14 (2-10, J=11, Q=12, K=13, A=14), not {level!r}")
    if trump == "NT":
        return None
    if trump is not None and trump not in SUITS:
        raise OrderError(f"trump is S, H, C, D or NT, not {trump!r}")
    return trump


def _display_tables(suit: list, sort: list) -> tuple:
    """The faces' indices in display order, each face's place in it (the sort keys are distinct,
    so one integer per face is a cheap sort key) and each effective suit's face indices in display
    order (the suits in display order too)."""
    by_display = sorted(_INDICES, key=sort.__getitem__)
    display = [0] * len(ALL_FACES)
    members: dict = {}
    for n, i in enumerate(by_display):
        display[i] = n
        s = suit[i]
        if s in members:
            members[s].append(i)
        else:
            members[s] = [i]
    return by_display, display, members


def _trump_positions(top_plain: int, perm_twos: bool, has_trump: bool) -> dict:
    """Rank positions of the trump specials above the trump suit's plain cards (R-2.2), low → high:
    permanent twos off and in the trump suit, level cards off and in the trump suit, the jokers.
    With no trump suit the "in suit" positions are the "off suit" ones."""
    nxt = top_plain
    two_off = two_t = 0                 # only used with permanent twos
    if perm_twos:
        two_off, nxt = nxt, nxt + 1
        two_t, nxt = (nxt, nxt + 1) if has_trump else (two_off, nxt)
    level_off, nxt = nxt, nxt + 1
    level_t, nxt = (nxt, nxt + 1) if has_trump else (level_off, nxt)
    return {"two_off": two_off, "two_t": two_t, "level_off": level_off, "level_t": level_t,
            "small_joker": nxt, "big_joker": nxt + 1}


def _face_tables(level, t, perm_twos, two_colour, eff, plain_pos, pos) -> tuple:
    """Per face index: effective suit, rank position, identity group and whether it is trump."""
    n = len(ALL_FACES)
    suit = [""] * n
    rank = [0] * n
    group = [0] * n
    is_trump = [False] * n
    for c in ALL_FACES:
        i = c.index
        if c.suit == JOKER:
            suit[i], is_trump[i] = TRUMP, True
            rank[i] = pos["small_joker"] if c.rank == SMALL_JOKER_RANK else pos["big_joker"]
            group[i] = i
            continue
        es = eff(c.suit)
        group[i] = Card(es, c.rank).index if two_colour else i
        if c.rank == level:
            suit[i], is_trump[i] = TRUMP, True
            rank[i] = pos["level_t"] if es == t else pos["level_off"]
        elif perm_twos and c.rank == 2:
            suit[i], is_trump[i] = TRUMP, True
            rank[i] = pos["two_t"] if es == t else pos["two_off"]
        elif es == t:
            suit[i], is_trump[i] = TRUMP, True
            rank[i] = plain_pos[c.rank]
        else:
            suit[i] = es
            rank[i] = plain_pos[c.rank]
    return suit, rank, group, is_trump
