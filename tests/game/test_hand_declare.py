"""Declarations and overcalls during the draw, per ladder (R-6.1 – R-6.6)."""
import random

import pytest

from shengji_table.game import events as ev
from shengji_table.game.effects import Announce, Refusal
from shengji_table.game.hand import Hand
from shengji_table.game.hand import draw as hand_draw
from shengji_table.game.phase import Phase
from shengji_table.rules.cards import BIG_JOKER, SMALL_JOKER, SUITS, Card, CardCopy
from shengji_table.rules.declare import Declaration, check_declaration
from shengji_table.rules.ruleset import PRESETS, Ruleset


def refused(out):
    return bool(out) and isinstance(out[0], Refusal)


def test_hand_two_deck_ladder_r6_1(table):
    """R-6.1: single level card < pair < small-joker pair (NT) < big-joker pair (NT)."""
    t = table("classic", {0: "H2 BJ BJ", 1: "S2 S2", 2: "LJ LJ", 3: "D2"})
    t.draw(4)                                    # each seat has its first card
    assert not refused(t.declare(0, "H2"))
    assert t.hand.standing.trump == "H"
    out = t.declare(3, "D2")                     # equal strength: the first stands
    assert refused(out) and out[0].rule == "R-6.1"
    t.draw(4)
    assert not refused(t.declare(1, "S2 S2"))    # 反主 with a pair
    t.draw(4)
    assert not refused(t.declare(2, "LJ LJ"))    # 反无主
    assert t.hand.standing.trump is None
    assert not refused(t.declare(0, "BJ BJ"))    # big jokers over small jokers
    t.draw()
    t.close()
    assert t.hand.trump is None and t.hand.dealer == 0 and t.hand.phase == "kitty"


def test_hand_declare_refusals_leave_state_unchanged(table):
    """A declaration with a card not drawn yet, or not a level card, is refused and changes nothing."""
    t = table("classic", {0: "H2 HA"})
    t.draw(4)
    before = t.match.snapshot()
    out = t.send(ev.Declare(0, tuple(t.stack[4:5])))          # seat 0 has not drawn this card
    assert refused(out) and out[0].rule == "table.not-in-hand"
    t.draw(4)
    out = t.declare(0, "HA")
    assert refused(out) and "level" in out[0].reason
    assert t.match.snapshot()["hand"]["standing"] is None
    assert before["hand"]["declarations"] == t.match.snapshot()["hand"]["declarations"]


def test_hand_self_reinforce_and_self_overcall_r6_2(table):
    """R-6.2: 自保 (same suit, more cards) and 自反 (own call, other suit) — allowed by default."""
    t = table("classic", {0: "H2 H2 S2 S2"})
    t.draw(1)
    assert not refused(t.declare(0, "H2"))
    t.draw(4)
    out = t.declare(0, "H2 H2")
    assert not refused(out) and "自保" in out[0].text
    t.draw(8)
    out = t.declare(0, "S2 S2")           # equal strength to the standing pair: refused
    assert refused(out)


def test_hand_self_overcall_forbidden_option_r6_2(table):
    t = table("classic", {0: "H2 LJ LJ"}, self_overcall=False)
    t.draw(12)
    assert not refused(t.declare(0, "H2"))
    out = t.declare(0, "LJ LJ")
    assert refused(out) and out[0].rule == "R-6.2"


def test_hand_three_deck_ladder_r6_3(table):
    """R-6.3: 1 < 2 < two jokers (NT) < 3 level cards < three jokers."""
    t = table("three-decks", {0: "S2 S2 S2", 1: "LJ LJ", 2: "H2 H2", 3: "BJ BJ BJ"})
    t.draw()
    assert not refused(t.declare(2, "H2 H2"))
    assert not refused(t.declare(1, "LJ LJ"))
    assert not refused(t.declare(0, "S2 S2 S2"))
    assert t.hand.standing.trump == "S"
    assert not refused(t.declare(3, "BJ BJ BJ"))
    t.close()
    assert t.hand.trump is None and t.hand.dealer == 3


def test_hand_one_deck_single_card_only_r6_1(table):
    t = table("one-deck", {1: "C2"})
    t.draw()
    assert not refused(t.declare(1, "C2"))
    t.close()
    assert t.hand.trump == "C" and t.hand.dealer == 1


def test_hand_four_deck_hidden_declarations_r6_5(table):
    """R-6.5: calls are hidden during the draw (no suit announced); one more card overturns."""
    t = table("four-decks", {0: "H2", 1: "S2 S2", 2: "D2 D2"})
    t.draw(12)
    out = t.declare(0, "H2")
    assert not refused(out)
    texts = [e.text for e in out if isinstance(e, Announce)]
    assert texts and all("heart" not in x and "H2" not in x for x in texts)
    assert t.hand.view(1).trump is None                     # nobody sees the hidden call
    assert not refused(t.declare(1, "S2 S2"))
    assert not refused(t.declare(2, "D2 D2"))               # equal count: hidden, resolved at the end
    t.draw()
    t.close()
    assert t.hand.trump == "S" and t.hand.dealer == 1       # first two-card call overturned the single


def test_hand_nobody_declares_r6_4(table):
    """R-6.4: no declaration → NT by default; four decks → spades."""
    t = table("classic")
    t.draw()
    t.close()
    assert t.hand.trump is None and t.hand.dealer == 0
    t4 = table("four-decks")
    t4.draw()
    t4.close()
    assert t4.hand.trump == "S"


def test_hand_declare_after_close_refused(table):
    t = table("classic", {0: "H2"})
    t.draw()
    t.close()
    out = t.declare(0, "H2")
    assert refused(out) and out[0].rule == "R-6.1"


def test_hand_close_before_draw_done_refused_r7_1(table):
    t = table("classic")
    t.draw(10)
    out = t.send(ev.CloseDeclarations())
    assert refused(out) and "not finished" in out[0].reason


@pytest.mark.parametrize("preset", PRESETS)
def test_offered_calls_are_the_rules_verdicts_R6_1_R6_2(preset):
    """The offers' verdicts (``draw._valid_now``: a first call stands if it is a call at all, later
    ones read the remembered strengths against the standing call's) are ``check_declaration``'s."""
    rs = Ruleset.from_preset(preset)
    rng = random.Random(preset)
    for _ in range(300):
        level = rng.randint(2, 14)
        hand = Hand(rs, levels=(level,) * rs.players)
        faces = [Card(s, level) for s in SUITS] + [SMALL_JOKER, BIG_JOKER]
        if rng.random() < 0.6:
            first = rng.choice(faces)
            call = Declaration(rng.randrange(rs.players), (first,) * rng.randint(1, 2))
            hand.standing = check_declaration(rs, level, None, call).standing
        seat = rng.randrange(rs.players)
        f = rng.choice(faces)
        cards = (f,) * rng.randint(1, rs.decks) if rng.random() < 0.8 else (SMALL_JOKER, BIG_JOKER)
        want = check_declaration(rs, level, hand.standing, Declaration(seat, cards)).valid
        assert hand_draw._valid_now(hand, seat, cards) == want
        assert hand_draw._valid_now(hand, seat, cards) == want          # and once remembered


# every preset, and the options the presets leave at their defaults: 自反 forbidden with calls
# shown (R-6.2), three decks' mixed jokers (R-6.7)
_OFFER_RULESETS = [(p, {}) for p in PRESETS] + [("classic", {"self_overcall": False}),
                                                ("three-decks", {"mixed_joker_nt": True})]


@pytest.mark.parametrize("preset, options", _OFFER_RULESETS)
def test_draw_offers_are_the_general_options_R6_1_R6_2_R6_7(preset, options):
    """A scanned draw's offers read from the seat's counts of the six faces that declare
    (``draw._offers``, remembered per counts) are the general path's (``draw._options``: the
    seat's groups, each call checked by ``_valid_now``) — same calls, same order — for random
    hands and standing calls; rulesets the short cut does not serve take the general path."""
    rs = Ruleset.from_preset(preset, **options)
    rng = random.Random(preset + str(options))
    served = 0
    for _ in range(400):
        level = rng.randint(2, 14)
        hand = Hand(rs, levels=(level,) * rs.players)
        hand.phase = Phase.DRAWING
        seat = rng.randrange(rs.players)
        faces = [Card(s, level) for s in SUITS] + [SMALL_JOKER, BIG_JOKER]
        for f in faces:
            for deck in range(rng.randint(0, rs.decks) if rng.random() < 0.5 else 0):
                hand.hands[seat].add_new(CardCopy(f, deck + 1))
        if rng.random() < 0.7:
            first = rng.choice(faces)
            call = Declaration(rng.choice([seat, rng.randrange(rs.players)]), (first,) * rng.randint(1, rs.decks))
            hand.standing = check_declaration(rs, level, None, call).standing
        want = () if rs.bidding else hand_draw._options(hand, seat, None)     # bidding: trump is named
        assert hand.declaration_options(seat) == want
        if not (rs.bidding or rs.two_colour or rs.hidden_declarations):
            assert hand_draw._offers(hand, seat) == want == hand_draw._offers(hand, seat)   # and remembered
            served += bool(want)
    assert served > 50 or rs.bidding or rs.two_colour or rs.hidden_declarations
