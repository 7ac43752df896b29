"""The heuristic bot's claimed behaviours, each shown in a constructed situation.

Classic rules (two decks), level 2, spades trump unless said otherwise.  Seats play in order
0 1 2 3; partners sit two apart (0 & 2, 1 & 3).  Every decision is also checked legal.
"""
import sys
from collections import Counter
from pathlib import Path


from shengji_table.game.bots import make_bot
from shengji_table.game.bots.call_policy import choose_bid
from shengji_table.game.decisions import CallFriend, Declare, Pass, PlayCards
from shengji_table.game.view import Expect, TrickView
from shengji_table.rules.cards import parse_card, parse_cards
from shengji_table.rules.follow import check_follow
from shengji_table.rules.ruleset import Ruleset
from shengji_table.rules.throw import check_lead, check_throw, is_throw
from shengji_table.rules.units import is_single_unit

sys.path.insert(0, str(Path(__file__).parent))
from scenario import bury_view, play_view  # noqa: E402  (tests/game/scenario.py)

CLASSIC = Ruleset.from_preset("classic")
BOT = make_bot("heuristic", 0)


def follow(hand, trick, seat, ruleset=CLASSIC, level=2, trump="S"):
    """The bot's follow, checked legal (R-4.4/R-4.5); returns the cards as a Counter of text."""
    view = play_view(ruleset, level, trump, seat, hand, trick)
    decision = BOT.choose(view)
    assert isinstance(decision, PlayCards)
    verdict = check_follow(view.lead, decision.cards, view.hand, view.order)
    assert verdict.ok, verdict.reason
    return Counter(str(c) for c in decision.cards)


def lead(hand, seat=0, ruleset=CLASSIC, level=2, trump="S"):
    view = play_view(ruleset, level, trump, seat, hand)
    decision = BOT.choose(view)
    assert isinstance(decision, PlayCards)
    assert check_lead(decision.cards, view.order).ok
    return decision.cards, view.order


# ---- following -----------------------------------------------------------------------------

def test_bots_heuristic_feeds_points_to_partners_winning_trick_R5_4():
    """R-5.4: partner (seat 1) wins with ♥A; the last seat (3) throws a 10-point card on it."""
    played = follow("HK H10 H4 C6 C7 D8", [(0, "H9"), (1, "HA"), (2, "H3")], seat=3)
    assert played in (Counter(["HK"]), Counter(["H10"]))


def test_bots_heuristic_gives_no_points_to_an_opponents_winning_trick():
    """The same hand, but the ♥A is an opponent's (seat 0 leads it): follow low, no points."""
    played = follow("HK H10 H4 C6 C7 D8", [(0, "HA")], seat=1)
    assert played == Counter(["H4"])


def test_bots_heuristic_ruffs_a_point_trick_when_void_R5_2():
    """R-5.2: void in hearts, 20 points on the table held by an opponent → ruff with the lowest
    trump that wins (♠3, not ♠Q)."""
    played = follow("S3 SQ C4 C6 D7 D9", [(0, "H10"), (1, "H3"), (2, "HK")], seat=3)
    assert played == Counter(["S3"])


def test_bots_heuristic_does_not_waste_a_trump_on_a_pointless_trick():
    """No points on the table: the void follower discards a low plain card instead of ruffing."""
    played = follow("S3 SQ C4 C6 D7 D9", [(0, "HA"), (1, "H3"), (2, "H4")], seat=3)
    assert sum(1 for c in played if parse_card(c).suit == "S") == 0
    assert played == Counter(["C4"])


def test_bots_heuristic_over_ruffs_R5_2():
    """R-5.2 盖毙: partner's ♥K was ruffed by an opponent's ♠5; over-ruff with the cheapest trump
    that beats it (♠9, not ♠A; ♠3 would not win)."""
    played = follow("SA S9 S3 C4 C6 D7", [(1, "H3"), (2, "HK"), (3, "S5")], seat=0)
    assert played == Counter(["S9"])


def test_bots_heuristic_keeps_a_pair_when_filling_a_pair_lead_it_cannot_win_R4_4():
    """R-4.4: one club against a led ♣A♣A: the club plus one filler — the lone ♦3, not half of ♦8♦8."""
    played = follow("C7 D8 D8 D3 H9 HJ", [(0, "CA CA")], seat=1)
    assert played == Counter(["C7", "D3"])


def test_bots_heuristic_follows_a_lost_tractor_with_its_pair_and_lowest_singles_R4_5():
    """R-4.5: a tractor ♣A♣A♣K♣K it cannot beat: the obligatory pair ♣Q♣Q plus the two lowest
    pointless clubs (not the ♣5, which would give 5 points away)."""
    played = follow("CQ CQ C9 C5 C4 C3 D3", [(0, "CA CA CK CK")], seat=1)
    assert played == Counter(["CQ", "CQ", "C4", "C3"])


# ---- leading -------------------------------------------------------------------------------

def test_bots_heuristic_leads_an_unbeatable_throw_R4_2():
    """R-4.2: holding both ♥A and the ♥K, the throw ♥A♥A♥K cannot be beaten: lead it."""
    hand = "HA HA HK H3 C4 C6 D7 D9 S6"
    cards, order = lead(hand)
    assert Counter(map(str, cards)) == Counter(["HA", "HA", "HK"])
    assert is_throw(cards, order)
    # …and against any other hands it stands.
    assert check_throw(cards, {1: parse_cards("HQ HQ HJ HJ"), 2: [], 3: []}, order).ok


def test_bots_heuristic_leads_its_strongest_unbeatable_unit_R4_1():
    """No throw is safe (clubs and hearts hold one unit each, the low diamonds can be beaten), so
    the unbeatable pair ♣A♣A goes first (no unseen pair ranks higher), before the ♥A single."""
    cards, order = lead("CA CA HA D4 D6 S6")
    assert Counter(map(str, cards)) == Counter(["CA", "CA"])


def test_bots_heuristic_leads_one_unit_where_throws_are_forbidden():
    """Three-player bidding forbids throws (§9): the same hand leads a single unit."""
    cards, order = lead("HA HA HK H3 C4 C6 D7 D9 S6", ruleset=Ruleset.from_preset("three-players"))
    assert is_single_unit(cards, order)


def test_bots_heuristic_does_not_lead_a_beatable_throw():
    """♥A ♥Q: the ♥K is unseen, so the throw ♥A♥Q could fail (R-4.3); lead one unit instead."""
    cards, order = lead("HA HQ C4 C6 D7 D9 S6")
    assert is_single_unit(cards, order)


# ---- the kitty -----------------------------------------------------------------------------

def test_bots_heuristic_buries_low_plain_cards_as_dealer_R7_2():
    """R-7.2/R-7.3: the dealer buries 8 cards: no trumps, no point cards, no aces, no pair member."""
    hand = ("BJ LJ S2 H2 SA SK SQ SJ S10 S9 S8 S7 S6 S4 "   # 14 trumps
            "HA HK H10 H7 H6 H6 "
            "CA CQ C9 C4 C3 "
            "DA DK DJ D8 D7 D5 D4 D3")
    view = bury_view(CLASSIC, 2, "S", 0, hand)
    assert len(view.hand) == 33
    buried = BOT.choose(view).cards
    assert len(buried) == 8
    order = view.order
    held = Counter(view.hand)
    for c in buried:
        assert not order.is_trump(c), c
        assert c.points == 0, c
        assert c.rank != 14, c
        assert held[c] == 1, c
    assert not Counter(buried) - held           # buries only cards it holds


# ---- calls ---------------------------------------------------------------------------------

def _declare_view(hand, options, level=2):
    view = play_view(CLASSIC, level, None, 1, hand)
    return view._replace(phase="drawing", order=None, trump=None,
                         expect=Expect("declare", 0, tuple(tuple(parse_cards(o)) for o in options)))


def test_bots_heuristic_declares_with_enough_trumps_R6_1():
    """R-6.1: level 2 and a spade-rich hand with ♠2: declare spades with the single ♠2."""
    d = BOT.choose(_declare_view("S2 SA SK S9 S5 BJ H3 C4", ["S2"]))
    assert d == Declare((parse_card("S2"),))


def test_bots_heuristic_passes_with_a_weak_hand_R6_1():
    """A lone ♠2 among plain low cards is not worth declaring."""
    assert BOT.choose(_declare_view("S2 H3 H9 C4 CJ D5 D8 DQ", ["S2"])) == Pass()


def test_bots_heuristic_bids_low_only_with_a_strong_hand():
    """Three-player bidding (§9): a trump-rich hand bids (the least ambitious allowed target);
    a weak hand passes."""
    rs = Ruleset.from_preset("three-players")
    options = tuple(range(145, 55, -5))
    strong = parse_cards("BJ BJ LJ S2 S2 H2 SA SA SK SK SQ SJ S10 S9 S8 S7 S6 S5 S4 S3 "
                         "HA HA CA CA DA DK DQ H3 H4 C3 C4 D3 D4")
    weak = parse_cards("H3 H4 H5 H6 H7 H8 H9 C3 C4 C5 C6 C7 C8 C9 D3 D4 D5 D6 D7 D8 D9 "
                       "S3 S4 S5 S6 S7 S8 HJ CJ DJ HQ CQ DQ")
    assert choose_bid(strong, options, rs, 2) == 145
    assert choose_bid(weak, options, rs, 2) is None


def test_bots_heuristic_calls_a_side_ace_it_does_not_fully_hold():
    """Find-a-friend (§9): the dealer calls a side-suit ace (never a trump), and the copy after
    the ones it holds."""
    rs = Ruleset.from_preset("find-friend-4")
    view = play_view(rs, 2, "S", 0, "SA SA HA DA DA C3 C5 C9 H4 H7")
    view = view._replace(phase="friend", expect=Expect("call_friend", 1))
    d = BOT.choose(view)
    assert isinstance(d, CallFriend) and len(d.calls) == 1
    call = d.calls[0]
    held = Counter(view.hand)
    assert call.card.rank == 14 and not view.order.is_trump(call.card)
    assert held[call.card] < rs.decks
    assert call.nth == held[call.card] + 1


# ---- what the bot remembers ----------------------------------------------------------------

def _trick(*plays):
    from shengji_table.rules.trick import Play
    ps = tuple(Play(s, tuple(parse_cards(c))) for s, c in plays)
    return TrickView(ps, ps[0].seat, sum(c.points for p in ps for c in p.cards))


def test_bots_heuristic_does_not_feed_points_an_opponent_can_ruff_R4_4():
    """Partner's ♥A wins so far, but seat 3 (an opponent, still to play) showed a void in hearts
    earlier (R-4.4: it discarded on a heart lead): feeding 10 points would hand them over."""
    hand = "HK H10 H4 C6 C7 D8"
    trick = [(0, "HA"), (1, "H3")]
    earlier = _trick((0, "HQ"), (1, "H5"), (2, "H6"), (3, "C2"))
    without = follow(hand, trick, seat=2)
    view = play_view(CLASSIC, 2, "S", 2, hand, trick, tricks=[earlier])
    with_void = Counter(str(c) for c in BOT.choose(view).cards)
    assert sum(parse_card(c).points for c in without) == 10       # no void known: feeds
    assert with_void == Counter(["H4"])                          # void known: keeps its points


def test_bots_heuristic_friend_knows_its_own_side():
    """Find-a-friend (§9): seat 2 holds the called first ♣A, so the dealer (seat 0) is its side:
    it feeds points to the dealer's winning ♦A rather than keeping them back."""
    rs = Ruleset.from_preset("find-friend-4")
    hand = "CA DK D4 H6 H7 H8"
    view = play_view(rs, 2, "S", 3, hand, [(0, "DA"), (1, "D3"), (2, "D5")], declarers=[0])
    view = view._replace(friend_calls=((parse_card("CA"), 1),))
    fed = Counter(str(c) for c in BOT.choose(view).cards)
    assert fed == Counter(["DK"])
    stranger = view._replace(friend_calls=((parse_card("HA"), 1),))
    assert Counter(str(c) for c in BOT.choose(stranger).cards) == Counter(["D4"])


def test_bots_heuristic_dealer_leads_towards_the_called_friend():
    """Find-a-friend (§9): the dealer called the first ♣A and holds low clubs: it leads a low club,
    so that whoever holds the ♣A can win the trick and show itself."""
    rs = Ruleset.from_preset("find-friend-4")
    view = play_view(rs, 2, "S", 0, "C9 C4 C3 H6 H8 D7 DJ", declarers=[0])
    view = view._replace(friend_calls=((parse_card("CA"), 1),))
    assert [str(c) for c in BOT.choose(view).cards] == ["C3"]
    # Without the call the same hand leads from a shorter suit (hearts or diamonds, two cards).
    plain = view._replace(friend_calls=())
    assert BOT.choose(plain).cards[0].suit in ("H", "D")


def test_bots_heuristic_never_overcalls_its_own_side_R6_2():
    """With its partner's call standing in the draw (the view's ``standing_seat``), the heuristic
    passes even with a stronger hand; with an opponent's call standing it overcalls."""
    ruleset = Ruleset.from_preset("classic")
    view = play_view(ruleset, 2, "H", 0, "S2 S2 SA SK SQ SJ S10 S9 S8 BJ LJ")
    pair = tuple(parse_cards("S2 S2"))
    view = view._replace(phase="drawing", order=None, trump="H", dealer=None,
                         expect=Expect("declare", 0, (pair,)))
    bot = make_bot("heuristic", 1)
    assert isinstance(bot.choose(view._replace(standing_seat=2)), Pass)      # partner's call
    assert not isinstance(bot.choose(view._replace(standing_seat=1)), Pass)  # opponent's call
