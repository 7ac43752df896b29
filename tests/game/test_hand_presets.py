"""Random full hands with bots for EVERY preset (§9): card conservation at every step, point
conservation (R-1.4), and settlements recomputed independently from R-8 / R-7.3 / §9.

The bounded version runs a few hands per preset; ``--run-slow`` runs the issue's 200 per preset.
"""
from collections import Counter

import pytest

from shengji_table.game.bots import make_bot
from shengji_table.game.driver import Driver
from shengji_table.game.match import Match
from shengji_table.rules.cards import all_copies
from shengji_table.rules.ruleset import PRESETS, Ruleset
from shengji_table.rules.units import decompose

BOUNDED = {"classic": 6, "one-deck": 6, "one-deck-two-colour": 6, "three-decks": 3, "four-decks": 2,
           "find-friend-4": 5, "find-friend-5": 5, "find-friend-5-three-decks": 3, "six-players": 3,
           "three-players": 5}


def card_places(hand):
    """Every physical card, with the one place it is in (independent bookkeeping of the test)."""
    places = []
    if hand.phase == "drawing" and hand.stack is not None:
        places += [("stack", c) for c in hand.stack[hand.drawn:]]
    for seat in range(hand.players):
        places += [(f"hand{seat}", c) for c in hand.hands[seat]]
    if hand.phase in ("bidding", "trump", "kitty", "exchange"):
        places += [("kitty", c) for c in hand.kitty]
    if hand.phase in ("friend", "playing", "over"):
        places += [("buried", c) for c in hand.buried]
    places += [("trick", c) for _, cards in hand.trick for c in cards]
    places += [("tricks", c) for plays, _, _ in hand.tricks for _, cards in plays for c in cards]
    return places


def check_conservation(match):
    hand = match.hand
    if hand.phase == "deal":
        return
    places = card_places(hand)
    counts = Counter(c for _, c in places)
    every = list(all_copies(match.ruleset.decks))
    dup = [c for c, k in counts.items() if k > 1]
    assert not dup, f"cards in two places: {dup[:5]}"
    assert set(counts) == set(every), f"missing cards: {sorted(set(every) - set(counts))[:5]}"


def expected_levels(rs, p, bid=None):
    """R-8.1 / R-8.2 / R-8.3 / §9 bidding, written out again: (declarers +, attackers +, take over)."""
    s, t = 20 * rs.decks, 40 * rs.decks
    if rs.bidding:
        if p >= bid:
            return 0, 1 + int((p - bid) // (bid / 2)), True
        return (6 if p <= 0 else 4 if p < bid / 2 else 2), 0, False
    if rs.scoring == "one-deck-hundred":
        tot = 100 * rs.decks
        if p <= 0:
            return 2, 0, False
        if p < tot * 0.4:
            return 1, 0, False
        if p < tot * 0.8:
            return 0, 0, True
        return (0, 1, True) if p < tot else (0, 2, True)
    if p <= 0:
        return 3, 0, False
    if p < s:
        return 2, 0, False
    if p < t:
        return 1, 0, False
    return 0, (p - t) // s + (1 if rs.scoring == "takeover-plus-one" else 0), True


def independent_friends(hand):
    """Find-a-friend: replay the plays in order and find who played each called copy."""
    seen = Counter()
    friends = []
    for plays, _, _ in hand.tricks:
        for seat, cards in plays:
            for c in cards:
                seen[c.card] += 1
                for face, nth in hand.friend_calls:
                    if face is c.card and seen[c.card] == nth and seat != hand.dealer and seat not in friends:
                        friends.append(seat)
    return friends


def check_settlement(hand, rs):
    res = hand.result
    assert res is not None and res.ruling is None
    n = rs.players
    d = hand.dealer
    if rs.teams == "fixed":
        declarers = {s for s in range(n) if (s - d) % 2 == 0}
    elif rs.teams == "find-friend":
        declarers = {d, *independent_friends(hand)}
    else:
        declarers = {d}
    assert set(res.declarers) == declarers
    # point conservation: every point is in a trick or in the kitty
    trick_pts = sum(c.card.points for plays, _, _ in hand.tricks for _, cards in plays for c in cards)
    kitty_pts = sum(c.card.points for c in hand.buried)
    assert trick_pts + kitty_pts == 100 * rs.decks
    captured = sum(p for plays, w, p in hand.tricks if w not in declarers)
    left = sum(p for plays, w, p in hand.tricks if w in declarers) + kitty_pts
    assert captured + left == 100 * rs.decks
    assert res.captured == captured
    # kitty bonus (R-7.3, power option): 2^n for the largest unit of the last winning play, cap 64
    plays, winner, _ = hand.tricks[-1]
    bonus = 0
    if winner not in declarers:
        win = [c.card for s, cards in plays if s == winner for c in cards]
        biggest = max(len(u.cards) for u in decompose(win, hand.order)) if len(
            {hand.order.suit_of(c) for c in win}) == 1 else 1
        bonus = kitty_pts * min(2 ** biggest, 64)
    assert res.bonus == bonus
    penalty = sum(p if s in declarers else -p for s, p, _ in hand.penalties)
    p = captured + bonus + penalty
    s = res.settlement
    assert s.attackers_points == p
    assert (s.declarers_levels, s.attackers_levels, s.takeover) == expected_levels(rs, p, hand.bid)


def run_hands(preset, count, kind="random"):
    rs = Ruleset.from_preset(preset)
    done = 0
    match_no = 0
    while done < count:
        m = Match(rs)
        bots = [make_bot(kind, 1000 * match_no + i) for i in range(rs.players)]
        drv = Driver(m, bots, check=check_conservation)
        while not m.over and done < count:
            hand = drv.play_hand(seed=7919 * match_no + done)
            check_settlement(hand, rs)
            done += 1
        match_no += 1
    return done


@pytest.mark.parametrize("preset", list(PRESETS))
def test_hand_random_bots_conserve_cards_points_and_settle_per_r8(preset):
    """R-1.4, R-7.3, R-8: bounded random hands with random-legal bots for every preset."""
    assert run_hands(preset, BOUNDED[preset]) == BOUNDED[preset]


@pytest.mark.parametrize("preset", ["classic", "find-friend-5", "three-players"])
def test_hand_heuristic_bots_settle_per_r8(preset):
    """The heuristic bots go through the same checks."""
    assert run_hands(preset, 2, kind="heuristic") == 2


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
def test_hand_200_random_hands_per_preset(preset):
    """The issue's soak: 200 random full hands per preset."""
    assert run_hands(preset, 200) == 200
