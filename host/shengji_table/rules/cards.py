"""Cards and their notation (R-1).

Vocabulary:

* :class:`Card` — a face: a suit and a rank, or a joker.  The rules only ever look at faces (R-1.2).
  The 54 faces are interned: ``Card.parse("S10") is Card.parse("♠10")``.
* :class:`CardCopy` — one physical card: a face plus the index of the deck it belongs to (1-based).
  RFID tags map to copies; the game layer tracks copies, the rules see their faces.

Notation (R-1.3), both ways: ``S10`` ``HA`` ``D2`` ``CQ``; ``T`` for 10; small joker ``LJ``, big
joker ``BJ``; optional copy suffix ``#2``.  On input also Unicode suits (♠♥♣♦ and ♤♡♧♢), ``小王``
and ``大王``, lower case, and a rank-first order (``10S``).  ``str()`` prints the canonical form.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from operator import attrgetter

__all__ = [
    "SUITS", "RANKS", "JOKER", "SMALL_JOKER_RANK", "BIG_JOKER_RANK",
    "Card", "CardCopy", "CardError", "parse_card", "parse_cards", "parse_copy",
    "faces_of", "multiset_key", "COPY_KEY",
    "format_cards", "full_deck", "all_copies", "parse_rank", "rank_from_text", "rank_text", "level_text",
    "points_of", "SUIT_SYMBOL", "suit_word", "suit_symbol", "trump_text",
]

SUITS = ("S", "H", "C", "D")          # ♠ ♥ ♣ ♦
JOKER = "J"                           # the pseudo-suit of both jokers
RANKS = tuple(range(2, 15))           # 2..10, J=11, Q=12, K=13, A=14
SMALL_JOKER_RANK = 15
BIG_JOKER_RANK = 16

_RANK_TEXT = {11: "J", 12: "Q", 13: "K", 14: "A"}
_TEXT_RANK = {"J": 11, "Q": 12, "K": 13, "A": 14, "T": 10}
_SUIT_ALIASES = {
    "S": "S", "H": "H", "C": "C", "D": "D",
    "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♣": "C", "♧": "C", "♦": "D", "♢": "D",
    "黑桃": "S", "红桃": "H", "紅桃": "H", "梅花": "C", "草花": "C", "方块": "D", "方塊": "D",
}
_JOKER_ALIASES = {
    "LJ": SMALL_JOKER_RANK, "小王": SMALL_JOKER_RANK, "XW": SMALL_JOKER_RANK,
    "BJ": BIG_JOKER_RANK, "大王": BIG_JOKER_RANK, "DW": BIG_JOKER_RANK,
}
SUIT_SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
_SUIT_WORD: dict[str | None, str] = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds", None: "no trump"}


class CardError(ValueError):
    """Text that is not a card, or a card that cannot exist (e.g. a copy of deck 0)."""


def rank_text(rank: int) -> str:
    """``10`` → ``"10"``, ``14`` → ``"A"``.  Also the text of a level (R-8.4): a level is a rank."""
    return _RANK_TEXT.get(rank, str(rank))


level_text = rank_text


def parse_rank(text, *, digits_to: int = 10) -> int:
    """``"10"``/``"T"`` → 10, ``"a"`` → 14.  Raises :class:`CardError` for anything else.

    ``digits_to``: the highest rank also accepted as a number (``"14"``); levels accept up to 14
    (``rules.ruleset.level_from_text``), cards write 11–14 only as J, Q, K, A."""
    t = str(text).strip().upper()
    if t in _TEXT_RANK:
        return _TEXT_RANK[t]
    if t.isdigit() and 2 <= int(t) <= digits_to:
        return int(t)
    raise CardError(f"not a rank: {text!r} (ranks are 2-10, J, Q, K, A; T means 10)")


rank_from_text = parse_rank


def suit_word(suit: str | None) -> str:
    """``"S"`` → ``"spades"``; ``None`` (no trump) → ``"no trump"`` — the announcements' words."""
    return _SUIT_WORD[suit]


def suit_symbol(suit: str | None) -> str:
    """``"S"`` → ``"♠"``; ``None`` (no trump) → ``"NT"`` — the terminal's notation."""
    return "NT" if suit is None else SUIT_SYMBOL[suit]


def trump_text(trump: str | None) -> str:
    """``"S"`` → ``"S"``; ``None`` (no trump) → ``"NT"`` — the judge's notation."""
    return "NT" if trump is None else trump


def points_of(rank: int) -> int:
    """Points of a card of this rank (R-1.4): 5 → 5, 10 and K → 10, everything else 0."""
    return 5 if rank == 5 else 10 if rank in (10, 13) else 0


class Card:
    """A card face.  Interned: compare with ``==`` or ``is``; hashable; ordered by index only.

    Attributes: ``suit`` (``S H C D``, or ``J`` for jokers), ``rank`` (2..14, 15 small joker,
    16 big joker), ``points`` (R-1.4), ``index`` (0..53, a stable small integer) and ``text``.
    """

    __slots__ = ("suit", "rank", "points", "index", "text")
    suit: str
    rank: int
    points: int
    index: int
    text: str
    """The card as written: ``SA``, ``H10``, ``LJ``, ``BJ`` (what ``str(card)`` returns)."""
    _all: dict = {}

    def __new__(cls, suit: str, rank: int) -> Card:
        key = (suit, rank)
        card = cls._all.get(key)
        if card is not None:
            return card
        if suit == JOKER:
            if rank not in (SMALL_JOKER_RANK, BIG_JOKER_RANK):
                raise CardError(f"a joker is small ({SMALL_JOKER_RANK}) or big ({BIG_JOKER_RANK}), not {rank}")
        elif suit not in SUITS or rank not in RANKS:
            raise CardError(f"no such card: suit {suit!r} rank {rank!r}")
        card = object.__new__(cls)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "points", points_of(rank) if suit != JOKER else 0)
        object.__setattr__(card, "index", len(cls._all))
        text = ("LJ" if rank == SMALL_JOKER_RANK else "BJ") if suit == JOKER else suit + rank_text(rank)
        object.__setattr__(card, "text", text)
        cls._all[key] = card
        return card

    def __setattr__(self, name, value):
        raise AttributeError("Card is immutable")

    def __reduce__(self):
        return (Card, (self.suit, self.rank))

    @property
    def is_joker(self) -> bool:
        return self.suit == JOKER

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text})"

    def __hash__(self) -> int:
        return self.index            # stable across processes (set order does not depend on addresses)

    # No __eq__: faces are interned, so equality is identity — object's own, compared in C.  A
    # Python-level __eq__ cost a call for every unequal pair in `in`, `remove` and tuple compares.

    def __lt__(self, other: Card) -> bool:  # a stable display/sort order, not a rules order
        return self.index < other.index

    def unicode(self) -> str:
        """``♠10``, ``小王``, ``大王``."""
        if self.suit == JOKER:
            return "小王" if self.rank == SMALL_JOKER_RANK else "大王"
        return SUIT_SYMBOL[self.suit] + rank_text(self.rank)

    @staticmethod
    def parse(text: str) -> Card:
        """Parse one face (a ``#n`` copy suffix is accepted and ignored)."""
        return parse_copy(text, allow_no_copy=True).card


# Intern all 54 faces in a fixed order so that ``index`` is stable across runs and processes.
for _s in SUITS:
    for _r in RANKS:
        Card(_s, _r)
SMALL_JOKER = Card(JOKER, SMALL_JOKER_RANK)
BIG_JOKER = Card(JOKER, BIG_JOKER_RANK)
ALL_FACES = tuple(Card._all.values())


class CardCopy(float):
    """One physical card: a face and its deck (1-based).  ``str()`` gives ``S10#2``.

    A copy's value is its number ``key`` (index·8 + deck) as a ``float``, so that hashing and
    comparing a copy run in C — a hand hashes copies hundreds of times (held cards, the played
    set), and a Python ``__hash__``/``__eq__`` was a call each time.  A float because it is the
    built-in number that takes ``__slots__`` (an ``int`` subclass needs a ``__dict__``, slower to
    read ``card`` from); its hash is the integer's (``hash(66.0) == 66``), so sets and dicts of
    copies keep their order.  Two copies are equal exactly when face and deck are, and order by
    face index, then deck.  Decks past 7 (no game deals them: at most four decks) get a negative
    number of their own, so that they stay distinct.  Not a number to compute with."""

    __slots__ = ("card", "deck", "key")
    card: Card
    deck: int
    key: int          # the copy's number (``int(copy)``), kept as an attribute for COPY_KEY

    def __new__(cls, card: Card, deck: int) -> CardCopy:
        if not isinstance(deck, int) or deck < 1:
            raise CardError(f"a deck index is a whole number from 1, not {deck!r}")
        key = card.index * 8 + deck if deck < 8 else -(card.index + 54 * deck)
        self = float.__new__(cls, key)
        _set(self, "card", card)
        _set(self, "deck", deck)
        _set(self, "key", key)
        return self

    def __setattr__(self, name, value):
        raise AttributeError("CardCopy is immutable")

    def __reduce__(self):
        return (CardCopy, (self.card, self.deck))

    def __str__(self) -> str:
        return f"{self.card}#{self.deck}"

    def __repr__(self) -> str:
        return f"CardCopy({self})"

    __format__ = object.__format__    # f"{copy}" is its text, not its number

    @staticmethod
    def parse(text: str) -> CardCopy:
        return parse_copy(text)


_set = object.__setattr__


# Sorts copies by face index, then deck, without a Python call per copy: ``sorted(copies, key=COPY_KEY)``.
COPY_KEY = attrgetter("key")


def _split_copy(text: str):
    if "#" in text:
        face, _, deck = text.partition("#")
        deck = deck.strip()
        if not deck.isdigit() or int(deck) < 1:
            raise CardError(f"bad copy suffix in {text!r}: '#' is followed by a deck number from 1")
        return face.strip(), int(deck)
    return text, None


# Longest alias first, so that a two-character alias is tried before a one-character one.
_ALIASES_LONGEST_FIRST = tuple(sorted(_SUIT_ALIASES.items(), key=lambda kv: -len(kv[0])))


def _split_suit(u: str):
    """``(suit, rank text)`` of an upper-cased face, written suit first (S10, ♠10, 黑桃10) or rank
    first (10S, 10♠); the longest alias that fits wins.  ``None`` when no suit alias fits."""
    for alias, suit in _ALIASES_LONGEST_FIRST:
        if u.startswith(alias):
            return suit, u[len(alias):]
        if u.endswith(alias) and len(u) > len(alias):
            return suit, u[: -len(alias)]
    return None


def _parse_face(face: str, original: str) -> Card:
    card = _FACE_BY_TEXT.get(face)
    if card is not None:
        return card
    return _parse_face_slowly(face, original)


def _parse_face_slowly(face: str, original: str) -> Card:
    t = face.strip()
    if not t:
        raise CardError(f"not a card: {original!r}")
    u = t.upper()
    if u in _JOKER_ALIASES:
        return Card(JOKER, _JOKER_ALIASES[u])
    if t in _JOKER_ALIASES:
        return Card(JOKER, _JOKER_ALIASES[t])
    split = _split_suit(u)
    if split is None:
        raise CardError(f"not a card: {original!r} (write e.g. S10, HA, DT, LJ, BJ, ♠10, 小王)")
    suit, rest = split
    try:
        return Card(suit, parse_rank(rest))
    except CardError:
        raise CardError(f"not a card: {original!r} (write e.g. S10, HA, DT, LJ, BJ, ♠10, 小王)") from None


def _face_spellings() -> dict:
    """Every usual spelling of every face → the face: a table look-up instead of parsing.

    The spellings are those :func:`_parse_face_slowly` accepts (each is checked against it below);
    anything else (spaces, ``010``, mixed scripts) still goes through the parser, so the accepted
    notation and every error message are unchanged."""
    ranks = {r: [rank_text(r), rank_text(r).lower()] for r in RANKS}
    ranks[10] += ["T", "t"]
    table: dict = {}
    for alias, suit in _SUIT_ALIASES.items():
        for a in {alias, alias.lower()}:
            for r, texts in ranks.items():
                for t in texts:
                    table[a + t] = table[t + a] = Card(suit, r)
    for alias, rank in _JOKER_ALIASES.items():
        for a in {alias, alias.lower(), alias.capitalize()}:
            table[a] = Card(JOKER, rank)
    for text, card in table.items():
        assert _parse_face_slowly(text, text) is card, text
    return table


_FACE_BY_TEXT = _face_spellings()


def parse_copy(text: str, allow_no_copy: bool = False):
    """Parse ``S10#2`` into a :class:`CardCopy`.

    With ``allow_no_copy`` a face without suffix is accepted and returned as a copy of deck 1 —
    only :meth:`Card.parse` uses that, to accept and ignore the suffix.
    """
    if isinstance(text, Card):
        return CardCopy(text, 1)
    if not isinstance(text, str):
        raise CardError(f"a card is written as text, not {type(text).__name__}: {text!r}")
    face, deck = _split_copy(text)
    card = _parse_face(face, text)
    if deck is None:
        if not allow_no_copy:
            raise CardError(f"{text!r} names a face; a physical card needs its deck, e.g. {card}#1")
        deck = 1
    return CardCopy(card, deck)


def parse_card(text) -> Card:
    """Parse one face: ``parse_card("♠10") is parse_card("S10") is parse_card("st")``."""
    if isinstance(text, Card):
        return text
    card = _FACE_BY_TEXT.get(text) if isinstance(text, str) else None
    return card if card is not None else Card.parse(text)


# Card.index → a bit field of 8 bits per face: the sum over a play's cards is a multiset key (one
# small integer, no sorting) for plays of fewer than 256 cards — see :func:`multiset_key`.
_FACE_BITS = tuple(1 << (8 * i) for i in range(54))


def multiset_key(cards) -> int | tuple:
    """A hashable key equal for two plays exactly when they hold the same faces as many times each
    (order ignored): an integer built in C, or for 256 cards and more the sorted face indices."""
    if len(cards) < 256:
        key = 0
        for c in cards:              # a plain loop: cheaper than map/sum chains for a play's few cards
            key += _FACE_BITS[c.index]
        return key
    return tuple(sorted(c.index for c in cards))


def faces_of(items) -> tuple | None:
    """The faces of a list of card texts when every one is a usual spelling (``S10``, ``♠10``,
    ``10s``, ``小王`` …: one table look-up each), else ``None`` — then parse them one by one, which
    says what is wrong.  The fast path of readers of many cards (the judge)."""
    try:
        cards = tuple(map(_FACE_OF_TEXT, items))
    except TypeError:                # an unhashable item
        return None
    return cards if all(cards) else None


_FACE_OF_TEXT = _FACE_BY_TEXT.get      # bound once: faces_of runs for every play and hand read


def parse_cards(items) -> list:
    """Parse a list of faces, or one string of faces separated by spaces or commas."""
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    return [parse_card(x) for x in items]


def format_cards(cards: Iterable) -> str:
    """Canonical text of several cards, separated by spaces."""
    return " ".join(str(c) for c in cards)


def full_deck() -> tuple:
    """The 54 faces of one deck (R-1.1), in a fixed order."""
    return ALL_FACES


def all_copies(decks: int) -> Iterator[CardCopy]:
    """Every physical card of a game with ``decks`` decks (54·d copies, R-1.1), deck 1 first."""
    if not isinstance(decks, int) or not 1 <= decks <= 4:
        raise CardError(f"a game uses 1 to 4 decks, not {decks}")
    return iter(_ALL_COPIES[:54 * decks])


# Every copy of four decks, built once: copies are immutable, so every hand shares them (a deal
# would otherwise build 54·d new objects).
_ALL_COPIES = tuple(CardCopy(card, deck) for deck in range(1, 5) for card in ALL_FACES)
