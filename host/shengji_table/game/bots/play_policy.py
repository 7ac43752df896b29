"""The heuristic bot's card play: which unit or throw to lead, which legal cards to follow with.

Pure functions over a :class:`TrickSituation` (hand, plays so far, trump order, who is on whose
side, what is still unseen), using the rules layer for every judgement of legality and of who wins
(``legal_follows``, ``winning_index``, ``check_throw``, ``decompose``).  The policy, in words:

* **Lead**: a throw every unit of which no unseen card can beat (so it stands, R-4.2) — only when
  throws are allowed; else the strongest unbeatable unit (tractor, pair, single) of a side suit;
  else, as find-a-friend dealer, a low card of a called card's suit; else, with many trumps on the
  declarers' side, a low trump (drawing trumps); else a low, pointless card of the shortest side
  suit (working towards a void to ruff in later).
* **Follow**, scoring every candidate play:

  - partner (teammate) winning safely → feed points (10s, Ks, 5s) without spending high cards;
  - an opponent winning → win cheaply when the trick is worth it: ruff point tricks when void
    (R-5.2), over-ruff when possible, take the trick in suit with the lowest card that wins;
  - otherwise follow as low as possible, keep pairs and tractors whole, give away no points.

The numbers below are weights of a hand-tuned score, not rules.
"""
from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field
from collections.abc import Sequence

from ...rules.cards import Card, full_deck
from ...rules.follow import legal_follows
from ...rules.order import TrumpOrder
from ...rules.throw import check_throw
from ...rules.trick import Play, TrickShape, winning_index, trick_points
from ...rules.units import decompose
from .sampling import cheapest_follow

__all__ = ["TrickSituation", "choose_lead", "choose_follow", "card_values", "unit_beatable"]

TRUMP_PREMIUM = 8.0     # spending a trump costs this much more than a plain card of equal rank
BREAK_PENALTY = 5.0     # splitting a pair/triple of the hand
FEED_WEIGHT = 2.0       # value of a point fed to the partner's winning trick
CAPTURE_WEIGHT = 2.0    # value of a point captured
LEAD_BONUS = 2.0        # winning the lead is worth a little
GIVE_WEIGHT = 2.0       # cost of a point handed to the opponents
_CANDIDATE_LIMIT = 400  # legal follows looked at in one decision (bounded work for throws)


@dataclass(frozen=True)
class TrickSituation:
    """What the heuristic looks at for one play.

    ``plays``: the current trick so far (``Play`` objects, lead first; empty when leading).
    ``teammates``: seats known to be on this seat's side (this seat included).
    ``unseen``: every copy this seat cannot account for (other hands and an unknown kitty).
    ``declarer_side``: whether this seat is on the dealer's side.
    ``voids``: ``{seat: suits}`` each seat has shown it is void in (see ``knowledge.known_voids``).
    ``friend_suits``: find-a-friend dealer only — the suits of called cards still to come.
    """

    seat: int
    hand: tuple
    plays: tuple
    order: TrumpOrder
    players: int
    teammates: frozenset
    unseen: tuple
    throws_allowed: bool = True
    declarer_side: bool = False
    voids: dict = field(default_factory=dict)
    friend_suits: tuple = ()

    def opponents_after_me(self) -> list:
        """Opponents (as far as known) who still play in this trick after this seat."""
        later = self.players - len(self.plays) - 1
        seats = ((self.seat + k) % self.players for k in range(1, later + 1))
        return [s for s in seats if s not in self.teammates]

    def ruff_threat(self, suit: str, seats) -> bool:
        """Whether one of ``seats`` has shown a void in plain ``suit`` and may still hold trumps."""
        if suit == "T":
            return False
        return any(suit in self.voids.get(s, ()) and "T" not in self.voids.get(s, ()) for s in seats)


# ---- card values ------------------------------------------------------------------------------

_VALUE_CACHE: dict = {}


def card_values(order) -> dict:
    """Cost of spending each face under ``order``: its height within its effective suit (0 for the
    lowest card of that suit), plus :data:`TRUMP_PREMIUM` for trumps."""
    key = id(order)
    cached = _VALUE_CACHE.get(key)
    if cached is not None and cached[0] is order:
        return cached[1]
    lowest: dict = {}
    for c in full_deck():
        s, r = order.suit_of(c), order.rank_of(c)
        if s not in lowest or r < lowest[s]:
            lowest[s] = r
    values = {}
    for c in full_deck():
        s = order.suit_of(c)
        values[c] = (order.rank_of(c) - lowest[s]) + (TRUMP_PREMIUM if s == "T" else 0.0)
    if len(_VALUE_CACHE) > 64:
        _VALUE_CACHE.clear()
    _VALUE_CACHE[key] = (order, values)
    return values


def group_counts(cards: Sequence[Card], order) -> Counter:
    """How many cards of each pair-group (:meth:`TrumpOrder.group_of`) ``cards`` hold."""
    g = order.group_of
    return Counter(g(c) for c in cards)


def play_cost(cards: Sequence[Card], hand_counts: Counter, values: dict, order) -> float:
    """What playing ``cards`` gives up: their values, plus a penalty for each split group
    (``hand_counts`` from :func:`group_counts` of the hand)."""
    used = group_counts(cards, order)
    cost = sum(values[c] for c in cards)
    for g, k in used.items():
        if k < hand_counts[g] and hand_counts[g] >= 2:
            cost += BREAK_PENALTY
    return cost


# ---- can an unseen card beat this? ------------------------------------------------------------

def unit_beatable(unit, unseen_suit: Sequence[Card], order) -> bool:
    """Whether the unseen cards of the unit's suit hold a higher unit of the same kind (R-4.2).

    Pessimistic: all unseen cards are treated as one hand.
    """
    if unit.width == 1 and unit.length == 1:
        return any(order.rank_of(c) > unit.top for c in unseen_suit)
    counts = Counter(order.group_of(c) for c in unseen_suit)
    rank_of_group = {order.group_of(c): order.rank_of(c) for c in unseen_suit}
    tall = {rank_of_group[g] for g, n in counts.items() if n >= unit.width}
    if unit.length == 1:
        return any(r > unit.top for r in tall)
    # A tractor: a run of `length` adjacent positions with its top above ours.
    for top in tall:
        if top > unit.top and all(top - i in tall for i in range(1, unit.length)):
            return True
    return False


def _suit_split(cards: Sequence[Card], order) -> dict:
    by_suit: dict = {}
    for c in cards:
        by_suit.setdefault(order.suit_of(c), []).append(c)
    return by_suit


# ---- leading ----------------------------------------------------------------------------------

def choose_lead(sit: TrickSituation) -> tuple:
    """The cards to lead (a unit or a throw)."""
    order = sit.order
    mine = _suit_split(sit.hand, order)
    unseen = _suit_split(sit.unseen, order)
    safe_units_by_suit = _safe_units(sit, mine, unseen)
    # 1. A throw that cannot fail.  2. The strongest unbeatable unit.
    chosen = (_safe_throw(sit, safe_units_by_suit) if sit.throws_allowed else None) \
        or _strongest_safe_unit(sit, safe_units_by_suit)
    return chosen if chosen is not None else _ordinary_lead(sit, mine, unseen)


def _safe_units(sit: TrickSituation, mine: dict, unseen: dict) -> dict:
    """Per suit: ``(units, the units no unseen card beats)``; none are safe in a suit an opponent
    is known to be able to ruff."""
    order = sit.order
    opponents = [s for s in range(sit.players) if s not in sit.teammates]
    out = {}
    for suit, cards in mine.items():
        units = decompose(cards, order)
        if sit.ruff_threat(suit, opponents):
            safe = []
        else:
            safe = [u for u in units if not unit_beatable(u, unseen.get(suit, ()), order)]
        out[suit] = (units, safe)
    return out


def _safe_throw(sit: TrickSituation, safe_units_by_suit: dict) -> tuple | None:
    """Two or more unbeatable units of one suit that make a throw that cannot fail (side suits
    first, then the most cards)."""
    best = None
    for suit, (_units, safe) in safe_units_by_suit.items():
        if len(safe) >= 2:
            cards = tuple(c for u in safe for c in u.cards)
            if check_throw(cards, {-1: list(sit.unseen)}, sit.order).ok:
                key = (suit != "T", len(cards))
                if best is None or key > best[0]:
                    best = (key, cards)
    return best[1] if best is not None else None


def _strongest_safe_unit(sit: TrickSituation, safe_units_by_suit: dict) -> tuple | None:
    """The strongest unbeatable unit: side suits first, wider and longer units first."""
    strongest: tuple | None = None
    for suit, (_units, safe) in safe_units_by_suit.items():
        for u in safe:
            rank_key = (suit != "T", u.width * u.length, u.top)
            if strongest is None or rank_key > strongest[0]:
                strongest = (rank_key, u.cards)
    if strongest is not None:
        (plain, size, _), cards = strongest
        if plain or size > 1 or sit.declarer_side:   # a lone top trump only draws trumps for declarers
            return tuple(cards)
    return None


def _ordinary_lead(sit: TrickSituation, mine: dict, unseen: dict) -> tuple:
    """No safe lead: help a friend show itself, draw trumps, or lead low."""
    order = sit.order
    values = card_values(order)
    hand_counts = group_counts(sit.hand, order)
    trumps = mine.get("T", [])
    side = {s: cs for s, cs in mine.items() if s != "T"}

    # 2b. Find-a-friend dealer: lead low into a called card's suit so the friend can show itself.
    for suit in sit.friend_suits:
        if suit in side:
            return (min(side[suit], key=lambda c: (c.points > 0, values[c])),)

    # 3. Declarers with many trumps draw the opponents' trumps with a low trump unit.
    unseen_trumps = len(unseen.get("T", ()))
    if trumps and sit.declarer_side and len(trumps) * 2 >= len(sit.hand) and unseen_trumps:
        trump_units = sorted(decompose(trumps, order), key=lambda u: (-(u.width > 1), u.top))
        pairs = [u for u in trump_units if u.width > 1 and u.top <= _median_rank(trumps, order)]
        if pairs:
            return tuple(pairs[0].cards)
        low = min(trumps, key=lambda c: (c.points > 0, values[c]))
        return (low,)

    # 4. A low pointless card of the shortest side suit (keep pairs whole; leading a low pair is ok).
    if side:
        for _s, cs in sorted(side.items(), key=lambda kv: len(kv[1])):
            singles = [c for c in cs if hand_counts[order.group_of(c)] == 1 and c.points == 0]
            if singles:
                return (min(singles, key=lambda c: values[c]),)
        # Every side card is a point card or in a group: lead the cheapest unit of the longest suit.
        _s, cs = max(side.items(), key=lambda kv: len(kv[1]))
        units = decompose(cs, order)
        u = min(units, key=lambda u: (sum(c.points for c in u.cards), values[u.cards[-1]]))
        return tuple(u.cards)
    units = decompose(trumps, order)
    u = min(units, key=lambda u: (u.width * u.length, values[u.cards[-1]]))
    return tuple(u.cards)


def _median_rank(cards, order) -> int:
    ranks = sorted(order.rank_of(c) for c in cards)
    return ranks[len(ranks) // 2]


# ---- following --------------------------------------------------------------------------------

def _lowest(cards: Sequence[Card], n: int, key) -> list:
    return sorted(cards, key=key)[:n]


def follow_candidates(sit: TrickSituation) -> list:
    """A bounded set of legal follows worth comparing (every one legal by R-4.4/R-4.5)."""
    order = sit.order
    lead = sit.plays[0].cards
    n = len(lead)
    suit = order.suit_of(lead[0])
    values = card_values(order)
    suit_cards = [c for c in sit.hand if order.suit_of(c) == suit]
    others = [c for c in sit.hand if order.suit_of(c) != suit]
    hand_counts = group_counts(sit.hand, order)

    def keep_value(c):  # cheapest first; singles before pair members; no points first
        return (values[c] + (BREAK_PENALTY if hand_counts[order.group_of(c)] >= 2 else 0)
                + GIVE_WEIGHT * c.points)

    def feed_value(c):  # most points first, then cheapest
        return (-c.points, keep_value(c) - GIVE_WEIGHT * c.points)

    if len(suit_cards) >= n:
        if len(suit_cards) == n:
            return [tuple(suit_cards)]
        cands = [tuple(c) for c in itertools.islice(legal_follows(lead, sit.hand, order), _CANDIDATE_LIMIT)]
        if len(cands) == _CANDIDATE_LIMIT:   # cut short (high plays come first): add the cheapest
            cheap = cheapest_follow(lead, sit.hand, order, keep_value)
            if cheap is not None:
                cands.append(cheap)
        return cands
    need = n - len(suit_cards)
    cands = [
        tuple(suit_cards + _lowest(others, need, keep_value)),
        tuple(suit_cards + _lowest(others, need, feed_value)),
    ]
    if suit_cards or suit == "T":
        return cands
    # Void in a plain suit: also every trump play of the lead's shape (a ruff, R-5.2).
    trumps = [c for c in others if order.suit_of(c) == "T"]
    if len(trumps) >= n:
        cands.extend(_ruffs(lead, trumps, order))
    return cands


def _ruffs(lead, trumps, order) -> list:
    """Trump plays shaped like ``lead`` (so they can win, R-5.2): for a one-unit lead every such
    trump unit; for a throw the lowest and the highest greedy match of its units."""
    lead_units = decompose(lead, order)
    if len(lead_units) == 1:
        return [tuple(cards) for cards in _units_like(lead_units[0], trumps, order)]
    out = []
    for high in (False, True):
        left = list(trumps)
        play: list = []
        for u in lead_units:
            options = _units_like(u, left, order)
            if not options:
                break
            pick = options[-1] if high else options[0]
            play.extend(pick)
            for c in pick:
                left.remove(c)
        else:
            out.append(tuple(play))
    return out


def _units_like(unit, cards: Sequence[Card], order) -> list:
    """Every way to take a unit of ``unit``'s kind (width, length) from ``cards``, lowest first."""
    w, length = unit.width, unit.length
    groups: dict = {}
    for c in cards:
        groups.setdefault(order.group_of(c), []).append(c)
    by_rank: dict = {}
    for _g, cs in groups.items():
        if len(cs) >= w:
            by_rank.setdefault(order.rank_of(cs[0]), []).append(cs[:w])
    out = []
    for top in sorted(by_rank):
        if all(top - i in by_rank for i in range(1, length)):
            for combo in itertools.product(*(by_rank[top - i] for i in range(length))):
                out.append([c for grp in combo for c in grp])
    return out


def choose_follow(sit: TrickSituation) -> tuple:
    """The cards to follow with: the best-scoring candidate (see the module doc)."""
    order = sit.order
    values = card_values(order)
    hand_counts = group_counts(sit.hand, order)
    plays = list(sit.plays)
    shape = TrickShape(plays[0].cards, order)      # the lead analysed once for every candidate
    best_i = winning_index(plays, order, shape)
    partner_winning = plays[best_i].seat in sit.teammates
    on_table = trick_points(plays)
    unseen = _suit_split(sit.unseen, order)
    # Safe: no opponent plays after this seat, or none can beat the play in its suit nor ruff it.
    later = sit.opponents_after_me()
    ruff_risk = sit.ruff_threat(order.suit_of(plays[0].cards[0]), later)

    def safe(cards) -> bool:
        if not later:
            return True
        if ruff_risk and order.suit_of(cards[0]) != "T":
            return False
        return not _play_beatable(cards, unseen, order)

    partner_safe = partner_winning and safe(plays[best_i].cards)

    best: tuple = ()
    best_score: float | None = None
    for cand in follow_candidates(sit):
        pts = sum(c.points for c in cand)
        cost = play_cost(cand, hand_counts, values, order)
        wins = winning_index(plays + [Play(sit.seat, cand)], order, shape) == len(plays)
        if partner_safe:
            score = FEED_WEIGHT * pts - cost
        elif wins:
            gain = CAPTURE_WEIGHT * (on_table + pts) + LEAD_BONUS
            score = (gain if safe(cand) else 0.5 * gain) - cost
            if partner_winning:  # taking over from a partner who might lose the trick
                score -= LEAD_BONUS
        else:
            score = -cost - (0.0 if partner_winning else GIVE_WEIGHT * pts)
        if best_score is None or score > best_score:
            best, best_score = cand, score
    return tuple(best)


def _play_beatable(cards: Sequence[Card], unseen_by_suit: dict, order) -> bool:
    """Whether some unit of a one-suit play could be beaten by unseen cards of its suit."""
    suit = order.suit_of(cards[0])
    if any(order.suit_of(c) != suit for c in cards):
        return True
    pool = unseen_by_suit.get(suit, ())
    return any(unit_beatable(u, pool, order) for u in decompose(cards, order))
