"""Declaring trump and overcalls (R-6), one ladder per preset.

A declaration shows level-rank cards of one suit (that suit becomes trump) or identical jokers (the
hand is played without trump, NT).  Each ruleset names its ladder (``Ruleset.declare_ladder``):

* ``one-deck``   — one level card; with two colours (R-2.5) a same-colour pair (♥10 ♦10) beats it.
* ``two-decks``  — one level card < a pair of level cards < pair of small jokers (NT) < pair of big
  jokers (NT)  (R-6.1).
* ``three-decks`` — 1 level card < 2 < two jokers (NT) < 3 level cards < three jokers (NT) (R-6.3);
  small and big jokers rank equal here (the seed lists "兩張王" as one rung); with the house option
  ``mixed_joker_nt`` (R-6.7) a small and a big joker together are that rung too.
* ``four-decks`` — hidden calls; one more card than the standing call overturns it (R-6.5); the seed
  names suits only, so jokers do not declare.

With the option ``suit_order_overcall`` (R-6.3, seed 002 反底规则) calls on the same rung are further
ordered ♦ < ♣ < ♥ < ♠ < small jokers < big jokers, so an equal-count call in a higher suit overcalls.
Otherwise equal strength means the first call stands (R-6.1).

Overcalls (R-6.2): 反主 (another seat, stronger, a suit), 反无主 (another seat, stronger, jokers),
自保 (the standing seat, stronger, same suit — a declaration lists every card the seat shows, so a
reinforcing pair lists both level cards), 自反 (the standing seat, stronger, another suit or NT;
allowed only with ``self_overcall``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import overload
from collections.abc import Iterable, Sequence

from .cards import BIG_JOKER_RANK, JOKER, Card, level_text, parse_card, suit_word
from .ruleset import Ruleset

__all__ = [
    "Declaration", "Standing", "DeclareResult", "check_declaration", "declaration_strength", "is_call",
    "run_declarations", "default_trump", "first_dealer", "KINDS", "STEAL_RULE", "check_steal", "run_steals",
]

# The kinds a valid declaration can have (for the game layer's announcements).
KINDS = ("declare", "overcall", "overcall-nt", "reinforce", "self-overcall", "steal")

_SUIT_ORDER = {"D": 0, "C": 1, "H": 2, "S": 3, "LJ": 4, "BJ": 5}   # option, low → high
_COLOUR_NAME = {"S": "black", "H": "red", None: "no trump"}


@dataclass(frozen=True)
class Declaration:
    """A seat showing cards to declare: every card the seat shows for this call."""

    seat: int
    cards: tuple

    def __init__(self, seat: int, cards: Iterable):
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", tuple(parse_card(c) for c in cards))


@dataclass(frozen=True)
class Standing:
    """The call that currently stands.  ``trump`` is a suit letter or ``None`` for NT; ``strength``
    is comparable (tuples), higher is stronger, within one ladder."""

    seat: int
    trump: str | None
    cards: tuple
    strength: tuple


@dataclass(frozen=True)
class DeclareResult:
    """The ruling on one declaration.  ``standing`` is the call standing afterwards (unchanged when
    the declaration is not valid).  ``kind`` is one of :data:`KINDS`, or ``None`` when not valid."""

    valid: bool
    rule: str
    reason: str
    standing: Standing | None
    kind: str | None = None


def _ladder_rule(ruleset: Ruleset) -> str:
    return {"three-decks": "R-6.3", "four-decks": "R-6.5"}.get(ruleset.declare_ladder, "R-6.1")


def _colour(suit: str, ruleset: Ruleset) -> str:
    """The declared suit's effective name: with two colours ♦ counts as red (H), ♣ as black (S)."""
    if ruleset.two_colour:
        return "H" if suit in ("H", "D") else "S"
    return suit


def _describe(trump: str | None, ruleset: Ruleset) -> str:
    return _COLOUR_NAME[trump] if ruleset.two_colour else suit_word(trump)


def _joker_strength(ruleset: Ruleset, cards: tuple, jokers: list) -> tuple:
    """The strength of a no-trump call shown with ``cards``, ``jokers`` among them (at least one),
    or ``ValueError`` when this ladder has no such call."""
    n = len(cards)
    ladder = ruleset.declare_ladder
    if ruleset.mixed_joker_nt and n == 2 == len(jokers) and cards[0].rank != cards[1].rank:
        # 兩張王 read as any two jokers; the pair ranks with two identical jokers (rung 2)
        # and, under the suit order, as its lower joker
        return (2, _SUIT_ORDER["LJ"] if ruleset.suit_order_overcall else 0)
    if len(jokers) != n or len({c.rank for c in cards}) != 1:
        raise ValueError("jokers declare no trump only as identical jokers shown on their own")
    if ladder in ("one-deck", "four-decks"):
        why = ("there is only one of each joker" if ladder == "one-deck"
               else "the four-deck rules declare suits only")
        raise ValueError(f"jokers do not declare with this ruleset: {why}")
    key = "BJ" if cards[0].rank == BIG_JOKER_RANK else "LJ"
    if ladder == "two-decks":
        if n != 2:
            raise ValueError("no trump is declared with a pair of jokers")
        rung = 2 if key == "LJ" else 3          # 1 card 0 < pair 1 < LJ pair 2 < BJ pair 3
    else:                                       # three decks: 1 0 < 2 1 < jokers×2 2 < 3 3 < jokers×3 4
        if n not in (2, 3):
            raise ValueError("no trump is declared with two or three identical jokers")
        rung = 2 if n == 2 else 4
    sub = _SUIT_ORDER[key] if ruleset.suit_order_overcall else 0
    return (rung, sub)


def _level_card_suit(ruleset: Ruleset, level: int, cards: tuple) -> str:
    """The suit (with two colours: the colour's name) that ``cards`` declare, or ``ValueError``
    unless they are level cards of that one suit (identical ones, without two colours)."""
    bad = [c for c in cards if c.rank != level]
    if bad:
        raise ValueError(f"only level cards declare: this hand is played at {level_text(level)}, "
                         f"and {bad[0]} is not one")
    suits = {_colour(c.suit, ruleset) for c in cards}
    if len(suits) != 1:
        raise ValueError("the cards of a declaration are all of one suit")
    if not ruleset.two_colour and len(set(cards)) != 1:
        raise ValueError("the cards of a declaration are identical")
    return suits.pop()


def _level_card_rung(ruleset: Ruleset, n: int) -> int:
    """The ladder's rung for ``n`` level cards of one suit, or ``ValueError`` when it has none."""
    ladder = ruleset.declare_ladder
    if ladder == "one-deck":
        if n > 2 or (n == 2 and not ruleset.two_colour):
            raise ValueError("with one deck a declaration is a single level card"
                             + (" or a same-colour pair" if ruleset.two_colour else ""))
        return n - 1
    if ladder == "two-decks":
        if n > 2:
            raise ValueError("with two decks a declaration is one or two level cards")
        return n - 1
    if ladder == "three-decks":
        if n > 3:
            raise ValueError("with three decks a declaration is one, two or three level cards")
        return {1: 0, 2: 1, 3: 3}[n]
    return n - 1        # four decks: strength is the count alone


def is_call(ruleset: Ruleset, level: int, cards: Sequence[Card]) -> bool:
    """Whether ``cards`` are a declaration at all at ``level`` (:func:`declaration_strength` does
    not refuse them), remembered per ruleset, level and faces: a game offers a lone joker at every
    draw after it, and the refusal is an exception each time."""
    cards = tuple(cards)
    key = (id(ruleset), level, tuple([c.index for c in cards]))   # the entry keeps the ruleset alive
    hit = _CALLS.get(key)
    if hit is None or hit[0] is not ruleset:
        try:
            declaration_strength(ruleset, level, cards)
            hit = (ruleset, True)
        except ValueError:
            hit = (ruleset, False)
        if len(_CALLS) >= 10_000:
            _CALLS.clear()
        _CALLS[key] = hit
    return hit[1]


_CALLS: dict = {}


def declaration_strength(ruleset: Ruleset, level: int, cards: Sequence[Card]):
    """``(trump, strength)`` of a set of shown cards, or raise ``ValueError`` with the reason the
    cards are not a declaration under this ruleset's ladder.  ``trump`` is ``None`` for NT."""
    cards = tuple(cards)
    if not cards:
        raise ValueError("a declaration shows at least one card")
    jokers = [c for c in cards if c.suit == JOKER]
    if jokers:
        return None, _joker_strength(ruleset, cards, jokers)
    trump = _level_card_suit(ruleset, level, cards)
    rung = _level_card_rung(ruleset, len(cards))
    most = max(cards.count(c) for c in cards)
    if most > ruleset.decks:
        raise ValueError(f"{most} copies of one card do not exist in {ruleset.decks} deck(s)")
    # With two colours the suit order compares the colour's name: black (S) above red (H).
    sub = _SUIT_ORDER[trump] if ruleset.suit_order_overcall else 0
    return trump, (rung, sub)


def check_declaration(ruleset: Ruleset, level: int, standing: Standing | None,
                      declaration: Declaration) -> DeclareResult:
    """Rule on one declaration against the call standing so far (``None`` if nobody declared yet).

    Returns whether it is valid, the rule and a sentence, the standing call afterwards and the kind
    (R-6.1 first call; R-6.2 反主 / 反无主 / 自保 / 自反; R-6.3 / R-6.5 ladders).
    """
    rule = _ladder_rule(ruleset)
    try:
        trump, strength = declaration_strength(ruleset, level, declaration.cards)
    except ValueError as exc:
        return DeclareResult(False, rule, f"not a declaration: {exc}.", standing)
    new = Standing(declaration.seat, trump, declaration.cards, strength)
    name = _describe(trump, ruleset)
    if standing is None:
        return DeclareResult(True, "R-6.1", f"seat {declaration.seat} declares {name}.", new, "declare")
    own = declaration.seat == standing.seat
    if strength <= standing.strength:
        if strength == standing.strength:
            why = "equal strength: the first call stands"
        else:
            why = "it is weaker than the standing call"
        if ruleset.declare_ladder == "four-decks":
            why += " (four decks: one more card than the standing call is needed)"
        return DeclareResult(False, rule,
                             f"seat {declaration.seat} cannot overcall {_describe(standing.trump, ruleset)}: {why}.",
                             standing)
    if own and trump == standing.trump:
        return DeclareResult(True, "R-6.2", f"seat {declaration.seat} reinforces {name} (自保).", new, "reinforce")
    if own:
        if not ruleset.self_overcall:
            return DeclareResult(False, "R-6.2", f"seat {declaration.seat} may not overcall their own call "
                                 "(自反 is not allowed with this ruleset).", standing)
        return DeclareResult(True, "R-6.2", f"seat {declaration.seat} overcalls their own call with {name} (自反).",
                             new, "self-overcall")
    if trump is None:
        return DeclareResult(True, "R-6.2", f"seat {declaration.seat} overcalls with jokers: no trump (反无主).",
                             new, "overcall-nt")
    return DeclareResult(True, "R-6.2" if rule == "R-6.1" else rule,
                         f"seat {declaration.seat} overcalls with {name} (反主).", new, "overcall")


def run_declarations(ruleset: Ruleset, level: int, declarations: Iterable[Declaration]):
    """Rule on declarations in time order: ``(results, standing)`` — one :class:`DeclareResult`
    each, and the call standing at the end (``None`` if nobody declared validly)."""
    standing = None
    results = []
    for d in declarations:
        r = check_declaration(ruleset, level, standing, d)
        results.append(r)
        standing = r.standing
    return results, standing


def default_trump(ruleset: Ruleset, kitty_cards: Sequence[Card], level: int) -> str | None:
    """The trump when nobody declared (R-6.4): ``None`` (NT) by default; ``"S"`` with four decks
    (``no_declaration="spades"``); with ``no_declaration="kitty-card"`` the suit of the 4th card
    turned from the kitty.  A joker there says nothing about a suit, so turning goes on to the next
    card; a kitty of jokers only (or shorter than four cards) gives NT.  ``level`` is accepted for
    symmetry with the other calls; a level card turned names its suit like any other card.
    """
    mode = ruleset.no_declaration
    if mode == "nt":
        return None
    if mode == "spades":
        return _colour("S", ruleset)
    for card in tuple(kitty_cards)[3:]:
        if card.suit != JOKER:
            return _colour(card.suit, ruleset)
    return None


STEAL_RULE = "R-7.4"


def check_steal(ruleset: Ruleset, level: int, standing: Standing | None, holder: int,
                declaration: Declaration) -> DeclareResult:
    """炒地皮 (R-7.4): after ``holder`` buried the kitty, may ``declaration`` take it?  Any other
    seat may, with a call stronger than the standing one (the declare ladder, R-6.1/6.3); the
    kind of a valid one is ``"steal"``.  The dealer and the sides stay; trump changes."""
    seat = declaration.seat
    if not ruleset.kitty_stealing:
        return DeclareResult(False, STEAL_RULE, "the kitty is not stolen with this ruleset "
                             "(炒地皮 is the house option kitty_stealing).", standing)
    if seat == holder:
        return DeclareResult(False, STEAL_RULE, f"seat {seat} buried the kitty just now; 炒地皮 is "
                             "the other seats' counter.", standing)
    try:
        trump, strength = declaration_strength(ruleset, level, declaration.cards)
    except ValueError as exc:
        return DeclareResult(False, STEAL_RULE, f"not a declaration: {exc}.", standing)
    if standing is not None and strength <= standing.strength:
        why = "equal strength: the standing call stays" if strength == standing.strength else "it is weaker"
        return DeclareResult(False, STEAL_RULE, f"seat {seat} cannot take the kitty from the call of "
                             f"{_describe(standing.trump, ruleset)}: {why}.", standing)
    new = Standing(seat, trump, declaration.cards, strength)
    return DeclareResult(True, STEAL_RULE, f"seat {seat} counters with {_describe(trump, ruleset)} (炒地皮): "
                         "takes the kitty and buries anew.", new, "steal")


def run_steals(ruleset: Ruleset, level: int, standing: Standing | None, dealer: int,
               declarations: Iterable[Declaration]) -> tuple[list, Standing | None, int]:
    """Rule on the counters of a 炒地皮 round in time order, after the dealer's burial:
    ``(results, standing, holder)`` — the call and the seat holding the kitty at the end."""
    holder, results = dealer, []
    for d in declarations:
        r = check_steal(ruleset, level, standing, holder, d)
        results.append(r)
        if r.valid:
            standing, holder = r.standing, d.seat
    return results, standing, holder


@overload
def first_dealer(standing: Standing) -> int: ...


@overload
def first_dealer(standing: None) -> None: ...


def first_dealer(standing: Standing | None) -> int | None:
    """R-6.6: in the first hand the seat whose call stands becomes dealer (``None``: nobody declared,
    the table decides how to pick the dealer)."""
    return None if standing is None else standing.seat
