"""R-7.4 炒地皮 (house option ``kitty_stealing``, four players): after the burial a stronger call
(the declare ladder, R-6.1) by another seat takes the kitty, changes trump and buries anew; the
round ends when nobody counters (``close_declarations``).  The dealer and the sides stay."""
import pytest

from shengji_table.game import events as ev
from shengji_table.game.bots import make_bot
from shengji_table.game.driver import Driver, run_match
from shengji_table.game.effects import Refusal
from shengji_table.game.match import Match
from shengji_table.rules.declare import Declaration, check_steal, run_steals
from shengji_table.rules.ruleset import Ruleset, RulesetError


def refused(out, rule=None):
    return bool(out) and isinstance(out[0], Refusal) and (rule is None or out[0].rule == rule)


def buried(table, **options):
    """Seat 0 calls ♠2 and deals; seat 1 holds ♥2 ♥2, seat 2 two big jokers; the kitty is buried."""
    t = table("classic", {0: "S2", 1: "H2 H2 D3", 2: "BJ BJ"}, kitty_stealing=True, **options)
    t.draw()
    t.declare(0, "S2")
    t.close()
    t.bury()
    return t


def test_R7_4_after_the_burial_the_hand_waits_for_counters(table):
    t = buried(table)
    assert t.hand.phase == "steal" and t.hand.dealer == 0
    assert t.hand.view(1).expect.kind == "declare"
    assert t.hand.view(1).expect.options and all(len(o) == 2 for o in t.hand.view(1).expect.options)
    assert t.hand.view(0).expect.kind == "none"          # the holder does not counter itself


def test_R7_4_refusals_change_nothing(table):
    t = buried(table)
    before = t.hand.snapshot()
    assert refused(t.declare(0, "S2"), "R-7.4")           # the seat that buried
    assert refused(t.send(ev.Declare(3, ())), None)
    assert refused(t.send(ev.Declare(1, (t.copies(1, "H2")[0],))), "R-7.4")   # equal to a single: stays
    assert refused(t.send(ev.Tap(1, t.copies(1, "D3")[0])))
    assert t.hand.snapshot() == before


def test_R7_4_a_stronger_call_takes_the_kitty_and_buries_anew(table):
    t = buried(table)
    first_kitty = list(t.hand.buried)
    out = t.declare(1, "H2 H2")
    assert not refused(out) and any("炒地皮" in getattr(e, "text", "") for e in out)
    h = t.hand
    assert h.phase == "burying" and h.trump == "H" and h.dealer == 0 and h.kitty_holder == 1
    assert all(c in h.hands[1] for c in first_kitty) and h.counts[1] == 25 + 8
    assert h.view(1).expect.kind == "bury" and h.view(0).expect.kind == "none"
    assert refused(t.send(ev.BuryCard(0, next(iter(h.hands[0])))), "R-7.4")     # the dealer no longer buries
    lay = first_kitty[:4] + [c for c in h.hand_copies(1) if c not in first_kitty and c.card.rank != 2][:4]
    for c in lay:
        t.ok(ev.Tap(1, c))
    t.ok(ev.Confirm(1))
    assert h.phase == "steal" and sorted(h.buried) == sorted(lay) and h.counts[1] == 25
    assert refused(t.declare(1, "H2 H2"), "R-7.4")                              # now the holder
    # seat 2 counters again with the big jokers (no trump), buries, and nobody counters then
    t.ok(ev.Declare(2, tuple(t.copies(2, "BJ BJ"))))
    assert h.trump is None and h.kitty_holder == 2 and h.phase == "burying"
    for c in list(lay):
        t.ok(ev.Tap(2, c))
    t.ok(ev.Confirm(2))
    t.close()
    assert h.phase == "playing" and h.trump is None and h.dealer == 0
    assert h.view(2).kitty is not None and h.view(0).kitty is None             # the holder sees the kitty
    Driver(t.match, [make_bot("random", i) for i in range(4)]).finish_hand()
    s = t.match.summaries[-1]
    assert s["trump"] == "NT" or s["trump"] is None
    assert s["dealer"] == 0


def test_R7_4_nobody_counters_the_hand_plays_on(table):
    t = buried(table)
    t.close()
    assert t.hand.phase == "playing" and t.hand.trump == "S" and t.hand.kitty_holder is None


def test_R7_4_off_by_default_no_steal_round(table):
    t = table("classic", {0: "S2", 1: "H2 H2"})
    t.draw()
    t.declare(0, "S2")
    t.close()
    t.bury()
    assert t.hand.phase == "playing"
    assert refused(t.declare(1, "H2 H2"), "R-6.1")


def test_R7_4_rules_layer_sequence():
    rs = Ruleset.from_preset("classic", kitty_stealing=True)
    from shengji_table.rules.declare import run_declarations
    _, standing = run_declarations(rs, 2, [Declaration(0, ["S2"])])
    results, standing, who = run_steals(rs, 2, standing, 0, [
        Declaration(0, ["S2", "S2"]), Declaration(1, ["H2", "H2"]), Declaration(3, ["C2", "C2"]),
        Declaration(3, ["LJ", "LJ"]), Declaration(3, ["BJ", "BJ"])])
    assert [r.valid for r in results] == [False, True, False, True, False]
    assert who == 3 and standing.trump is None and results[1].kind == "steal"
    off = check_steal(Ruleset(), 2, standing, 0, Declaration(1, ["BJ", "BJ"]))
    assert not off.valid and "kitty_stealing" in off.reason


@pytest.mark.parametrize("preset", ["three-players", "six-players", "four-decks", "find-friend-5"])
def test_R7_4_is_for_four_players_with_a_kitty(preset):
    with pytest.raises(RulesetError, match="kitty_stealing"):
        Ruleset.from_preset(preset, kitty_stealing=True)


@pytest.mark.parametrize("mode", ["scanned", "open"])
def test_R7_4_bots_play_matches_with_the_option_in_both_modes(mode):
    rs = Ruleset.from_preset("classic", kitty_stealing=True)
    holders = {}
    for seed in (3, 9, 10, 11):
        m = Match(rs, mode)
        run_match(m, [make_bot("random", i) for i in range(4)], [seed])
        assert m.hand.phase == "over" and m.hand.result is not None
        holders[seed] = m.hand.kitty_holder
        steals = [e for e in m.hand.events if e.type == "declare"][1:]
        assert (holders[seed] is None) == (not any(e.seat == holders[seed] for e in steals))
    assert holders[3] is not None and holders[9] is not None       # a bot stole the kitty
    assert holders[10] is None                                     # nobody did
    assert Ruleset.from_json(rs.to_json()) == rs and "kitty_stealing" not in Ruleset().to_json()


def test_R7_4_every_sentence_of_a_stolen_kitty_has_its_mandarin():
    from shengji_table.face.words_zh import kind_of, to_zh
    from shengji_table.game.effects import Announce
    rs = Ruleset.from_preset("classic", kitty_stealing=True)
    m = Match(rs, "scanned")
    said = []
    Driver(m, [make_bot("random", i) for i in range(4)],
           lambda e, effects: said.extend(x.text for x in effects if isinstance(x, Announce))).play_hand(3)
    assert m.hand.kitty_holder is not None
    steal = [t for t in said if "counters" in t or "炒地皮" in t]
    assert len(steal) >= 3
    for text in steal:
        assert kind_of(text) is not None, text
        assert "Seat" not in to_zh(text) and "kitty" not in to_zh(text), (text, to_zh(text))


def test_R7_4_the_bury_clock_runs_for_the_seat_that_took_the_kitty(table):
    from shengji_table.table.clock import timed_turn
    t = buried(table, bury_clock=60)
    t.declare(1, "H2 H2")
    turn = timed_turn(t.match.public_view(), t.rs)
    assert turn is not None and turn.seat == 1 and turn.phase == "burying"

