"""The controller: reader and button events in, game events out; game effects in, ring states out.

Pure: no I/O, no clock.  The service (``service.py``) persists everything an :class:`Outcome`
lists before it shows a ring or acknowledges the Pico.

How the table is used (both modes; ``docs/table.md`` says it for players):

==========================  =====================================================================
at the table                becomes
==========================  =====================================================================
tap at a seat's reader      identified through the deck set (unknown tag / foreign deck: refused)
  drawing, scanned          a card not yet drawn: ``draw``; a level card or joker already in the
                            seat's hand: *shown* (pending, one pixel each; tap again to withdraw)
  drawing, open             every tap shows a card (draws are not scanned)
  burying                   ``tap`` (the game buries it; again: takes it back)
  playing                   ``tap`` (card entry: a follower's play commits at the lead's count;
                            a pending card tapped again is taken back); open play, while a throw
                            is open to challenge: a tap by an opponent who is not on turn is a
                            challenge card (pending)
tap at the centre reader    burying: ``bury`` for the dealer; open play after the last trick: a
                            kitty card revealed (pending)
seat button (press)         shown cards pending: ``declare``; challenge cards pending:
                            ``challenge``; drawing, nothing pending: ``close_declarations``;
                            burying/playing: ``confirm``; open play, kitty revealed: ``reveal_kitty``
seat button (long press)    withdraw this seat's shown / challenge cards
==========================  =====================================================================

Automatic game events: the next hand's ``deal`` when the previous hand is settled (``deal_for``
gives it: a seed on the virtual table, an unknown stack at a real one) and ``take_kitty`` when the
draw closes (the dealer picks the kitty up).  Every refusal — the game's and the controller's own
(``table.unknown-tag``, ``table.foreign-deck``, ``table.reader``, ``table.mode``) — turns that
seat's ring to REFUSED and is returned with its reason; the game state does not change.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ..game import events as ev
from ..game.effects import Announce, Refusal, Ring
from ..game.match import Match
from ..rules.cards import JOKER, CardCopy, parse_copy
from ..rules.ruleset import Ruleset
from . import protocol as P
from .card_code import CardCodeError, decode_card_code
from .registry import DeckSet, ForeignDeck, RegistryError, UnknownTag



def _firmware_rings():
    """The firmware's ring vocabulary (``firmware/rings.py``): the pattern ids are the firmware's
    own, read from its file so the two can never disagree."""
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).resolve().parents[3] / "firmware" / "rings.py"
    spec = importlib.util.spec_from_file_location("shengji_firmware_rings", path)
    assert spec is not None and spec.loader is not None, f"firmware ring vocabulary missing: {path}"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


R = _firmware_rings()

__all__ = ["Controller", "Outcome", "RingCommand", "SUIT_COLOURS", "board_layout"]

# ring colours (r, g, b)
TURN_COLOUR = (200, 200, 200)
PENDING_COLOUR = (0, 90, 255)
ACCEPTED_COLOUR = (0, 200, 40)
REFUSED_COLOUR = (255, 0, 0)
WON_COLOUR = (255, 170, 0)
POINTS_COLOUR = (255, 60, 0)
LEVEL_COLOUR = (160, 0, 255)
SUIT_COLOURS = {"S": (60, 60, 255), "H": (255, 0, 50), "C": (0, 200, 90), "D": (255, 110, 0), None: (220, 0, 255)}
REFUSED_MS = 1500


@dataclass(frozen=True)
class RingCommand:
    """One ring's whole state as the wire carries it (pattern ids of firmware/rings.py)."""
    ring: int
    pattern: int
    r: int = 0
    g: int = 0
    b: int = 0
    count: int = 0
    arg: int = 0

    def state(self) -> tuple:
        return (self.pattern, self.r, self.g, self.b, self.count, self.arg)

    def to_json(self) -> dict:
        return {"ring": self.ring, "pattern": R.NAMES[self.pattern] if self.pattern < len(R.NAMES) else self.pattern,
                "rgb": [self.r, self.g, self.b], "count": self.count, "arg": self.arg}


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


class Controller:
    """Turns one table's physical events into game events (see the module docstring).

    ``deal_for(number)`` gives the ``deal`` event of hand ``number`` (1-based), or None to stop
    dealing (the demo's last hand was played).
    """

    def __init__(self, ruleset: Ruleset, mode: str, board: dict, deck_set: DeckSet,
                 deal_for: Optional[Callable[[int], Optional[ev.Deal]]] = None):
        self.ruleset = ruleset
        self.mode = mode
        self.match = Match(ruleset, mode)
        self.deck_set = deck_set
        self.seats, self.centre, self.readers = board_layout(board)
        if self.seats != ruleset.players:
            raise ValueError(f"board {board.get('name')!r} has {self.seats} seats; preset "
                             f"{ruleset.preset!r} needs {ruleset.players}")
        if deck_set.decks != ruleset.decks:
            raise ValueError(f"deck set {deck_set.name!r} has {deck_set.decks} decks; preset "
                             f"{ruleset.preset!r} plays with {ruleset.decks}")
        self.deal_for = deal_for or (lambda number: ev.Deal())
        # physical-entry state that is not (yet) a game event; saved in the log (state_json)
        self.shown: dict = {}           # seat -> [copies shown to declare]
        self.challenge: dict = {}       # seat -> [copies shown to challenge a throw]
        self.revealed: list = []        # open play: kitty cards tapped on the centre reader
        self.rings: dict = {}           # ring index -> RingCommand last commanded

    # ---- persistence ---------------------------------------------------------------------------
    def state_json(self) -> dict:
        """The controller's own state (pending shows, challenges, revealed kitty, rings)."""
        return {"shown": {str(s): [str(c) for c in cs] for s, cs in self.shown.items() if cs},
                "challenge": {str(s): [str(c) for c in cs] for s, cs in self.challenge.items() if cs},
                "revealed": [str(c) for c in self.revealed],
                "rings": {str(i): list(rc.state()) for i, rc in sorted(self.rings.items())}}

    def restore(self, game_events: list, state: Optional[dict]) -> None:
        """Rebuild from the log: replay ``game_events`` (JSON) into a fresh match, then take the
        controller's last saved ``state``.  A game event the match refuses means the log does not
        belong to this ruleset: ``ValueError``."""
        self.match = Match(self.ruleset, self.mode)
        for i, raw in enumerate(game_events):
            e = ev.event_from_json(raw)
            out = self.match.apply(e)
            if out and isinstance(out[0], Refusal):
                raise ValueError(f"logged game event {i} ({e.type}) does not replay: {out[0].reason}")
        state = state or {}
        self.shown = {int(s): [parse_copy(c) for c in cs] for s, cs in state.get("shown", {}).items()}
        self.challenge = {int(s): [parse_copy(c) for c in cs] for s, cs in state.get("challenge", {}).items()}
        self.revealed = [parse_copy(c) for c in state.get("revealed", [])]
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
            if hand is None or (hand.phase == "over" and hand.result is not None):
                deal = self.deal_for(len(m.summaries) + 1)
                if deal is None:
                    return
                self.shown, self.challenge, self.revealed = {}, {}, []
                if not self._game(deal, out):
                    return
                self._set_all(out, R.OFF)
                continue
            if hand.phase == "kitty" and hand.dealer is not None:
                if not self._game(ev.TakeKitty(hand.dealer), out):
                    return
                continue
            return

    # ---- physical events -------------------------------------------------------------------------
    def on_tap(self, reader: int, uid: bytes, code: Optional[bytes]) -> Outcome:
        """A tag arrived on ``reader``."""
        out = Outcome()
        where = self.readers.get(reader)
        seat = where if isinstance(where, int) else None
        if where is None:
            self._refuse(out, None, "tap", "table.reader", f"reader {reader} is not on this board", ring=reader)
            return out
        decoded = None
        if code:
            try:
                decoded = decode_card_code(code)
            except CardCodeError:
                decoded = None        # a blank or foreign tag: the registry decides
        try:
            copy = self.deck_set.identify(uid, decoded)
        except ForeignDeck as exc:
            self._refuse(out, seat, "tap", "table.foreign-deck", str(exc), ring=reader)
            return out
        except (UnknownTag, RegistryError) as exc:
            self._refuse(out, seat, "tap", "table.unknown-tag", str(exc), ring=reader)
            return out
        if seat is None:
            self._centre_tap(copy, out)
        else:
            self._seat_tap(seat, copy, out)
        self._auto(out)
        return out

    def _seat_tap(self, seat: int, copy: CardCopy, out: Outcome) -> None:
        hand = self.match.hand
        if hand is None or (hand.phase == "over" and hand.result is not None):
            self._refuse(out, seat, "tap", "table.phase", "no hand is being played")
            return
        if hand.phase == "drawing":
            level_card = copy.card.rank == hand.level or copy.card.suit == JOKER
            mine = copy in hand.hands[seat]
            if self.mode == "open" or (mine and level_card):
                self._toggle(self.shown, seat, copy, out, "shown")
                return
            self._game(ev.Draw(seat, copy), out)
            return
        if (self.mode == "open" and hand.phase == "playing" and hand.throw_window and seat != hand.turn
                and hand.trick and seat != hand.trick[0][0]):
            self._toggle(self.challenge, seat, copy, out, "challenge")
            return
        self._game(ev.Tap(seat, copy), out)

    def _centre_tap(self, copy: CardCopy, out: Outcome) -> None:
        hand = self.match.hand
        if hand is not None and hand.phase == "burying" and hand.dealer is not None:
            self._game(ev.BuryCard(hand.dealer, copy), out)
            return
        if hand is not None and self.mode == "open" and hand.phase == "over" and hand.result is None:
            if copy in self.revealed:
                self.revealed.remove(copy)
            else:
                self.revealed.append(copy)
            self._ring(out, self.centre, R.PENDING, PENDING_COLOUR, len(self.revealed), self.ruleset.kitty_size)
            return
        self._refuse(out, None, "tap", "table.phase",
                     "the centre reader takes the burial and, in open play, the kitty after the last trick",
                     ring=self.centre)

    def _toggle(self, table: dict, seat: int, copy: CardCopy, out: Outcome, what: str) -> None:
        cards = table.setdefault(seat, [])
        if copy in cards:
            cards.remove(copy)
        else:
            cards.append(copy)
        self._ring(out, seat, R.PENDING, PENDING_COLOUR, len(cards), 0)
        out.rows.append(("effect", {"type": "pending", "what": what, "seat": seat, "cards": [str(c) for c in cards]}))

    def on_button(self, seat: int, kind: int) -> Outcome:
        """Seat ``seat``'s button: ``kind`` is protocol.PRESS, LONG_PRESS or RELEASE."""
        out = Outcome()
        if not 0 <= seat < self.seats:
            self._refuse(out, None, "confirm", "table.reader", f"button {seat} is not on this board")
            return out
        if kind == P.RELEASE:
            return out
        if kind == P.LONG_PRESS:
            if self.shown.get(seat) or self.challenge.get(seat):
                self.shown.pop(seat, None)
                self.challenge.pop(seat, None)
                self._ring(out, seat, R.OFF)
                out.rows.append(("effect", {"type": "pending", "what": "withdrawn", "seat": seat, "cards": []}))
            return out
        hand = self.match.hand
        if hand is None or (hand.phase == "over" and hand.result is not None):
            self._refuse(out, seat, "confirm", "table.phase", "no hand is being played")
        elif self.shown.get(seat):
            cards = tuple(self.shown.pop(seat))
            if not self._game(ev.Declare(seat, cards), out):
                self.shown[seat] = list(cards)       # refused: the cards stay shown
        elif self.challenge.get(seat):
            cards = tuple(self.challenge.pop(seat))
            if not self._game(ev.Challenge(seat, cards), out):
                self.challenge[seat] = list(cards)
        elif hand.phase == "drawing":
            self._game(ev.CloseDeclarations(), out, seat=seat)
        elif self.mode == "open" and hand.phase == "over" and hand.result is None:
            if self._game(ev.RevealKitty(tuple(self.revealed)), out, seat=seat):
                self.revealed = []
        elif hand.phase in ("bidding", "trump", "friend"):
            self._refuse(out, seat, "confirm", "table.mode",
                         f"the {hand.phase} step is entered on the dashboard, not at the table")
        else:
            self._game(ev.Confirm(seat), out)
        self._auto(out)
        return out

    def on_reader(self, reader: int, alive: bool) -> Outcome:
        out = Outcome()
        if not alive:
            where = self.readers.get(reader, reader)
            text = f"Reader {where} stopped answering: check its cable."
            out.texts.append(text)
            out.rows.append(("effect", Announce("table", text).to_json()))
        return out

    # ---- game events and effects ------------------------------------------------------------------
    def _game(self, event, out: Outcome, seat: Optional[int] = None) -> bool:
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
        return True

    def _show(self, eff, out: Outcome) -> None:
        hand = self.match.hand
        if isinstance(eff, Ring):
            st = eff.state
            if st == "turn":
                self._ring(out, eff.seat, R.TURN, TURN_COLOUR)
            elif st == "pending":
                need = hand.lead_count() if hand is not None and hand.phase == "playing" else 0
                if hand is not None and hand.phase == "burying":
                    need = self.ruleset.kitty_size
                self._ring(out, eff.seat, R.PENDING, PENDING_COLOUR, eff.cards, need)
            elif st == "accepted":
                self._ring(out, eff.seat, R.PENDING, ACCEPTED_COLOUR, eff.cards, 0)
            elif st == "refused":
                self._ring(out, eff.seat, R.REFUSED, REFUSED_COLOUR, eff.cards, REFUSED_MS)
            elif st == "won":
                self._ring(out, eff.seat, R.TRICK_WON, WON_COLOUR)
                if hand is not None and hand.dealer is not None:
                    self._ring(out, self.centre, R.POINTS, POINTS_COLOUR, 5, hand.attackers_points())
            elif st == "declarer":
                suit = hand.standing.trump if hand is not None and hand.standing is not None else None
                self._ring(out, eff.seat, R.TRUMP, SUIT_COLOURS.get(suit, SUIT_COLOURS[None]))
            else:
                self._ring(out, eff.seat, R.OFF)
        elif isinstance(eff, Announce):
            out.texts.append(eff.text)
            if eff.kind == "settle" and hand is not None and hand.result is not None:
                pts = max(0, hand.result.to_json()["attackers_points"])
                self._ring(out, self.centre, R.POINTS, POINTS_COLOUR, 5, pts)
            elif eff.kind == "trump" and hand is not None and hand.order is not None:
                self._ring(out, self.centre, R.TRUMP, SUIT_COLOURS.get(hand.trump, SUIT_COLOURS[None]))
            elif eff.kind == "level" and self.match.summaries:
                s = self.match.summaries[-1]
                for key, change in s["changes"].items():
                    self._ring(out, int(key), R.LEVEL, LEVEL_COLOUR, min(change[1], 14), 3000)

    def _refuse(self, out: Outcome, seat, event: str, rule: str, reason: str, ring: Optional[int] = None,
                payload_event: Optional[dict] = None) -> None:
        r = Refusal(seat, event, rule, reason)
        out.refusals.append(r)
        row = r.to_json()
        if payload_event is not None:
            row["attempted"] = payload_event
        out.rows.append(("ruling", row))
        where = f"Seat {seat}" if seat is not None else ("Centre" if ring == self.centre else "Table")
        out.texts.append(f"{where}: refused — {reason} ({rule})")
        target = ring if ring is not None else seat
        if target is not None:
            hand = self.match.hand
            pending = len(hand.pending) if hand is not None and seat is not None and seat == hand.turn else 0
            self._ring(out, target, R.REFUSED, REFUSED_COLOUR, pending, REFUSED_MS)

    def _ring(self, out: Outcome, ring: int, pattern: int, rgb=(0, 0, 0), count: int = 0, arg: int = 0) -> None:
        rc = RingCommand(ring, pattern, rgb[0], rgb[1], rgb[2], min(count, 255), min(arg, 0xFFFF))
        self.rings[ring] = rc
        out.rings.append(rc)

    def _set_all(self, out: Outcome, pattern: int) -> None:
        for ring in range(self.seats + 1):
            self._ring(out, ring, pattern)
