"""The random-legal bot chooses uniformly where the legal choices can be listed.

Fixed seeds, so these counts are deterministic; the bounds (±15 % of the expected count over
thousands of draws) would only be missed by a real bias.
"""
import sys
from collections import Counter
from pathlib import Path

from shengji_table.game.bots import RandomLegalBot
from shengji_table.game.decisions import Bid, Declare, Pass
from shengji_table.game.view import Expect
from shengji_table.rules.cards import parse_cards
from shengji_table.rules.follow import legal_follows
from shengji_table.rules.ruleset import Ruleset

sys.path.insert(0, str(Path(__file__).parent))
from scenario import play_view  # noqa: E402  (tests/game/scenario.py)

CLASSIC = Ruleset.from_preset("classic")
DRAWS = 4000


def assert_uniform(counts: Counter, choices: int, draws: int = DRAWS):
    assert len(counts) == choices, counts
    expected = draws / choices
    for choice, n in counts.items():
        assert abs(n - expected) <= 0.15 * expected, (choice, n, expected)


def test_bots_random_follow_is_uniform_over_legal_single_follows_R4_4():
    """R-4.4: following a single heart with four different hearts: each about a quarter."""
    bot = RandomLegalBot(seed=1)
    view = play_view(CLASSIC, 2, "S", 1, "HK H9 H6 H3 C4 D8 SA", [(0, "HA")])
    counts = Counter(bot.choose(view).cards for _ in range(DRAWS))
    legal = {tuple(p) for p in legal_follows(view.lead, view.hand, view.order)}
    assert set(counts) == legal
    assert_uniform(counts, 4)


def test_bots_random_void_follow_draws_from_the_whole_hand_R4_4():
    """R-4.4: void in the led suit, any card may be played: every card of the hand turns up."""
    bot = RandomLegalBot(seed=2)
    view = play_view(CLASSIC, 2, "S", 1, "CK C9 D6 D3 S4 SA", [(0, "HA")])
    counts = Counter(bot.choose(view).cards for _ in range(DRAWS))
    assert_uniform(counts, 6)


def test_bots_random_declare_and_bid_include_passing_uniformly():
    """Each valid declaration and passing are equally likely; likewise bids and passing once a bid
    stands."""
    bot = RandomLegalBot(seed=3)
    base = play_view(CLASSIC, 2, "S", 1, "S2 H2 C5")
    options = (tuple(parse_cards("S2")), tuple(parse_cards("H2")))
    declare = base._replace(phase="drawing", order=None, expect=Expect("declare", 0, options))
    counts = Counter(bot.choose(declare) for _ in range(3 * 1000))
    assert set(counts) == {Declare(options[0]), Declare(options[1]), Pass()}
    assert_uniform(counts, 3, 3000)
    three = Ruleset.from_preset("three-players")
    bidding = play_view(three, 2, "S", 1, "S2 H2 C5")._replace(
        phase="bidding", standing_bid=120, expect=Expect("bid", 0, (115, 110, 105)))
    counts = Counter(bot.choose(bidding) for _ in range(4000))
    assert set(counts) == {Bid(115), Bid(110), Bid(105), Pass()}
    assert_uniform(counts, 4, 4000)


def test_bots_random_never_passes_before_the_first_bid():
    """Before anybody has bid the last bidder may not pass, and the view does not say who is last:
    the bot always bids then."""
    bot = RandomLegalBot(seed=4)
    three = Ruleset.from_preset("three-players")
    first = play_view(three, 2, "S", 1, "S2 H2 C5")._replace(
        phase="bidding", standing_bid=None, expect=Expect("bid", 0, tuple(range(200, 0, -5))))
    assert all(isinstance(bot.choose(first), Bid) for _ in range(500))
