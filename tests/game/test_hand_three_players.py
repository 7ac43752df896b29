"""Three players with bidding (§9, seed 000 三人打法).

反牌: 反牌規則同經典升級，但是反牌者只能從底牌中隨機換6張 — after the dealer names trump and before
the dealer takes the kitty, another player may counter-declare as an overcall on the classic ladder
(R-6.1/R-6.2; the named trump counts as the weakest call of it); trump changes, the dealer and the
bid stay, and the counter-declarer swaps 6 cards drawn at random from the kitty — the randomness
comes only from the seed carried by the ``counter_draw`` event (or the copies a table scanned).

出牌: 除了邊三輪外不能甩牌 — what 邊三輪 names is not determinable from the seed, so no throws at all.
"""
import random

from shengji_table.game import events as ev
from shengji_table.game import record
from shengji_table.game.bots import make_bot
from shengji_table.game.driver import Driver
from shengji_table.game.effects import Announce, Refusal
from shengji_table.game.export import export_text
from shengji_table.game.match import Match
from shengji_table.rules.cards import parse_card, parse_copy
from shengji_table.rules.ruleset import Ruleset


def refused(out, rule=None):
    return bool(out) and isinstance(out[0], Refusal) and (rule is None or out[0].rule == rule)


def named(table, hands, trump="S", mode="scanned"):
    """Seat 0 wins the bidding at 150 and names ``trump``; nothing else has happened."""
    t = table("three-players", hands, mode=mode)
    if mode == "scanned":
        t.draw()
    t.close()
    t.ok(ev.Bid(0, 150))
    t.ok(ev.Bid(1, None))
    t.ok(ev.Bid(2, None))
    t.ok(ev.NameTrump(0, trump))
    assert t.hand.phase == "kitty" and t.hand.dealer == 0
    return t


def test_counter_declaration_changes_trump_and_swaps_six_random_kitty_cards(table):
    t = named(table, {1: "H2 H2 S3"})
    kitty_before = list(t.hand.kitty)
    shown = t.hand.view(1).shown_kitty
    assert len(shown) == 3
    assert t.hand.view(1).expect.kind == "declare" and (parse_card("H2"),) * 2 in t.hand.view(1).expect.options
    out = t.declare(1, "H2 H2")
    assert not refused(out)
    assert t.hand.trump == "H" and t.hand.phase == "exchange"
    assert t.hand.dealer == 0 and t.hand.bid == 150                 # the bid and the dealer stay
    assert any(isinstance(e, Announce) and "counter-declares" in e.text for e in out)
    # the draw: random only through the seed in the event
    t.ok(ev.CounterDraw(1, seed=7))
    drawn = random.Random(7).sample(kitty_before, 6)
    assert all(c in t.hand.hands[1] for c in drawn)
    assert sorted(t.hand.kitty) == sorted(c for c in kitty_before if c not in drawn)
    assert t.hand.counts[1] == 39 and t.hand.view(1).expect.count == 6
    # lay 6 back: tapping one twice takes it back; 5 are not enough
    lay = t.copies(1, "S3")[:1] + [c for c in t.hand.hand_copies(1) if c.card.suit == "D"][:5]
    assert len(lay) == 6
    for c in lay:
        t.ok(ev.Tap(1, c))
    t.ok(ev.Tap(1, lay[0]))
    assert refused(t.send(ev.Confirm(1)), "§9 反牌")
    t.ok(ev.Tap(1, lay[0]))
    t.ok(ev.Confirm(1))
    assert t.hand.phase == "kitty" and len(t.hand.kitty) == 9 and t.hand.counts[1] == 33
    assert all(c in t.hand.kitty for c in lay) and not any(c in t.hand.hands[1] for c in lay)
    assert t.hand.view(2).shown_kitty == shown                      # what was shown stays shown
    # the dealer takes the (new) kitty; the hand goes on with hearts as trump
    Driver(t.match, [make_bot("random", i) for i in range(3)]).finish_hand()
    s = t.match.summaries[-1]
    assert s["trump"] == "H" and s["dealer"] == 0 and s["result"]["bid"] == 150


def test_counter_declaration_refusals(table):
    t = named(table, {0: "D2 D2", 1: "H2", 2: "C2 C2"})
    before = t.hand.snapshot()
    assert refused(t.declare(0, "D2 D2"), "§9 反牌")                 # the dealer named trump
    out = t.declare(1, "H2")                                        # a single level card: not stronger
    assert refused(out, "R-6.1") and "equal strength" in out[0].reason
    assert refused(t.send(ev.CounterDraw(2, seed=1)), "table.phase")  # no counter yet
    assert t.hand.snapshot() == before
    t.ok(ev.Declare(2, tuple(t.copies(2, "C2 C2"))))
    assert refused(t.send(ev.CounterDraw(1, seed=1)), "§9 反牌")     # only the counter-declarer draws
    assert refused(t.send(ev.CounterDraw(2)), "§9 反牌")             # scanned: seed or copies
    assert refused(t.send(ev.CounterDraw(2, copies=tuple(t.hand.hand_copies(1)[:6]))), "§9 反牌")
    assert refused(t.send(ev.TakeKitty(0)), "table.phase")           # not during the swap
    t.ok(ev.CounterDraw(2, copies=tuple(t.hand.kitty[3:9])))          # a table that scanned the draw
    assert refused(t.send(ev.Tap(2, t.hand.hand_copies(1)[0])), "table.not-in-hand")
    for c in list(t.hand.hand_copies(2))[:6]:
        t.ok(ev.Tap(2, c))
    assert refused(t.send(ev.Tap(2, t.hand.hand_copies(2)[10])), "§9 反牌")   # a 7th card
    t.ok(ev.Confirm(2))
    # the window stays open until the dealer takes the kitty; an equal counter does not stand
    out = t.declare(1, "H2")
    assert refused(out)
    t.ok(ev.TakeKitty(0))
    assert refused(t.declare(2, "C2 C2"))                           # the window has closed


def test_counter_declaration_ladder_against_named_no_trump(table):
    """A named no-trump counts as a small-joker pair: level pairs do not overcall it, big jokers do."""
    t = named(table, {1: "H2 H2", 2: "BJ BJ"}, trump=None)
    assert refused(t.declare(1, "H2 H2"))
    assert t.hand.view(1).expect.options == ()
    t.ok(ev.Declare(2, tuple(t.copies(2, "BJ BJ"))))
    assert t.hand.trump is None and t.hand.phase == "exchange"


def test_counter_declaration_overcalled_by_a_stronger_counter(table):
    t = named(table, {1: "H2 H2", 2: "LJ LJ"})
    t.declare(1, "H2 H2")
    t.ok(ev.CounterDraw(1, seed=3))
    for c in list(t.hand.hand_copies(1))[:6]:
        t.ok(ev.Tap(1, c))
    t.ok(ev.Confirm(1))
    assert t.hand.trump == "H"
    t.ok(ev.Declare(2, tuple(t.copies(2, "LJ LJ"))))                # 反无主 over the counter
    assert t.hand.trump is None and t.hand.exchange.seat == 2


def test_counter_declaration_replays_deterministically():
    """The record carries the draw's seed: replay gives the same kitty, hands and result."""
    rs_match = None
    for seed in range(40):
        m = Match(Ruleset.from_preset("three-players"))
        d = Driver(m, [make_bot("heuristic", i) for i in range(3)])
        d.play_hand(seed)
        if any(isinstance(e, ev.CounterDraw) for e in m.events):
            rs_match = m
            break
    assert rs_match is not None, "no heuristic counter-declaration in 40 deals; pick other seeds"
    draws = [e for e in rs_match.events if isinstance(e, ev.CounterDraw)]
    assert all(e.seed is not None and e.copies is None for e in draws)
    text = record.dumps(record.to_record(rs_match))
    again = record.replay(record.loads(text))
    assert again.snapshot() == rs_match.snapshot()
    assert record.dumps(record.to_record(again)) == text
    # the text export shows the kitty as dealt and each swap
    hand = next(h for h in rs_match.played_hands if h.exchanges)
    text_export = export_text(rs_match)
    seat, drawn, laid = hand.exchanges[0]
    assert f'[Counter "{seat}: drew ' in text_export and sorted(hand.dealt_kitty) != sorted(hand.kitty)
    assert sorted(set(hand.dealt_kitty) - set(drawn)) == sorted(set(hand.kitty) - set(laid))


def test_counter_declaration_in_open_play(table):
    """Open play: the kitty is unknown to the engine, so the draw carries no seed or cards; the
    engine keeps the counts (a wrong count later is R-10.3)."""
    t = named(table, {}, mode="open")
    t.ok(ev.Declare(1, (parse_copy("H2#1"), parse_copy("H2#2"))))
    assert t.hand.trump == "H" and t.hand.phase == "exchange"
    assert refused(t.send(ev.CounterDraw(1, seed=4)), "table.mode")
    t.ok(ev.CounterDraw(1))
    assert t.hand.counts[1] == 39
    for text in ("S3#1", "S4#1", "S5#1", "S6#1", "S7#1", "S8#1"):
        t.ok(ev.Tap(1, parse_copy(text)))
    t.ok(ev.Confirm(1))
    assert t.hand.counts[1] == 33 and t.hand.phase == "kitty"


def test_three_players_no_throws_since_bian_san_lun_is_not_determinable(table):
    """除了邊三輪外不能甩牌: the seed does not say what 邊三輪 is, so every throw is refused (R-4.1)."""
    t = named(table, {0: "SA SK"}, trump="H")
    t.ok(ev.TakeKitty(0))
    for c in list(t.hand.kitty):
        t.ok(ev.BuryCard(0, c))
    t.ok(ev.Confirm(0))
    before = t.hand.snapshot()
    out = t.play(0, "SA SK")
    assert refused(out) and "throws are not allowed" in out[0].reason and out[0].rule == "R-4.1"
    assert t.hand.snapshot()["trick"] == before["trick"] == []


def test_driver_can_leave_counter_declarations_out():
    """A table that cannot perform ``counter_draw`` yet runs the driver without counters."""
    counted = 0
    for seed in range(12):
        m = Match(Ruleset.from_preset("three-players"))
        Driver(m, [make_bot("heuristic", i) for i in range(3)], counter_declarations=False).play_hand(seed)
        assert not any(isinstance(e, (ev.CounterDraw, ev.Declare)) for e in m.events)
        m2 = Match(Ruleset.from_preset("three-players"))
        Driver(m2, [make_bot("heuristic", i) for i in range(3)]).play_hand(seed)
        counted += sum(isinstance(e, ev.CounterDraw) for e in m2.events)
    assert counted > 0


def test_dealer_may_answer_a_counter_without_a_swap(table):
    """同經典升級: a stronger call overcalls the standing one, the dealer's too — but the dealer's own
    naming is not overcalled by the dealer, and the dealer (who takes the whole kitty) swaps nothing."""
    t = named(table, {0: "D2 D2 LJ LJ", 1: "H2 H2"})
    assert refused(t.declare(0, "LJ LJ"), "§9 反牌")              # nothing to answer yet
    t.declare(1, "H2 H2")
    t.ok(ev.CounterDraw(1, seed=9))
    for c in list(t.hand.hand_copies(1))[:6]:
        t.ok(ev.Tap(1, c))
    t.ok(ev.Confirm(1))
    assert refused(t.declare(0, "D2 D2"))                           # equal strength: the counter stands
    out = t.declare(0, "LJ LJ")
    assert not refused(out) and t.hand.trump is None
    assert t.hand.phase == "kitty" and t.hand.exchange is None and t.hand.counts[0] == 33
    t.ok(ev.TakeKitty(0))
    assert t.hand.counts[0] == 42
