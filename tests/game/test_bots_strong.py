"""The strong bot: sampled worlds hold to what the seat knows (and only that), its choice does not
depend on where the hidden cards really are, and it plays legal hands."""
from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from shengji_table.game.bots import BOTS, HeuristicBot, StrongBot, make_bot
from shengji_table.game.bots.heuristic import seen_cards
from shengji_table.game.bots.knowledge import known_voids
from shengji_table.game.bots.rollout import Rollout, utility
from shengji_table.game.bots.strong import best_option, follow_options, lead_options
from shengji_table.game.bots.worlds import knowledge_of, sample_world
from shengji_table.game.driver import Driver
from shengji_table.game.match import Match
from shengji_table.rules.cards import full_deck
from shengji_table.rules.follow import check_follow
from shengji_table.rules.ruleset import Ruleset
from shengji_table.rules.settle import settle

sys.path.insert(0, str(Path(__file__).parent))
from scenario import play_view  # noqa: E402

CLASSIC = Ruleset.from_preset("classic")


class _Spy:
    """The heuristic, keeping the live hand's state at each of its seat's card decisions."""

    def __init__(self, seat, driver_box, keep):
        self.seat, self.box, self.keep, self.inner = seat, driver_box, keep, HeuristicBot()

    def choose(self, view):
        if view.expect.kind in ("lead", "follow") and self.keep(view):
            hand = self.box[0].match.hand
            self.box.append((view, [list(hand.hands[s]) for s in range(view.players)]))
        return self.inner.choose(view)


def _views(seed: int, keep, ruleset=CLASSIC):
    """Play one hand with heuristic bots; the views (and true hands) kept by ``keep``."""
    box: list = []
    match = Match(ruleset)
    driver = Driver(match, [_Spy(s, box, keep) for s in range(ruleset.players)])
    box.insert(0, driver)
    driver.play_hand(seed)
    return box[1:]


def test_sampled_worlds_hold_to_the_seats_knowledge():
    """R-4.4: a seat that followed short of a suit holds none of it; every copy is somewhere."""
    kept = _views(21, lambda v: len(v.tricks) in (6, 14))
    assert kept
    rng = random.Random(1)
    full = Counter({c: CLASSIC.decks for c in full_deck()})
    checked_void = False
    for view, _true in kept:
        know = knowledge_of(view)
        voids = known_voids([t.plays for t in view.tricks] + [view.trick], view.order)
        for _ in range(30):
            w = sample_world(view, know, rng)
            assert w.hands[view.seat] == tuple(view.hand)
            for s in range(view.players):
                if s != view.seat:
                    assert len(w.hands[s]) == know.sizes[s]
                    for suit in voids.get(s, ()):
                        checked_void = True
                        assert all(view.order.suit_of(c) != suit for c in w.hands[s])
            if view.kitty is not None:          # the dealer buried it: the kitty is the one it knows
                assert w.kitty == tuple(view.kitty)
            assert len(w.kitty) == CLASSIC.kitty_size
            everything = Counter(c for h in w.hands for c in h) + Counter(w.kitty)
            everything.update(seen_cards(view, include_kitty=False))
            assert everything == full
    assert checked_void


class _Swapper(HeuristicBot):
    """Seat 0 at its first card play from trick 4 on: asks the strong bot, then swaps seats 1 and 3's real hands
    in the live hand, rebuilds the view and asks a twin bot; then puts the hands back."""

    def __init__(self, box):
        super().__init__()
        self.box = box

    def choose(self, view):
        if view.expect.kind in ("lead", "follow") and len(view.tricks) >= 3 and not self.box[1:]:
            hand = self.box[0].match.hand
            first = StrongBot(5, samples=4).choose(view)
            hand.hands[1], hand.hands[3] = hand.hands[3], hand.hands[1]
            again = hand.view(0)
            second = StrongBot(5, samples=4).choose(again)
            hand.hands[1], hand.hands[3] = hand.hands[3], hand.hands[1]
            self.box.append((view == again, first, second))
        return super().choose(view)


def test_the_choice_does_not_depend_on_where_the_hidden_cards_are():
    """Two other seats' real hands swapped mid-hand: the seat's view is the same, and so is its
    choice — it reads nothing but its view."""
    for seed in (33, 34):
        box: list = []
        match = Match(CLASSIC)
        driver = Driver(match, [_Swapper(box)] + [HeuristicBot() for _ in range(3)])
        box.append(driver)
        driver.play_hand(seed)
        same_view, first, second = box[1]
        assert same_view and first == second


def test_candidates_are_legal_and_the_heuristic_choice_comes_first():
    kept = _views(8, lambda v: v.seat in (1, 2))
    from shengji_table.game.bots.heuristic import situation
    from shengji_table.game.bots import play_policy
    for view, _ in kept:
        sit = situation(view)
        if view.expect.kind == "lead":
            opts = lead_options(sit)
            assert opts[0] == tuple(play_policy.choose_lead(sit))
        else:
            opts = follow_options(sit)
            assert opts[0] == tuple(play_policy.choose_follow(sit))
            for o in opts:
                assert check_follow(view.lead, o, view.hand, view.order).ok
        assert 1 <= len(opts) <= 5 and len(set(opts)) == len(opts)


def test_best_option_needs_a_clear_paired_advantage_over_the_heuristic():
    assert best_option([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]) == 1          # better in every world
    assert best_option([[0.0, 0.0, 0.0], [3.0, -2.9, 0.0]]) == 0         # a lucky world only
    assert best_option([[1.0, 1.0], [0.0, 0.0], [0.5, 0.5]]) == 0
    assert best_option([[5.0]]) == 0                                       # one world decides nothing


def test_utility_is_the_settlement_seen_from_each_side():
    """R-8.1: 0 points — declarers up three; 120 — attackers up one and take the deal."""
    assert utility(CLASSIC, 0, True) > 2.9 and utility(CLASSIC, 0, False) < -2.9
    assert utility(CLASSIC, 120, False) == -utility(CLASSIC, 120, True) > 1
    assert settle(CLASSIC, 120).attackers_levels == 1


def test_a_rollout_plays_every_card_and_counts_the_kitty_for_the_last_trick():
    """R-7.3: the attackers' points at the end include the kitty bonus when they take the last trick."""
    rng = random.Random(4)
    cards = [c for c in full_deck() for _ in range(2)]
    rng.shuffle(cards)
    hands = [cards[i * 25:(i + 1) * 25] for i in range(4)]
    kitty = cards[100:]
    view = play_view(CLASSIC, 2, "S", 0, hands[0], dealer=0, kitty=kitty)
    from shengji_table.game.bots.worlds import World
    for policy in ("quick", "heuristic", "mixed"):
        ro = Rollout(view, World(tuple(tuple(h) for h in hands), tuple(kitty)), 0, policy)
        points = ro.run()
        assert not any(ro.hands) and 0 <= points <= 200 + 8 * sum(c.points for c in kitty)
        assert points % 5 == 0
    with pytest.raises(ValueError, match="rollout policy"):
        Rollout(view, World(tuple(tuple(h) for h in hands), tuple(kitty)), 0, "psychic")


@pytest.mark.parametrize("preset, mode", [("classic", "scanned"), ("six-players", "scanned"), ("classic", "open")])
def test_the_strong_bot_plays_legal_hands(preset, mode):
    """Every decision goes through the real card entry: an illegal one would raise DriverError.
    Open play too (the engine does not know the hands; the driver shows each seat its own)."""
    rs = Ruleset.from_preset(preset)
    match = Match(rs, mode)
    bots = [StrongBot(s, samples=2, move_budget=0) if s % 2 == 0 else HeuristicBot(s) for s in range(rs.players)]
    hand = Driver(match, bots).play_hand(77)
    assert hand.result is not None


def test_the_strong_bot_is_registered_by_name():
    assert BOTS["strong"] is StrongBot and isinstance(make_bot("strong", 3), StrongBot)


def test_without_fixed_partners_it_plays_the_heuristic():
    rs = Ruleset.from_preset("find-friend-4")
    kept = _views(5, lambda v: v.seat == 0 and v.tricks, rs)
    view = kept[0][0]
    assert StrongBot(1).choose(view) == HeuristicBot(1).choose(view)
