"""The random bot's short cuts (``bots.sampling``) against the general path they skip: a one-card
follow (R-4.4: a card of the led suit while the hand holds one, else any card), a follow short of
the led suit (R-4.4: all of the suit, the rest any other cards) and a lead of one
unit (R-3, ``lead_candidates``) give the same card and leave the generator in the same state as
``rng.choice`` / ``rng.sample`` over the lists the rules build."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from shengji_table.game.bots.random_legal import RandomLegalBot
from shengji_table.game.bots.sampling import random_follow, random_lead, random_single, take_cards
from shengji_table.game.decisions import PlayCards
from shengji_table.game.view import Expect, SeatView
from shengji_table.rules.ruleset import PRESETS, Ruleset
from shengji_table.rules.trick import Play, lead_candidates

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from hands import random_orders_and_hands  # noqa: E402


def _general_single_follow(lead, hand, order, rng):
    """The one-card follow as the general path draws it: a card of the led suit if any, else any."""
    suit = order.suit_of(lead[0])
    suit_cards = [c for c in hand if order.suit_of(c) == suit]
    if len(suit_cards) <= 1:
        others = [c for c in hand if order.suit_of(c) != suit]
        return tuple(suit_cards + rng.sample(others, 1 - len(suit_cards)))
    return (rng.choice(suit_cards),)


@pytest.mark.parametrize("preset", PRESETS)
def test_one_card_follow_is_the_general_draw_R4_4(preset):
    rs = Ruleset.from_preset(preset)
    rng = random.Random(preset)
    kinds = set()
    for order, hand in random_orders_and_hands(rs, rng, 300):
        if len(hand) < 2:
            continue
        lead, hand = (hand[0],), hand[1:]
        seed = rng.random()
        fast, general = random.Random(seed), random.Random(seed)
        assert random_follow(lead, hand, order, fast) == _general_single_follow(lead, hand, order, general)
        assert fast.getstate() == general.getstate()
        kinds.add(min(2, sum(order.suit_of(c) == order.suit_of(lead[0]) for c in hand)))
    assert kinds == {0, 1, 2}            # void, one card of the suit, a choice among several


@pytest.mark.parametrize("preset", PRESETS)
def test_short_follow_is_the_general_draw_R4_4(preset):
    """A follower with no more cards of the led suit than the lead plays all of them and draws the
    rest from its other cards — a void one from the whole hand, read without a pass over it."""
    rs = Ruleset.from_preset(preset)
    rng = random.Random(preset)
    kinds = set()
    for order, hand in random_orders_and_hands(rs, rng, 300):
        suit = order.suit_of(hand[0])
        lead = tuple(c for c in hand if order.suit_of(c) == suit)[:2 + rng.randrange(3)]
        follower = take_cards(hand, lead)
        held = sum(order.suit_of(c) == suit for c in follower)
        if len(lead) < 2 or held > len(lead) or len(follower) < len(lead):
            continue
        seed = rng.random()
        fast, general = random.Random(seed), random.Random(seed)
        suit_cards = [c for c in follower if order.suit_of(c) == suit]
        others = [c for c in follower if order.suit_of(c) != suit]
        want = tuple(suit_cards + general.sample(others, len(lead) - held))
        assert random_follow(lead, tuple(follower), order, fast) == want
        assert fast.getstate() == general.getstate()
        kinds.add(min(1, held))
    assert kinds == {0, 1}               # void, and short of the suit


@pytest.mark.parametrize("preset", PRESETS)
def test_one_unit_lead_is_a_pick_from_the_lead_candidates_R3(preset):
    rs = Ruleset.from_preset(preset)
    rng = random.Random(preset)
    for order, hand in random_orders_and_hands(rs, rng, 200):
        seed = rng.random()
        fast, general = random.Random(seed), random.Random(seed)
        assert random_lead(hand, order, fast) == tuple(general.choice(lead_candidates(hand, order)))
        assert fast.getstate() == general.getstate()


class _OwnRandom(random.Random):
    """A generator with its own ``random()``: ``_randbelow`` then draws without ``getrandbits``, so
    ``random_single`` must not inline CPython's getrandbits loop for it."""

    def random(self):
        return super().random()


@pytest.mark.parametrize("preset", ["classic", "one-deck-two-colour", "four-decks"])
def test_one_card_follow_of_another_generator_is_its_own_draw_R4_4(preset):
    rs = Ruleset.from_preset(preset)
    rng = random.Random(preset)
    for order, hand in random_orders_and_hands(rs, rng, 100):
        if len(hand) < 2:
            continue
        lead, hand = (hand[0],), hand[1:]
        seed = rng.random()
        fast, general = _OwnRandom(seed), _OwnRandom(seed)
        assert (random_single(lead[0], hand, order, fast),) == _general_single_follow(lead, hand, order, general)
        assert fast.getstate() == general.getstate()


@pytest.mark.parametrize("preset", ["classic", "three-players", "find-friend-5-three-decks"])
def test_one_card_answers_are_the_plays_built_R4_4(preset):
    """The random bot answers a one-card follow or lead with the shared ``ONE_CARD_PLAYS`` entry: the
    same decision as ``PlayCards`` of the card the general draw picks (R-4.4 follow, R-3 lead)."""
    rs = Ruleset.from_preset(preset)
    seen = set()
    for order, hand in random_orders_and_hands(rs, random.Random(preset), 150):
        if len(hand) < 2:
            continue
        bot, twin = RandomLegalBot(7, throw_rate=0.0), random.Random(7)
        view = _play_view(rs, order, tuple(hand[1:]), ((1, (hand[0],)),))
        answer = bot.choose(view)
        assert answer == PlayCards(random_follow((hand[0],), hand[1:], order, twin))
        assert bot.rng.getstate() == twin.getstate()
        lead_view = view._replace(trick=(), expect=Expect("lead"))
        answer, unit = bot.choose(lead_view), random_lead(tuple(hand[1:]), order, twin)
        assert answer == PlayCards(unit) and answer.cards == unit
        assert bot.rng.getstate() == twin.getstate()
        seen.add(len(unit))
    assert 1 in seen


def _play_view(rs, order, hand, trick) -> SeatView:
    return SeatView(ruleset=rs, seat=0, players=rs.players, phase="PLAYING", level=order.level, levels=(),
                    trump=order.trump, order=order, hand=hand,
                    trick=tuple(Play(s, cards) for s, cards in trick), leader=1, tricks=(), points=(),
                    attackers_points=0, dealer=0, declarers=frozenset(), friend_calls=(), kitty=None,
                    shown_kitty=(), standing_bid=None, expect=Expect("follow", 1))
