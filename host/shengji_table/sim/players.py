"""Bots at the virtual table: they play by putting cards on the simulated readers and pressing the
simulated buttons (SIM frames through the link), and the reference runs the same match directly in
the game layer.

The plan of a hand is what the game layer's own driver (``game/driver.py``) does with the same bots
and the same seed: :func:`plan_hand` runs it on a scratch copy of the match.  :class:`TablePlayers`
then *performs* that plan at the table, one physical action at a time — the next planned game event
is the first one the real match (rebuilt by the host from the table's taps) does not have yet.

How to perform it is the gesture table (``table/gestures.py``) read backwards (:func:`next_action`):
the rows that make that event kind in the hand's phase, taps that enter it before the presses that
send it, and the first whose part is still to do — e.g. for a ``declare`` each card shown on the
seat's reader, then the seat's button; for a ``bid`` presses until the seat's ring shows it, then a
long press (a pass: a tap of a card of the seat's hand).  Per step, the players know only which
seat and which card do it (``_HOW``): a card of the suit for the trump, of the face for a friend
call (one the dealer holds, else the first deck's copy), the kitty cards a counter-declarer drew
(scanned: the driver reports the draw as its cards, :class:`ScanningDriver`).  ``deal`` and, but
for three players, ``take_kitty`` are the host's own.

Because the next action is always derived from the host's state, a restarted host, a rebooted Pico
or a pulled cable lose nothing: the players wait until the link has heard the table out
(:meth:`SerialLink.caught_up` on a snapshot taken after every card was lifted), then carry on.
A table that ever disagrees with the plan (a tap lost or counted twice) raises :class:`PlanMismatch`.

Open play has no scanned hands: the game layer's driver keeps the physical hands apart (as a real
table does: in the players' hands) and feeds the open match only what an open table reports.
"""
from __future__ import annotations

import random
import time

from ..game import events as ev
from ..game.bots import make_bot
from ..game.driver import Driver
from ..game.hand import COUNTER_SWAP
from ..game.match import Match
from ..game.phase import SCANNED, Phase
from ..rules.cards import JOKER, CardCopy, parse_card
from ..table import protocol as P
from ..table.gestures import Gesture, Step, performing, phase_of
from ..table.session import Button, LinkTakeBack, LinkTap, Lost, Rebooted
from ..table.serial_link import Disconnected, Reconnected
from .virtual_table import SIM_DECK_SET_ID, sim_pages, sim_uid

__all__ = ["hand_seeds", "make_bots", "ScanningDriver", "play_direct", "plan_hand", "deal_for",
           "TablePlayers", "PlanMismatch", "next_action"]

LIFT_SETTLE_S = 0.03        # a lifted card must be missed on 2 polls of its reader (debounce)
RELEASE_SETTLE_S = 0.03     # a button must stay up 20 ms before the next press counts
ACTION_TIMEOUT_S = 0.75
LONG_PRESS_S = 0.8          # firmware/scan.py: a button held 800 ms is a long press


class PlanMismatch(AssertionError):
    """The match the host rebuilt from the table differs from the planned one."""


def hand_seeds(seed: int, hands: int) -> list:
    """The deal seed of each hand, as ``shengji-table play`` draws them."""
    rng = random.Random(seed)
    return [rng.randrange(2 ** 31) for _ in range(hands)]


def make_bots(kind: str, seed: int, players: int) -> list:
    kinds = kind.split(",")
    if len(kinds) == 1:
        kinds = kinds * players
    return [make_bot(k, seed * 100 + i) for i, k in enumerate(kinds)]


def deal_for(mode: str, seeds: list):
    """The controller's ``deal_for``: scanned hands deal the seeded stack (the host may know it,
    as the driver does); open play deals an unknown stack."""
    def deal(number: int):
        if number > len(seeds):
            return None
        return ev.Deal(seed=seeds[number - 1]) if mode == SCANNED else ev.Deal()
    return deal


class ScanningDriver(Driver):
    """The game layer's driver as a scanning table plays it: a counter-declarer's random draw from
    the kitty (three players) is reported as the cards drawn (``counter_draw`` with ``copies``,
    each tapped on the centre reader), not as the seed that picked them — the same cards, since the
    engine picks ``random.Random(seed).sample(kitty, k)`` from the same kitty."""

    def send(self, event):
        if isinstance(event, ev.CounterDraw) and event.seed is not None:
            hand = self._hand()
            k = min(COUNTER_SWAP, len(hand.kitty))
            event = ev.CounterDraw(event.seat, copies=tuple(random.Random(event.seed).sample(hand.kitty, k)))
        return super().send(event)


def _driver(match: Match, bots, on_event=None):
    if match.mode == SCANNED:
        return ScanningDriver(match, bots, on_event)
    # open play: the game layer's driver keeps the hands apart.  Dealt a kitty (no bidding), the
    # dealer lays the burial down unscanned (only the button; the engine learns it at the reveal);
    # three players enter it card by card, which an open table accepts as taps too.
    return Driver(match, bots, on_event, scan_burial=match.ruleset.bidding)


def play_direct(ruleset, mode: str, seed: int, hands: int, bots: str = "heuristic") -> Match:
    """The reference: the same match played directly in the game layer (no table)."""
    match = Match(ruleset, mode)
    d = _driver(match, make_bots(bots, seed, ruleset.players))
    for s in hand_seeds(seed, hands):
        if match.over:
            break
        d.play_hand(s)
    return match


def plan_hand(ruleset, mode: str, before: list, seed: int, bots, *, start: dict | None = None,
              order: tuple | None = None) -> list:
    """The game events of the next hand as the game layer's driver plays it, after the accepted
    events ``before`` (the match so far).  ``start``: the match began at a duplicate board's levels
    and dealer (``Match.start``); ``order``: the hand is dealt from that stack (the board's)."""
    s = start or {}
    scratch = Match(ruleset, mode, levels=s.get("levels"), dealer=s.get("dealer")).apply_all(before)
    planned: list = []
    _driver(scratch, bots, lambda e, effects: planned.append(e)).play_hand(seed, order=order)
    return planned


# ---- the gesture table read backwards -----------------------------------------------------------
# For each step of table/gestures.py that performs a game event: the seat (None: the centre) and the
# card (None: the button) that do it for the planned event ``e`` — or None when that part is done
# (or is not how ``e`` is made), so the next row of ``performing`` is tried.

def _shows(shown: list, e, what: str):
    if shown != list(e.cards[:len(shown)]):
        raise PlanMismatch(f"seat {e.seat} shows {[str(x) for x in shown]}; the plan {what} "
                           f"{[str(x) for x in e.cards]}")
    return (e.seat, e.cards[len(shown)]) if len(shown) < len(e.cards) else None


def _kitty_draw(c, hand, e):
    if e.copies is None:                      # open play: the draw is not scanned
        return None
    for card in e.copies:
        if card not in c.kitty_drawn:
            return (None, card)
    raise PlanMismatch(f"every card of {e.to_json()} is tapped and no counter_draw came")


def _pass(c, hand, e):
    if e.points is not None:
        return None
    copies = hand.hand_copies(e.seat)          # a tap passes: any card will do
    return (e.seat, copies[0] if copies else CardCopy(parse_card("SA"), 1))


def _suit(c, hand, e):
    if c.entry_state().get("suit") == ("NT" if e.suit is None else e.suit):
        return None
    face = parse_card("BJ") if e.suit is None else parse_card(e.suit + "A")
    held = [x for x in hand.hand_copies(e.seat)
            if (x.card.suit == JOKER if e.suit is None else x.card.suit == e.suit)]
    return (e.seat, held[0] if held else CardCopy(face, 1))


def _call(e, entry: dict) -> tuple:
    return e.calls[len(entry.get("calls", []))]


def _face(c, hand, e):
    face, _ = _call(e, c.entry_state())
    if c.entry_state().get("face") == str(face):
        return None
    held = [x for x in hand.hand_copies(e.seat) if x.card is face]
    # a physical card of the face: one the seat holds when it has one (a scanned hand), otherwise
    # the first deck's copy (whoever holds it lends it)
    return (e.seat, held[0] if held else CardCopy(face, 1))


def _copy(c, hand, e):
    entry = c.entry_state()
    return None if entry.get("nth") == _call(e, entry)[1] else (e.seat, None)


def _button(c, hand, e):
    return (e.seat, None)                     # the event's seat presses


_HOW = {
    Step.DRAW: lambda c, hand, e: (e.seat, e.copy),
    Step.TAP: lambda c, hand, e: (e.seat, e.copy),
    Step.BURY: lambda c, hand, e: (None, e.copy),      # a card buried on the centre reader
    Step.SHOW: lambda c, hand, e: _shows(c.shown.get(e.seat, []), e, "declares"),
    Step.SHOW_CHALLENGE: lambda c, hand, e: _shows(c.challenge.get(e.seat, []), e, "challenges with"),
    # the seat on turn first holds its button down (its taps are challenge cards only while held)
    Step.HOLD_CHALLENGE: lambda c, hand, e: (e.seat, None) if e.seat == hand.turn and e.seat not in c.held
    and not c.challenge.get(e.seat) else None,
    Step.DECLARE: _button,
    Step.CHALLENGE: _button,
    Step.CLOSE: lambda c, hand, e: (next(s for s in range(c.seats) if not c.shown.get(s)), None),
    Step.CONFIRM: _button,
    Step.REVEAL: lambda c, hand, e: next(((None, x) for x in e.cards if x not in c.revealed), None),
    Step.REVEAL_KITTY: lambda c, hand, e: (hand.dealer, None),
    Step.TAKE_KITTY: _button,                 # three players: the dealer's button ends 反牌
    Step.KITTY_DRAW: _kitty_draw,
    Step.COUNTER_DRAW: lambda c, hand, e: (e.seat, None) if e.copies is None else None,
    Step.PASS: _pass,
    Step.NEXT_BID: lambda c, hand, e: None if c.entry_state().get("bid") == e.points else (e.seat, None),
    Step.BID: _button,
    Step.CHOOSE_SUIT: _suit,
    Step.TRUMP_STEP: lambda c, hand, e: None,
    Step.NAME_TRUMP: _button,
    Step.CHOOSE_FACE: _face,
    Step.NEXT_COPY: _copy,
    Step.CALL: _button,
    Step.TAKE_BACK: lambda c, hand, e: (e.seat, e.copy),   # the card on the seat's pad, its button held
}
_REFEREE = frozenset(cls.type for cls in ev.REFEREE_ACTS)
_ACTION = {Gesture.SEAT_TAP: "tap", Gesture.CENTRE_TAP: "tap", Gesture.PRESS: "press",
           Gesture.RELEASE: "press", Gesture.LONG_PRESS: "long", Gesture.TAKE_BACK: "take back"}


def next_action(c, e):
    """The next physical action that performs the planned game event ``e`` at controller ``c``'s
    table: ``("tap", reader, copy)``, ``("press", seat)`` (a short press), ``("long", seat)``,
    ``("take back", seat, copy)`` (the card laid on the seat's pad, then its button held), or
    ``("hold", seat)`` … ``("release", seat)``: a button held down across the taps between.

    The gesture table read backwards: of the rows that perform ``e`` in the hand's phase
    (:func:`~shengji_table.table.gestures.performing`: taps that enter it before the presses that
    send it), the first whose part is still to do."""
    hand = c.match.hand
    rows = sorted(performing(phase_of(hand), e.type), key=lambda r: r.step is not Step.HOLD_CHALLENGE)
    for row in rows:
        how = _HOW.get(row.step)
        at = how(c, hand, e) if how is not None else None
        if at is None:
            continue
        seat, copy = at
        kind = _ACTION[row.gesture]
        if kind == "tap":
            # a tap is taken as the table's row says, or not at all (a press's row depends on the
            # state at its release, so it is not checked ahead)
            if c.gesture_row(row.gesture, seat, copy) != row:
                raise PlanMismatch(f"the plan's next event {e.to_json()} is not made at the table: "
                                   f"a {row.gesture} of {copy} there is not a {row.step}")
            return ("tap", c.centre if seat is None else seat, copy)
        if kind == "take back":
            return ("take back", seat, copy)
        if row.step is Step.HOLD_CHALLENGE:
            return ("hold", seat)            # pressed and held: released by the challenge's "release"
        if row.gesture is Gesture.RELEASE and seat in c.held:
            return ("release", seat)
        return (kind, seat)
    raise PlanMismatch(f"the plan's next event {e.to_json()} is not made at the table")


class TablePlayers:
    """Bots playing at the virtual table through a running :class:`TableService` (see the module
    docstring).  Hook it in: ``service.on_outcome = players.on_outcome`` and call :meth:`step` every
    loop iteration (``service.run(idle=players.step)``)."""

    def __init__(self, service, seeds: list, bots: str = "heuristic", seed: int = 7,
                 deck_set_id: int = SIM_DECK_SET_ID, clock=time.monotonic, slow: float = 1.0,
                 order: tuple | None = None):
        self.service = service
        self.order = order              # a duplicate board's stack: the cards as the players stacked them
        self.link = service.link
        self.controller = service.controller
        self.seeds = seeds
        self.bots = make_bots(bots, seed, self.controller.ruleset.players)
        self.deck_set_id = deck_set_id
        self.clock = clock
        # a real Pico's sim build scans more slowly than the unix port: stretch every wait
        self.lift_settle = LIFT_SETTLE_S * slow
        self.release_settle = RELEASE_SETTLE_S * slow
        self.action_timeout = ACTION_TIMEOUT_S * slow
        self.slow = slow
        self._plan: list | None = None
        self._plan_hand = 0
        self._plan_start = 0
        self.synced = False
        self._sync_started = 0.0
        self._sync_asked = 0.0
        self.awaiting: tuple | None = None    # ("tap", reader, uid) | ("press", seat)
        self._since = 0.0
        self.lifted_at: dict = {}
        self.on_reader: dict = {}               # reader -> uid placed and not yet lifted
        self.down: set = set()                  # buttons pressed, release not yet seen
        self.keep: set = set()                  # readers whose card stays for a take-back
        self.released_at: dict = {}
        self.releasing: dict = {}               # seat -> when its release was last sent (PRESS seen)
        self.actions = 0
        self.resyncs = 0

    # ---- from the service --------------------------------------------------------------------
    def on_outcome(self, e, outcome) -> None:
        if isinstance(e, LinkTap):
            # the card was read: pick it up again (it goes to the hand / onto the table), unless
            # it stays on the pad for a take-back
            if e.reader not in self.keep:
                self._lift(e.reader)
            if self.awaiting and self.awaiting[0] == "tap" and self.awaiting[1] == e.reader:
                self.awaiting = None
        elif isinstance(e, LinkTakeBack):
            # taken back: let go of the button, pick the card up
            self.link.session.sim_button(e.reader, False)
            self.releasing[e.reader] = self.clock()
            self.keep.discard(e.reader)
            self._lift(e.reader)
            if self.awaiting == ("take back", e.reader):
                self.awaiting = None
        elif isinstance(e, Button):
            if e.kind == P.PRESS and self.awaiting in (("long", e.seat), ("hold", e.seat)):
                pass                                  # keep holding: a long press
            elif e.kind == P.LONG_PRESS and self.awaiting == ("hold", e.seat):
                self.awaiting = None                  # held down: the taps come next, then "release"
            elif e.kind in (P.PRESS, P.LONG_PRESS):
                self.link.session.sim_button(e.seat, False)
                self.releasing[e.seat] = self.clock()
                if self.awaiting in (("press", e.seat), ("long", e.seat)):
                    self.awaiting = None
            elif e.kind == P.RELEASE:
                if self.awaiting == ("release", e.seat):
                    self.awaiting = None
                self.down.discard(e.seat)
                self.releasing.pop(e.seat, None)
                self.released_at[e.seat] = self.clock()
        elif isinstance(e, (Rebooted, Lost, Disconnected, Reconnected)):
            self.synced = False

    def _lift(self, reader: int) -> None:
        self.link.session.sim_lift(reader)
        self.on_reader.pop(reader, None)
        self.lifted_at[reader] = self.clock()

    # ---- the players' loop ---------------------------------------------------------------------
    @property
    def done(self) -> bool:
        m = self.controller.match
        if m.over:
            return True
        hand = m.hand
        return (hand is not None and hand.phase == Phase.OVER and hand.result is not None
                and len(m.summaries) >= len(self.seeds))

    def step(self) -> None:
        now = self.clock()
        if not self.link.is_open:
            self.synced = False
            return
        if not self.synced:
            self._resync(now)
            return
        if getattr(self.service, "paused", None) is not None:
            return                           # the referee paused the table: hands off
        for seat, sent in list(self.releasing.items()):
            # a release lost on the line would hold the button down for ever: send it again
            if now - sent > 0.3:
                self.link.session.sim_button(seat, False)
                self.releasing[seat] = now
        if self.awaiting is not None:
            long = self.awaiting[0] in ("long", "hold", "take back")
            limit = self.action_timeout + (LONG_PRESS_S * self.slow if long else 0.0)
            if now - self._since > limit:
                self.synced = False          # the action went missing (line trouble): start over
            return
        if self.done:
            return
        action = self._next_action()
        if action is not None:
            self._perform(action, now)

    def _resync(self, now: float) -> None:
        """Lift every card and release every button, then wait for a snapshot taken after that
        which says every event the Pico sent has been delivered."""
        if self._sync_started == 0.0:
            self.resyncs += 1
            self._sync_started = now
            s = self.link.session
            for reader in self.controller.readers:
                s.sim_lift(reader)
            for seat in range(self.controller.seats):
                s.sim_button(seat, False)
            self.on_reader.clear()
            self.keep.clear()
            self.awaiting = None
            self.link.request_snapshot()
            self._sync_asked = now
            return
        if self.link.snapshot_at > self._sync_started + 0.1 and self.link.caught_up() \
                and now - self._sync_started > 0.15:
            self.synced = True
            self._sync_started = 0.0
            self.down.clear()
            self.releasing.clear()
            for r in self.controller.readers:
                self.lifted_at[r] = now
            return
        if now - self._sync_asked > 0.25:
            self.link.request_snapshot()
            self._sync_asked = now

    def _plan_for(self, match: Match) -> list:
        hand = match.hand
        assert hand is not None
        number = hand.number
        if self._plan is None or self._plan_hand != number:
            start = max(i for i, e in enumerate(match.events) if isinstance(e, ev.Deal))
            self._plan = plan_hand(match.ruleset, match.mode, match.events[:start], self.seeds[number - 1],
                                   self.bots, start=match.start, order=self.order)
            self._plan_hand = number
            self._plan_start = start
        return self._plan

    def _next_action(self):
        m = self.controller.match
        if m.hand is None:
            return None
        plan = self._plan_for(m)
        # the events the hand stands on, less the referee's: a penalty changes no play, and after
        # an undo the hand no longer stands on the undone play, so the bot on turn plays it again
        done = [e for e in m.hand.standing_events() if e.type not in _REFEREE]
        if [e.to_json() for e in done] != [e.to_json() for e in plan[:len(done)]]:
            differs_at = (next(i for i, (a, b) in enumerate(zip(done, plan)) if a != b) if len(done) <= len(plan)
                          else len(plan))
            raise PlanMismatch(f"hand {m.hand.number}: the table's events differ from the plan at {differs_at}")
        if len(done) >= len(plan):
            return None
        return next_action(self.controller, plan[len(done)])

    def _perform(self, action, now: float) -> None:
        s = self.link.session
        kind = action[0]
        if kind == "tap":
            reader, copy = action[1], action[2]
            if now - self.lifted_at.get(reader, 0.0) < self.lift_settle:
                return
            uid = sim_uid(copy, self.deck_set_id)
            s.sim_place(reader, uid, sim_pages(copy, self.deck_set_id))
            self.on_reader[reader] = uid
            self.awaiting = ("tap", reader, uid)
        elif kind == "take back":
            self._take_back(action[1], action[2], now)
            return
        elif kind == "release":
            seat = action[1]
            s.sim_button(seat, False)
            self.releasing[seat] = now
            self.awaiting = ("release", seat)
        else:
            seat = action[1]
            if seat in self.down or now - self.released_at.get(seat, 0.0) < self.release_settle:
                return
            if now - self.lifted_at.get(seat, 0.0) < self.lift_settle:
                return      # a press begun while the firmware still sees a card there waits for its release
            s.sim_button(seat, True)
            self.down.add(seat)
            # a long press is held until the table reports it (the firmware's 800 ms)
            self.awaiting = (kind if kind in ("long", "hold") else "press", seat)
        self._since = now
        self.actions += 1

    def _take_back(self, seat: int, copy, now: float) -> None:
        """Lay ``copy`` on the seat's pad (its TAP changes nothing: the card is entered), then hold
        the seat's button until the firmware reports the take-back."""
        s = self.link.session
        uid = sim_uid(copy, self.deck_set_id)
        if self.on_reader.get(seat) != uid:
            if now - self.lifted_at.get(seat, 0.0) < self.lift_settle:
                return
            s.sim_place(seat, uid, sim_pages(copy, self.deck_set_id))
            self.on_reader[seat] = uid
            self.keep.add(seat)
            self.awaiting = ("tap", seat, uid)
        else:
            if seat in self.down or now - self.released_at.get(seat, 0.0) < self.release_settle:
                return
            s.sim_button(seat, True)
            self.down.add(seat)
            self.awaiting = ("take back", seat)
        self._since = now
        self.actions += 1
