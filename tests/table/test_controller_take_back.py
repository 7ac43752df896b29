"""The take-back gesture at the controller (R-10.4): a pending card comes back only by the seat's
button held with the card on its pad (TAKE_BACK from the firmware), never by a second tap; a take
back with nothing to take back is the long press it also is; two cards on a pad are announced."""
import json

from shengji_table.game import events as ev
from shengji_table.table import protocol as P
from shengji_table.table.controller import R

from .test_controller_table_entry import (at_first, controller, playing_position, reference, sim_pages,
                                          sim_uid, tap)


def take_back(c, seat, copy):
    return c.on_take_back(seat, sim_uid(copy), sim_pages(copy))


def a_position_with_a_two_card_lead():
    """A controller whose seat on turn leads, with two cards of its hand tapped (pending)."""
    c, _ = playing_position()
    hand = c.match.hand
    leader = hand.turn
    cards = list(hand.hand_copies(leader)[:2])
    for card in cards:
        assert tap(c, leader, card).game_events == [ev.Tap(leader, card)]
    assert hand.pending == cards
    return c, (leader, cards)


def test_a_pending_card_tapped_again_is_not_taken_back_R_10_4():
    """A card lifted and laid down again (a flicker longer than the lift time, or a hand
    hovering) is ignored: the card stays pending, nothing is refused."""
    c, (leader, cards) = a_position_with_a_two_card_lead()
    before = json.dumps(c.match.snapshot(), sort_keys=True)
    out = tap(c, leader, cards[1])
    assert out.game_events == [] and out.refusals == []
    assert json.dumps(c.match.snapshot(), sort_keys=True) == before
    assert c.match.hand.pending == cards[:2]


def test_the_take_back_gesture_takes_a_pending_card_back_R_10_4():
    c, (leader, cards) = a_position_with_a_two_card_lead()
    out = take_back(c, leader, cards[1])
    assert out.game_events == [ev.TakeBack(leader, cards[1])]
    assert c.match.hand.pending == cards[:1]
    assert c.rings[leader].pattern == R.PENDING and c.rings[leader].count == 1
    # its release is no step: the lead is not confirmed
    out = c.on_button(leader, P.RELEASE)
    assert out.game_events == [] and out.refusals == []
    assert c.match.hand.pending == cards[:1]
    # and the next press is a press again
    assert tap(c, leader, cards[1]).game_events == [ev.Tap(leader, cards[1])]


def test_a_take_back_of_a_committed_card_is_a_long_press_and_changes_nothing_R_10_4():
    c, events = playing_position()
    hand = c.match.hand
    plays, _, _ = hand.tricks[0]
    seat, played = plays[-1]
    if seat != hand.turn:
        # the seat on turn's card of the last trick: committed
        seat, played = next((s, cs) for s, cs in plays if s == hand.turn)
    before = json.dumps(c.match.snapshot(), sort_keys=True)
    out = take_back(c, seat, played[0])
    # not entered: the long press it is (nothing for the seat on turn with nothing to challenge)
    assert out.game_events == []
    assert json.dumps(c.match.snapshot(), sort_keys=True) == before
    assert c.on_button(seat, P.RELEASE).game_events == []


def test_a_take_back_withdraws_one_shown_card_and_a_second_tap_does_not():
    ref = reference()
    declare = next(i for i, e in enumerate(ref.events) if isinstance(e, ev.Declare) and len(e.cards) >= 1)
    c = controller(events=ref.events[:declare])
    d = ref.events[declare]
    tap(c, d.seat, d.cards[0])
    assert c.shown[d.seat] == [d.cards[0]]
    assert tap(c, d.seat, d.cards[0]).game_events == [] and c.shown[d.seat] == [d.cards[0]]
    out = take_back(c, d.seat, d.cards[0])
    assert c.shown[d.seat] == [] and out.game_events == []
    assert c.on_button(d.seat, P.RELEASE).game_events == []       # no declaration of nothing


def test_a_take_back_with_the_dealer_s_trump_card_on_the_pad_names_trump():
    """Deciding phases: a take-back of a card that is not entered is the long press it also is
    (here: the trump named, the suit card still lying on the pad)."""
    from shengji_table.rules.ruleset import Ruleset
    from shengji_table.sim.players import deal_for, hand_seeds, play_direct
    from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set
    from shengji_table.table.controller import Controller
    board = json.loads(DEFAULT_BOARD.read_text())
    rs = Ruleset.from_preset("three-players")
    seed = hand_seeds(7, 1)[0]
    ref = play_direct(rs, "scanned", 7, 1)
    i = at_first(ref.events, ev.NameTrump)
    c = Controller(rs, "scanned", board, sim_deck_set(rs.decks), deal_for("scanned", [seed]))
    c.restore([e.to_json() for e in ref.events[:i]], None)
    e = ref.events[i]
    suit_card = next(x for x in c.match.hand.hand_copies(e.seat) if x.card.suit == e.suit)
    tap(c, e.seat, suit_card)
    out = take_back(c, e.seat, suit_card)
    assert out.game_events == [e]


def test_two_cards_on_a_pad_ask_the_players_to_clear_it():
    c, _ = playing_position()
    out = c.on_stack(2, 2)
    assert out.texts == ["Two cards on seat 2's reader: clear the pad and lay one card at a time."]
    assert out.rows == [("effect", {"type": "stack", "reader": 2, "cards": 2, "text": out.texts[0]})]
    assert out.game_events == []
    out = c.on_stack(2, 1)
    assert out.texts == [] and out.rows[0][1]["cards"] == 1
    assert c.on_stack(99, 2).rows == []                            # not a reader of this board


def test_the_players_take_a_card_back_by_the_gesture_table():
    """The virtual table's players read the gesture table backwards: a planned take-back is the
    card laid on the seat's pad, then its button held."""
    from shengji_table.sim.players import next_action
    c, (leader, cards) = a_position_with_a_two_card_lead()
    assert next_action(c, ev.TakeBack(leader, cards[1])) == ("take back", leader, cards[1])
