"""The controller: reader and button events in, game events out; game effects in, ring states out.

Pure: no I/O, no clock.  The service (``service.py``) persists everything an :class:`Outcome`
lists before it shows a ring or acknowledges the Pico.

How the table is used (both modes; ``docs/table.md`` says it for players):

==========================  =====================================================================
at the table                becomes
==========================  =====================================================================
tap at a seat's reader      identified through the deck set (unknown tag / foreign deck: refused);
                            a seat the preset leaves empty (three players at a four-seat table):
                            refused (``table.reader``)
  drawing, scanned          a card not yet drawn: ``draw``; a level card or joker already in the
                            seat's hand: *shown* (pending, one pixel each; tap again to withdraw)
  drawing, open             every tap shows a card (draws are not scanned)
  bidding (three players)   the bidder: ``bid`` with no points — a **pass** (any card; its face
                            does not matter); another seat: refused by the game (out of turn)
  trump (three players)     the bidding winner: the tapped card's suit is the trump chosen (a
                            joker: no trump); the ring shows it in the suit's colour
  kitty (three players)     any seat: a card *shown* for a counter-declaration (反牌), as above
  exchange (three players)  the counter-declarer: ``tap`` (a card laid back; again: taken back)
  burying                   ``tap`` (the game buries it; again: takes it back)
  friend (find a friend)    the dealer: the tapped card's *face* is the card called (the copy is
                            not played and stays where it is; any copy will do); the call's count
                            starts at 0
  playing                   ``tap`` (card entry: a follower's play commits at the lead's count;
                            a pending card tapped again is taken back); open play, while a throw
                            is open to challenge: a tap by an opponent who is not on turn is a
                            challenge card (pending)
tap at the centre reader    burying: ``bury`` for the dealer; three players, scanned, after a
                            counter-declaration: one of the kitty cards the counter-declarer drew
                            (again: put back); the last of the 6 makes ``counter_draw`` with those
                            copies; open play after the last trick: a kitty card revealed (pending)
seat button (press)         shown or challenge cards pending: nothing yet (see release); drawing,
                            nothing pending: ``close_declarations``; bidding, trump, friend: a
                            seat whose decision it is not is refused; the deciding seat's press
                            counts at its *release* (below); kitty (three players), nothing shown:
                            ``take_kitty`` (the dealer; this closes the 反牌 window); exchange, open
                            play: ``counter_draw`` (not scanned); burying/playing/exchange:
                            ``confirm``; open play, kitty revealed: ``reveal_kitty``
seat button (release of a   shown cards pending: ``declare`` (three players, kitty phase: a
  short press)              counter-declaration); challenge cards pending: ``challenge``;
                            bidding, the bidder: the next bid — the game's step (5) down from the
                            highest allowed, round to the highest after the lowest; the ring shows
                            it (POINTS); trump: nothing (hold to name); friend, the dealer, a face
                            tapped: the next copy (1, 2, … up to the number of decks, then 1
                            again), the ring lights that many pixels
seat button (long press)    withdraw this seat's shown / challenge cards; otherwise bidding:
                            ``bid`` at the bid shown; trump: ``name_trump`` with the suit chosen;
                            friend: the call (face, copy) is noted, and when the ruleset's number
                            of calls is reached, ``call_friend`` with all of them.  A long press
                            arrives as PRESS, LONG_PRESS, RELEASE (firmware/debounce.py); its
                            release is not a step, so "press N times, then hold" means N.
==========================  =====================================================================

Every wrong entry is refused on that seat's ring with its reason and changes nothing: a press or a
tap by a seat whose decision it is not (``table.out-of-turn`` for bids, ``R-9 bidding`` for trump,
``R-9 find-a-friend`` for calls), a press with no card tapped, a long press with no bid / suit /
copy chosen, no lower bid left, the same card and copy called twice, a centre tap of a card not in
the kitty (``§9 反牌``).  The decision being entered (``entry``), the kitty cards tapped and the
buttons held long are the controller's own state, saved with the rest (``state_json``), so a
restarted host continues them.

Automatic game events: the next hand's ``deal`` when the previous hand is settled (``deal_for``
gives it: a seed on the virtual table, an unknown stack at a real one) and ``take_kitty`` when the
draw closes (the dealer picks the kitty up) — except with three-player bidding, where the kitty
waits for counter-declarations until the dealer's button.  Every refusal — the game's and the controller's own
(``table.unknown-tag``, ``table.foreign-deck``, ``table.reader``, ``table.mode``) — turns that
seat's ring to REFUSED and is returned with its reason; the game state does not change.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from .. import firmware_src
from ..game import events as ev
from ..game.effects import Announce, Refusal, Ring
from ..game.friend import RULE as FRIEND_RULE, nth_text
from ..game.hand import COUNTER_RULE
from ..game.match import Match
from ..rules.cards import JOKER, CardCopy, parse_card, parse_copy
from ..rules.ruleset import Ruleset
from . import protocol as P
from .card_code import CardCodeError, decode_card_code
from .registry import DeckSet, ForeignDeck, RegistryError, UnknownTag



def _firmware_rings():
    """The firmware's ring vocabulary (``firmware/rings.py``): the pattern ids are the firmware's
    own, read from its file so the two can never disagree."""
    return firmware_src.load("rings")


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
_SUIT_WORD = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds", None: "no trump"}
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

    # ---- persistence ---------------------------------------------------------------------------
    def state_json(self) -> dict:
        """The controller's own state (pending shows, challenges, revealed kitty, rings)."""
        return {"shown": {str(s): [str(c) for c in cs] for s, cs in self.shown.items() if cs},
                "challenge": {str(s): [str(c) for c in cs] for s, cs in self.challenge.items() if cs},
                "revealed": [str(c) for c in self.revealed],
                "entry": dict(self.entry), "kitty_drawn": [str(c) for c in self.kitty_drawn],
                "held": sorted(self.held),
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
            if hand is None or (hand.phase == "over" and hand.result is not None):
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
            if hand.phase == "kitty" and hand.dealer is not None and not self.ruleset.bidding:
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
        if seat is not None and seat >= self.seats:
            self._refuse(out, None, "tap", "table.reader", f"seat {seat} is empty: preset "
                         f"{self.ruleset.preset!r} has {self.seats} players", ring=reader)
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
        if hand.phase in ("bidding", "trump", "friend"):
            self._decision_tap(hand, seat, copy, out)
            return
        if hand.phase == "kitty" and self.ruleset.bidding:
            # three players: a counter-declaration (反牌) is shown like a declaration
            self._toggle(self.shown, seat, copy, out, "shown")
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
        if hand is not None and hand.phase == "exchange" and hand.exchange is not None \
                and hand.exchange["drawn"] is None and self.mode == "scanned":
            self._kitty_draw_tap(hand, copy, out)
            return
        if hand is not None and self.mode == "open" and hand.phase == "over" and hand.result is None:
            if copy in self.revealed:
                self.revealed.remove(copy)
            else:
                self.revealed.append(copy)
            self._ring(out, self.centre, R.PENDING, PENDING_COLOUR, len(self.revealed), self.ruleset.kitty_size)
            return
        self._refuse(out, None, "tap", "table.phase",
                     "the centre reader takes the burial, a counter-declarer's draw from the kitty and, "
                     "in open play, the kitty after the last trick",
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
            if kind != P.PRESS:
                return out              # one refusal a push: at its PRESS
            why = (f"seat {seat} is empty: preset {self.ruleset.preset!r} has {self.seats} players"
                   if 0 <= seat < self.board_seats else f"button {seat} is not on this board")
            self._refuse(out, None, "confirm", "table.reader", why)
            return out
        hand = self.match.hand
        deciding = hand is not None and hand.phase in ("bidding", "trump", "friend")
        if kind == P.RELEASE:
            # shown cards and a decision's step count when a short press ends: a long press (which
            # begins as a press) withdraws the cards or confirms the decision instead
            if seat in self.held:
                self.held.discard(seat)
            elif self.shown.get(seat) and hand is not None:
                cards = tuple(self.shown.pop(seat))
                if not self._game(ev.Declare(seat, cards), out):
                    self.shown[seat] = list(cards)       # refused: the cards stay shown
                self._auto(out)
            elif self.challenge.get(seat) and hand is not None:
                cards = tuple(self.challenge.pop(seat))
                if not self._game(ev.Challenge(seat, cards), out):
                    self.challenge[seat] = list(cards)
                self._auto(out)
            elif deciding and seat == self._decider(hand):
                self._decision_step(hand, seat, out)
            return out
        if kind == P.LONG_PRESS:
            self.held.add(seat)
            if self.shown.get(seat) or self.challenge.get(seat):
                self.shown.pop(seat, None)
                self.challenge.pop(seat, None)
                self._ring(out, seat, R.OFF)
                out.rows.append(("effect", {"type": "pending", "what": "withdrawn", "seat": seat, "cards": []}))
            elif deciding:
                self._decision_long(hand, seat, out)
                self._auto(out)
            return out
        self.held.discard(seat)
        if hand is None or (hand.phase == "over" and hand.result is not None):
            self._refuse(out, seat, "confirm", "table.phase", "no hand is being played")
        elif self.shown.get(seat) or self.challenge.get(seat):
            pass                                     # declared / challenged at the release
        elif hand.phase == "drawing":
            self._game(ev.CloseDeclarations(), out, seat=seat)
        elif self.mode == "open" and hand.phase == "over" and hand.result is None:
            if self._game(ev.RevealKitty(tuple(self.revealed)), out, seat=seat):
                self.revealed = []
        elif deciding:
            # the press of the seat whose decision it is counts when it ends (release: a step;
            # long press: confirm); any other seat is told at once
            self._not_yours(hand, seat, out, "confirm")
        elif hand.phase == "kitty" and self.ruleset.bidding:
            self._game(ev.TakeKitty(seat), out)          # the dealer's button: no (more) 反牌
        elif (hand.phase == "exchange" and self.mode == "open" and hand.exchange is not None
              and hand.exchange["drawn"] is None):
            self._game(ev.CounterDraw(seat), out)        # open play: the draw is not scanned
        else:
            self._game(ev.Confirm(seat), out)
        self._auto(out)
        return out

    # ---- decisions entered at the seat: bids, trump, friend calls -------------------------------
    def _entry(self, hand) -> dict:
        """The decision being entered now; a fresh one when the hand, the phase, the seat on turn
        or the number of bids has moved on (so nothing stale carries over)."""
        key = [hand.number, hand.phase, hand.turn, len(hand.bids)]
        if self.entry.get("key") != key:
            self.entry = {"key": key}
            if hand.phase == "friend":
                self.entry.update(face=None, nth=0, calls=[])
        return self.entry

    def entry_state(self) -> dict:
        """The decision being entered now (for the screen and the virtual table's players):
        ``bid`` (bidding), ``suit`` (trump: a suit letter, ``"NT"``), ``face``/``nth``/``calls``
        (friend); empty when nothing is being entered."""
        hand = self.match.hand
        if hand is None or hand.phase not in ("bidding", "trump", "friend"):
            return {}
        e = self._entry(hand)
        return {k: v for k, v in e.items() if k != "key"}

    def _decider(self, hand) -> int:
        return hand.turn if hand.phase == "bidding" else hand.dealer

    def _not_yours(self, hand, seat: int, out: Outcome, event: str) -> bool:
        who = self._decider(hand)
        if seat == who:
            return False
        if hand.phase == "bidding":
            self._refuse(out, seat, event, "table.out-of-turn", f"it is seat {who}'s turn to bid")
        elif hand.phase == "trump":
            self._refuse(out, seat, event, "R-9 bidding", f"the dealer (seat {who}) names trump")
        else:
            self._refuse(out, seat, event, FRIEND_RULE, f"the dealer (seat {who}) calls the friend")
        return True

    def _decision_tap(self, hand, seat: int, copy: CardCopy, out: Outcome) -> None:
        if hand.phase == "bidding":
            # a tap passes (any card: its face does not matter); the game refuses it out of turn
            if self._game(ev.Bid(seat, None), out):
                self.entry = {}
            return
        if self._not_yours(hand, seat, out, "tap"):
            return
        e = self._entry(hand)
        if hand.phase == "trump":
            suit = None if copy.card.suit == JOKER else copy.card.suit
            e["suit"] = "NT" if suit is None else suit
            self._ring(out, seat, R.TRUMP, SUIT_COLOURS.get(suit, SUIT_COLOURS[None]))
            name = _SUIT_WORD[suit]
            self._say(out, f"Seat {seat}: trump {name}? Hold the button to name it.", "trump", seat, e)
            return
        # friend: the face of the card tapped is the card called; the copy stays in the hand
        e["face"] = str(copy.card)
        e["nth"] = 0
        self._ring(out, seat, R.PENDING, PENDING_COLOUR, 0, self.ruleset.decks)
        self._say(out, f"Seat {seat} calls {copy.card.unicode()}: press once for the first copy, twice "
                       f"for the second …; hold the button to confirm.", "friend", seat, e)

    def _decision_step(self, hand, seat: int, out: Outcome) -> None:
        """A short press of the deciding seat, counted at its release."""
        e = self._entry(hand)
        if hand.phase == "bidding":
            steps = sorted(hand.bid_options(), reverse=True)      # the game's bids, highest first
            if not steps:
                self._refuse(out, seat, "bid", "R-9 bidding", "no lower bid is left: tap a card to pass")
                return
            cur = e.get("bid")
            e["bid"] = steps[0] if cur not in steps or cur == steps[-1] else steps[steps.index(cur) + 1]
            self._show_bid(out, seat, e["bid"])
            self._say(out, f"Seat {seat}: bid {e['bid']}? Hold the button to bid it, tap a card to pass.",
                      "bid", seat, e)
        elif hand.phase == "trump":
            if "suit" not in e:
                self._refuse(out, seat, "name_trump", "R-9 bidding",
                             "tap a card of the trump suit (a joker for no trump), then hold the button")
            # with a suit chosen a short press changes nothing: hold it to name the trump
        else:
            if e.get("face") is None:
                self._refuse(out, seat, "call_friend", FRIEND_RULE,
                             "tap a card of the face you call first, then press once per copy")
                return
            e["nth"] = e["nth"] % self.ruleset.decks + 1          # the count goes round
            self._ring(out, seat, R.PENDING, PENDING_COLOUR, e["nth"], self.ruleset.decks)
            self._say(out, f"Seat {seat} calls the {nth_text(e['nth'])} "
                           f"{parse_card(e['face']).unicode()}? Hold the button to confirm.", "friend", seat, e)

    def _decision_long(self, hand, seat: int, out: Outcome) -> None:
        if seat != self._decider(hand):
            return                      # the press that began it was refused already
        e = self._entry(hand)
        if hand.phase == "bidding":
            if e.get("bid") is None:
                self._refuse(out, seat, "bid", "R-9 bidding",
                             "press the button to choose a bid, then hold it; tap a card to pass")
                return
            if self._game(ev.Bid(seat, e["bid"]), out):
                self.entry = {}
        elif hand.phase == "trump":
            if "suit" not in e:
                self._refuse(out, seat, "name_trump", "R-9 bidding",
                             "tap a card of the trump suit (a joker for no trump), then hold the button")
                return
            if self._game(ev.NameTrump(seat, None if e["suit"] == "NT" else e["suit"]), out):
                self.entry = {}
        else:
            if e.get("face") is None or not e.get("nth"):
                self._refuse(out, seat, "call_friend", FRIEND_RULE,
                             "tap a card of the face you call, press once per copy (twice: the second), "
                             "then hold the button")
                return
            call = [e["face"], e["nth"]]
            if call in e["calls"]:
                self._refuse(out, seat, "call_friend", FRIEND_RULE, "the same card and copy is called twice")
                return
            e["calls"].append(call)
            e["face"], e["nth"] = None, 0
            if len(e["calls"]) < self.ruleset.friend_calls:
                self._ring(out, seat, R.TURN, TURN_COLOUR)
                self._say(out, f"Seat {seat}: call {len(e['calls'])} of {self.ruleset.friend_calls} "
                               f"noted; tap the card of the next call.", "friend", seat, e)
                return
            calls = tuple((parse_card(f), n) for f, n in e["calls"])
            if self._game(ev.CallFriend(seat, calls), out):
                self.entry = {}
            else:
                e["calls"].pop()
                e["face"], e["nth"] = call

    def _show_bid(self, out: Outcome, seat: int, bid: int) -> None:
        # the whole bid range on the ring: points per pixel, a multiple of 5, so the top bid fits
        pixels = max(1, self.ring_sizes.get(seat, 12))
        per = 5 * max(1, -(-self.ruleset.total_points // (5 * pixels)))
        self._ring(out, seat, R.POINTS, SUIT_COLOURS[None], per, bid)

    def _say(self, out: Outcome, text: str, what: str, seat: int, e: dict) -> None:
        out.texts.append(text)
        out.rows.append(("effect", {"type": "entry", "what": what, "seat": seat,
                                    **{k: v for k, v in e.items() if k != "key"}}))

    def _kitty_draw_tap(self, hand, copy: CardCopy, out: Outcome) -> None:
        """Three players, scanned: the counter-declarer's cards drawn from the kitty, each tapped on
        the centre reader; the last one makes the ``counter_draw``."""
        x = hand.exchange
        k = min(len(hand.kitty), 6)
        if copy in self.kitty_drawn:
            self.kitty_drawn.remove(copy)
        elif copy not in hand.kitty:
            self._refuse(out, None, "counter_draw", COUNTER_RULE, f"{copy} is not in the kitty", ring=self.centre)
            return
        else:
            self.kitty_drawn.append(copy)
        self._ring(out, self.centre, R.PENDING, PENDING_COLOUR, len(self.kitty_drawn), k)
        out.rows.append(("effect", {"type": "pending", "what": "kitty_drawn", "seat": x["seat"],
                                    "cards": [str(c) for c in self.kitty_drawn]}))
        if len(self.kitty_drawn) == k:
            if self._game(ev.CounterDraw(x["seat"], copies=tuple(self.kitty_drawn)), out):
                self.kitty_drawn = []
            else:
                self.kitty_drawn.pop()

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
        hand = self.match.hand
        if hand is not None and hand.phase in ("bidding", "trump"):
            self._ring(out, self._decider(hand), R.TURN, TURN_COLOUR)     # whose decision it is
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
        for ring in list(range(self.board_seats)) + [self.centre]:
            self._ring(out, ring, pattern)
