"""The engine's counting shortcuts give exactly what the general paths give (docs/rules-engine.md,
"What is kept, and the short forms"): each is compared with the search it stands in for, on random
deals of every kind of order (two, three and four decks, two colours, permanent twos).

* a pair, triple or quad split by counting (R-3.1) is the general split's one unit;
* R-5.3: the strength of a throw-shaped play whose other units are singles is the general search's;
* R-4.3: a failed throw forces the unit the general rule picks (the lowest beatable one, on equal
  rank the one with fewest cards, the first listed) and names the first seat that beats it;
* R-5.1: a play meets a pair, triple or quad lead exactly when it is one group, by counting;
* R-4.1 / R-4.4: what a lead's units decide (its verdict, its follow rule) is worked out once per
  kind or per suit and shape, and is what a fresh analysis of each lead says;
* R-4.3: the judge's remembered throw check is a fresh check_throw, whatever hands come after.
"""
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shengji_table.rules import units as U
from shengji_table.rules.cards import ALL_FACES, SUITS
from shengji_table.rules.order import TrumpOrder
from shengji_table.rules.ruleset import Ruleset
from shengji_table.rules.shapes import _best_top_search, best_top, count_groups, lowest_beating
from shengji_table.rules.throw import check_throw
from shengji_table.rules.trick import lead_candidates

PRESETS = ["classic", "three-decks", "four-decks", "one-deck-two-colour", "tournament"]


def _order(rng, preset):
    rs = Ruleset.from_preset(preset)
    return rs, TrumpOrder(rs, rng.randint(2, 14), rng.choice([*SUITS, None]))


def _deal(rng, rs) -> dict:
    """Every seat's hand of a random deal: ``{seat: faces}``."""
    deck = list(ALL_FACES) * rs.decks
    rng.shuffle(deck)
    n = rs.hand_size
    return {s: deck[s * n:(s + 1) * n] for s in range(rs.players)}


def _hand(rng, rs, n):
    deck = list(ALL_FACES) * rs.decks
    rng.shuffle(deck)
    return deck[:n]


@pytest.mark.parametrize("preset", PRESETS)
@given(seed=st.integers(0, 2**32 - 1))
def test_R3_1_one_group_counted_is_the_general_split(preset, seed):
    rng = random.Random(seed)
    rs, order = _order(rng, preset)
    for cards in lead_candidates(_hand(rng, rs, 40), order):
        if 2 <= len(cards) <= 4 and len({order.group_of(c) for c in cards}) == 1:
            suit = order.suit_of(cards[0])
            assert U._decompose(cards, order) == tuple(U._decompose_suit(list(cards), suit, order)), cards


@pytest.mark.parametrize("preset", PRESETS)
@given(seed=st.integers(0, 2**32 - 1))
def test_R5_3_strength_beside_singles_is_the_general_search(preset, seed):
    rng = random.Random(seed)
    rs, order = _order(rng, preset)
    hand = _hand(rng, rs, 30)
    suit = rng.choice(order.suits())
    cards = [c for c in hand if order.suit_of(c) == suit]
    if not cards:
        return
    counts = count_groups(cards, order)
    unit = U.decompose(rng.choice(lead_candidates(cards, order)), order)[0]    # one unit of the suit
    comp = (unit.width, unit.length)
    for singles in range(0, len(cards) + 1):
        rest = ((1, 1),) * singles
        assert best_top(counts, comp, rest, order) == _best_top_search(counts, comp, rest, order), \
            (cards, comp, singles)


def _general_forced(units, hands: dict, order, leader):
    """R-4.3 as the rule reads: of the units some other seat can beat, the lowest (rank, then
    fewest cards; the first listed on a tie), and the first seat in playing order that beats it."""
    seats = sorted(hands, key=lambda s: (s - leader) % order.ruleset.players)
    beatable = []
    for u in units:
        for seat in seats:
            held = count_groups([c for c in hands[seat] if order.suit_of(c) == u.suit], order)
            if lowest_beating(held, u.component, u.top, order) is not None:
                beatable.append((u, seat))
                break
    return min(beatable, key=lambda t: (t[0].top, t[0].size)) if beatable else None


@pytest.mark.parametrize("preset", PRESETS)
@given(seed=st.integers(0, 2**32 - 1))
def test_R4_3_failed_throw_forces_the_lowest_beatable_unit(preset, seed):
    rng = random.Random(seed)
    rs, order = _order(rng, preset)
    if rs.throws == "none":
        return
    hands = _deal(rng, rs)
    suit = order.suit_of(rng.choice(hands[0]))
    mine = [c for c in hands[0] if order.suit_of(c) == suit]
    lead = tuple(rng.sample(mine, min(len(mine), rng.randint(2, 6))))
    units = U.decompose(lead, order)
    if len(units) < 2:
        return
    others = {s: h for s, h in hands.items() if s != 0}
    got = check_throw(lead, others, order, leader=0)
    want = _general_forced(units, others, order, leader=0)
    if want is None:
        assert got.ok or got.rule == "R-4.2"
    else:
        assert not got.ok and got.rule == "R-4.3"
        assert (got.forced, got.beaten_by[0]) == (want[0].cards, want[1])


@pytest.mark.parametrize("preset", PRESETS)
def test_R4_5_group_leads_counted_give_the_general_verdicts(preset, monkeypatch):
    """A pair, triple or quad lead whose ladder is single groups is followed by counting the widest
    group held and played; every verdict (legality, rule id, reason) is the general ladder
    search's, on random hands and random same-count plays (R-4.5, R-4.6)."""
    from shengji_table.rules import follow as F
    from shengji_table.rules.follow import check_follow, follow_rule
    rng = random.Random(preset)
    counted_any = False
    for _ in range(300):
        rs, order = _order(rng, preset)
        hand = _hand(rng, rs, 30)
        groups = [c for c in lead_candidates(_hand(rng, rs, 30), order) if 2 <= len(c) <= 4
                  and len({order.group_of(x) for x in c}) == 1]
        if not groups:
            continue
        lead = rng.choice(groups)
        suit = order.suit_of(lead[0])
        mine = [c for c in hand if order.suit_of(c) == suit]
        play = tuple(rng.sample(mine if len(mine) >= len(lead) and rng.random() < 0.8 else hand, len(lead)))
        fast_rule = follow_rule(lead, order)
        counted_any |= fast_rule.widths is not None
        fast = check_follow(lead, play, hand, order, rule=fast_rule)
        with monkeypatch.context() as m:
            m.setattr(F, "_group_widths", lambda ladder: None)     # the general ladder search
            general = check_follow(lead, play, hand, order, rule=F._follow_rule(lead, order))
        assert fast == general, (lead, play, hand)
    assert counted_any


@pytest.mark.parametrize("preset", PRESETS)
def test_R4_4_a_one_card_follow_called_legal_by_counting_is_legal(preset):
    """``one_card_follow_is_legal`` (what the game asks first, for every one-card follow) never
    calls legal what the full check refuses, and calls legal every held card of the led suit."""
    from shengji_table.rules.follow import check_follow, face_counts, follow_rule, one_card_follow_is_legal
    rng = random.Random(preset)
    said = 0
    for _ in range(400):
        rs, order = _order(rng, preset)
        hand = _hand(rng, rs, rng.randint(1, 30))
        lead = (_hand(rng, rs, 1)[0],)
        play = rng.choice(hand)
        rule = follow_rule(lead, order)
        fast = one_card_follow_is_legal(play, rule, face_counts(hand), order)
        full = check_follow(lead, (play,), hand, order, rule=rule)
        assert not fast or full.ok, (lead, play, hand)
        if order.suit_of(play) == order.suit_of(lead[0]) and rule.rule != "R-4.8":
            assert fast
        said += fast
    assert said > 100


def _random_lead(rng, rs, order):
    """A random one-suit lead: one unit of a random hand, or a few units of one suit."""
    hand = _hand(rng, rs, 30)
    if rng.random() < 0.6:
        return tuple(rng.choice(lead_candidates(hand, order)))
    suit = order.suit_of(rng.choice(hand))
    mine = [c for c in hand if order.suit_of(c) == suit]
    return tuple(rng.sample(mine, min(len(mine), rng.randint(1, 7))))


@pytest.mark.parametrize("preset", PRESETS)
def test_R5_1_one_group_lead_met_by_counting_is_the_general_split(preset):
    """``TrickShape.key`` of a pair, triple or quad lead counts the play's groups; the general
    comparison splits the play into units (R-5.1, R-3.6): the same key or None for every play."""
    from shengji_table.rules.trick import TrickShape
    rng = random.Random(preset)
    counted = 0
    for _ in range(400):
        rs, order = _order(rng, preset)
        lead = _random_lead(rng, rs, order)
        shape = TrickShape(lead, order)
        if shape.single is None or shape.single.width == 1 or shape.single.length != 1:
            continue
        hand = _hand(rng, rs, 40)
        suit = order.suit_of(lead[0])
        mine = [c for c in hand if order.suit_of(c) == suit]
        for play in [tuple(rng.sample(mine, len(lead))) for _ in range(5) if len(mine) >= len(lead)] + [lead]:
            assert shape.key(play) == shape._key(play), (lead, play)
            counted += 1
    assert counted > 200


@pytest.mark.parametrize("preset", PRESETS)
def test_R4_1_R4_4_what_a_leads_units_decide_is_a_fresh_analysis(preset):
    """A one-unit lead's verdict comes from its kind and a lead's follow rule from its suit and
    shape (remembered per order; a single's from its suit); both equal what analysing the lead
    afresh says (R-4.1, R-4.4)."""
    from shengji_table.rules.follow import _follow_rule, follow_rule
    from shengji_table.rules.throw import check_lead
    rng = random.Random(preset)
    for _ in range(400):
        rs, order = _order(rng, preset)
        lead = _random_lead(rng, rs, order)
        units = U.decompose(lead, order)
        assert check_lead(lead, order, units) == check_lead(list(lead), order), lead
        assert follow_rule(lead, order, units) == _follow_rule(lead, order), lead
        for face in rng.sample(ALL_FACES, 12):      # a single's rule: remembered per suit, asked by any face
            assert follow_rule((face,), order) == follow_rule([face], order) == _follow_rule((face,), order)


@pytest.mark.parametrize("preset", PRESETS)
def test_R4_3_remembered_throw_check_is_a_fresh_one(preset):
    """The judge remembers a throw's check for the same lead and the same cards of its suit in the
    other hands; asked again with other hands (or the same), it says what check_throw says."""
    from shengji_table.rules.trick import Play
    from shengji_table.rules.trick_ruling import _throw_check
    rng = random.Random(preset)
    failed = 0
    for _ in range(150):
        rs, order = _order(rng, preset)
        if rs.throws == "none":
            return
        lead_hand = _deal(rng, rs)[0]
        suit = order.suit_of(rng.choice(lead_hand))
        mine = [c for c in lead_hand if order.suit_of(c) == suit]
        lead = Play(0, tuple(rng.sample(mine, min(len(mine), rng.randint(2, 6)))))
        units = U.decompose(lead.cards, order)
        if len(units) < 2:
            continue
        for _ask in range(3):                  # the same lead against changing hands, and again
            others = {s: h for s, h in _deal(rng, rs).items() if s != 0}
            for _again in range(2):
                got = _throw_check(lead, others, order, units)
                assert got == check_throw(lead.cards, others, order, leader=0, units=units), (lead, others)
                failed += not got.ok
    assert failed > 20
