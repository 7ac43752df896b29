"""The bot driver in open play: the engine does not know the hands, the driver plays the table that
keeps them apart (each bot sees its own cards), enters every play by taps + confirm, lets a bot
opponent holding a beating unit challenge a throw (R-4.3), and turns over the kitty at the end.

Checked at every event: card conservation (every physical card in exactly one place: a seat's hand,
the kitty, the table) and the engine's card counts; at every settlement: point conservation
(R-1.4: tricks + kitty = 100 per deck) and the settlement recomputed from R-8 / §9 bidding.
"""
import sys
from collections import Counter
from pathlib import Path

import pytest

from shengji_table.game import events as ev
from shengji_table.game import record
from shengji_table.game.bots import make_bot
from shengji_table.game.bots.random_legal import RandomLegalBot
from shengji_table.game.driver import Driver, run_match
from shengji_table.game.match import Match
from shengji_table.rules.cards import all_copies
from shengji_table.rules.ruleset import Ruleset
from shengji_table.rules.throw import check_throw

sys.path.insert(0, str(Path(__file__).parent))
from settlement_oracle import expected_levels  # noqa: E402

PRESETS_OPEN = {"classic": 4, "one-deck": 4, "one-deck-two-colour": 3, "three-decks": 2, "four-decks": 2,
                "find-friend-4": 3, "find-friend-5": 3, "find-friend-5-three-decks": 2, "six-players": 2,
                "three-players": 3}


def physical_places(driver):
    """Where each physical card is: a seat (held, pending included), the kitty, or the table."""
    hand = driver.match.hand
    places = []
    for seat in range(hand.players):
        places += [(f"seat{seat}", c) for c in driver.hidden_hand(seat)]
    places += [("kitty", c) for c in driver.kitty]
    places += [("trick", c) for _, cards in hand.trick for c in cards]
    places += [("tricks", c) for plays, _, _ in hand.tricks for _, cards in plays for c in cards]
    return places


class OpenChecks:
    """The ``check`` callback: conservation after every event, settlements when a hand ends."""

    def __init__(self, rs):
        self.rs = rs
        self.driver = None
        self.events = 0
        self.settled = 0

    def __call__(self, match):
        hand = match.hand
        self.events += 1
        if hand.phase in ("deal", "drawing"):
            return
        every = Counter(all_copies(self.rs.decks))
        seen = Counter(c for _, c in physical_places(self.driver))
        assert seen == every, f"cards missing or doubled: {sorted((seen - every) + (every - seen))[:5]}"
        assert not any(hand.hands), "open play: the engine must not know the hands"
        if hand.phase == "playing":
            for seat in range(hand.players):
                # the engine's count of what the seat still holds equals the cards it really holds
                assert hand.counts[seat] - hand.played_count[seat] == len(self.driver.hidden_hand(seat))
        if hand.result is not None and len(match.summaries) > self.settled:
            self.settled = len(match.summaries)
            self.check_settlement(hand)

    def check_settlement(self, hand):
        res = hand.result
        assert res.ruling is None, f"bots play legally, yet the hand ended by ruling: {res.settlement.reason}"
        kitty_points = sum(c.card.points for c in hand.kitty_revealed)
        assert sum(hand.won) + kitty_points == self.rs.total_points
        assert res.captured == sum(hand.won[s] for s in res.attackers)
        assert res.kitty_points == kitty_points
        assert sorted(hand.kitty_revealed) == sorted(hand.buried)
        p = res.captured + res.bonus + res.penalty
        s = res.settlement
        assert (s.declarers_levels, s.attackers_levels, s.takeover) == expected_levels(self.rs, p, res.bid)


@pytest.mark.parametrize("preset", sorted(PRESETS_OPEN))
def test_open_play_random_bots_conserve_cards_and_points(preset):
    """R-1.4 / R-8: random-legal bots play open-play hands through the real card entry."""
    rs = Ruleset.from_preset(preset)
    match = Match(rs, "open")
    checks = OpenChecks(rs)
    driver = Driver(match, [make_bot("random", seed=31 * i + 7) for i in range(rs.players)], check=checks)
    checks.driver = driver
    for k in range(PRESETS_OPEN[preset]):
        if match.over:
            break
        hand = driver.play_hand(5000 + k)
        assert hand.phase == "over" and hand.result is not None
        assert not any(isinstance(e, ev.Draw) for e in match.events), "open play reports no draws"
    assert checks.settled == len(match.summaries) >= 1


def test_open_play_deals_the_same_cards_as_scanned():
    """The driver shuffles like the engine: a seed gives the same deal in both modes."""
    rs = Ruleset.from_preset("classic")
    dealt = {}
    for mode in ("scanned", "open"):
        match = Match(rs, mode)
        driver = Driver(match, [make_bot("random", seed=i) for i in range(4)])
        seen = {}

        def grab(event, effects, driver=driver, match=match, seen=seen, mode=mode):
            if isinstance(event, ev.CloseDeclarations):
                hand = match.hand
                seen["hands"] = [sorted(hand.dealt[s]) if mode == "scanned" else sorted(driver.held[s])
                                 for s in range(4)]
                seen["kitty"] = sorted(hand.kitty if mode == "scanned" else driver.kitty)
        driver.on_event = grab
        driver.play_hand(77)
        dealt[mode] = seen
    assert dealt["open"] == dealt["scanned"]
    assert len(dealt["open"]["kitty"]) == 8


def test_open_play_throws_are_challenged_by_a_bot_holding_a_beating_unit():
    """R-4.3 in open play: after every throw, if an opponent holds a unit that beats it, a challenge
    follows at once and the forced unit stands; otherwise the throw stands unchallenged."""
    rs = Ruleset.from_preset("classic")
    stats = Counter()
    for seed in range(6):
        match = Match(rs, "open")
        driver = Driver(match, [RandomLegalBot(seed * 4 + i, throw_rate=0.6) for i in range(4)])
        pending = {}

        def watch(event, effects, driver=driver, match=match, pending=pending):
            hand = match.hand
            if "throw" in pending:
                lead, beaters = pending.pop("throw")
                if beaters:
                    assert isinstance(event, ev.Challenge) and event.seat == beaters[0]
                    chk = check_throw(lead, {event.seat: [c.card for c in event.cards]}, hand.order)
                    assert sorted(c.card for c in hand.trick[0][1]) == sorted(chk.forced)
                    stats["challenged"] += 1
                else:
                    assert not isinstance(event, ev.Challenge)
                    stats["stood"] += 1
            if isinstance(event, ev.Confirm) and hand.phase == "playing" and hand.throw_window:
                lead = [c.card for c in hand.trick[0][1]]
                beaters = [s for s in hand.challengers()
                           if not check_throw(lead, {s: [c.card for c in driver.hidden_hand(s)]}, hand.order).ok]
                pending["throw"] = (lead, beaters)
        driver.on_event = watch
        for k in range(2):
            driver.play_hand(900 + 10 * seed + k)
    assert stats["challenged"] > 0 and stats["stood"] > 0, stats


def test_open_play_whole_match_replays_bit_for_bit():
    """A whole open-play match with bots reaches its end (R-8.4) and its record replays exactly."""
    rs = Ruleset.from_preset("one-deck")
    match = Match(rs, "open")
    run_match(match, [make_bot("random", seed=i) for i in range(4)], range(100, 400))
    assert match.over and match.winners
    assert all(max(s["levels_after"]) <= 14 for s in match.summaries)
    text = record.dumps(record.to_record(match))
    again = record.replay(record.loads(text))
    assert again.snapshot() == match.snapshot()
    assert record.dumps(record.to_record(again)) == text
    assert all(e.get("seed") is None for e in record.loads(text)["events"] if e["type"] == "deal")


class SloppyBot:
    """A random-legal bot that now and then follows with any cards: a revoke the open-play engine
    must prove from later evidence (R-10.2)."""

    def __init__(self, seed):
        import random
        self.inner = make_bot("random", seed)
        self.rng = random.Random(seed)

    def choose(self, view):
        from shengji_table.game import decisions as dv
        if view.expect.kind == "follow" and self.rng.random() < 0.08:
            return dv.PlayCards(tuple(self.rng.sample(list(view.hand), view.expect.count)))
        return self.inner.choose(view)


def full_revoke_check(hand, seat):
    """The reference: re-check every earlier follow of ``seat`` against everything it played since."""
    from shengji_table.game.hand.settle import end_by_ruling
    from shengji_table.rules.follow import check_follow
    plays = hand.seat_plays[seat]
    for trick_no, lead, faces, idx in hand.follows[seat]:
        if idx == len(plays) - 1 and trick_no == len(hand.tricks):
            continue
        known = [f for p in plays[idx:] for f in p]
        if not check_follow(list(lead), list(faces), known, hand.order).ok:
            return end_by_ruling(hand, seat, "R-10.2", f"seat {seat} revoked in trick {trick_no + 1}")
    return []


def test_open_play_revoke_shortcut_proves_the_same_revokes(monkeypatch):
    """R-10.2 in open play: re-checking only follows of the suit just played (the engine's shortcut)
    ends the same hands, at the same event, against the same seat, as re-checking every follow."""
    from shengji_table.game.hand import evidence

    def run(preset, seed):
        rs = Ruleset.from_preset(preset)
        match = Match(rs, "open")
        driver = Driver(match, [SloppyBot(seed * 10 + i) for i in range(rs.players)])
        for k in range(2):
            if match.over:
                break
            driver.play_hand(seed * 100 + k)
        return [(s["result"]["ruling"], s["result"]["at_fault"], s["levels_after"]) for s in match.summaries], \
            len(match.events)

    proven = 0
    for preset in ("classic", "find-friend-5", "one-deck"):
        for seed in range(5):
            shortcut = run(preset, seed)
            with monkeypatch.context() as mp:
                mp.setattr(evidence, "check_revoke", full_revoke_check)
                full = run(preset, seed)
            assert shortcut == full, (preset, seed)
            proven += sum(1 for ruling, _, _ in shortcut[0] if ruling == "R-10.2")
    assert proven >= 5, "the sloppy bots should revoke now and then"
