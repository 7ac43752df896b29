"""Rules-engine speed: follow check, throw check, trick winner, legal-play enumeration.

For random 2-deck (25-card hands) and 4-deck (54-card hands) situations prints the median and p99
time of one cold call (per situation the best of three, each with the order's memo cleared, since
the machine is shared), and how many
legal plays per second :func:`legal_follows` yields (at most 2000 per follower and situation).
Leads are random units of the leader's hand, a quarter of them throws.
Targets (issue 2): p99 < 1 ms for 2-deck follow and throw checks, < 5 ms for 4-deck.
"""
from __future__ import annotations

import random
import statistics
import time

from shengji_table.rules.cards import ALL_FACES, SUITS
from shengji_table.rules.follow import check_follow, follow_rule, legal_follows
from shengji_table.rules.order import TrumpOrder
from shengji_table.rules.ruleset import Ruleset
from shengji_table.rules.throw import check_throw
from shengji_table.rules.trick import lead_candidates, winning_index

SITUATIONS = 400


def _deal(rng, rs):
    deck = list(ALL_FACES) * rs.decks
    rng.shuffle(deck)
    n = rs.hand_size
    return [deck[i * n:(i + 1) * n] for i in range(rs.players)]


def _situations(rng, preset):
    rs = Ruleset.from_preset(preset)
    out = []
    while len(out) < SITUATIONS:
        order = TrumpOrder(rs, rng.randint(2, 14), rng.choice(list(SUITS) + [None]))
        hands = _deal(rng, rs)
        cands = lead_candidates(hands[0], order)
        # prefer multi-card leads so that shape rules are exercised
        multi = [c for c in cands if len(c) > 1]
        lead = rng.choice(multi if multi and rng.random() < 0.7 else cands)
        # a throw: the lead plus another unit of its suit when there is one
        suit = order.suit_of(lead[0])
        extra = [c for c in cands if order.suit_of(c[0]) == suit and not set(c) & set(lead)]
        throw = lead + rng.choice(extra) if extra else lead
        if rng.random() < 0.25:
            lead = throw      # some follow checks answer a throw
        rule = follow_rule(lead, order)
        plays = [lead]
        for h in hands[1:]:
            legal = next(legal_follows(lead, h, order, rule))
            plays.append(legal)
        out.append((order, hands, lead, throw, plays, rule))
    return out


def _time(fn, items, repeat=3):
    """Per situation the best of ``repeat`` cold calls (the machine is shared: this drops scheduler
    noise).  The order's memo of lead analyses is cleared before every call, so nothing is reused."""
    times = []
    for it in items:
        best = float("inf")
        for _ in range(repeat):
            it[0]._memo.clear()
            t0 = time.perf_counter()
            fn(it)
            best = min(best, time.perf_counter() - t0)
        times.append(best)
    times.sort()
    return statistics.median(times) * 1e3, times[int(len(times) * 0.99) - 1] * 1e3


def _report(name, sits):
    print(f"-- {name}: {len(sits)} random situations")
    follow = _time(lambda s: check_follow(s[2], s[4][1], s[1][1], s[0]), sits)
    throw = _time(lambda s: check_throw(s[3], {1: s[1][1], 2: s[1][2], 3: s[1][3]}, s[0]), sits)
    winner = _time(lambda s: winning_index(s[4], s[0]), sits)
    for label, (med, p99) in (("follow check", follow), ("throw check", throw), ("trick winner", winner)):
        print(f"   {label:<14} median {med:7.3f} ms   p99 {p99:7.3f} ms")
    count = 0
    t0 = time.perf_counter()
    for s in sits:
        for h in s[1][1:]:
            for i, _play in enumerate(legal_follows(s[2], h, s[0], s[5])):
                count += 1
                if i >= 2000:
                    break
    dt = time.perf_counter() - t0
    print(f"   legal plays enumerated: {count} in {dt:.2f} s = {count / dt:,.0f} per second")


def main():
    rng = random.Random(20261130)
    _report("2 decks (classic, 25-card hands)", _situations(rng, "classic"))
    _report("4 decks (four-decks, 54-card hands)", _situations(rng, "four-decks"))


if __name__ == "__main__":
    main()
