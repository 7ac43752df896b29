"""Following a lead (R-4.4 – R-4.7).

* R-4.4: play exactly as many cards as were led, from the led effective suit while you have any;
  with too few, play all of them and fill with any cards.
* R-4.5 – R-4.7: with enough cards of the led suit, the play must supply the best rung of the lead's
  ladder (:mod:`.ladders`) that the follower's cards of that suit can supply.
* R-4.8, the house option ``follow_protection``: ``longer-tuples`` — a follower is never made to
  break a longer group (a triple, a quad) to supply a shorter one (a pair); ``tractors`` — a lead
  without a tractor never calls for one (the four-deck quad lists); both; ``suit-only`` — only the
  suit is owed, no shape.

A play is legal exactly when it meets both, so :func:`legal_follows` is :func:`check_follow`
enumerated, and the property tests compare both with a brute-force search.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import NamedTuple
from collections.abc import Iterable, Iterator

from .cards import SUIT_SYMBOL, Card, multiset_key
from .ladders import describe, ladder_for
from .order import TRUMP, TrumpOrder
from .shapes import count_groups, iter_realizations, realizable
from .units import decompose, shape_of
from .verdict import Verdict

__all__ = ["FollowRule", "check_follow", "follow_verdict", "single_follow_is_legal", "one_card_follow_is_legal",
           "counted_suit", "legal_follows",
           "follow_rule", "missing_from_hand", "suit_count"]

_TWO_COLOUR_NAMES = {"T": "trumps", "S": "black", "H": "red"}


def suit_name(suit: str, order) -> str:
    """A suit as a player says it (two colours: red/black)."""
    if order.ruleset.two_colour:
        return _TWO_COLOUR_NAMES.get(suit, suit)
    return "trumps" if suit == TRUMP else SUIT_SYMBOL.get(suit, suit)


class FollowRule(NamedTuple):
    """What a lead demands: its suit, card count, shape, ladder and the rule id of that ladder.
    (A named tuple: one is built for every new lead, and a tuple is built several times faster
    than a frozen dataclass.)"""

    suit: str
    count: int  # type: ignore[assignment]   # the lead's card count (it hides tuple.count, unused here)
    shape: tuple
    ladder: tuple
    rule: str
    protect: bool = False       # longer-tuples: a group supplies only components of its width
    widths: tuple | None = None  # a ladder of single groups (a pair, triple or quad lead): each rung's
    #                              width, 0 for "any cards" (:func:`_group_widths`); else None

    def rung_index(self, counts: dict, order, stop: int | None = None) -> int:
        """The first rung the cards in ``counts`` can supply (the last rung is always possible).

        ``stop``: give up after this rung (return ``stop + 1``) — enough to compare with a hand.
        """
        last = len(self.ladder) - 1 if stop is None else min(stop, len(self.ladder) - 1)
        widths = self.widths
        if widths is not None:       # single groups: the widest group held decides, by counting
            return _width_rung(widths, max(counts.values()) if counts else 0, last)
        fits = protected_realizable if self.protect else realizable
        for i, rung in enumerate(self.ladder):
            if i > last:
                return i
            if not rung or () in rung:
                return i
            for alt in rung:
                if fits(counts, alt, order):
                    return i
        return len(self.ladder) - 1


def _width_rung(widths: tuple, top: int, stop: int | None = None) -> int:
    """:meth:`FollowRule.rung_index` of a ladder of single groups (``widths``) for cards whose
    widest group has ``top`` cards."""
    last = len(widths) - 1 if stop is None else min(stop, len(widths) - 1)
    for i, w in enumerate(widths):
        if i > last:
            return i
        if top >= w:                 # w == 0: any cards
            return i
    return len(widths) - 1


def _by_width(alt) -> dict:
    by_w: dict = {}
    for comp in alt:
        by_w.setdefault(comp[0], []).append(comp)
    return by_w


def protected_realizable(counts: dict, alt, order) -> bool:
    """R-4.8 longer-tuples: ``alt`` fits when each width's components fit in the groups of exactly
    that many cards (a triple is never cut into a pair, a quad never into pairs or a triple)."""
    return all(realizable({g: c for g, c in counts.items() if c == w}, comps, order)
               for w, comps in _by_width(alt).items())


def _protected_realizations(counts: dict, alt, order):
    """Every way to take ``alt`` under R-4.8 longer-tuples, as ``{group: cards taken}``."""
    parts = [list(iter_realizations({g: c for g, c in counts.items() if c == w}, comps, order))
             for w, comps in _by_width(alt).items()]
    for combo in product(*parts):
        merged: dict = {}
        for d in combo:
            merged.update(d)            # the widths' groups are disjoint: each has its own count
        yield merged


def _policy_ladder(ladder: tuple, shape: tuple, policy: str) -> tuple:
    """The ladder under R-4.8: ``suit-only`` owes no shape; ``tractors`` drops every structure with
    a tractor when the lead has none."""
    if policy == "suit-only":
        return (((),),)
    if policy in ("tractors", "longer-tuples-and-tractors") and all(n < 2 for _w, n in shape):
        rungs = (tuple(a for a in rung if all(n < 2 for _w, n in a)) for rung in ladder)
        return tuple(r for r in rungs if r)
    return ladder


@lru_cache(maxsize=1024)
def _rule_for(decks: int, shape: tuple):
    return ladder_for(decks, shape)


def follow_rule(lead, order, units: tuple | None = None) -> FollowRule:
    """Analyse a lead once (its suit, count, shape and ladder).  ``units``: the lead's
    :func:`.units.decompose`, when the caller has it already (then nothing is memoised)."""
    lead = tuple(lead)
    if not lead:
        raise ValueError("a lead has at least one card")
    if units is not None:
        # what a lead demands depends on its suit and shape alone: one rule for every such lead
        key = ("follow rule of", order.face_suit[lead[0].index], shape_of(units))
        rule = order.derived.get(key)
        return rule if rule is not None else order.memo(key, lambda: _follow_rule(lead, order, units))
    if len(lead) == 1:          # a single demands only its suit: one rule a suit (the commonest lead)
        single = ("single's follow rule", order.face_suit[lead[0].index])
        rule = order.derived.get(single)
        return rule if rule is not None else order.memo(single, lambda: _follow_rule(lead, order))
    return order.memo(("follow_rule", multiset_key(lead)), lambda: _follow_rule(lead, order))


def _follow_rule(lead, order, units: tuple | None = None) -> FollowRule:
    if units is None:
        units = decompose(lead, order)
    suit = order.face_suit[lead[0].index]
    shape = shape_of(units)
    ladder, rule = _rule_for(order.decks, shape)
    policy = order.ruleset.follow_protection
    if policy != "none":
        changed = _policy_ladder(ladder, shape, policy)
        rule = "R-4.8" if changed != ladder else rule
        return FollowRule(suit, len(lead), shape, changed, rule, policy.startswith("longer-tuples"))
    return FollowRule(suit, len(lead), shape, ladder, rule, False, _group_widths(ladder))


@lru_cache(maxsize=256)
def _group_widths(ladder: tuple) -> tuple | None:
    """Each rung's width when every rung is one single group (``((w, 1),)``) or "any cards" (0) —
    then a hand or play meets rung *i* exactly when its widest group has ``w`` cards (R-4.5: a
    pair from a triple counts) — else None."""
    widths = []
    for rung in ladder:
        if rung == ((),):
            widths.append(0)
        elif len(rung) == 1 and len(rung[0]) == 1 and rung[0][0][1] == 1 and rung[0][0][0] >= 2:
            widths.append(rung[0][0][0])
        else:
            return None
    return tuple(widths)


def face_counts(cards) -> list:
    """How many of each face ``cards`` hold, indexed by ``Card.index`` (a hand, counted once)."""
    counts = [0] * 54
    for c in cards:
        counts[c.index] += 1
    return counts


def missing_in_counts(play, counts: list) -> list:
    """Cards of ``play`` beyond what ``counts`` (:func:`face_counts` of a hand) hold."""
    if len(play) == 1:               # the commonest play: one look-up
        return [] if counts[play[0].index] else [play[0]]
    need: dict = {}
    missing = []
    for c in play:
        i = c.index
        k = need[i] = need.get(i, 0) + 1
        if k > counts[i]:
            missing.append(c)
    return missing


def missing_from_hand(play, hand) -> list:
    """Cards of ``play`` that ``hand`` does not hold (as a multiset)."""
    return missing_in_counts(play, face_counts(hand))


def _held_groups(counts: list, suit: str, order) -> tuple:
    """``(cards held in suit, {group: count})`` from a hand's face counts (its suit's faces only)."""
    pick = order.suit_pick.get(suit)
    if pick is None:
        return 0, {}
    n = 0
    groups: dict = {}
    if not order.ruleset.two_colour:        # every face is its own group
        for i in pick[0]:
            k = counts[i]
            if k:
                groups[i] = k
                n += k
        return n, groups
    group = order.face_group
    for i in pick[0]:
        k = counts[i]
        if k:
            g = group[i]
            groups[g] = groups.get(g, 0) + k
            n += k
    return n, groups


def check_follow(lead, play, hand, order, rule: FollowRule | None = None, counts: list | None = None) -> Verdict:
    """Is ``play`` a legal follow to ``lead`` from ``hand`` (the cards held before playing)?

    Returns a :class:`Verdict` citing R-4.4 (count, suit), R-4.5/R-4.6/R-4.7 (shape) or ``hand``
    (a card that is not in the hand).  ``rule`` may be passed to reuse one lead analysis, ``counts``
    (:func:`face_counts` of ``hand``) to reuse one count of the hand.
    """
    if rule is None:
        rule = follow_rule(lead, order)
    play = tuple(play)
    n = rule.count
    if len(play) == 1 and counted_suit(rule) is not None:
        return _check_one(play[0], rule.suit, hand, counts, order)
    if len(play) != n:
        return Verdict(False, "R-4.4",
                       f"{n} card{'s were' if n != 1 else ' was'} led, so play exactly {n}, not {len(play)}")
    if counts is None:
        counts = face_counts(hand)
    missing = missing_in_counts(play, counts)
    if missing:
        return Verdict(False, "hand",
                       f"{' '.join(map(str, missing))} {'is' if len(missing) == 1 else 'are'} not in that hand")
    return follow_verdict(play, counts, order, rule)


def follow_verdict(play: tuple, counts: list, order, rule: FollowRule) -> Verdict:
    """:func:`check_follow` for a play already known to have the lead's count and to be in the
    hand whose :func:`face_counts` are ``counts``: suit (R-4.4) and shape (R-4.5 – R-4.8)."""
    n = rule.count
    suit_of = order.face_suit
    s = rule.suit
    held = suit_count(counts, s, order)     # the groups are only worked out when a shape is owed
    in_suit = 0
    for c in play:
        if suit_of[c.index] == s:
            in_suit += 1
    name = suit_name(s, order)
    if in_suit < min(n, held):
        if held >= n:
            return Verdict(False, "R-4.4", f"you hold {held} {name} and must play {n} {name}")
        return Verdict(False, "R-4.4", f"you hold {held} {name}: play all of them before other cards")
    if held <= n:
        return Verdict(True, "R-4.4",
                       f"you play all your {name}" + (" and fill with other cards" if held < n else ""))
    if rule.ladder == _NO_SHAPE and rule.rule != "R-4.8":
        return Verdict(True, "R-4.4", f"you follow with {n} {name}")    # what _shape_verdict says: none owed
    if rule.widths is not None and not order.ruleset.two_colour:
        # a ladder of single groups, each face its own group: the widest group of the hand and of
        # the play decide (rung_index's counting), read without building the groups
        indices, get = order.suit_pick[s]
        hand_top = get(counts) if len(indices) == 1 else max(get(counts))
        hand_rung = _width_rung(rule.widths, hand_top)
        play_rung = _width_rung(rule.widths, max(map(play.count, play)), stop=hand_rung)
        return _shape_text(rule, play, hand_rung, play_rung, rule.rule, name, order)
    return _shape_verdict(rule, play, _held_groups(counts, s, order)[1], name, order)


def _shape_verdict(rule: FollowRule, play: tuple, held_groups: dict, name: str, order) -> Verdict:
    """The shape part of :func:`check_follow` (R-4.5 – R-4.8): the follower holds more cards of
    the led suit than were led and plays only cards of it."""
    hand_rung = rule.rung_index(held_groups, order)
    play_groups = count_groups(play, order)
    cite = rule.rule
    if rule.protect:
        # only whole groups of the hand count in the play (77 cut from 777 is no pair)
        play_groups = {g: c for g, c in play_groups.items() if c == held_groups.get(g)}
        if hand_rung != rule._replace(protect=False).rung_index(held_groups, order):
            cite = "R-4.8"
    play_rung = rule.rung_index(play_groups, order, stop=hand_rung)
    return _shape_text(rule, play, hand_rung, play_rung, cite, name, order)


def _shape_text(rule: FollowRule, play: tuple, hand_rung: int, play_rung: int, cite: str, name: str,
                order) -> Verdict:
    """The verdict of :func:`_shape_verdict` once the rungs of the hand and of the play are known."""
    n = rule.count
    if play_rung > hand_rung:
        need = " or ".join(describe(a) for a in rule.ladder[hand_rung])
        which = "that" if len(rule.ladder[hand_rung]) == 1 else "one of them"
        if not rule.protect:
            return Verdict(False, cite, f"you hold {need} in {name}, so your play must contain {which}")
        if rule.rung_index(count_groups(play, order), order, stop=hand_rung) <= hand_rung:
            cite = "R-4.8"           # it would do, but for cards cut from a longer unit
        return Verdict(False, cite, f"you hold {need} in {name}, not cut from a longer unit, so your play "
                       f"must contain {which} (cards cut from a longer unit do not count)")
    if rule.ladder[hand_rung] == ((),):
        if cite == "R-4.8":
            why = "no shape is owed" if rule.ladder == (((),),) else "no longer unit of yours must be broken"
            return Verdict(True, cite, f"you follow with {n} {name}; {why}")
        return Verdict(True, "R-4.4", f"you follow with {n} {name}")
    shape = describe(rule.ladder[hand_rung][0]) if len(rule.ladder[hand_rung]) == 1 else "the best shape you hold"
    return Verdict(True, cite, f"you follow {name} with {shape}")


_NO_SHAPE = (((),),)            # the ladder of a lead that owes no shape (one card, singles)


def suit_count(counts: list, suit: str, order) -> int:
    """How many cards of effective suit ``suit`` a hand with these face ``counts`` holds."""
    pick = order.suit_pick.get(suit)
    if pick is None:
        return 0
    indices, get = pick
    return get(counts) if len(indices) == 1 else sum(get(counts))


def counted_suit(rule: FollowRule) -> str | None:
    """The led suit when counting alone decides a one-card follow to ``rule`` — a one-card lead
    that owes no shape (R-4.4) — else None (:func:`one_card_follow_is_legal`)."""
    return rule.suit if rule.count == 1 and rule.ladder == _NO_SHAPE and rule.rule != "R-4.8" else None


def single_follow_is_legal(card: Card, suit: str, counts: list, order) -> bool:
    """R-4.4 for one card the hand holds (``counts``: its face counts) following a one-card lead of
    effective suit ``suit`` that owes no shape (:func:`counted_suit`): legal when the card is of the
    led suit or the hand holds none of it.  The one place this is decided: the game's tap, the
    judge's and the bots' checks (:func:`check_follow`) all ask it."""
    return order.face_suit[card.index] == suit or not suit_count(counts, suit, order)


def one_card_follow_is_legal(card: Card, rule: FollowRule, counts: list, order) -> bool:
    """Whether a card the hand holds is, by counting alone, a legal follow to the lead of ``rule``
    (:func:`single_follow_is_legal` when the lead is one card owing no shape).  False is no
    verdict: :func:`check_follow` then says whether and why."""
    suit = counted_suit(rule)
    return suit is not None and single_follow_is_legal(card, suit, counts, order)


def _check_one(c: Card, s: str, hand, counts: list | None, order) -> Verdict:
    """:func:`check_follow` of a one-card follow to a one-card lead of suit ``s``, by counting
    (the commonest check of a hand; same verdicts): the card is held, and
    :func:`single_follow_is_legal` (R-4.4)."""
    if counts is None:
        counts = face_counts(hand)
    if not counts[c.index]:
        return Verdict(False, "hand", f"{c} is not in that hand")
    name = suit_name(s, order)
    legal = single_follow_is_legal(c, s, counts, order)
    held = suit_count(counts, s, order)
    if not legal:
        return Verdict(False, "R-4.4", f"you hold {held} {name} and must play 1 {name}")
    if held <= 1:
        return Verdict(True, "R-4.4", f"you play all your {name}" + (" and fill with other cards" if not held else ""))
    return Verdict(True, "R-4.4", f"you follow with 1 {name}")


def _multisets(items: list, counts: list, k: int, start: int = 0):
    """Every multiset of size ``k`` over ``items`` (each at most its count), as lists."""
    if k == 0:
        yield []
        return
    # remaining capacity check keeps the recursion from exploring dead ends
    for i in range(start, len(items)):
        avail = counts[i]
        for take in range(min(avail, k), 0, -1):
            for rest in _multisets(items, counts, k - take, i + 1):
                yield [items[i]] * take + rest


def _faces(cards: Iterable[Card], order: TrumpOrder) -> tuple[list[Card], list[int]]:
    """The distinct faces of ``cards`` in ``order`` (high → low) and how many of each."""
    tally: dict[Card, int] = {}
    for c in cards:
        tally[c] = tally.get(c, 0) + 1
    faces = order.sorted(tally)
    return faces, [tally[c] for c in faces]


def legal_follows(lead, hand, order, rule: FollowRule | None = None) -> Iterator[tuple]:
    """Every legal follow to ``lead`` from ``hand``, each once, as a tuple of cards high → low.

    Identical faces make one play.  Built constructively: every way to take the structure the hand
    must supply (its best rung, :mod:`.ladders`), filled with every choice of the remaining cards —
    so only legal plays are ever generated.  Used by bots and the property tests.
    """
    if rule is None:
        rule = follow_rule(lead, order)
    n = rule.count
    suit_of = order.face_suit
    held = [c for c in hand if suit_of[c.index] == rule.suit]
    if len(held) <= n:                # all of the suit, filled with any of the other cards
        base = tuple(order.sorted(held))
        others = [c for c in hand if suit_of[c.index] != rule.suit]
        if n - len(held) <= len(others):
            faces, counts = _faces(others, order)
            for fill in _multisets(faces, counts, n - len(held)):
                yield base + tuple(fill)
        return
    faces, counts = _faces(held, order)
    counts_g = count_groups(held, order)
    rung = rule.ladder[rule.rung_index(counts_g, order)]
    if () in rung:                    # nothing to supply: any n cards of the suit
        for play in _multisets(faces, counts, n):
            yield tuple(play)
        return
    yield from _structured_follows(rule, rung, held, faces, counts, counts_g, order)


def _structured_follows(rule: FollowRule, rung, held: list, faces: list, counts: list, counts_g,
                        order) -> Iterator[tuple]:
    """``legal_follows`` when the hand must supply structure: each way to take an alternative of
    the hand's ``rung`` (R-4.5 – R-4.7), filled with every choice of the suit's remaining cards."""
    n = rule.count
    group, sort = order.face_group, order.face_sort
    # the cards of each group, high → low, to turn "k cards of group g" into faces
    cards_of: dict = {}
    for c in order.sorted(held):
        cards_of.setdefault(group[c.index], []).append(c)
    seen: set = set()
    realizations = _protected_realizations if rule.protect else iter_realizations
    for alt in rung:
        for taken in realizations(counts_g, alt, order):
            core: list = []
            left = dict(zip(faces, counts))
            for g, k in taken.items():
                for c in cards_of[g][:k]:
                    core.append(c)
                    left[c] -= 1
            rest_faces = [f for f in faces if left[f] > 0]
            rest_counts = [left[f] for f in rest_faces]
            for fill in _multisets(rest_faces, rest_counts, n - len(core)):
                play = sorted(core + fill, key=lambda c: sort[c.index])
                key = tuple(c.index for c in play)
                if key not in seen:
                    seen.add(key)
                    yield tuple(play)
