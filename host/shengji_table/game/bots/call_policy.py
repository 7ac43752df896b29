"""The heuristic bot's calls: declaring trump (R-6), bidding and naming trump (three players, §9),
and calling a friend (find-a-friend, §9).

All of them rest on one estimate, :func:`trump_strength`: how good a hand would be with a given
trump — its trumps, counted with extra weight for jokers, level cards and trump pairs.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ...rules.cards import JOKER, SUITS, Card
from ...rules.order import TrumpOrder

__all__ = ["trump_strength", "choose_declaration", "choose_bid", "choose_trump", "choose_friend_calls"]

DECLARE_SHARE = 0.30    # declare when at least this share of the cards so far would be trumps
MIN_CARDS_SEEN = 4      # … and at least this many cards have been drawn (too early says nothing)
NT_SHARE = 0.22         # no-trump: jokers and level cards are the only trumps, so fewer suffice


def trump_strength(hand: Sequence[Card], order) -> float:
    """Trumps in ``hand`` under ``order``: 1 each, +0.5 for jokers and level-rank cards, +0.5 a
    card for trump pairs."""
    counts = Counter(c for c in hand if order.is_trump(c))
    s = 0.0
    for c, k in counts.items():
        s += k * (1.5 if (c.suit == JOKER or c.rank == order.level) else 1.0)
        if k >= 2:
            s += 0.5 * k
    return s


def _order(ruleset, level: int, trump: str | None):
    return TrumpOrder(ruleset, level, trump)


def choose_declaration(hand: Sequence[Card], options: Sequence[tuple], ruleset, level: int,
                       standing_is_teammate: bool = False, hand_size: int | None = None) -> tuple | None:
    """One of ``options`` (each a valid declaration right now, a tuple of cards) or ``None`` to pass.

    Declares the option whose trump gives the strongest hand if that hand is trump-rich enough;
    never overcalls a teammate; prefers the cheapest declaration (fewest cards shown) of that trump,
    since showing more tells the opponents more and stronger overcalls may be needed later.
    """
    if not options or standing_is_teammate or len(hand) < MIN_CARDS_SEEN:
        return None
    best = None
    for cards in options:
        trump = None if cards[0].suit == JOKER else cards[0].suit
        strength = trump_strength(hand, _order(ruleset, level, trump))
        share = strength / max(len(hand), 1)
        needed = NT_SHARE if trump is None else DECLARE_SHARE
        if share < needed:
            continue
        key = (share, -len(cards))
        if best is None or key > best[0]:
            best = (key, tuple(cards))
    return None if best is None else best[1]


def choose_trump(hand: Sequence[Card], options: Sequence[str | None], ruleset, level: int) -> str | None:
    """The trump to name (three-player bidding): the option giving the strongest hand; no-trump
    only when no suit does better than NT counted with the same weights."""
    def key(t):
        return (trump_strength(hand, _order(ruleset, level, t)), t is not None, t or "")
    return max(options, key=key)


def bid_threshold(hand: Sequence[Card], ruleset, level: int) -> int:
    """The lowest points target this hand dares to promise (lower = the dealer needs to hold the
    attackers to fewer points).  An average hand dares 150 of 200; each trump above the average
    share lowers it."""
    best = max(trump_strength(hand, _order(ruleset, level, t)) for t in (*SUITS, None))
    expected = len(hand) / 3 * 1.3          # about a third of the cards are trumps, weighted
    aces = sum(1 for c in hand if c.rank == 14 and c.rank != level)
    total = ruleset.total_points
    t = 0.75 * total - 8 * (best - expected) - 3 * (aces - len(hand) / 13.5)
    return int(max(0.3 * total, min(total, t)))


def choose_bid(hand: Sequence[Card], options: Sequence[int], ruleset, level: int,
               must_bid: bool = False) -> int | None:
    """The bid to make (the least ambitious allowed target this hand dares), or ``None`` to pass.
    ``must_bid``: passing is not allowed (nobody has bid yet): the least ambitious target."""
    if not options:
        return None
    floor = bid_threshold(hand, ruleset, level)
    dared = [b for b in options if b >= floor]
    if not dared and must_bid:
        return max(options)
    return max(dared) if dared else None


def choose_friend_calls(hand: Sequence[Card], count: int, order, decks: int) -> tuple:
    """``count`` calls ``(card, nth)``: an ace (else king, queen) of a side suit, the copy after the
    ones the dealer holds ("the second ♥A" when holding one), preferring suits the dealer can lead
    (holds low cards of) so the friend is found early."""
    held = Counter(hand)
    suit_len = Counter(order.suit_of(c) for c in hand)
    calls: list = []
    used = set()
    for rank in (14, 13, 12, 11):
        candidates = []
        for suit in SUITS:
            card = Card(suit, rank)
            if order.is_trump(card) or card in used or held[card] >= decks:
                continue
            candidates.append(((held[card], -suit_len[order.suit_of(card)], suit), card))
        for _, card in sorted(candidates):
            if len(calls) == count:
                break
            calls.append((card, held[card] + 1))
            used.add(card)
        if len(calls) == count:
            break
    if len(calls) < count:  # every side honour is held or trump: call any face not fully held
        for card in sorted(set(Card(s, r) for s in SUITS for r in range(2, 15)), key=lambda c: -c.rank):
            if len(calls) == count:
                break
            if card not in used and held[card] < decks:
                calls.append((card, held[card] + 1))
                used.add(card)
    return tuple(calls)
