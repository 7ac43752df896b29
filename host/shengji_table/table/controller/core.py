"""The controller's core: its state, its persistence, the automatic steps, game events in and effects out.

Pure: no I/O, no clock (the play clock is given the time: :meth:`Core.tick`).  The service
(``service.py``) persists everything an :class:`Outcome` lists before it shows a ring or
acknowledges the Pico.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable

from ...game import events as ev
from ...game.disclosure import lead_suit_of, public_reason, public_refusal
from ...game.effects import Announce, Line, Refusal
from ...game.match import Match
from ...game.phase import Phase
from ...rules.cards import parse_copy
from ...rules.ruleset import Ruleset
from ..clock import PlayClock, timed_turn
from ..gestures import decider
from ..registry import DeckSet
from .rings import REFUSED_COLOUR, REFUSED_MS, TURN_COLOUR, R, RingCommand, Rings

__all__ = ["Core", "Outcome", "board_layout"]


@dataclass
class Outcome:
    """What one physical event (or an automatic step) led to, in order.

    ``rows``: ``(kind, payload)`` for the event log (``game``, ``ruling``, ``effect``); ``rings``:
    the ring commands to show *after* the rows are durable; ``texts``: sentences for the screen and
    the voice; ``refusals``: every refusal (the game's and the controller's).
    """
    rows: list = field(default_factory=list)
    rings: list = field(default_factory=list)
    texts: list = field(default_factory=list)
    refusals: list = field(default_factory=list)
    game_events: list = field(default_factory=list)


def board_layout(board: dict) -> tuple:
    """``(seats, centre index, {reader index: seat or 'centre'})`` from a board file dict; reader
    and ring index ``s`` is seat ``s``, the centre is index ``seats`` (firmware/board.py)."""
    seats = board["seats"]
    readers = {}
    for r in board["readers"]:
        readers[seats if r["seat"] == "centre" else r["seat"]] = r["seat"]
    return seats, seats, readers


class Core(Rings):
    """The controller's state and its way to the game (``Controller`` adds the gestures).

    ``deal_for(number)`` gives the ``deal`` event of hand ``number`` (1-based), or None to stop
    dealing (the demo's last hand was played).  ``start`` (``{"levels": [...], "dealer": d}``)
    begins the match elsewhere than R-6.6's first hand: a duplicate board's level and dealer.
    """

    def __init__(self, ruleset: Ruleset, mode: str, board: dict, deck_set: DeckSet,
                 deal_for: Callable[[int], ev.Deal | None] | None = None, start: dict | None = None):
        self.ruleset = ruleset
        self.mode = mode
        self.start_at = start
        self.match = self._new_match()
        self.deck_set = deck_set
        board_seats, self.centre, self.readers = board_layout(board)
        if board_seats < ruleset.players:
            raise ValueError(f"board {board.get('name')!r} has {board_seats} seats; preset "
                             f"{ruleset.preset!r} needs {ruleset.players}")
        # a preset with fewer players than the board has seats leaves the last seats empty
        # (three players at a four-seat table): their readers and buttons are refused
        self.seats = ruleset.players
        self.board_seats = board_seats
        self.ring_sizes = {(board_seats if r["seat"] == "centre" else r["seat"]): r["count"]
                           for r in board.get("leds", {}).get("rings", [])}
        if deck_set.decks != ruleset.decks:
            raise ValueError(f"deck set {deck_set.name!r} has {deck_set.decks} decks; preset "
                             f"{ruleset.preset!r} plays with {ruleset.decks}")
        self.deal_for = deal_for or (lambda number: ev.Deal())
        # physical-entry state that is not (yet) a game event; saved in the log (state_json)
        self.shown: dict = {}           # seat -> [copies shown to declare]
        self.challenge: dict = {}       # seat -> [copies shown to challenge a throw]
        self.revealed: list = []        # open play: kitty cards tapped on the centre reader
        self.rings: dict = {}           # ring index -> RingCommand last commanded
        # a decision being entered by taps and presses (bid, trump, friend call); see _entry()
        self.entry: dict = {}
        self.kitty_drawn: list = []     # three players, scanned: kitty cards the counter-declarer drew
        self.held: set = set()          # seats whose button press became a long press (until released)
        self.took_back: set = set()     # seats whose press was a take-back (its release is no step)
        self.pressed_in: dict = {}      # seat -> (hand number, phase) of its press not yet released
        self.names: tuple = ()          # the players' names (game/names.py), set by serve and the demo
        self.clock = PlayClock(ruleset)

    def _new_match(self) -> Match:
        s = self.start_at or {}
        return Match(self.ruleset, self.mode, levels=s.get("levels"), dealer=s.get("dealer"))

    # ---- persistence ---------------------------------------------------------------------------
    def state_json(self) -> dict:
        """The controller's own state (pending shows, challenges, revealed kitty, rings)."""
        return {"shown": {str(s): [str(c) for c in cs] for s, cs in self.shown.items() if cs},
                "challenge": {str(s): [str(c) for c in cs] for s, cs in self.challenge.items() if cs},
                "revealed": [str(c) for c in self.revealed],
                "entry": dict(self.entry), "kitty_drawn": [str(c) for c in self.kitty_drawn],
                "held": sorted(self.held),
                "rings": {str(i): list(rc.state()) for i, rc in sorted(self.rings.items())}}

    def restore(self, game_events: list, state: dict | None) -> None:
        """Rebuild from the log: replay ``game_events`` (JSON) into a fresh match, then take the
        controller's last saved ``state``.  A game event the match refuses means the log does not
        belong to this ruleset: ``ValueError``."""
        self.match = self._new_match()
        for i, raw in enumerate(game_events):
            e = ev.event_from_json(raw)
            out = self.match.apply(e)
            if out and isinstance(out[0], Refusal):
                raise ValueError(f"logged game event {i} ({e.type}) does not replay: {out[0].reason}")
        state = state or {}
        self.shown = {int(s): [parse_copy(c) for c in cs] for s, cs in state.get("shown", {}).items()}
        self.challenge = {int(s): [parse_copy(c) for c in cs] for s, cs in state.get("challenge", {}).items()}
        self.revealed = [parse_copy(c) for c in state.get("revealed", [])]
        self.entry = dict(state.get("entry", {}))
        self.kitty_drawn = [parse_copy(c) for c in state.get("kitty_drawn", [])]
        self.held = set(state.get("held", []))
        self.rings = {int(i): RingCommand(int(i), *v) for i, v in state.get("rings", {}).items()}

    # ---- automatic steps ------------------------------------------------------------------------
    def start(self) -> Outcome:
        """Deal the next hand when none is in play (and ``deal_for`` gives one)."""
        out = Outcome()
        self._auto(out)
        return out

    def _auto(self, out: Outcome) -> None:
        m = self.match
        for _ in range(3):
            hand = m.hand
            if m.over:
                return
            if hand is None or (hand.phase == Phase.OVER and hand.result is not None):
                deal = self.deal_for(len(m.summaries) + 1)
                if deal is None:
                    return
                self.shown, self.challenge, self.revealed = {}, {}, []
                self.entry, self.kitty_drawn = {}, []
                if not self._game(deal, out):
                    return
                self._set_all(out, R.OFF)
                continue
            # three players: the kitty waits for the counter-declarations (反牌); the dealer's
            # button takes it up
            if hand.phase == Phase.KITTY and hand.dealer is not None and not self.ruleset.bidding:
                if not self._game(ev.TakeKitty(hand.dealer), out):
                    return
                continue
            return

    def apply_event(self, event) -> Outcome:
        """A game event that comes from no gesture (the referee's console): applied as the gestures'
        events are — refused with its reason and no change, or accepted with its effects on the
        rings — then the automatic steps (a hand ended by ruling deals the next)."""
        out = Outcome()
        if self._game(event, out):
            self._auto(out)
        return out

    def refuse(self, out: Outcome, seat: int | None, event: str, rule: str, reason: str,
               ring: int | None = None) -> None:
        """Refuse a physical event for a reason of the service's own (a paused table), as the
        controller refuses its own: logged, the ring shows it, the public hears the reason."""
        self._refuse(out, seat, event, rule, reason, ring=ring)

    def _hand(self):
        """The hand in play: a step of the gesture table that uses it is taken only while there is one."""
        hand = self.match.hand
        assert hand is not None
        return hand

    def tick(self, now: float, held: bool = False) -> Outcome:
        """The play clock at time ``now`` (table/clock.py): a turn whose time ran out gives a
        ``clock`` ruling row and its sentence, once; the referee decides what follows.  ``held``:
        the table is paused, and the clock stands still."""
        out = Outcome()
        expiry = self.clock.tick(self.match.public_view(), now, held)
        if expiry is not None:
            row = expiry.to_json()
            msg = "clock.burial" if expiry.phase == Phase.BURYING else "clock.play"
            row["public"] = self._text(out, Line(expiry.text(), msg, {"seat": expiry.seat, "seconds": expiry.seconds}))
            out.rows.append(("ruling", row))
        return out

    def clock_state(self, now: float) -> dict | None:
        """The play clock as the screens draw it: ``{"seat", "phase", "seconds", "left"}`` (``left``
        in seconds at ``now``, 0 once run out), or None when nobody is on the clock."""
        turn = timed_turn(self.match.public_view(), self.ruleset)
        if turn is None:
            return None
        deadline = self.clock.deadline(self.match.public_view())
        # a turn the clock has not ticked yet starts at the loop's next tick, within milliseconds
        left = turn.seconds if deadline is None else max(0.0, deadline - now)
        return {"seat": turn.seat, "phase": str(turn.phase), "seconds": turn.seconds, "left": round(left, 1)}

    def on_reader(self, reader: int, alive: bool) -> Outcome:
        out = Outcome()
        if not alive:
            where = self.readers.get(reader, reader)
            text = self._text(out, Line(f"Reader {where} stopped answering: check its cable.", "table.reader",
                                        {"reader": where}, "table"))
            out.rows.append(("effect", Announce("table", text).to_json()))
        return out

    # ---- game events and effects ------------------------------------------------------------------
    def _game(self, event, out: Outcome, seat: int | None = None) -> bool:
        effects = self.match.apply(event)
        if effects and isinstance(effects[0], Refusal):
            r = effects[0]
            who = r.seat if r.seat is not None else seat
            self._refuse(out, who, r.event, r.rule, r.reason, payload_event=event.to_json())
            return False
        out.game_events.append(event)
        out.rows.append(("game", event.to_json()))
        for eff in effects:
            out.rows.append(("effect", eff.to_json()))
            self._show(eff, out)
        hand = self.match.hand
        if hand is not None and hand.phase in (Phase.BIDDING, Phase.TRUMP):
            self._ring(out, decider(hand), R.TURN, TURN_COLOUR)     # whose decision it is
        return True

    def _refuse(self, out: Outcome, seat, event: str, rule: str, reason: str, ring: int | None = None,
                payload_event: dict | None = None) -> None:
        r = Refusal(seat, event, rule, reason)
        out.refusals.append(r)
        row = r.to_json()
        if payload_event is not None:
            row["attempted"] = payload_event
        out.rows.append(("ruling", row))
        # the shared screen and the voice hear the public reason only (game/disclosure.py); the
        # ruling row keeps the whole reason for the referee
        where = "Centre" if seat is None and ring == self.centre else None
        lead = lead_suit_of(self.match.hand)
        said = public_refusal(r, lead_suit=lead, where=where)
        msg = "refusal.seat" if r.seat is not None else "refusal.centre" if where == "Centre" else "refusal.table"
        args = {"why": public_reason(r, lead), "rule": r.rule} | ({"seat": r.seat} if r.seat is not None else {})
        text = self._text(out, Line(said, msg, args, "refusal"))
        row["public"] = text
        target = ring if ring is not None else seat
        if target is not None:
            hand = self.match.hand
            pending = len(hand.pending) if hand is not None and seat is not None and seat == hand.turn else 0
            self._ring(out, target, R.REFUSED, REFUSED_COLOUR, pending, REFUSED_MS)
