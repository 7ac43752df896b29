"""The controller (table/controller/): taps and presses become the game's events; every refusal —
unknown tag, foreign deck, the same physical card twice, a card of another seat's hand, a tap out
of turn — shows REFUSED on that seat's ring, says why, logs a ruling and leaves the game as it was.
"""
import json

import pytest

from shengji_table.game import events as ev
from shengji_table.rules.cards import parse_copy
from shengji_table.rules.ruleset import Ruleset
from shengji_table.sim.players import deal_for, hand_seeds, play_direct
from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set, sim_pages, sim_uid
from shengji_table.table import protocol as P
from shengji_table.table.card_code import encode_card_code
from shengji_table.table.controller import Controller, R

BOARD = json.loads(DEFAULT_BOARD.read_text())
RULESET = Ruleset.from_preset("one-deck")
DECKS = sim_deck_set(RULESET.decks)
CENTRE = 4


SEED = hand_seeds(7, 1)[0]


def controller(mode="scanned", events=()):
    c = Controller(RULESET, mode, BOARD, DECKS, deal_for(mode, [SEED]))
    c.restore([e.to_json() for e in events], None)
    return c


def reference(mode="scanned"):
    return play_direct(RULESET, mode, 7, 1)


def at_first(events, cls, after=None):
    """Index of the first event of ``cls`` (after index ``after``)."""
    start = 0 if after is None else after + 1
    return next(i for i in range(start, len(events)) if isinstance(events[i], cls))


def tap(c, reader, copy, code=True):
    return c.on_tap(reader, sim_uid(copy), sim_pages(copy) if code else None)


def playing_position(mode="scanned"):
    """A controller in the playing phase, right before the second trick's lead is tapped, and the
    reference events."""
    events = reference(mode).events
    burial = at_first(events, ev.Confirm)              # the dealer confirms the burial
    first_lead = at_first(events, ev.Confirm, burial)  # the first lead's confirm
    # the end of trick 1: the last tap before the second lead starts
    c = controller(mode, events[:first_lead + 1])
    hand = c.match.hand
    while len(hand.tricks) < 1:
        e = events[len(c.match.events)]
        c.match.apply(e)
    return c, events


def assert_refused(c, out, seat, rule, words, before, public=None):
    """``words`` in the refusal's whole reason (the seat's and the referee's); the shared screen
    shows ``public`` instead when the whole reason would tell what a hand holds."""
    assert [r.rule for r in out.refusals] == [rule]
    assert words in out.refusals[0].reason
    assert json.dumps(c.match.snapshot(), sort_keys=True) == before      # nothing changed
    assert out.game_events == [] and not any(k == "game" for k, _ in out.rows)
    assert [k for k, _ in out.rows] == ["ruling"]
    if seat is not None:
        assert c.rings[seat].pattern == R.REFUSED
        assert any(rc.ring == seat and rc.pattern == R.REFUSED for rc in out.rings)
    shown = public if public is not None else words
    assert any(shown in t for t in out.texts), out.texts
    if public is not None:
        assert not any(words in t for t in out.texts), out.texts         # the whole reason stays off screen
        assert out.rows[0][1]["reason"] == out.refusals[0].reason        # ... and in the referee's log


def test_controller_unknown_tag_is_refused_with_its_uid():
    c, _ = playing_position()
    seat = c.match.hand.turn
    before = json.dumps(c.match.snapshot(), sort_keys=True)
    out = c.on_tap(seat, bytes.fromhex("04deadbeef0102"), None)
    assert_refused(c, out, seat, "table.unknown-tag", "04deadbeef0102 is not in this deck set", before)


def test_controller_foreign_deck_is_refused_naming_its_deck_set():
    c, _ = playing_position()
    seat = c.match.hand.turn
    before = json.dumps(c.match.snapshot(), sort_keys=True)
    copy = parse_copy("SA#1")
    out = c.on_tap(seat, bytes.fromhex("04aabbccddeeff"), encode_card_code(copy, 99))
    assert_refused(c, out, seat, "table.foreign-deck", "SA#1 of deck set 99", before)


def test_controller_same_physical_card_twice_is_refused():
    """A card already played in an earlier trick, tapped again (by its own former holder)."""
    c, _ = playing_position()
    hand = c.match.hand
    plays, winner, _ = hand.tricks[0]
    seat, cards = plays[0]
    before = json.dumps(c.match.snapshot(), sort_keys=True)
    out = tap(c, seat, cards[0])
    assert_refused(c, out, seat, "table.already-played", "was played in an earlier trick", before)


def test_controller_same_card_twice_in_one_trick_is_refused():
    c, events = playing_position()
    hand = c.match.hand
    leader = hand.turn
    # the leader's lead from the reference, tapped and confirmed through the controller
    k = len(c.match.events)
    while not isinstance(events[k], ev.Confirm):
        out = tap(c, leader, events[k].copy)
        assert out.game_events == [events[k]]
        k += 1
    out = c.on_button(leader, P.PRESS)
    assert out.game_events[0] == ev.Confirm(leader)
    lead_card = hand.trick[0][1][0]
    follower = hand.turn
    before = json.dumps(c.match.snapshot(), sort_keys=True)
    out = tap(c, follower, lead_card)
    assert_refused(c, out, follower, "table.twice", "already on the table in this trick", before)


def test_controller_card_from_another_seats_hand_is_refused():
    c, _ = playing_position()
    hand = c.match.hand
    seat = hand.turn
    other = (seat + 1) % 4
    theirs = hand.hand_copies(other)[0]
    before = json.dumps(c.match.snapshot(), sort_keys=True)
    out = tap(c, seat, theirs)
    assert_refused(c, out, seat, "table.wrong-seat", f"belongs to seat {other}'s hand", before,
                   public="that card cannot be played from this seat")


def test_controller_tap_out_of_turn_is_refused():
    c, _ = playing_position()
    hand = c.match.hand
    seat = (hand.turn + 2) % 4
    mine = hand.hand_copies(seat)[0]
    before = json.dumps(c.match.snapshot(), sort_keys=True)
    out = tap(c, seat, mine)
    assert_refused(c, out, seat, "table.out-of-turn", f"it is seat {hand.turn}'s turn", before)


def test_controller_open_play_out_of_turn_and_replayed_card_are_refused():
    c, _ = playing_position("open")
    hand = c.match.hand
    seat = (hand.turn + 1) % 4
    played = hand.tricks[0][0][0][1][0]
    before = json.dumps(c.match.snapshot(), sort_keys=True)
    out = tap(c, hand.turn, played)
    assert_refused(c, out, hand.turn, "table.already-played", "earlier trick", before)
    some = next(x for x in DECKS.cards.values() if x not in hand.played)
    out = tap(c, seat, some)
    assert_refused(c, out, seat, "table.out-of-turn", "turn", before)


def test_controller_reader_not_on_the_board_is_refused():
    c, _ = playing_position()
    before = json.dumps(c.match.snapshot(), sort_keys=True)
    out = tap(c, 9, parse_copy("SA#1"))
    assert [r.rule for r in out.refusals] == ["table.reader"]
    assert json.dumps(c.match.snapshot(), sort_keys=True) == before


def test_controller_deals_then_draws_shows_declares_and_closes_R6():
    """Scanned draw: a new card is a draw; a level card already held, tapped again, is shown
    (pending); the button declares it (R-6.1); a press with nothing shown closes the draw, and the
    dealer takes the kitty by itself."""
    ref = reference()
    declare = at_first(ref.events, ev.Declare)
    c = controller()
    out = c.start()
    assert out.game_events == [ref.events[0]]                       # the seeded deal
    for e in ref.events[1:declare]:
        assert isinstance(e, ev.Draw)
        assert tap(c, e.seat, e.copy).game_events == [e]
    d = ref.events[declare]
    for card in d.cards:
        out = tap(c, d.seat, card)
        assert out.game_events == [] and c.shown[d.seat][-1] == card
        assert c.rings[d.seat].pattern == R.PENDING
    assert c.on_button(d.seat, P.PRESS).game_events == []          # declared when the press ends
    out = c.on_button(d.seat, P.RELEASE)
    assert out.game_events == [d]
    assert c.shown.get(d.seat) is None
    # refusal: closing before the draw is done
    before = json.dumps(c.match.snapshot(), sort_keys=True)
    out = c.on_button(0, P.PRESS)
    assert [r.rule for r in out.refusals] == ["R-7.1"]
    assert json.dumps(c.match.snapshot(), sort_keys=True) == before
    close = at_first(ref.events, ev.CloseDeclarations)
    for e in ref.events[declare + 1:close]:
        if isinstance(e, ev.Draw):
            tap(c, e.seat, e.copy)
        else:
            for card in e.cards:
                tap(c, e.seat, card)
            c.on_button(e.seat, P.PRESS)
            c.on_button(e.seat, P.RELEASE)
    out = c.on_button(0, P.PRESS)
    assert out.game_events == [ev.CloseDeclarations(), ev.TakeKitty(c.match.hand.dealer)]
    assert c.match.hand.phase == "burying"


def test_controller_long_press_withdraws_shown_cards():
    ref = reference()
    declare = at_first(ref.events, ev.Declare)
    c = controller(events=ref.events[:declare])
    d = ref.events[declare]
    tap(c, d.seat, d.cards[0])
    assert c.shown[d.seat]
    before = json.dumps(c.match.snapshot(), sort_keys=True)
    # a long press reaches the host as PRESS, LONG_PRESS, RELEASE: nothing is declared on the way
    outs = [c.on_button(d.seat, kind) for kind in (P.PRESS, P.LONG_PRESS, P.RELEASE)]
    assert not c.shown.get(d.seat)
    assert c.rings[d.seat].pattern == R.OFF
    assert all(out.game_events == [] for out in outs)
    assert json.dumps(c.match.snapshot(), sort_keys=True) == before


def test_controller_centre_reader_buries_for_the_dealer_R7_2():
    ref = reference()
    take = at_first(ref.events, ev.TakeKitty)
    c = controller(events=ref.events[:take + 1])
    dealer = c.match.hand.dealer
    buried = [e.copy for e in ref.events[take + 1:] if isinstance(e, ev.Tap)][:RULESET.kitty_size]
    for card in buried:
        out = tap(c, CENTRE, card)
        assert out.game_events == [ev.BuryCard(dealer, card)]
    assert c.rings[dealer].pattern == R.PENDING and c.rings[dealer].count == RULESET.kitty_size
    out = c.on_button(dealer, P.PRESS)
    assert out.game_events[0] == ev.Confirm(dealer)
    assert c.match.hand.phase == "playing"


def test_controller_open_play_kitty_revealed_on_the_centre_reader_R7_3():
    ref = reference("open")
    reveal = at_first(ref.events, ev.RevealKitty)
    c = controller("open", ref.events[:reveal])
    cards = ref.events[reveal].cards
    for card in cards:
        assert tap(c, CENTRE, card).game_events == []
    assert c.rings[CENTRE].count == len(cards)
    out = c.on_button(c.match.hand.dealer, P.PRESS)
    assert out.game_events[0] == ev.RevealKitty(tuple(cards))
    assert c.match.played_hands[0].result is not None and len(c.match.summaries) == 1
    assert any("Attackers captured" in t for t in out.texts)
    assert c.rings[CENTRE].pattern == R.POINTS


def test_controller_state_survives_a_restore():
    """Shown cards are the controller's own state: saved as JSON, restored after a restart."""
    ref = reference()
    declare = at_first(ref.events, ev.Declare)
    c = controller(events=ref.events[:declare])
    d = ref.events[declare]
    tap(c, d.seat, d.cards[0])
    saved = json.loads(json.dumps(c.state_json()))
    c2 = controller()
    c2.restore([e.to_json() for e in c.match.events], saved)
    assert c2.shown == c.shown and c2.rings == c.rings
    assert json.dumps(c2.match.snapshot(), sort_keys=True) == json.dumps(c.match.snapshot(), sort_keys=True)


def test_controller_refuses_a_deck_set_that_does_not_fit_the_preset():
    with pytest.raises(ValueError, match="decks"):
        Controller(RULESET, "scanned", BOARD, sim_deck_set(2))


def test_controller_dead_reader_is_announced():
    c, _ = playing_position()
    before = json.dumps(c.match.snapshot(), sort_keys=True)
    out = c.on_reader(2, False)
    assert out.texts == ["Reader 2 stopped answering: check its cable."]
    assert [k for k, _ in out.rows] == ["effect"]
    assert c.on_reader(2, True).texts == []
    assert json.dumps(c.match.snapshot(), sort_keys=True) == before


def test_controller_open_play_challenge_of_a_throw_R4_3():
    """Open play: while a throw is open to challenge, an opponent who is not on turn taps the card
    that beats it and presses the button: the throw fails and the forced unit stands (R-4.3)."""
    rs = Ruleset.from_preset("classic")
    c = Controller(rs, "open", BOARD, sim_deck_set(2), lambda n: ev.Deal() if n == 1 else None)
    c.start()
    c.on_button(0, P.PRESS)                              # nobody declared: close the draw
    hand = c.match.hand
    assert hand.phase == "burying"
    dealer = hand.dealer
    c.on_button(dealer, P.PRESS)                         # open play: the burial is not scanned
    assert hand.phase == "playing" and hand.turn == dealer
    suit = next(s for s in "SHCD" if s != hand.trump)
    high, low, beater = parse_copy(f"{suit}A#1"), parse_copy(f"{suit}K#1"), parse_copy(f"{suit}A#2")
    tap(c, dealer, high)
    tap(c, dealer, low)
    out = c.on_button(dealer, P.PRESS)
    assert hand.throw_window and any("may challenge" in t for t in out.texts)
    challenger = (dealer + 3) % 4                        # an opponent, not the next to play
    assert challenger != hand.turn
    out = tap(c, challenger, beater)
    assert out.game_events == [] and c.challenge[challenger] == [beater]
    c.on_button(challenger, P.PRESS)
    out = c.on_button(challenger, P.RELEASE)                  # shown when the press ends
    assert out.game_events == [ev.Challenge(challenger, (beater,))]
    assert [cards for _, cards in hand.trick] == [(low,)]          # the forced unit stands
    assert any("throw fails" in t for t in out.texts)


def test_controller_illegal_follow_is_told_to_the_table_without_the_hand_R_4_4():
    """R-4.4 at the table: a follower who holds the led suit and taps another is refused; the shared
    screen (and the voice) hear "must follow ♦", never how many of the suit the hand holds; the
    whole reason is the refusal's and the referee's (the ruling row)."""
    c, events = playing_position()
    hand = c.match.hand
    order = hand.order
    # lay the second trick's lead as the reference does, up to the first follower's turn
    while len(hand.trick) < 1:
        c.match.apply(events[len(c.match.events)])
    follower = hand.turn
    led = order.suit_of(hand.trick[0].cards[0].card)
    mine = hand.hand_copies(follower)
    same = [x for x in mine if order.suit_of(x.card) == led]
    other = [x for x in mine if order.suit_of(x.card) != led]
    if not same or not other:
        pytest.skip("this deal gives the follower no illegal follow")
    lead_count = hand.lead_count()
    before = json.dumps(c.match.snapshot(), sort_keys=True)
    out = None
    for copy in other[:lead_count]:
        out = tap(c, follower, copy)
    assert out is not None and [r.rule for r in out.refusals] == ["R-4.4"]
    assert "you hold" in out.refusals[0].reason
    assert not any("you hold" in t for t in out.texts), out.texts
    expected = "must follow trumps" if led == "T" else "must follow "
    assert any(expected in t for t in out.texts), out.texts
    ruling = next(row for kind, row in out.rows if kind == "ruling")
    assert ruling["reason"] == out.refusals[0].reason and "you hold" not in ruling["public"]
    if lead_count == 1:
        assert json.dumps(c.match.snapshot(), sort_keys=True) == before
