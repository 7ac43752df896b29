"""Every decision of both bots is legal (R-4.1 – R-4.7), on random deals of every preset.

Hypothesis draws a preset, a deal, a level and a trump; the hand is then played out trick by trick
with the bots deciding every play (the seats alternate between the two bots so that both meet every
kind of position: leading, following, short suits, voids, late tricks).  Each lead is checked with
``check_lead`` (one suit; no throws where forbidden), each follow with ``check_follow``, and each
heuristic throw with ``check_throw`` against the real other hands: the heuristic only throws what
cannot be beaten (R-4.2).  Burials are checked for count and membership (R-7.2).
"""
import random
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings, strategies as st

from shengji_table.game.bots import make_bot
from shengji_table.game.bots.sampling import take_cards
from shengji_table.game.decisions import Bury, PlayCards
from shengji_table.game.view import TrickView
from shengji_table.rules.cards import SUITS
from shengji_table.rules.follow import check_follow
from shengji_table.rules.order import TrumpOrder
from shengji_table.rules.ruleset import PRESETS, Ruleset
from shengji_table.rules.throw import check_lead, check_throw
from shengji_table.rules.trick import Play, trick_points, winning_index

sys.path.insert(0, str(Path(__file__).parent))
from scenario import bury_view, play_view, random_deal  # noqa: E402  (tests/game/scenario.py)

deals = st.fixed_dictionaries({
    "seed": st.integers(0, 2**32 - 1),
    "level": st.integers(2, 14),
    "trump": st.sampled_from((*SUITS, None)),
})


def play_out_hand(ruleset, level, trump, seed, bots, tricks_to_play=None):
    """Play a dealt hand to the end with ``bots`` (one per seat), checking every decision.

    Returns the number of decisions checked."""
    rng = random.Random(seed)
    hands, kitty = random_deal(ruleset, rng)
    order = TrumpOrder(ruleset, level, trump)
    dealer = rng.randrange(ruleset.players)
    # The dealer buries: exactly kitty_size of its own cards.
    if ruleset.kitty_size:
        with_kitty = hands[dealer] + kitty
        decision = bots[dealer].choose(bury_view(ruleset, level, trump, dealer, with_kitty))
        assert isinstance(decision, Bury)
        assert len(decision.cards) == ruleset.kitty_size
        hands[dealer] = take_cards(with_kitty, decision.cards)   # raises if a card is not held
    leader = dealer
    finished = []
    checked = 0
    while hands[leader] and (tricks_to_play is None or len(finished) < tricks_to_play):
        plays = []
        for k in range(ruleset.players):
            seat = (leader + k) % ruleset.players
            view = play_view(ruleset, level, trump, seat, hands[seat], plays, tricks=finished,
                             dealer=dealer, order=order)
            decision = bots[seat].choose(view)
            assert isinstance(decision, PlayCards)
            cards = tuple(decision.cards)
            if not plays:
                verdict = check_lead(cards, order)
                assert verdict.ok, (verdict.rule, verdict.reason, cards)
                others = {s: hands[s] for s in hands if s != seat}
                throw = check_throw(cards, others, order)
                if not throw.ok:
                    # Only the random bot attempts throws that can fail; the forced unit is played.
                    assert bots[seat].name == "random", (cards, throw.reason)
                    cards = throw.forced
            else:
                verdict = check_follow(plays[0].cards, cards, hands[seat], order)
                assert verdict.ok, (bots[seat].name, verdict.rule, verdict.reason, plays, cards, hands[seat])
            hands[seat] = take_cards(hands[seat], cards)
            plays.append(Play(seat, cards))
            checked += 1
        w = winning_index(plays, order)
        finished.append(TrickView(tuple(plays), plays[w].seat, trick_points(plays)))
        leader = plays[w].seat
    return checked


@pytest.mark.parametrize("preset", list(PRESETS))
@settings(max_examples=4)
@given(deal=deals)
def test_bots_every_play_is_legal_R4(preset, deal):
    """R-4.1–R-4.7: random and heuristic bots, seats alternating, play whole hands legally."""
    ruleset = Ruleset.from_preset(preset)
    bots = {s: make_bot("heuristic" if s % 2 else "random", deal["seed"] + s) for s in range(ruleset.players)}
    assert play_out_hand(ruleset, deal["level"], deal["trump"], deal["seed"], bots) > 0


@pytest.mark.parametrize("preset", ["classic", "three-decks", "four-decks", "one-deck-two-colour"])
@settings(max_examples=4)
@given(deal=deals)
def test_bots_heuristic_never_throws_a_beatable_throw_R4_2(preset, deal):
    """R-4.2: a full table of heuristic bots; every throw led must stand against the real hands
    (``play_out_hand`` asserts only the random bot may fail a throw)."""
    ruleset = Ruleset.from_preset(preset)
    bots = {s: make_bot("heuristic", s) for s in range(ruleset.players)}
    play_out_hand(ruleset, deal["level"], deal["trump"], deal["seed"], bots)


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
@settings(max_examples=60)
@given(deal=deals)
def test_bots_every_play_is_legal_long(preset, deal):
    """The long version of :func:`test_bots_every_play_is_legal_R4`."""
    ruleset = Ruleset.from_preset(preset)
    bots = {s: make_bot("random" if s % 2 else "heuristic", deal["seed"] + s) for s in range(ruleset.players)}
    play_out_hand(ruleset, deal["level"], deal["trump"], deal["seed"], bots)


@pytest.mark.parametrize("preset", ["classic", "three-decks", "four-decks", "one-deck-two-colour", "six-players"])
@settings(max_examples=40)
@given(deal=deals, data=st.data())
def test_bots_random_follow_meets_every_ladder_R4_5_R4_7(preset, deal, data):
    """R-4.5–R-4.7: against leads rich in pairs, triples, tractors and throws, every random follow
    is legal, and following the same lead twice with the same seed gives the same play."""
    from shengji_table.game.bots.sampling import random_follow
    from shengji_table.rules.trick import lead_candidates
    from shengji_table.rules.units import decompose

    ruleset = Ruleset.from_preset(preset)
    rng = random.Random(deal["seed"])
    hands, _ = random_deal(ruleset, rng)
    order = TrumpOrder(ruleset, deal["level"], deal["trump"])
    leader, follower = 0, 1
    units = lead_candidates(hands[leader], order)
    wide = [u for u in units if len(u) > 1]
    if data.draw(st.booleans(), label="throw"):
        suit = order.suit_of(rng.choice(hands[leader]))
        lead = tuple(c for c in hands[leader] if order.suit_of(c) == suit)
        parts = decompose(lead, order)
        lead = tuple(c for u in parts[: data.draw(st.integers(1, max(1, len(parts))), label="units")] for c in u.cards)
    else:
        lead = rng.choice(wide or units)
    hand = hands[follower]
    play = random_follow(lead, hand, order, random.Random(deal["seed"]))
    verdict = check_follow(lead, play, hand, order)
    assert verdict.ok, (verdict.rule, verdict.reason, lead, play)
    assert play == random_follow(lead, hand, order, random.Random(deal["seed"]))


@pytest.mark.parametrize("preset", ["classic", "three-decks", "four-decks", "one-deck-two-colour"])
@settings(max_examples=30)
@given(deal=deals)
# a 20-card four-deck throw where the greedy placement paints itself into a corner
@example(deal={"seed": 4239965, "level": 4, "trump": "C"})
def test_bots_cheapest_follow_is_legal_and_cheapest_R4_5(preset, deal):
    """The heuristic's constructed cheapest follow (added when the legal follows are too many to
    list) is legal (R-4.4–R-4.7) and never costs more than the first legal follow listed (the
    highest cards)."""
    from shengji_table.game.bots.sampling import cheapest_follow
    from shengji_table.rules.follow import legal_follows
    from shengji_table.rules.units import decompose

    ruleset = Ruleset.from_preset(preset)
    rng = random.Random(deal["seed"])
    hands, _ = random_deal(ruleset, rng)
    order = TrumpOrder(ruleset, deal["level"], deal["trump"])
    suit = order.suit_of(rng.choice(hands[0]))
    lead = tuple(c for c in hands[0] if order.suit_of(c) == suit)
    parts = decompose(lead, order)
    lead = tuple(c for u in parts[: rng.randint(1, len(parts))] for c in u.cards)
    cost = order.rank_of
    play = cheapest_follow(lead, hands[1], order, cost)
    assert play is not None
    verdict = check_follow(lead, play, hands[1], order)
    assert verdict.ok, (verdict.reason, lead, play)
    first = next(iter(legal_follows(lead, hands[1], order)))
    assert sum(map(cost, play)) <= sum(map(cost, first))
