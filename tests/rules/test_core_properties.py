"""Property tests on random deals for every preset (issue 2, "What must show").

* a follower always has at least one legal play (R-4.4);
* every play called legal meets R-4.4 (count; the led suit while any);
* the winner does not depend on the order of cards inside plays (R-5);
* an accepted throw cannot be beaten by any unit in the other hands (R-4.2, brute force);
* follow legality agrees with brute force on small hands: with two decks against an independent
  statement of R-4.5 (tractor pairs first, then pairs), with three and four decks against the
  seed's ladders read literally (sub-sets of cards, split by :func:`decompose`).
"""
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shengji_table.rules.cards import ALL_FACES, SUITS
from shengji_table.rules.follow import check_follow, follow_rule, legal_follows
from shengji_table.rules.order import TrumpOrder
from shengji_table.rules.ruleset import PRESETS, Ruleset
from shengji_table.rules.throw import check_throw
from shengji_table.rules.trick import lead_candidates, winning_index
from shengji_table.rules.units import decompose

PRESET_NAMES = sorted(PRESETS)


def _deal(rng, rs):
    deck = list(ALL_FACES) * rs.decks
    rng.shuffle(deck)
    n = rs.hand_size
    return [deck[i * n:(i + 1) * n] for i in range(rs.players)]


def _order(rng, rs):
    return TrumpOrder(rs, rng.randint(2, 14), rng.choice(list(SUITS) + [None]))


def _lead(rng, hand, order):
    cands = lead_candidates(hand, order)
    multi = [c for c in cands if len(c) > 1]
    lead = rng.choice(multi if multi and rng.random() < 0.7 else cands)
    if rng.random() < 0.3:           # sometimes a throw: add another unit of the same suit
        left = Counter(hand) - Counter(lead)
        same = [c for c in lead_candidates(list(left.elements()), order)
                if order.suit_of(c[0]) == order.suit_of(lead[0])]
        if same:
            lead = lead + rng.choice(same)
    return tuple(lead)


def _situation(seed, preset):
    rng = random.Random(seed)
    rs = Ruleset.from_preset(preset)
    order = _order(rng, rs)
    hands = _deal(rng, rs)
    return rng, order, hands, _lead(rng, hands[0], order)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@given(seed=st.integers(0, 2**32 - 1))
def test_R4_4_every_follower_has_a_legal_play_and_legal_plays_meet_R4_4(preset, seed):
    rng, order, hands, lead = _situation(seed, preset)
    rule = follow_rule(lead, order)
    plays = [lead]
    for hand in hands[1:]:
        first = list(itertools.islice(legal_follows(lead, hand, order, rule), 50))
        assert first, "a follower always has a legal play"
        held = sum(1 for c in hand if order.suit_of(c) == rule.suit)
        for play in first:
            assert len(play) == len(lead)
            assert not (Counter(play) - Counter(hand)), "plays come from the hand"
            in_suit = sum(1 for c in play if order.suit_of(c) == rule.suit)
            assert in_suit == min(len(lead), held), "R-4.4: the led suit while any"
            v = check_follow(lead, play, hand, order, rule)
            assert v.ok, v
        plays.append(rng.choice(first))
    # the winner does not depend on the order of the cards inside the plays
    w = winning_index(plays, order)
    shuffled = []
    for p in plays:
        p = list(p)
        rng.shuffle(p)
        shuffled.append(tuple(p))
    assert winning_index(shuffled, order) == w


# ---- throws: brute force on small hands --------------------------------------------------------
def _units_of_shape(cards, width, length, order):
    """Brute force: every sub-multiset of ``cards`` that is exactly one unit of that shape."""
    out = []
    for combo in set(itertools.combinations(sorted(cards, key=lambda c: c.index), width * length)):
        units = decompose(combo, order)
        if len(units) == 1 and units[0].width == width and units[0].length == length:
            out.append(units[0])
    return out


def _small_hands(rng, rs, order, size):
    deck = list(ALL_FACES) * rs.decks
    # concentrate on one suit so that structures appear
    suit = rng.choice(order.suits())
    pool = [c for c in deck if order.suit_of(c) == suit]
    # a narrow window of adjacent ranks, so that pairs, triples and tractors are common
    lo = rng.randint(0, max(0, order.top_rank(suit) - 5))
    pool = [c for c in pool if lo <= order.rank_of(c) <= lo + 5]
    rng.shuffle(pool)
    others = [c for c in deck if order.suit_of(c) != suit]
    rng.shuffle(others)
    hands = []
    for _ in range(rs.players):
        k = rng.randint(size // 2, size)
        hands.append(pool[:k] + others[:size - k])
        pool, others = pool[k:], others[size - k:]
    return suit, hands


@pytest.mark.parametrize("preset", ["classic", "three-decks", "four-decks", "one-deck-two-colour"])
@given(seed=st.integers(0, 2**32 - 1))
def test_R4_2_an_accepted_throw_cannot_be_beaten_brute_force(preset, seed):
    rng = random.Random(seed)
    rs = Ruleset.from_preset(preset)
    order = _order(rng, rs)
    suit, hands = _small_hands(rng, rs, order, 8)
    mine = [c for c in hands[0] if order.suit_of(c) == suit]
    # lead_candidates: exactly the sub-multisets of the hand that are one unit (brute force)
    small = hands[0][:7]
    expected = {k for k in (tuple(sorted(c, key=lambda x: x.index)) for n in range(1, len(small) + 1)
                            for c in _submultisets(small, n)) if len(decompose(k, order)) == 1}
    got = [tuple(sorted(c, key=lambda x: x.index)) for c in lead_candidates(small, order)]
    assert len(got) == len(set(got)), "no candidate twice"
    assert set(got) == expected
    if len(mine) < 2:
        return
    lead = tuple(rng.sample(mine, rng.randint(2, min(5, len(mine)))))
    others = {s: hands[s] for s in range(1, rs.players)}
    tc = check_throw(lead, others, order)
    units = decompose(lead, order)
    beaten = []
    for u in units:
        for s, h in others.items():
            held = [c for c in h if order.suit_of(c) == suit]
            if any(v.top > u.top for v in _units_of_shape(held, u.width, u.length, order)):
                beaten.append(u)
                break
    if len(units) == 1:
        assert tc.ok
    elif tc.ok:
        assert not beaten, f"accepted throw {lead} is beaten: {beaten}"
    elif tc.rule == "R-4.3":
        assert beaten, "a throw fails only when a unit of it can be beaten"
        low = min(beaten, key=lambda u: (u.top, u.size))
        assert tuple(tc.forced) == low.cards
        assert sorted(tc.forced + tc.withdrawn, key=lambda c: c.index) == sorted(lead, key=lambda c: c.index)


# ---- follow legality against brute force --------------------------------------------------------
def _submultisets(cards, k):
    return set(itertools.combinations(sorted(cards, key=lambda c: c.index), k))


def _tractor_cover(cards, lead_tractors, order):
    """Max pairs of the lead's tractors covered by disjoint tractors of ``cards`` (two decks)."""
    if not lead_tractors:
        return 0
    first, rest = lead_tractors[0], lead_tractors[1:]
    best = _tractor_cover(cards, rest, order)
    for length in range(2, first + 1):
        for u in _units_of_shape(cards, 2, length, order):
            left = list((Counter(cards) - Counter(u.cards)).elements())
            best = max(best, length + _tractor_cover(left, rest, order))
    return best


def _score_two_decks(cards, lead_units, order):
    """R-4.5 stated independently: (tractor pairs covered, pairs up to the lead's number)."""
    lead_tractors = [u.length for u in lead_units if u.length >= 2]
    lead_pairs = sum(u.length for u in lead_units if u.width == 2)
    pairs = sum(n // 2 for n in Counter(order.group_of(c) for c in cards).values())
    return (_tractor_cover(list(cards), lead_tractors, order), min(pairs, lead_pairs))


def _contains(cards, components, order):
    """Brute force: ``cards`` hold the components at once (each a sub-multiset that is one unit)."""
    comps = [c for c in components if c[0] >= 2]
    if not comps:
        return True
    (w, length), rest = comps[0], comps[1:]
    for u in _units_of_shape(cards, w, length, order):
        if _contains(list((Counter(cards) - Counter(u.cards)).elements()), rest, order):
            return True
    return False


def _ladder_rung(cards, ladder, order):
    for i, rung in enumerate(ladder):
        if any(_contains(cards, alt, order) for alt in rung):
            return i
    raise AssertionError("the last rung takes any cards")


def _brute_legal(lead, hand, order):
    n = len(lead)
    rule = follow_rule(lead, order)
    held = [c for c in hand if order.suit_of(c) == rule.suit]
    legal = set()
    if len(held) <= n:
        for fill in _submultisets([c for c in hand if order.suit_of(c) != rule.suit], n - len(held)):
            legal.add(tuple(sorted(held + list(fill), key=lambda c: c.index)))
        return legal
    candidates = _submultisets(held, n)
    if order.decks <= 2:
        units = decompose(lead, order)
        scores = {c: _score_two_decks(c, units, order) for c in candidates}
    else:
        scores = {c: -_ladder_rung(c, rule.ladder, order) for c in candidates}
    best = max(scores.values())
    return {c for c, s in scores.items() if s == best}


@pytest.mark.parametrize("preset", ["classic", "three-decks", "four-decks", "one-deck-two-colour", "one-deck"])
@given(seed=st.integers(0, 2**32 - 1))
def test_R4_5_to_R4_7_follow_legality_agrees_with_brute_force(preset, seed):
    rng = random.Random(seed)
    rs = Ruleset.from_preset(preset)
    order = _order(rng, rs)
    suit, hands = _small_hands(rng, rs, order, 9)
    lead_hand = [c for c in hands[0] if order.suit_of(c) == suit]
    if not lead_hand:
        return
    lead = _lead(rng, lead_hand, order)
    if len(lead) > 6:
        lead = lead[:6]
        if len({order.suit_of(c) for c in lead}) > 1:
            return
    follower = hands[1]
    expected = _brute_legal(lead, follower, order)
    listed = [tuple(sorted(p, key=lambda c: c.index)) for p in legal_follows(lead, follower, order)]
    assert len(listed) == len(set(listed)), "legal_follows lists each play once"
    assert set(listed) == expected
    for play in _submultisets(follower, len(lead)):
        assert check_follow(lead, play, follower, order).ok == (play in expected), play
