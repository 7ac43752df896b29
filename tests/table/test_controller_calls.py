"""Decisions entered at the seat (table/controller/entry.py, the rows of table/gestures.py):
find-a-friend calls, three-player bids, the trump named by the bidding winner, the
counter-declaration (反牌) and its draw from the kitty — with nothing but the seat's reader, its
button and its ring, and the centre reader.

A long press reaches the host as PRESS (at once), LONG_PRESS (800 ms later, firmware/debounce.py) and
RELEASE; a short press as PRESS and RELEASE: both are sent here as the table sends them.  A step
counts at the release of a short press, so a long press adds none.  Every wrong entry is refused with
its rule and reason on that seat's ring; the game state (the match snapshot) does not change.
"""
import json
import pathlib

from shengji_table.game import events as ev
from shengji_table.game.friend import RULE as FRIEND_RULE
from shengji_table.game.hand import COUNTER_RULE
from shengji_table.game.match import Match
from shengji_table.rules.cards import parse_card, parse_copy
from shengji_table.rules.ruleset import Ruleset
from shengji_table.sim.players import deal_for, hand_seeds, play_direct
from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set, sim_pages, sim_uid
from shengji_table.table import protocol as P
from shengji_table.table.controller import Controller, Outcome, R

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]

BOARD4 = json.loads(DEFAULT_BOARD.read_text())
BOARD6 = json.loads((REPO_ROOT / "boards" / "table-6.json").read_text())


def position(preset, board, upto, seed=7, bots="heuristic", mode="scanned"):
    """A controller with the reference match of ``preset`` replayed up to (not including) the first
    event for which ``upto(event)`` is true; returns (controller, reference events, index)."""
    rs = Ruleset.from_preset(preset)
    events = play_direct(rs, mode, seed, 1, bots=bots).events
    i = next(k for k, e in enumerate(events) if upto(e))
    c = Controller(rs, mode, board, sim_deck_set(rs.decks), deal_for(mode, hand_seeds(seed, 1)))
    c.restore([e.to_json() for e in events[:i]], None)
    return c, events, i


def tap(c, reader, copy):
    copy = parse_copy(copy) if isinstance(copy, str) else copy
    return c.on_tap(reader, sim_uid(copy), sim_pages(copy))


def merged(outcomes):
    out = Outcome()
    for o in outcomes:
        for name in ("rows", "rings", "texts", "refusals", "game_events"):
            getattr(out, name).extend(getattr(o, name))
    return out


def press(c, seat):
    """A short press as the table sends it: PRESS, then RELEASE."""
    return merged([c.on_button(seat, P.PRESS), c.on_button(seat, P.RELEASE)])


def long_press(c, seat):
    """What the table sends for a button held 800 ms: PRESS, LONG_PRESS, then RELEASE."""
    return merged([c.on_button(seat, kind) for kind in (P.PRESS, P.LONG_PRESS, P.RELEASE)])


def snap(c):
    return json.dumps(c.match.snapshot(), sort_keys=True)


def assert_refused(c, out, seat, rule, words, before, entry=None):
    assert [r.rule for r in out.refusals] == [rule], out.refusals
    assert words in out.refusals[0].reason
    assert snap(c) == before                                   # the game did not change
    assert out.game_events == [] and not any(k == "game" for k, _ in out.rows)
    assert any(k == "ruling" for k, _ in out.rows)
    assert c.rings[seat].pattern == R.REFUSED                   # on that seat's ring
    assert any(words in t for t in out.texts)
    if entry is not None:
        assert c.entry_state() == entry                         # nor did the entry


# ---- find a friend ---------------------------------------------------------------------------------

def friend_position(preset="find-friend-4", board=BOARD4):
    return position(preset, board, lambda e: isinstance(e, ev.CallFriend))


def test_friend_call_tap_a_card_press_for_the_copy_long_press_confirms():
    """R-9 find-a-friend (seed 000 找朋友): the dealer names ♣A and which copy at the seat."""
    c, events, i = friend_position()
    hand = c.match.hand
    dealer = hand.dealer
    assert hand.phase == "friend" and events[i].calls == ((parse_card("CA"), 1),)
    before = snap(c)
    out = tap(c, dealer, "CA#2")                 # a ♣A: its face is what counts
    assert out.game_events == [] and snap(c) == before
    assert c.entry_state() == {"face": "CA", "nth": 0, "calls": []}
    assert c.rings[dealer].pattern == R.PENDING and c.rings[dealer].arg == 2     # 0 of 2 copies
    press(c, dealer)
    assert c.entry_state()["nth"] == 1 and c.rings[dealer].count == 1
    press(c, dealer)
    assert c.entry_state()["nth"] == 2 and c.rings[dealer].count == 2
    press(c, dealer)                             # the count goes round: two decks, 1 again
    assert c.entry_state()["nth"] == 1
    second = long_press(c, dealer)               # confirms; adds no step
    assert [e.to_json() for e in second.game_events] == [events[i].to_json()]
    assert c.match.hand.phase == "playing"
    assert c.match.hand.friend_calls == ((parse_card("CA"), 1),)
    assert any("calls for a friend" in t for t in second.texts)


def test_friend_call_of_a_card_the_dealer_holds_leaves_it_in_the_hand():
    """Seed 000 找朋友 / game/friend.py: the dealer may call a card they hold; the copy tapped to
    name it is not played."""
    c, _, _ = friend_position()
    hand = c.match.hand
    dealer = hand.dealer
    mine = next(x for x in hand.hand_copies(dealer) if str(x.card) == "SA")
    tap(c, dealer, mine)
    press(c, dealer)
    press(c, dealer)
    out = long_press(c, dealer)                   # the second ♠A
    assert [e.to_json() for e in out.game_events] == [ev.CallFriend(dealer, ((parse_card("SA"), 2),)).to_json()]
    assert mine in c.match.hand.hands[dealer]     # still in the dealer's hand
    assert c.match.hand.phase == "playing"


def test_friend_call_refusals_leave_everything_unchanged():
    c, _, _ = friend_position()
    dealer = c.match.hand.dealer
    other = (dealer + 1) % 4
    before = snap(c)
    # a press before any card is tapped
    assert_refused(c, press(c, dealer), dealer, FRIEND_RULE, "tap a card of the face you call first", before)
    # a long press with a card but no copy chosen
    tap(c, dealer, "HK#1")
    entry = c.entry_state()
    out = long_press(c, dealer)
    assert_refused(c, out, dealer, FRIEND_RULE, "press once per copy", before, entry)
    # another seat taps or presses
    assert_refused(c, tap(c, other, "DA#1"), other, FRIEND_RULE, f"the dealer (seat {dealer}) calls the friend",
                   before, entry)
    assert_refused(c, press(c, other), other, FRIEND_RULE, f"the dealer (seat {dealer}) calls the friend",
                   before, entry)
    # a card at the centre reader is not a call
    out = tap(c, c.centre, "DA#1")
    assert [r.rule for r in out.refusals] == ["table.phase"] and snap(c) == before


def test_two_friend_calls_three_decks_and_a_repeated_call_refused():
    """find-friend-5-three-decks calls two friends; with three decks the copy is 1 to 3; the same
    card and copy twice is refused (game/friend.py check_calls)."""
    c, events, i = friend_position("find-friend-5-three-decks", BOARD6)
    dealer = c.match.hand.dealer
    before = snap(c)
    tap(c, dealer, "HA#1")
    for _ in range(3):
        press(c, dealer)
    assert c.entry_state()["nth"] == 3 and c.rings[dealer].arg == 3
    out = long_press(c, dealer)               # the third ♥A, noted; one call to go
    assert out.game_events == [] and c.entry_state()["calls"] == [["HA", 3]]
    assert any("call 1 of 2" in t for t in out.texts)
    tap(c, dealer, "HA#2")
    for _ in range(3):
        press(c, dealer)
    entry = c.entry_state()
    out = long_press(c, dealer)
    assert_refused(c, out, dealer, FRIEND_RULE, "the same card and copy is called twice", before, entry)
    tap(c, dealer, "DA#1")
    press(c, dealer)
    out = long_press(c, dealer)
    assert [e.to_json() for e in out.game_events] == [
        ev.CallFriend(dealer, ((parse_card("HA"), 3), (parse_card("DA"), 1))).to_json()]


def test_friend_entry_survives_a_host_restart():
    """The entry is controller state saved in the log (state_json): a restarted host continues it."""
    c, events, i = friend_position()
    dealer = c.match.hand.dealer
    tap(c, dealer, "CA#1")
    press(c, dealer)
    again = Controller(c.ruleset, c.mode, BOARD4, c.deck_set, c.deal_for)
    again.restore([e.to_json() for e in events[:i]], json.loads(json.dumps(c.state_json())))
    assert again.entry_state() == {"face": "CA", "nth": 1, "calls": []}
    out = long_press(again, dealer)
    assert [e.to_json() for e in out.game_events] == [events[i].to_json()]


# ---- three players: bids, trump, 反牌 -----------------------------------------------------------------

def bid_position():
    return position("three-players", BOARD4, lambda e: isinstance(e, ev.Bid))


def test_bid_press_steps_by_five_long_press_bids_tap_passes():
    """R-9 bidding: each press lowers the bid by the game's step (5) from the highest allowed; the
    ring shows it (POINTS); a long press bids; a tap of any card passes."""
    c, _, _ = bid_position()
    hand = c.match.hand
    assert hand.phase == "bidding"
    bidder = hand.turn
    before = snap(c)
    press(c, bidder)
    assert c.entry_state() == {"bid": 200} and snap(c) == before
    ring = c.rings[bidder]
    assert ring.pattern == R.POINTS and ring.arg == 200 and ring.count * 12 >= 200   # fits the ring
    press(c, bidder)
    assert c.entry_state() == {"bid": 195}
    out = long_press(c, bidder)                 # bids what the ring shows
    assert [e.to_json() for e in out.game_events] == [ev.Bid(bidder, 195).to_json()]
    assert c.match.hand.bid == 195
    nxt = c.match.hand.turn
    assert c.rings[nxt].pattern == R.TURN
    out = tap(c, nxt, c.match.hand.hand_copies((nxt + 1) % 3)[0])   # any card passes
    assert [e.to_json() for e in out.game_events] == [ev.Bid(nxt, None).to_json()]
    third = c.match.hand.turn
    for _ in range(4):                          # 190 185 180 175
        press(c, third)
    out = long_press(c, third)
    assert [e.to_json() for e in out.game_events] == [ev.Bid(third, 175).to_json()]


def test_bid_steps_go_round_from_the_lowest_to_the_highest():
    c, _, _ = bid_position()
    bidder = c.match.hand.turn
    _ = [press(c, bidder) for _ in range(40)]    # 200 … 5: forty bids
    assert c.entry_state() == {"bid": 5}
    press(c, bidder)
    assert c.entry_state() == {"bid": 200}


def test_bid_refusals_leave_everything_unchanged():
    c, _, _ = bid_position()
    hand = c.match.hand
    bidder = hand.turn
    other = (bidder + 1) % 3
    before = snap(c)
    # a long press with no bid chosen
    assert_refused(c, long_press(c, bidder), bidder, "R-9 bidding", "press the button to choose a bid",
                   before, {})
    # out of turn: a press (the controller's) and a tap (the game's)
    assert_refused(c, press(c, other), other, "table.out-of-turn", f"it is seat {bidder}'s turn to bid", before)
    assert_refused(c, tap(c, other, hand.hand_copies(other)[0]), other, "table.out-of-turn",
                   f"it is seat {bidder}'s turn to bid", before)
    # the empty fourth seat of a four-seat table
    out = tap(c, 3, hand.hand_copies(bidder)[0])
    assert [r.rule for r in out.refusals] == ["table.reader"] and "seat 3 is empty" in out.refusals[0].reason
    assert c.rings[3].pattern == R.REFUSED and snap(c) == before
    out = press(c, 3)
    assert [r.rule for r in out.refusals] == ["table.reader"] and snap(c) == before
    # the last bidder may not pass when nobody has bid
    tap(c, bidder, hand.hand_copies(bidder)[0])
    tap(c, other, hand.hand_copies(other)[0])
    last = c.match.hand.turn
    before = snap(c)
    assert_refused(c, tap(c, last, hand.hand_copies(last)[0]), last, "R-9 bidding", "nobody has bid yet", before)
    # no bid below 5
    _ = [press(c, last) for _ in range(40)]
    long_press(c, last)
    assert c.match.hand.bid == 5 and c.match.hand.phase == "trump"


def test_no_lower_bid_left_is_refused():
    c, _, _ = bid_position()
    bidder = c.match.hand.turn
    _ = [press(c, bidder) for _ in range(40)]
    long_press(c, bidder)                       # bids 5
    nxt = c.match.hand.turn
    before = snap(c)
    assert_refused(c, press(c, nxt), nxt, "R-9 bidding", "no lower bid is left", before)


def trump_position():
    return position("three-players", BOARD4, lambda e: isinstance(e, ev.NameTrump))


def test_name_trump_tap_a_card_of_the_suit_then_long_press():
    """R-9 bidding: the winner names trump by tapping a card of the suit; a joker is no trump."""
    c, events, i = trump_position()
    dealer = c.match.hand.dealer
    before = snap(c)
    tap(c, dealer, "H9#1")
    assert c.entry_state() == {"suit": "H"} and c.rings[dealer].pattern == R.TRUMP and snap(c) == before
    tap(c, dealer, "BJ#2")                      # changed their mind: no trump
    assert c.entry_state() == {"suit": "NT"}
    press(c, dealer)                            # a short press changes nothing: hold it to name
    assert c.entry_state() == {"suit": "NT"} and snap(c) == before
    out = long_press(c, dealer)
    assert [e.to_json() for e in out.game_events] == [ev.NameTrump(dealer, None).to_json()]
    hand = c.match.hand
    assert hand.trump is None and hand.phase == "kitty"
    assert not any(isinstance(e, ev.TakeKitty) for e in out.game_events)   # the 反牌 window is open


def test_name_trump_refusals_leave_everything_unchanged():
    c, _, _ = trump_position()
    dealer = c.match.hand.dealer
    other = (dealer + 1) % 3
    before = snap(c)
    assert_refused(c, press(c, dealer), dealer, "R-9 bidding", "tap a card of the trump suit", before, {})
    assert_refused(c, long_press(c, dealer), dealer, "R-9 bidding", "tap a card of the trump suit",
                   before, {})
    assert_refused(c, tap(c, other, "S3#1"), other, "R-9 bidding", f"the dealer (seat {dealer}) names trump",
                   before, {})


def counter_position(mode="scanned"):
    # seed 191 with these bots: seat 0 counter-declares with the big jokers after trump is named
    return position("three-players", BOARD4, lambda e: isinstance(e, ev.Declare), seed=191,
                    bots="heuristic,random,random", mode=mode)


def test_counter_declaration_and_its_kitty_draw_at_the_table():
    """Seed 000 三人打法 反牌: shown like a declaration (taps + press); the 6 cards drawn from the
    kitty are tapped on the centre reader (the last one makes the counter_draw); the 6 laid back
    are tapped at the seat and confirmed; the dealer's press then takes the kitty."""
    c, events, i = counter_position()
    decl = events[i]
    hand = c.match.hand
    assert hand.phase == "kitty" and decl.seat != hand.dealer
    for card in decl.cards:
        tap(c, decl.seat, card)
    out = press(c, decl.seat)
    assert [e.to_json() for e in out.game_events] == [decl.to_json()]
    assert c.match.hand.phase == "exchange"
    draw = events[i + 1]
    assert isinstance(draw, ev.CounterDraw) and draw.copies is not None
    before = snap(c)
    foreign = next(x for x in c.match.hand.hand_copies(decl.seat))
    out = tap(c, c.centre, foreign)             # not a kitty card
    assert [r.rule for r in out.refusals] == [COUNTER_RULE] and "is not in the kitty" in out.refusals[0].reason
    assert c.rings[c.centre].pattern == R.REFUSED and snap(c) == before and c.kitty_drawn == []
    tap(c, c.centre, draw.copies[0])
    tap(c, c.centre, draw.copies[0])            # again: put back
    assert c.kitty_drawn == []
    for card in draw.copies[:-1]:
        assert tap(c, c.centre, card).game_events == []
    assert c.rings[c.centre].count == 5 and snap(c) == before
    out = tap(c, c.centre, draw.copies[-1])
    assert [e.to_json() for e in out.game_events] == [draw.to_json()]
    # the cards laid back and the confirm, as the reference match has them
    k = i + 2
    while not isinstance(events[k], ev.TakeKitty):
        e = events[k]
        out = tap(c, e.seat, e.copy) if isinstance(e, ev.Tap) else press(c, e.seat)
        assert [x.to_json() for x in out.game_events] == [e.to_json()], e
        k += 1
    assert c.match.hand.phase == "kitty"
    before = snap(c)
    other = next(s for s in range(3) if s != c.match.hand.dealer)
    assert_refused(c, press(c, other), other, "R-7.2", "only the dealer", before)
    out = press(c, c.match.hand.dealer)
    assert [x.to_json() for x in out.game_events] == [events[k].to_json()]
    assert c.match.hand.phase == "burying"


def test_counter_draw_in_open_play_is_the_counter_declarers_press():
    """Open play: the kitty is not known, so the draw is not scanned: the counter-declarer's button."""
    c, events, i = counter_position("open")
    decl = events[i]
    for card in decl.cards:
        tap(c, decl.seat, card)
    press(c, decl.seat)
    assert c.match.hand.phase == "exchange"
    out = press(c, decl.seat)
    assert [e.to_json() for e in out.game_events] == [ev.CounterDraw(decl.seat).to_json()]
    assert events[i + 1].to_json() == ev.CounterDraw(decl.seat).to_json()


def test_controller_plays_the_reference_three_player_hand_from_taps_and_presses():
    """The whole hand, every decision entered physically, gives the reference record event for event."""
    rs = Ruleset.from_preset("three-players")
    ref = play_direct(rs, "scanned", 191, 1, bots="heuristic,random,random")
    c = Controller(rs, "scanned", BOARD4, sim_deck_set(rs.decks), deal_for("scanned", hand_seeds(191, 1)))
    c.start()
    for k, e in enumerate(ref.events):
        if k < len(c.match.events):
            continue                            # made by the host (deal)
        assert len(c.match.events) == k, f"event {k} {e.to_json()}"
        if isinstance(e, (ev.Draw, ev.Tap)):
            tap(c, e.seat, e.copy)
        elif isinstance(e, ev.Declare):
            for card in e.cards:
                tap(c, e.seat, card)
            press(c, e.seat)
        elif isinstance(e, (ev.CloseDeclarations,)):
            press(c, 0)
        elif isinstance(e, (ev.Confirm, ev.TakeKitty)):
            press(c, e.seat)
        elif isinstance(e, ev.CounterDraw):
            for card in e.copies:
                tap(c, c.centre, card)
        elif isinstance(e, ev.Bid):
            if e.points is None:
                tap(c, e.seat, c.match.hand.hand_copies(e.seat)[0])
            else:
                while c.entry_state().get("bid") != e.points:
                    press(c, e.seat)
                long_press(c, e.seat)
        elif isinstance(e, ev.NameTrump):
            tap(c, e.seat, "BJ#1" if e.suit is None else f"{e.suit}5#1")
            long_press(c, e.seat)
        assert c.match.events[k].to_json() == e.to_json()
    assert [e.to_json() for e in c.match.events] == [e.to_json() for e in ref.events]
    assert c.match.hand.result is not None
    assert Match(rs, "scanned").apply_all(c.match.events).snapshot() == ref.snapshot()


def test_counter_declaration_shown_then_withdrawn_by_a_long_press():
    """Cards shown for a 反牌 are withdrawn by a long press — which begins as a press, so the
    declaration is made only at the release of a short press, never on the way to a long one."""
    c, events, i = counter_position()
    decl = events[i]
    before = snap(c)
    for card in decl.cards:
        tap(c, decl.seat, card)
    out = long_press(c, decl.seat)
    assert out.game_events == [] and not c.shown.get(decl.seat) and snap(c) == before
    assert c.match.hand.phase == "kitty"
    for card in decl.cards:
        tap(c, decl.seat, card)
    assert c.on_button(decl.seat, P.PRESS).game_events == []
    assert [e.to_json() for e in c.on_button(decl.seat, P.RELEASE).game_events] == [decl.to_json()]
