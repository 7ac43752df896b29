"""Drawing one random legal play directly, without listing every legal play.

Listing all legal follows of a 25-card hand is far too slow for simulation (a void follower of a
six-card throw has C(25, 6) choices), so the random bot builds one play that meets the
obligations of R-4.4 – R-4.7 directly, making every free choice at random:

* fewer cards of the led suit than the lead → all of them, the rest drawn from the other cards;
* a lead of singles → any cards of the led suit;
* a lead with pairs, triples or tractors → the rules' ladder for that lead
  (:func:`shengji_table.rules.follow.follow_rule`) says which structures the hand must supply
  (the first rung it can): pick one, place its components at random, fill with random cards.

The result is legal by construction (the property tests check every draw with ``check_follow``);
if a random placement ever paints itself into a corner the draw falls back to the rules' own
``legal_follows``.
"""
from __future__ import annotations

import itertools
import random
from bisect import bisect_left
from collections.abc import Callable, Sequence

from ...rules.cards import ALL_FACES, Card
from ...rules.follow import follow_rule, legal_follows
from ...rules.shapes import count_groups, realizable
from ...rules.trick import lead_candidates
from ...rules.units import decompose

__all__ = ["random_follow", "random_single", "random_lead", "cheapest_follow", "shape_follow", "take_cards",
           "RandomChoices", "CheapestChoices", "lead_units"]

# How many plays of legal_follows the fallback looks at (reservoir sampling): bounded work.
_FALLBACK_WINDOW = 256
# Random placements tried before falling back (one almost always succeeds).
_PLACEMENT_TRIES = 8


def take_cards(hand: Sequence[Card], cards: Sequence[Card]) -> list[Card]:
    """``hand`` less one copy of each card in ``cards`` (a multiset difference)."""
    left = list(hand)
    for c in cards:
        left.remove(c)
    return left


def _runs(positions) -> list[list[int]]:
    """Maximal runs of consecutive rank positions (each at least two long)."""
    runs: list = []
    run: list = []
    for r in sorted(positions):
        if run and r == run[-1] + 1:
            run.append(r)
        else:
            if len(run) >= 2:
                runs.append(run)
            run = [r]
    if len(run) >= 2:
        runs.append(run)
    return runs


def _groups(cards: Sequence[Card], order) -> dict:
    """``{group: [cards]}``: cards identical for pairs (the face; with two colours, R-2.5, the
    colour and rank)."""
    out: dict = {}
    for c in cards:
        out.setdefault(order.group_of(c), []).append(c)
    return out


def _take(groups: dict, g, width: int) -> list[Card]:
    cards = groups[g]
    taken, groups[g] = cards[:width], cards[width:]
    return taken


class RandomChoices:
    """Free choices made at random (the random bot)."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def start(self, starts: list):
        return self.rng.choice(starts)

    def group(self, gs: list, groups: dict):
        return self.rng.choice(gs)

    def fill(self, rest: list, k: int) -> list:
        return self.rng.sample(rest, k)


class CheapestChoices:
    """Free choices made as low as possible by ``cost(card)`` (the heuristic's cheapest follow)."""

    def __init__(self, cost: Callable[[Card], float]):
        self.cost = cost

    def start(self, starts: list):
        return min(starts)

    def group(self, gs: list, groups: dict):
        return min(gs, key=lambda g: self.cost(groups[g][0]))

    def fill(self, rest: list, k: int) -> list:
        return sorted(rest, key=self.cost)[:k]


def _take_run(groups: dict, order, width: int, length: int, choices) -> list[Card]:
    """Take a run of ``length`` adjacent groups of at least ``width`` cards each (a pair from a
    triple is fine, R-4.5), placed by ``choices``; returns the cards taken, or ``[]`` if there is
    no such run."""
    positions: dict = {}
    for g, cards in groups.items():
        if len(cards) >= width:
            positions.setdefault(order.rank_of(cards[0]), []).append(g)
    if length == 1:
        starts = list(positions)
    else:
        starts = [p for p in positions if all(p + i in positions for i in range(1, length))]
    if not starts:
        return []
    p0 = choices.start(starts)
    taken: list[Card] = []
    for p in range(p0, p0 + length):
        taken.extend(_take(groups, choices.group(positions[p], groups), width))
    return taken


def shape_follow(structure, suit_cards: Sequence[Card], n: int, order, choices):
    """A play of ``n`` cards from ``suit_cards`` containing ``structure`` (components
    ``(width, length)``, see :mod:`shengji_table.rules.shapes`), every free choice made by
    ``choices`` (:class:`RandomChoices` or :class:`CheapestChoices`); ``None`` if the placement
    painted itself into a corner."""
    groups = _groups(suit_cards, order)
    play: list[Card] = []
    for width, length in sorted(structure, key=lambda c: (-(c[1] >= 2), -c[0] * c[1], -c[0])):
        got = _take_run(groups, order, width, length, choices)
        if not got:
            return None
        play.extend(got)
    rest = [c for cards in groups.values() for c in cards]
    play.extend(choices.fill(rest, n - len(play)))
    return play


def cheapest_follow(lead: Sequence[Card], hand: Sequence[Card], order, cost: Callable[[Card], float]):
    """The legal follow to ``lead`` from ``hand`` made of the cheapest cards by ``cost`` (greedy:
    the required structure placed as low as it goes, the rest the cheapest cards).  Where the greedy
    placement fails (a big four-deck throw can need a structure the greedy order paints into a
    corner), the first legal follow the enumerator lists stands in, so there is always an answer.
    The heuristic adds it to the candidates it scores, since listing every legal follow of a big
    lead is cut short."""
    n = len(lead)
    suit_of = order.suit_of
    suit = suit_of(lead[0])
    suit_cards = [c for c in hand if suit_of(c) == suit]
    if len(suit_cards) <= n:
        others = sorted((c for c in hand if suit_of(c) != suit), key=cost)
        return tuple(suit_cards + others[:n - len(suit_cards)])
    rule = _rule(lead, order)
    if rule.protect:      # R-4.8 longer-tuples: only the rules' enumeration knows the whole groups
        window = itertools.islice(legal_follows(lead, hand, order), _FALLBACK_WINDOW)
        return tuple(min(window, key=lambda p: sum(map(cost, p))))
    counts = count_groups(suit_cards, order)
    rung = rule.ladder[rule.rung_index(counts, order)]
    if () in rung:
        return tuple(sorted(suit_cards, key=cost)[:n])
    best = None
    for alt in rung:
        if not realizable(counts, alt, order):
            continue
        play = shape_follow(alt, suit_cards, n, order, CheapestChoices(cost))
        if play is not None and (best is None or sum(map(cost, play)) < sum(map(cost, best))):
            best = play
    if best is None:
        best = next(iter(legal_follows(lead, hand, order)))
    return tuple(best)


# (order, lead, FollowRule) of the last lead analysed: the followers of one trick share it.  One
# tuple, swapped whole, so concurrent bots never see a torn entry; the rule is a pure function of
# (order, lead), so the cache never changes a result.
_last_rule: list = [(None, None, None)]


def _rule(lead, order):
    """``follow_rule`` of the lead, remembered while the followers of one trick ask for it."""
    o, l, rule = _last_rule[0]
    if o is order and l == tuple(lead):
        return rule
    rule = follow_rule(lead, order)
    _last_rule[0] = (order, tuple(lead), rule)
    return rule


def random_follow(lead: Sequence[Card], hand: Sequence[Card], order, rng: random.Random) -> tuple[Card, ...]:
    """One random legal follow to ``lead`` from ``hand`` (R-4.4 – R-4.7).

    With enough cards of the led suit the play must supply the first rung of the lead's ladder that
    the hand can supply (:mod:`shengji_table.rules.ladders`): pick one such alternative, place its
    components at random, fill with random cards of the suit.
    """
    n = len(lead)
    if n == 1:      # the commonest follow
        return (random_single(lead[0], hand, order, rng),)
    suit_at = order.face_suit                       # the effective suit by face index (no call per card)
    suit = suit_at[lead[0].index]
    suit_cards = [c for c in hand if suit_at[c.index] == suit]
    held = len(suit_cards)
    if held <= n:
        others = list(hand) if not held else [c for c in hand if suit_at[c.index] != suit]
        return tuple(suit_cards + rng.sample(others, n - held))
    rule = _rule(lead, order)
    if rule.protect:                            # R-4.8 longer-tuples: the rules' own enumeration
        return _fallback_follow(lead, hand, order, rng)
    ladder = rule.ladder
    if ladder[0] == ((),):                      # a lead of singles: any cards of the suit
        return tuple(rng.sample(suit_cards, n))
    counts = count_groups(suit_cards, order)
    rung = ladder[rule.rung_index(counts, order)]
    if () in rung:
        return tuple(rng.sample(suit_cards, n))
    alternatives = [alt for alt in rung if realizable(counts, alt, order)]
    for _ in range(_PLACEMENT_TRIES):
        play = shape_follow(rng.choice(alternatives), suit_cards, n, order, RandomChoices(rng))
        if play is not None:
            return tuple(play)
    return _fallback_follow(lead, hand, order, rng)


def random_single(face: Card, hand: Sequence[Card], order, rng: random.Random) -> Card:
    """``random_follow((face,), hand, order, rng)[0]``: a random card of the led suit, or of the
    whole hand when the seat has none (the other cards are the whole hand).  The same draw as
    ``rng.choice`` (and a one-card ``rng.sample``) without their frames: for a plain
    :class:`random.Random` that is ``getrandbits(n.bit_length())`` until below ``n``, inline."""
    suit_at = order.face_suit                       # the effective suit by face index (no call per card)
    suit = suit_at[face.index]
    cards: Sequence[Card] = [c for c in hand if suit_at[c.index] == suit]
    n = len(cards)
    if n == 1:
        return cards[0]
    if not n:
        cards, n = hand, len(hand)
    if type(rng) is not _Random:                # a subclass may draw otherwise
        return cards[rng.randrange(n)]
    getrandbits, k = rng.getrandbits, n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return cards[r]


_Random = random.Random


def _fallback_follow(lead, hand, order, rng: random.Random) -> tuple[Card, ...]:
    """A random play among (a bounded window of) the rules' own legal follows."""
    chosen = None
    for i, play in enumerate(itertools.islice(legal_follows(lead, hand, order), _FALLBACK_WINDOW)):
        if rng.randrange(i + 1) == 0:
            chosen = play
    if chosen is None:  # the rules promise a legal follow always exists
        raise RuntimeError(f"no legal follow to {lead} from {hand}")
    return tuple(chosen)


def random_lead(hand: Sequence[Card], order, rng: random.Random, throw_rate: float = 0.0) -> tuple[Card, ...]:
    """A random lead: one of the hand's units (``lead_candidates``) at random, or with probability
    ``throw_rate`` a random throw — two or more units of one suit; it may fail (R-4.3), which is a
    legal attempt that the game rules on."""
    if throw_rate and rng.random() < throw_rate:
        by_suit: dict = {}
        suit_at = order.face_suit
        for c in hand:
            by_suit.setdefault(suit_at[c.index], []).append(c)
        suit = rng.choice(list(by_suit))
        parts = decompose(by_suit[suit], order)
        if len(parts) >= 2:
            k = rng.randint(2, len(parts))
            return tuple(c for u in rng.sample(list(parts), k) for c in u.cards)
    # rng.choice(lead_units(hand, order)) without the frames of choice and of _Units
    found = _lead_places(hand, order)
    n = len(found) if type(found) is list else len(found[0])
    if type(rng) is not _Random:                # a subclass may draw otherwise
        k = rng.randrange(n)
    else:                                       # rng.choice's draw, inline (as random_single)
        getrandbits, bits = rng.getrandbits, n.bit_length()
        k = getrandbits(bits)
        while k >= n:
            k = getrandbits(bits)
    if type(found) is list:
        return tuple(found[k])
    pos, faces = found
    return _unit_at(pos, faces, k)


# _UNIT[i][j]: face i as a unit of j + 1 cards (a single, a pair, …)
_UNIT = tuple(tuple((f,) * w for w in range(1, 9)) for f in ALL_FACES)


class _Units:
    """``lead_candidates`` of a hand without a tractor, as a sequence worked out on demand.

    Without tractors the list is, face by face in display order, the face's single, then its pair,
    triple … (R-3): as long as the hand, and its entry ``k`` is the hand's ``k``-th card in display
    order, once for each earlier copy of the same face, plus one."""

    __slots__ = ("_pos", "_faces")

    def __init__(self, pos: list, faces: tuple):
        self._pos, self._faces = pos, faces

    def __len__(self) -> int:
        return len(self._pos)

    def __getitem__(self, k: int) -> tuple:
        return _unit_at(self._pos, self._faces, k)


def _unit_at(pos: list, faces: tuple, k: int) -> tuple:
    """Entry ``k`` of :class:`_Units` ``(pos, faces)``: the ``k``-th card in display order, as a
    unit of one more card than the earlier copies of its face."""
    p = pos[k]
    return _UNIT[faces[p].index][k - bisect_left(pos, p)]


def lead_units(hand: Sequence[Card], order) -> list | _Units:
    """``lead_candidates(hand, order)`` for a random pick (``rng.choice``): the same units in the
    same order, the list built only where it must be (a hand with a tractor, or two colours)."""
    found = _lead_places(hand, order)
    return found if type(found) is list else _Units(*found)


def _lead_places(hand: Sequence[Card], order) -> list | tuple:
    """``lead_candidates(hand, order)`` where the list must be built, else the ``(pos, faces)`` of
    the :class:`_Units` that stands for it."""
    if order.ruleset.two_colour:
        return lead_candidates(hand, order)
    display = order.face_display
    pos = sorted([display[c.index] for c in hand])
    # each extra copy of a face is one equal neighbour in pos: counted by a set (in C) rather than the
    # pass below, which only a hand with two pairs or a triple needs
    if len(pos) - len(set(pos)) < 2:
        return pos, order.faces_in_display
    held2 = [p for p, q in zip(pos, pos[1:]) if p == q]     # display places held twice or more
    # two pairs: maybe a tractor, at adjacent ranks of a suit
    faces, suit_at, rank_at = order.faces_in_display, order.face_suit, order.face_rank
    keys = {(suit_at[i], rank_at[i]) for i in [faces[p].index for p in held2]}
    if any((s, r + 1) in keys for s, r in keys):
        return lead_candidates(hand, order)
    return pos, faces
