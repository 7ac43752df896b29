"""Follow ladders: what a follower must play, best first (R-4.5, R-4.6, R-4.7).

A *ladder* is a tuple of *rungs*, best first.  A rung is a tuple of alternatives; an alternative is a
tuple of components ``(width, length)`` (see :mod:`.shapes`).  Singles are never written: the rest
of the play is "any cards" of the led suit.  A follower who holds enough cards of the led suit must
play a structure from the first rung their cards of that suit can supply (any alternative of it).

* Three and four decks: the seed's tables, one per lead shape, in the seed's order
  (seed 000 三副牌 出牌規則 and 四副牌 §3.4.5, docs/rules.md).  Keys are lead shapes: the lead's
  components, largest first (:func:`.units.shape_of`).
* Every other lead shape: :func:`generic_ladder` — R-4.5 read literally: keep as much of the lead's
  tractor structure as possible, then as many grouped cards (pairs, triples …) as possible, up to
  what the lead has.  With two decks this is exactly "tractor if you have one, else pairs up to the
  lead's number, else singles".
"""
from __future__ import annotations

from functools import lru_cache

__all__ = ["THREE_DECK_LADDERS", "FOUR_DECK_LADDERS", "ladder_for", "generic_ladder", "rung_key",
           "describe"]

T = lambda w, n: (w, n)      # noqa: E731  (tractor of n groups of width w)
PAIR, TRIPLE, QUAD = (2, 1), (3, 1), (4, 1)

# 三副牌 出牌規則 (seed 000), R-4.6.
THREE_DECK_LADDERS = {
    # 泰坦尼克 (Titanic of two triples) — 6 cards.
    ((3, 2),): (
        ((T(3, 2),),),                 # 泰坦尼克
        ((T(2, 2),),),                 # 一副拖拉機 + 任意兩張
        ((TRIPLE, TRIPLE),),           # 兩副三同張
        ((TRIPLE, PAIR),),             # 一副三同張 + 一副對子 + 一單張
        ((TRIPLE,),),                  # 一副三同張 + 三單張
        ((PAIR, PAIR),),               # 兩副對子 + 兩單張
        ((PAIR,),),                    # 一副對子 + 四單張
        ((),),                         # 六單張
    ),
    # 三同張 (triple) — 3 cards.
    ((3, 1),): (
        ((TRIPLE,),),                  # 三同張
        ((PAIR,),),                    # 一副對子 + 一單張
        ((),),                         # 三單張
    ),
}

# The common tail of the two eight-card ladders (四副牌 §3.4.5 items 1 and 2).
_EIGHT_TAIL = (
    ((T(3, 2), PAIR),),                # 1連3+1對子
    ((T(3, 2),),),                     # 1連3+2單張
    ((T(2, 2), PAIR, PAIR),),          # 1連隊+兩對子
    ((T(2, 2), PAIR),),                # 1連隊+1個對子+2單張
    ((T(2, 2),),),                     # 1連隊+4單張
    ((QUAD, PAIR, PAIR),),             # 1個4張+2對子
    ((QUAD, PAIR),),                   # 1個4張+1個對子+2單張
    ((QUAD,),),                        # 1個4張+4單張
    ((TRIPLE, TRIPLE),),               # 2個3張+2單張
    ((TRIPLE, PAIR, PAIR),),           # 1個3張+2對子+1單張
    ((TRIPLE, PAIR),),                 # 1個3張+1對子+3單張
    ((TRIPLE,),),                      # 1個3張+5單張
    ((PAIR, PAIR, PAIR, PAIR),),       # 4個對子
    ((PAIR, PAIR, PAIR),),             # 3個對子+2單張
    ((PAIR, PAIR),),                   # 2個對子+4單張
    ((PAIR,),),                        # 1個對子+6單張
    ((),),                             # 8單張
)

# 四副牌 §3.4.5 (seed 000), R-4.7.
FOUR_DECK_LADDERS = {
    # 1. 連四 (two adjacent quads): a quad-tractor or two quads, the follower's choice.
    ((4, 2),): (((T(4, 2),), (QUAD, QUAD)),) + _EIGHT_TAIL,
    # 2. 2個4張 (two quads that are not adjacent).
    ((4, 1), (4, 1)): (((QUAD, QUAD),), ((T(4, 2),),)) + _EIGHT_TAIL,
    # 3. six-card pair tractor (6 6 7 7 8 8): the same or a Titanic, the follower's choice.
    ((2, 3),): (
        ((T(2, 3),), (T(3, 2),)),
        ((QUAD, PAIR),),               # 4個+1個對子
        ((T(2, 2), PAIR),),            # 拖拉機+1個對子
        ((PAIR, PAIR, PAIR),),         # 3個對子
        ((PAIR, PAIR),),               # 2個對子+2個單牌
        ((PAIR,),),                    # 1個對子+4個單牌
        ((),),                         # 6個單牌
    ),
    # 4. Titanic (J J J Q Q Q).
    ((3, 2),): (
        ((T(3, 2),),),
        ((T(2, 3),),),
        ((QUAD, PAIR),),               # 4個+1個對子
        ((T(2, 2), PAIR),),            # 拖拉機+1個對子
        ((TRIPLE, TRIPLE),),           # 2個3個的
        ((TRIPLE, PAIR),),             # 1個3個+1個對子+1個單牌
        ((PAIR, PAIR, PAIR),),         # 3個對子
        ((PAIR, PAIR),),               # 2個對子+2個單牌
        ((PAIR,),),                    # 1個對子+4個單牌
        ((),),                         # 6個單牌
    ),
    # 5. a quad (A A A A).
    ((4, 1),): (
        ((QUAD,),),                    # 4個
        ((T(2, 2),),),                 # 拖拉機
        ((PAIR, PAIR),),               # 2個對子
        ((TRIPLE,),),                  # 3個+1個
        ((PAIR,),),                    # 1對+2個單牌
        ((),),                         # 4個單牌
    ),
    # 6. a two-pair tractor (7 7 8 8): a tractor or a quad, the follower's choice.
    ((2, 2),): (
        ((T(2, 2),), (QUAD,)),
        ((PAIR, PAIR),),
        ((PAIR,),),
        ((),),
    ),
}


def rung_key(alternative) -> tuple:
    """Generic priority of a structure: (cards in tractors, cards in groups of two or more)."""
    tractor = sum(w * n for w, n in alternative if n >= 2)
    grouped = sum(w * n for w, n in alternative if w >= 2)
    return (tractor, grouped)


def _options(component) -> set:
    """Every weaker structure a follower may supply towards one lead component."""
    w, n = component
    if w < 2:
        return {()}
    out = set()

    def parts(remaining, max_part, acc):
        out.add(tuple(sorted(acc, reverse=True)))
        for p in range(min(remaining, max_part), 0, -1):
            for width in range(w, 1, -1):
                parts(remaining - p, p, acc + [(width, p)])

    parts(n, n, [])
    return out


@lru_cache(maxsize=4096)
def generic_ladder(shape: tuple) -> tuple:
    """The R-4.5 ladder of any lead shape: rungs by :func:`rung_key`, best first."""
    combos = {()}
    for comp in shape:
        opts = _options(comp)
        combos = {tuple(sorted(a + b, reverse=True)) for a in combos for b in opts}
    by_key: dict = {}
    for alt in combos:
        by_key.setdefault(rung_key(alt), []).append(alt)
    rungs = []
    for key in sorted(by_key, reverse=True):
        # Within a rung, try the alternatives with the fewest components first (cheapest search).
        rungs.append(tuple(sorted(by_key[key], key=lambda a: (len(a), a))))
    return tuple(rungs)


def ladder_for(decks: int, shape: tuple) -> tuple:
    """``(ladder, rule id)`` for a lead shape: the seed's table where there is one, else generic."""
    if decks == 3 and shape in THREE_DECK_LADDERS:
        return THREE_DECK_LADDERS[shape], "R-4.6"
    if decks == 4 and shape in FOUR_DECK_LADDERS:
        return FOUR_DECK_LADDERS[shape], "R-4.7"
    return generic_ladder(shape), "R-4.5"


_NAMES = {1: "single", 2: "pair", 3: "triple", 4: "quad"}
_GROUP = {2: "pair", 3: "triple", 4: "quad"}


@lru_cache(maxsize=512)
def describe(alternative) -> str:
    """English for a structure: ``((2, 2), (2, 1))`` → ``"a tractor of 2 pairs and a pair"``."""
    if not alternative:
        return "any cards"
    words = []
    for w, n in alternative:
        if n >= 2:
            words.append(f"a tractor of {n} {_GROUP[w]}s")
        else:
            words.append(f"a {_GROUP[w]}")
    merged: list = []
    for word in words:
        if merged and merged[-1][0] == word:
            merged[-1][1] += 1
        else:
            merged.append([word, 1])
    text = [w if k == 1 else f"{k} {w[2:]}s" for w, k in merged]
    return " and ".join(text) if len(text) <= 2 else ", ".join(text[:-1]) + " and " + text[-1]
