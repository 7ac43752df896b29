"""The play clock (table/clock.py) with injected times: who is on the clock in which phase, when the
time runs out, once per turn, restarted by the next play or an undo and not by a tap; the
controller's ``clock`` ruling row and its sentence (seats named); the service logs it and shows it.
No automatic penalty: the game is untouched."""
import io
import json

from shengji_table.game import events as ev
from shengji_table.game.match import Match
from shengji_table.game.phase import Phase
from shengji_table.rules.ruleset import Ruleset
from shengji_table.sim.players import deal_for, hand_seeds, play_direct
from shengji_table.sim.virtual_table import DEFAULT_BOARD, sim_deck_set
from shengji_table.store.log import EventLog
from shengji_table.table.clock import Expiry, PlayClock, timed_turn
from shengji_table.table.controller import Controller
from shengji_table.table.service import TableService

TOURNAMENT = Ruleset.from_preset("tournament")
EVENTS = play_direct(TOURNAMENT, "scanned", 7, 1).events
BOARD = json.loads(DEFAULT_BOARD.read_text())


def hand_after(n, ruleset=TOURNAMENT):
    """The hand after the first ``n`` events of the reference match, as everybody sees it."""
    return Match(ruleset, "scanned").apply_all(EVENTS[:n]).public_view()


def first(cls, after=0, where=lambda e: True):
    return next(i for i in range(after, len(EVENTS)) if isinstance(EVENTS[i], cls) and where(EVENTS[i]))


def burying():
    """The number of events that leave the hand in its burial (the kitty just taken)."""
    return first(ev.TakeKitty) + 1


def playing():
    """The number of events that leave the hand at the first lead (the burial confirmed)."""
    return first(ev.Confirm) + 1


def test_the_tournament_preset_sets_its_clock_and_the_r10_points():
    rs = TOURNAMENT
    assert (rs.play_clock, rs.bury_clock) == (15, 60)
    assert (rs.throw_penalty, rs.throw_penalty_points, rs.referee_undo) == ("per-card", 10, True)
    assert (rs.players, rs.decks, rs.kitty_size) == (4, 2, 8)


def test_nobody_is_on_the_clock_when_it_is_off_or_nothing_is_timed():
    assert timed_turn(hand_after(playing(), Ruleset.from_preset("classic")), Ruleset.from_preset("classic")) is None
    assert timed_turn(None, TOURNAMENT) is None
    drawing = hand_after(5)
    assert drawing.phase == Phase.DRAWING and timed_turn(drawing, TOURNAMENT) is None
    only_bury = Ruleset.from_preset("classic", bury_clock=30)
    assert timed_turn(hand_after(playing(), only_bury), only_bury) is None
    assert timed_turn(hand_after(burying(), only_bury), only_bury).seconds == 30


def test_the_burial_is_timed_for_the_dealer_with_bury_clock():
    hand = hand_after(burying())
    assert hand.phase == Phase.BURYING
    clock = PlayClock(TOURNAMENT)
    assert clock.tick(hand, 1000.0) is None
    assert clock.deadline(hand) == 1060.0
    assert clock.tick(hand, 1059.9) is None
    expiry = clock.tick(hand, 1060.0)
    assert expiry == Expiry(hand.number, hand.dealer, "burying", 60)
    assert expiry.to_json() == {"type": "clock", "hand": 1, "seat": hand.dealer, "phase": "burying", "seconds": 60}
    assert "burial clock (60 s) has run out" in expiry.text()


def test_a_play_expires_once_and_the_next_play_restarts_the_time():
    n = playing()
    hand = hand_after(n)
    leader = hand.turn
    clock = PlayClock(TOURNAMENT)
    clock.tick(hand, 0.0)
    assert clock.tick(hand, 14.99) is None
    assert clock.tick(hand, 15.0) == Expiry(1, leader, "playing", 15)
    assert clock.tick(hand, 100.0) is None                  # once per turn
    # a tap of a card not yet committed is no play: the time goes on
    tap = first(ev.Tap, n)
    hand = hand_after(tap + 1)
    assert hand.entering and hand.turn == leader
    assert clock.tick(hand, 200.0) is None
    # the lead commits: the next seat's time starts at its first tick
    done = first(ev.Confirm, n) + 1
    hand = hand_after(done)
    assert hand.turn != leader
    assert clock.tick(hand, 300.0) is None and clock.deadline(hand) == 315.0
    assert clock.tick(hand, 315.0) == Expiry(1, hand.turn, "playing", 15)


def test_a_referee_undo_gives_the_seat_its_time_again():
    n = first(ev.Confirm, playing()) + 1                   # the first lead committed
    match = Match(TOURNAMENT, "scanned").apply_all(EVENTS[:n])
    clock = PlayClock(TOURNAMENT)
    clock.tick(match.public_view(), 0.0)
    assert clock.tick(match.public_view(), 15.0) is not None
    match.apply(ev.RefereeUndo("the leader's card slipped"))
    assert clock.tick(match.public_view(), 20.0) is None             # a new turn: the leader's again
    assert clock.tick(match.public_view(), 35.0) == Expiry(1, match.public_view().turn, "playing", 15)


def controller(names=()):
    c = Controller(TOURNAMENT, "scanned", BOARD, sim_deck_set(2), deal_for("scanned", hand_seeds(7, 1)))
    c.restore([e.to_json() for e in EVENTS[:playing()]], None)
    c.names = names
    return c


def test_the_controller_gives_a_clock_ruling_row_and_a_named_sentence_and_no_penalty():
    c = controller(("Li", "Wang", "Zhao", "Chen"))
    seat = c.match.hand.turn
    before = c.match.hand.snapshot()
    assert c.tick(50.0).rows == []
    out = c.tick(65.0)
    name = ("Li", "Wang", "Zhao", "Chen")[seat]
    text = f"Seat {seat} ({name}): the play clock (15 s) has run out — the referee decides."
    assert out.texts == [text]
    assert out.rows == [("ruling", {"type": "clock", "hand": 1, "seat": seat, "phase": "playing", "seconds": 15,
                                    "public": text})]
    assert out.rings == [] and out.game_events == [] and c.match.hand.snapshot() == before
    assert c.tick(80.0).rows == []


def test_the_service_logs_the_clock_ruling_and_shows_it(tmp_path):
    said = []
    log = EventLog(tmp_path / "t.db")
    svc = TableService(None, controller(), log, on_text=said.append)    # no rings: the link is not used
    svc.tick(10.0)
    svc.tick(25.0)
    rulings = [e.payload for e in log.entries(kind="ruling")]
    assert [r["type"] for r in rulings] == ["clock"] and rulings[0]["seconds"] == 15
    assert said == [rulings[0]["public"]] and "the referee decides" in said[0]
    log.close()


def test_the_controllers_texts_name_the_seats_and_the_rows_keep_the_numbers():
    """Player names (game/names.py) in every sentence the table shows; the game's rows stay plain."""
    from shengji_table.sim.virtual_table import sim_pages, sim_uid
    names = ("Li", "Wang", "Zhao", "Chen")
    c = controller(names)
    hand = c.match.hand
    seat = (hand.turn + 2) % 4
    out = c.on_tap(seat, sim_uid(hand.hand_copies(seat)[0]), sim_pages(hand.hand_copies(seat)[0]))
    want = f"Seat {seat} ({names[seat]}): refused"
    assert out.texts[0].startswith(want) and f"seat {hand.turn} ({names[hand.turn]})" in out.texts[0]
    ruling = next(p for k, p in out.rows if k == "ruling")
    assert ruling["public"] == out.texts[0] and "(" + names[seat] + ")" not in ruling["reason"]
    # the first trick: its announcement is named, the effect rows are the game's own
    texts, rows = [], []
    for e in EVENTS[playing():]:
        if c.match.hand.tricks:
            break
        out = c.on_tap(e.seat, sim_uid(e.copy), sim_pages(e.copy)) if isinstance(e, ev.Tap) else c.on_button(e.seat, 1)
        texts += out.texts
        rows += out.rows
    winner = c.match.hand.tricks[0][1]
    assert any(f"seat {winner} ({names[winner]})" in t for t in texts), texts
    assert not any(n in json.dumps(p, ensure_ascii=False) for k, p in rows if k in ("game", "effect") for n in names)


def test_the_screens_count_the_clock_down_and_show_when_it_has_run_out():
    """The clock as the screens draw it: the seat on turn, its full time before the first tick,
    then the time left; ``/api/table``'s ``clock`` and the terminal's line say the same."""
    from shengji_table.face.terminal import TableView
    from shengji_table.face.web.state import public_state

    c = controller()
    seat = c.match.hand.turn
    assert c.clock_state(0.0) == {"seat": seat, "phase": "playing", "seconds": 15, "left": 15}
    c.tick(100.0)
    assert c.clock_state(104.2)["left"] == 10.8
    assert public_state(c, now=104.2)["clock"] == {"seat": seat, "phase": "playing", "seconds": 15, "left": 10.8}
    view = TableView(c, out=io.StringIO(), plain=True)
    assert f"clock: seat {seat} 11 s" in view.render(104.2)
    assert f"clock: seat {seat} time is up" in view.render(130.0)
    assert public_state(c, now=130.0)["clock"]["left"] == 0
    zh = TableView(c, out=io.StringIO(), plain=True, lang="zh")
    assert f"限时: {seat}号位 11 s" in zh.render(104.2)


def test_no_clock_on_the_screens_when_the_preset_has_none():
    from shengji_table.face.web.state import public_state

    classic = Ruleset.from_preset("classic")
    c = Controller(classic, "scanned", BOARD, sim_deck_set(2), deal_for("scanned", hand_seeds(7, 1)))
    c.restore([e.to_json() for e in play_direct(classic, "scanned", 7, 1).events[:20]], None)
    assert c.clock_state(5.0) is None and public_state(c)["clock"] is None


def test_the_clock_stands_still_while_the_referee_pauses_the_table(tmp_path):
    """A pause of 100 s in the middle of a 15 s turn: no expiry during it; after the resume the
    turn has the 10 s it had left (R-10: the referee's pause stops the play clock)."""
    log = EventLog(tmp_path / "t.db")
    svc = TableService(None, controller(), log)
    svc.tick(0.0)                                  # the leader's turn starts
    svc.tick(5.0)
    svc.pause("a card on the floor")
    for t in (10.0, 20.0, 60.0, 105.0):
        svc.tick(t)
    assert [e.payload for e in log.entries(kind="ruling")] == []
    assert svc.controller.clock_state(105.0)["left"] == 10.0
    svc.resume()
    svc.tick(110.0)
    assert [e.payload for e in log.entries(kind="ruling")] == []
    svc.tick(115.0)
    assert [e.payload["type"] for e in log.entries(kind="ruling")] == ["clock"]
    log.close()
