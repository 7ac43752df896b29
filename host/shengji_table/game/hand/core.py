"""The hand's front end: its state, the event loop that hands each event to the current phase's
rules, and the read-only queries, views and snapshot.

``Hand.apply(event)`` returns the effects of one event (``effects.py``).  An event the rules or the
card-entry discipline do not allow returns a single :class:`Refusal` (and the seat's refused ring)
and leaves the state exactly as it was.  The state is a pure function of the events applied, so a
record replays bit for bit.  Which functions handle which event in which phase is the table in
``rules_table.py``; each phase's rules are a file of their own beside this one.
"""
from __future__ import annotations

from functools import cache
from operator import attrgetter

from ...rules.cards import COPY_KEY, CardCopy
from ...rules.declare import Standing
from ...rules.follow import FollowRule, counted_suit, follow_rule
from ...rules.order import TrumpOrder
from ...rules.ruleset import Ruleset
from ...rules.trick import Play
from .. import events as ev
from ..effects import Refusal, ring
from ..friend import FriendSearch
from ..phase import SCANNED, Phase
from ..view import Expect, SeatView, TrickView
from . import bidding, draw, evidence, referee
from .counter import Exchange
from .expects import EXPECTS, NONE as _NONE
from .held import Held
from .knowledge import KNOWLEDGE, MODES, Knowledge
from .result import HandResult
from .rules_table import PHASE_CLASSES, handler_for
from .trick import SeatPlay, TrickTaken

__all__ = ["Hand"]

_FACE = attrgetter("card")          # a copy's face, read in C (views are built for every decision)
# where a view's fields a play changes sit (SeatView is a named tuple): hand … attackers_points, expect
# the fields a play changes, by number, as Hand.view stores them into a seat's kept fields
_PLAY_FIELDS = {8: "hand", 9: "trick", 10: "leader", 11: "tricks", 12: "points", 13: "attackers_points",
                20: "expect"}
assert all(SeatView._fields[i] == name for i, name in _PLAY_FIELDS.items()), "Hand.view's field numbers"
_OVER, _PLAYING, _DRAWING = Phase.OVER, Phase.PLAYING, Phase.DRAWING
_HOLDS_KITTY = (Phase.BURYING, Phase.FRIEND, Phase.PLAYING, Phase.OVER)   # the dealer sees the kitty
# what play waits for, built once (an Expect is immutable): nothing, a lead, a follow of n cards
_LEAD = Expect("lead")


@cache
def _follow(count: int) -> Expect:
    """What the play waits for from a follower of a ``count``-card lead (one, kept: a C look-up)."""
    return Expect("follow", count)


class Hand:
    """The state of one hand.  Build with the match's context, then feed events to :meth:`apply`.

    ``dealer`` is None in the first hand (R-6.6: the seat whose call stands deals); ``levels`` holds
    every seat's level; ``first_seat`` draws first (and bids first with bidding).
    """

    # long: the whole state of a hand, declared once and grouped by phase
    def __init__(self, ruleset: Ruleset, *, mode: str = SCANNED, dealer: int | None = None,
                 levels: tuple[int, ...] | None = None, first_seat: int = 0, number: int = 1):
        if mode not in MODES:
            raise ValueError(f"mode is one of {', '.join(MODES)}, not {mode!r}")
        n = ruleset.players
        self.ruleset = ruleset
        self.mode = mode
        self.knowledge: Knowledge = KNOWLEDGE[mode]     # what the host knows of the hands
        self.players = n
        self.seats = frozenset(range(n))
        self.number = number
        self.levels = tuple(levels) if levels is not None else (ruleset.start_level,) * n
        self.dealer = dealer
        self.first_seat = first_seat if dealer is None else dealer
        self.level = self.levels[dealer] if dealer is not None else self.levels[self.first_seat]
        self.phase = Phase.DEAL
        self.trump: str | None = None
        self.order: TrumpOrder | None = None          # set when trump is fixed (kitty phase on)
        self.turn: int | None = None
        # deal and draw
        self.stack: tuple | None = None
        self.drawn = 0
        self.deal_size = ruleset.hand_size * n             # cards drawn before the kitty is left
        # set by the deal, read at every draw: each draw's seat; the known stack's copies to
        # draw, then draw.NO_COPY (all NO_COPY when the stack is unknown)
        self.draw_seats: tuple = ()
        self.next_copies: tuple = (draw.NO_COPY,)
        self.hands: list[Held] = [Held() for _ in range(n)]   # seat -> {copy: None} (scanned)
        self.counts = [0] * n                            # cards held, both modes
        self._dealt: list[list[CardCopy]] = [[] for _ in range(n)]  # an unknown stack's draws per seat (dealt)
        self.declarations: list = []                     # (Declaration, copies) in time order
        self.standing: Standing | None = None
        # the kitty
        self.kitty: list = []                            # the kitty as dealt (copies), scanned
        self.dealt_kitty: tuple = ()                     # the kitty as dealt (scanned), before any swap
        self.buried: list = []
        self.kitty_holder: int | None = None          # 炒地皮: the seat that stole the kitty last
        self.kitty_revealed: tuple | None = None      # open play: the kitty scanned at the end
        # three players (§9): bidding and the counter-declarer's swap
        self.bids: list = []                             # (seat, points|None)
        self.bid: int | None = None
        self.bidders: list = []
        self.shown: tuple = ()                           # the kitty cards shown to everybody
        self.exchange: Exchange | None = None         # a counter-declarer's swap under way
        self.exchanges: list = []                        # every swap done, (seat, drawn, laid)
        # find a friend
        self.friend_search: FriendSearch | None = None
        # tricks
        self.played: set = set()                         # every copy committed in a trick
        self.leader: int | None = None
        self.trick: list[SeatPlay] = []                  # the trick being laid
        self.pending: list = []                          # copies entered by self.turn, not committed
        self.tricks: list[TrickTaken] = []
        self.won = [0] * n                               # points won per seat: changes as a trick is taken
        self.penalties: list = []                        # (at_fault, points, reason)
        self.played_count = [0] * n                      # cards committed per seat
        # open play: evidence and challenges
        self.throw_window = False                        # the lead is a throw open to challenge
        self.follows: list = [[] for _ in range(n)]      # (trick no, lead faces, play faces, play index)
        self.seat_plays: list = [[] for _ in range(n)]   # faces played per seat, per play
        self.deferred_friend: tuple | None = None     # a throw's friend check waits for the window
        # the referee (R-10; referee.py): the rulings accepted, in order; the log positions of the
        # plays standing undos took back; the numbers of the rulings reversed
        self.rulings: tuple = ()
        self.masked: frozenset = frozenset()
        self.voided: frozenset = frozenset()
        self.replaying: dict = {}                        # while rebuilt: the rulings made before, by number
        self.result: HandResult | None = None
        self.log: list = []                              # every accepted event, in order
        self.play_starts: list = []                      # where in the log each standing play's entry began
        self.entry_start: int | None = None           # ... and where the entry under way began
        self.trick_views: tuple = ()                     # finished tricks as the views show them
        self._deal_context = (dealer, first_seat)          # how the hand began, for fresh()
        # views are built for every decision: the parts that change less often, kept until they do
        self._trick_src: tuple = (None, 0, ())            # (trick list, its length, its face plays)
        # the trick lead's analysis, kept for the trick (lead_rule): (its copies, its follow rule, the suit a
        # one-card follow is counted against)
        self.lead_analysis: tuple = ((), None, None)
        self._single_rules: dict = {}                     # effective suit -> a single's (rule, counted suit)
        # the led suit a one-card follow is counted against (rules.follow.counted_suit) while the
        # trick's lead is one card, set as it is laid; None: the follow takes the general check
        self.counted_suit: str | None = None
        self._declarer_key: tuple | None = None          # (dealer, friend search, friends found)
        self._declarer_set: frozenset = frozenset()
        self._points: tuple = (None, None, (), 0)          # (trick views, declarers, points, attackers')
        # per seat, in the draw and the play: (phase, declarers, standing call, the fields a draw or play keeps)
        self._view_bases: list = [(None, None, None, None)] * n

    # ------------------------------------------------------------------ queries
    @property
    def events(self) -> tuple:
        """Every event this hand accepted, in order (the referee's acts and what they took back too)."""
        return tuple(self.log)

    def standing_events(self) -> list:
        """The events the hand stands on now (``referee.standing_events``)."""
        return referee.standing_events(self)

    @property
    def undone(self) -> list:
        """``(seat, copies, reason)`` of every play the referee undid and did not reverse."""
        return referee.undone(self)

    def last_play(self) -> tuple:
        """``(seat, copies)`` of the last committed play that stands (in play)."""
        seat, cards = self.trick[-1] if self.trick else self.tricks[-1].plays[-1]
        return seat, tuple(cards)

    @property
    def dealt(self) -> list:
        """The cards drawn per seat, in order (scanned): a known stack's are read off it (seat
        ``s`` draws every ``players``-th card from its turn on), an unknown stack's as drawn."""
        stack = self.stack
        if stack is None:
            return self._dealt
        n, first, drawn = self.players, self.first_seat, self.drawn
        return [list(stack[(s - first) % n:drawn:n]) for s in range(n)]

    @property
    def friend_calls(self) -> tuple:
        """Find a friend: the dealer's calls, ``((face, nth), …)``."""
        return self.friend_search.calls if self.friend_search is not None else ()

    @property
    def friends(self) -> list:
        """Find a friend: the seats found so far."""
        return self.friend_search.friends if self.friend_search is not None else []

    def declarers(self) -> tuple:
        """Seats on the dealer's side as known now (dealer first)."""
        d = self.dealer
        if d is None:
            return ()
        teams = self.ruleset.teams
        if teams == "fixed":
            return tuple([d] + [s for s in range(self.players) if s != d and (s - d) % 2 == 0])
        if teams == "find-friend":
            return tuple([d] + [s for s in self.friends if s != d])
        return (d,)

    def declarer_set(self) -> frozenset:
        """``declarers()`` as a set, kept until the dealer or the friends found change."""
        fs = self.friend_search
        kept = self._declarer_key
        if fs is None and kept is not None and kept[1] is None and kept[0] == self.dealer:
            return self._declarer_set          # no friends to find: the dealer alone decides
        key = (self.dealer, fs, len(fs.friends) if fs is not None else 0)
        if key != self._declarer_key:
            self._declarer_key, self._declarer_set = key, frozenset(self.declarers())
        return self._declarer_set

    def attackers(self) -> tuple:
        dec = self.declarer_set()
        return tuple(s for s in range(self.players) if s not in dec)

    def hand_faces(self, seat: int) -> list:
        return [c.card for c in self.hands[seat]]

    def hand_copies(self, seat: int) -> tuple:
        """The copies seat ``seat`` holds (scanned), in a stable order (face index, then deck)."""
        return tuple(sorted(self.hands[seat], key=COPY_KEY))   # CardCopy's key is index·8 + deck

    def lead_count(self) -> int:
        return len(self.trick[0].cards) if self.trick else 0

    def attackers_points(self) -> int:
        dec = self.declarer_set()
        return sum(p for s, p in enumerate(self.won) if s not in dec)

    def _points_view(self, declarers: frozenset) -> tuple:
        """``(points per seat, attackers' points)`` for the views, kept while no trick is taken and
        the declarers stay the same (points are won only as a trick is taken)."""
        tricks, dec, points, att = self._points
        if tricks is not self.trick_views or dec is not declarers:
            points = tuple(self.won)
            att = sum(p for s, p in enumerate(points) if s not in declarers) if self.dealer is not None else 0
            self._points = (self.trick_views, declarers, points, att)
        return points, att

    def trick_plays(self) -> tuple:
        """The trick being laid as faces (``Play`` per seat), kept while only plays are added."""
        src, n, plays = self._trick_src
        trick = self.trick
        if src is not trick or n > len(trick):
            src, n, plays = trick, 0, ()
        if n < len(trick):
            plays += tuple(Play(s, tuple(map(_FACE, cards))) for s, cards in trick[n:])
            self._trick_src = (trick, len(trick), plays)
        return plays

    def lead_rule(self) -> FollowRule:
        """The follow rule of the trick's lead (R-4.4 – R-4.7), analysed once per trick: every
        follower's play is checked against it."""
        lead = self.trick[0].cards
        src, rule, _ = self.lead_analysis
        if src is not lead:                     # each lead laid is a tuple of its own
            if len(lead) == 1:                  # a single's rule is its suit's: one per suit a hand
                face, order = lead[0].card, self.order
                assert order is not None, "trump is fixed before the play"
                kept = self._single_rules.get(order.face_suit[face.index])
                if kept is None:
                    rule = follow_rule((face,), order)
                    kept = self._single_rules[order.face_suit[face.index]] = (rule, counted_suit(rule))
                rule = kept[0]
                self.lead_analysis = (lead, rule, kept[1])
            else:
                rule = follow_rule(self.trick_plays()[0].cards, self.trump_order())
                self.lead_analysis = (lead, rule, counted_suit(rule))
        return rule

    def note_drawn(self, seat: int, card) -> None:
        """An unknown stack's draw: ``card`` is the next of ``seat``'s cards (``dealt``)."""
        self._dealt[seat].append(card)

    def trump_order(self) -> TrumpOrder:
        """The trump order in force; only asked for once trump is fixed."""
        assert self.order is not None, "trump is fixed before the kitty phase"
        return self.order

    def seat_on_turn(self) -> int:
        """The seat on turn; only asked for once the draw has begun."""
        assert self.turn is not None, "a seat is on turn from the deal on"
        return self.turn

    def dealer_seat(self) -> int:
        """The dealer; only asked for once the dealer is known."""
        assert self.dealer is not None, "the dealer is known from the kitty phase on"
        return self.dealer

    # the next draw and the bots' options live with their phases
    def next_draw(self):
        """``(seat, copy)`` of the next draw when the stack is known; ``None`` when the draw is done."""
        n = self.drawn                          # draw.next_draw, without the call (100 a hand)
        if n >= self.deal_size or self.phase != _DRAWING:
            return None
        return (self.first_seat + n) % self.players, (self.stack[n] if self.stack is not None else None)

    def declaration_options(self, seat: int, held=None) -> tuple:
        """Every declaration (tuple of faces) seat ``seat`` could validly make now (for bots).

        ``held``: the copies the seat holds, when the engine does not know them (open play: the
        bot driver keeps the hands); default: the seat's scanned hand.
        """
        return draw.declaration_options(self, seat, held)

    def bid_options(self) -> tuple:
        """Three players: the bids allowed now (multiples of 5 below the standing bid)."""
        return bidding.bid_options(self)

    def challengers(self) -> tuple:
        """Open play: the seats that may challenge the throw just led now (R-4.3), in playing order
        after the thrower; empty when no throw is open to challenge."""
        return evidence.challengers(self)

    # ------------------------------------------------------------------ the event loop
    def apply(self, event) -> list:
        """Apply one event; return its effects.  A refused event changes nothing."""
        # the commonest case first: an event of the phase's own table, found by its class
        rule = PHASE_CLASSES[self.phase].get(type(event))
        if rule is None:
            return self._apply_any(event)
        handler, seated = rule
        if seated:
            seat = event.seat
            # a seat of the table in one test (an int, for 1.0 is in the set too); a bool and the
            # refusals take the full test (these events name a seat: None is no seat either)
            if type(seat) is not int or seat not in self.seats:
                if not (isinstance(seat, int) and 0 <= seat < self.players):
                    return self._no_such_seat(event, seat)
        out = handler(self, event)             # _run, without its frame
        if out and type(out[0]) is Refusal:
            return out
        self.log.append(event)
        return out

    def _apply_any(self, event) -> list:
        """:meth:`apply` of an event the phase's own table does not hold: the events of any phase,
        and the refusals of the rest."""
        handler = handler_for(self.phase, event.type)
        seat = getattr(event, "seat", None)
        if handler is None:
            return [Refusal(seat, event.type, "table.event", f"a {event.type!r} event does not belong to a hand")]
        if self.phase == _OVER and not isinstance(event, (ev.RevealKitty, ev.RefereeReverse)):
            return [Refusal(seat, event.type, "table.over", "the hand is over")]
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.players):
            return self._no_such_seat(event, seat)
        return self._run(handler, event)

    def _run(self, handler, event) -> list:
        """The handler's effects; the event is kept unless it was refused (a refusal changes nothing)."""
        out = handler(self, event)
        if out and type(out[0]) is Refusal:
            return out
        self.log.append(event)
        return out

    def _no_such_seat(self, event, seat) -> list:
        return [Refusal(None, event.type, "table.seat", f"there is no seat {seat} at a table of {self.players}")]

    def refuse(self, seat, event, rule: str, reason: str) -> list:
        """The effects of refusing ``event``: the refusal, and ``seat``'s ring (when a seat is named)."""
        out: list = [Refusal(seat, event.type, rule, reason)]
        if seat is not None:
            out.append(ring(seat, "refused", len(self.pending) if seat == self.turn else 0))
        return out

    def fresh(self) -> Hand:
        """This hand as it was before its first event (its deal context: dealer, levels, first seat)."""
        dealer, first_seat = self._deal_context
        return Hand(self.ruleset, mode=self.mode, dealer=dealer, levels=self.levels, first_seat=first_seat,
                    number=self.number)

    def adopt(self, other: Hand) -> None:
        """Take ``other``'s state (a rebuild of this hand, ``referee.refold``), keeping this hand's
        log: the referee's act that asked for the rebuild is logged after it."""
        log = self.log
        self.__dict__.update(other.__dict__)
        self.log = log

    # ------------------------------------------------------------------ views and snapshots
    def expect(self, seat: int) -> Expect:
        """What the game waits for from ``seat`` now."""
        ph = self.phase
        if ph == _PLAYING:                     # first: asked at almost every decision
            if seat != self.turn:
                return _NONE
            return _follow(self.lead_count()) if self.trick else _LEAD
        asks = EXPECTS.get(ph)
        return asks(self, seat) if asks is not None else _NONE

    def view(self, seat: int, expect: Expect | None = None) -> SeatView:
        """The read-only view of seat ``seat`` (see ``view.py``).  Built for every decision, from
        parts kept until they change (the seat's sorted hand, the trick's faces, the declarers; in
        play, every field but those a play changes)."""
        ph = self.phase
        kept = self._declarer_key                # declarer_set()'s kept answer without friends: inline
        if self.friend_search is None and kept is not None and kept[1] is None and kept[0] == self.dealer:
            declarers = self._declarer_set
        else:
            declarers = self.declarer_set()
        kept = self._points                      # _points_view's answer when it is current: inline
        if kept[0] is self.trick_views and kept[1] is declarers:
            points, attackers_points = kept[2], kept[3]
        else:
            points, attackers_points = self._points_view(declarers)
        base = self._view_bases[seat]
        if base[0] is not ph or base[1] is not declarers or base[2] is not self.standing:
            # in the draw only a call changes what is not a draw's, in the play only a friend found
            # (the referee's undo rebuilds the hand, and so these too); other phases build it anew
            base = (ph, declarers, self.standing, list(SeatView.adopt(self._view_base(seat, ph, declarers))))
            if ph is _PLAYING or ph is _DRAWING:
                self._view_bases[seat] = base
        held = self.hands[seat]
        hand = held.sorted_faces or held.faces()     # the kept tuple without the call when current
        src = self._trick_src            # trick_plays() when it is current: the commonest case inline
        plays = src[2] if src[0] is self.trick and src[1] == len(src[0]) else self.trick_plays()
        if expect is None:
            if ph is _PLAYING:                    # self.expect's first case, at almost every view
                trick = self.trick
                expect = _NONE if seat != self.turn else _follow(len(trick[0].cards)) if trick else _LEAD
            else:
                expect = self.expect(seat)
        # the seat's kept fields (checked by adopt as the base was built) with those a play changes
        # stored in their places (literal numbers: _PLAY_FIELDS), then made the view in one call
        fields = base[3]
        fields[8] = hand
        fields[9] = plays
        fields[10] = self.leader
        fields[11] = self.trick_views
        fields[12] = points
        fields[13] = attackers_points
        fields[20] = expect
        return SeatView._make(fields)

    def _view_base(self, seat: int, ph: Phase, declarers: frozenset) -> dict:
        """The fields of ``seat``'s view that a play does not change."""
        dealer, standing = self.dealer, self.standing
        holder = dealer if self.kitty_holder is None else self.kitty_holder      # 炒地皮: who took it last
        holds_kitty = seat == holder and ph in _HOLDS_KITTY
        public_standing = standing is not None and not self.ruleset.hidden_declarations
        order = self.order
        return {
            "ruleset": self.ruleset, "seat": seat, "players": self.players, "phase": ph, "level": self.level,
            "levels": self.levels,
            "trump": self.trump if order is not None else (standing.trump if public_standing else None),  # type: ignore[union-attr]
            "order": order, "hand": None, "trick": None, "leader": None, "tricks": None, "points": None,
            "attackers_points": None,
            "dealer": dealer, "declarers": declarers, "friend_calls": self.friend_calls,
            "kitty": tuple(c.card for c in (self.buried if ph != Phase.BURYING else self.kitty))
            if holds_kitty else None,
            "shown_kitty": tuple(c.card for c in self.shown) if self.shown else (),
            "standing_bid": self.bid, "expect": None,
            "standing_seat": standing.seat if public_standing else None,  # type: ignore[union-attr]
        }

    def add_trick_view(self, plays: tuple, winner: int, points: int) -> None:
        self.trick_views += (TrickView(plays, winner, points),)

    def snapshot(self) -> dict:
        """The whole state as plain JSON values (for replay equality and the referee's view)."""
        def cs(xs):
            return [str(c) for c in xs]
        x = self.exchange
        return {
            "number": self.number, "mode": self.mode, "phase": self.phase, "dealer": self.dealer,
            "level": self.level, "levels": list(self.levels), "trump": self.trump,
            "hands": [cs(self.hand_copies(s)) for s in range(self.players)], "counts": list(self.counts),
            "declarations": [[d.seat, cs(copies)] for d, copies in self.declarations],
            "standing": (None if self.standing is None
                         else [self.standing.seat, self.standing.trump, cs(self.standing.cards)]),
            "kitty": cs(self.kitty), "buried": cs(self.buried),
            "kitty_revealed": None if self.kitty_revealed is None else cs(self.kitty_revealed),
            "bids": [list(b) for b in self.bids], "bid": self.bid,
            "exchange": None if x is None else [x.seat, None if x.drawn is None else cs(x.drawn), cs(x.laid)],
            "exchanges": [[seat, cs(drawn), cs(laid)] for seat, drawn, laid in self.exchanges],
            "friend_calls": [[str(c), n] for c, n in self.friend_calls], "friends": list(self.friends),
            "leader": self.leader, "turn": self.turn,
            "trick": [[s, cs(cards)] for s, cards in self.trick], "pending": cs(self.pending),
            "tricks": [[[[s, cs(cards)] for s, cards in t.plays], t.winner, t.points] for t in self.tricks],
            "won": list(self.won), "penalties": [list(p) for p in self.penalties],
            "undone": [[s, cs(c), r] for s, c, r in self.undone],
            "result": None if self.result is None else self.result.to_json(),
        }

