"""One hand as an event-sourced state machine: draw and declare, kitty, tricks, settlement.

``Hand.apply(event)`` returns the effects of one event (``effects.py``).  An event the rules or the
card-entry discipline do not allow returns a single :class:`Refusal` and leaves the state exactly as
it was.  The state is a pure function of the events applied, so a record replays bit for bit.

Phases, in order (``Hand.phase``)::

    deal → drawing → [bidding → trump] → kitty [⇄ exchange] → burying → [friend] → playing → over

* ``drawing`` — cards reach seats one at a time (:class:`Draw`); declarations and overcalls per the
  ruleset's ladder (R-6), hidden until the draw closes with four decks (R-6.5).  ``CloseDeclarations``
  ends it: trump and (first hand) the dealer are fixed (R-6.4, R-6.6).
* ``bidding`` / ``trump`` — three players (§9): bids of a points target, the lowest bidder deals and
  names trump.  Until the dealer takes the kitty another player may counter-declare (反牌, as an
  overcall of the classic ladder) and then swaps 6 cards drawn at random from the kitty
  (``exchange``: :class:`~.events.CounterDraw`, then 6 cards tapped back and ``Confirm``).
* ``kitty`` / ``burying`` — the dealer takes the kitty and buries as many cards (R-7.2).
* ``friend`` — find-a-friend: the dealer calls a card and which copy.
* ``playing`` — tricks (R-4, R-5), card by card per seat: a follower's play commits when it reaches
  the lead's count, a leader's on ``Confirm``; tapping a pending card again takes it back.
* ``over`` — settled (R-7.3, R-8) or ended by a ruling (R-10).

Two ways to know the hands (``mode``): ``scanned`` — every drawn card is registered to its seat, so
an illegal play is refused on the spot and a throw is checked against the other hands; ``open`` —
hands are unknown: the engine checks what it sees, proves a revoke from later evidence (R-10.2), and
lets an opponent challenge a throw by showing a unit that beats it (R-4.3).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Optional

from ..rules.cards import JOKER, SMALL_JOKER_RANK, Card, CardCopy, all_copies, format_cards
from ..rules.declare import (Declaration, Standing, check_declaration, declaration_strength, default_trump,
                             first_dealer, run_declarations)
from ..rules.ruleset import Ruleset, level_text
from ..rules.rulings import check_kitty_size, revoke, throw_penalty, wrong_count
from ..rules.settle import Settlement, settle
from . import events as ev
from .effects import Announce, Refusal, Ring
from . import referee
from .friend import RULE as FRIEND_RULE, FriendSearch, check_calls
from .view import Expect, SeatView, TrickView

__all__ = ["Hand", "HandResult", "Exchange", "MODES", "COUNTER_SWAP"]

MODES = ("scanned", "open")
# Three players (seed 000 三人打法): 反牌者只能從底牌中隨機換6張 — the counter-declarer swaps 6.
COUNTER_SWAP = 6
COUNTER_RULE = "§9 反牌"
_SUIT_NAME = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds", None: "no trump"}


def _rules():
    """The trick-level rules modules, imported on first use (they are large and optional at import)."""
    from ..rules import follow, kitty, order, throw, trick, units
    return order, units, follow, throw, trick, kitty


@dataclass(slots=True)
class Exchange:
    """Three players: a counter-declarer's swap with the kitty (反牌), while it is under way.

    ``drawn`` is None until the cards are drawn from the kitty (then the copies, known only with
    scanned hands); ``count`` how many go back; ``laid`` the copies tapped back so far.
    """

    seat: int
    drawn: Optional[tuple] = None
    count: int = 0
    laid: list = field(default_factory=list)


@dataclass(frozen=True, slots=True, kw_only=True)
class HandResult:
    """How a hand ended: the settlement (``rules.settle.Settlement``) and everything that led to it.

    ``declarers``/``attackers`` are the final sides (dealer first); ``captured`` the attackers'
    trick points, ``kitty_points``/``multiplier``/``bonus`` the kitty (R-7.3), ``penalty`` the net
    penalty points added to the attackers (R-10.1), ``ruling`` the R-10 ruling that ended the hand
    early (or None) with ``at_fault``.
    """

    settlement: Settlement
    declarers: tuple[int, ...]
    attackers: tuple[int, ...]
    captured: int
    kitty_points: Optional[int]         # None when a ruling ended the hand before the kitty counted
    multiplier: int
    bonus: int
    penalty: int
    last_winner: Optional[int]          # None when a ruling ended the hand
    last_cards: tuple[Card, ...]
    ruling: Optional[str]
    at_fault: Optional[int]
    bid: Optional[int]

    def to_json(self) -> dict:
        s = self.settlement
        return {
            "attackers_points": s.attackers_points, "declarers_levels": s.declarers_levels,
            "attackers_levels": s.attackers_levels, "takeover": s.takeover, "rule": s.rule, "reason": s.reason,
            "declarers": list(self.declarers), "attackers": list(self.attackers), "captured": self.captured,
            "kitty_points": self.kitty_points, "multiplier": self.multiplier, "bonus": self.bonus,
            "penalty": self.penalty, "last_winner": self.last_winner,
            "last_cards": [str(c) for c in self.last_cards or ()], "ruling": self.ruling,
            "at_fault": self.at_fault, "bid": self.bid,
        }


class Hand:
    """The state of one hand.  Build with the match's context, then feed events to :meth:`apply`.

    ``dealer`` is None in the first hand (R-6.6: the first declarer deals); ``levels`` holds every
    seat's level; ``first_seat`` draws first (and bids first with bidding).
    """

    def __init__(self, ruleset: Ruleset, *, mode: str = "scanned", dealer: Optional[int] = None,
                 levels: Optional[tuple[int, ...]] = None, first_seat: int = 0, number: int = 1):
        if mode not in MODES:
            raise ValueError(f"mode is one of {', '.join(MODES)}, not {mode!r}")
        n = ruleset.players
        self.ruleset = ruleset
        self.mode = mode
        self.players = n
        self.number = number
        self.levels = tuple(levels) if levels is not None else (ruleset.start_level,) * n
        self.dealer = dealer
        self.first_seat = first_seat if dealer is None else dealer
        self.level = self.levels[dealer] if dealer is not None else self.levels[self.first_seat]
        self.phase = "deal"
        self.trump: Optional[str] = None
        self.order = None
        self.stack: Optional[tuple] = None
        self.drawn = 0
        self.hands: list[dict[CardCopy, None]] = [dict() for _ in range(n)]   # seat -> {copy: None} (scanned)
        self.counts = [0] * n                            # cards held, both modes
        self.dealt: list[list[CardCopy]] = [[] for _ in range(n)]   # cards drawn per seat, in order (scanned)
        self.declarations: list = []                     # (Declaration, copies) in time order
        self.standing: Optional[Standing] = None
        self.kitty: list = []                            # the kitty as dealt (copies), scanned
        self.buried: list = []
        self.kitty_revealed: Optional[tuple] = None      # open play: the kitty scanned at the end
        self.bids: list = []                             # (seat, points|None)
        self.bid: Optional[int] = None
        self.bidders: list = []
        self.shown: tuple = ()                           # bidding: the kitty cards shown to everybody
        self.exchange: Optional[Exchange] = None            # bidding: a counter-declarer's swap with the kitty
        self.exchanges: list = []                        # bidding: every swap done, (seat, drawn, laid)
        self.dealt_kitty: tuple = ()                     # the kitty as dealt (scanned), before any swap
        self.friend_search: Optional[FriendSearch] = None   # find a friend: calls and answers
        self.played: set = set()                         # every copy committed in a trick
        self.leader: Optional[int] = None
        self.turn: Optional[int] = None
        self.trick: list = []                            # [(seat, tuple of copies)]
        self.pending: list = []                          # copies entered by self.turn, not committed
        self.tricks: list = []                           # [(plays, winner, points)]
        self.won = [0] * n                               # points won per seat
        self.penalties: list = []                        # (at_fault, points, reason)
        self.throw_window = False                        # open play: the lead is a throw open to challenge
        self.follows: list = [[] for _ in range(n)]      # open play evidence: (trick no, lead faces, play faces)
        self.seat_plays: list = [[] for _ in range(n)]   # faces played per seat, per play (open play)
        self.played_count = [0] * n                      # cards committed per seat
        self._deferred_friend = None                     # open play: a throw's friend check waits for the window
        self.undone: list = []                           # (seat, cards, reason) undone by the referee
        self.result: Optional[HandResult] = None
        self._log: list = []                             # accepted events (for referee undo)
        self._play_start: Optional[int] = None           # index in _log where the last committed play began
        self._entry_start: Optional[int] = None
        self._trick_views: tuple = ()                    # finished tricks as the views show them
        self._init_dealer, self._init_first = dealer, first_seat   # for rebuilding on referee undo

    # ------------------------------------------------------------------ queries
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

    def attackers(self) -> tuple:
        dec = set(self.declarers())
        return tuple(s for s in range(self.players) if s not in dec)

    def hand_faces(self, seat: int) -> list:
        return [c.card for c in self.hands[seat]]

    def hand_copies(self, seat: int) -> tuple:
        """The copies seat ``seat`` holds (scanned), in a stable order (face index, then deck)."""
        return tuple(sorted(self.hands[seat], key=hash))   # CardCopy's hash is index·8 + deck

    def lead_count(self) -> int:
        return len(self.trick[0][1]) if self.trick else 0

    def attackers_points(self) -> int:
        att = set(self.attackers())
        return sum(p for s, p in enumerate(self.won) if s in att)

    # ------------------------------------------------------------------ the event loop
    def apply(self, event) -> list:
        """Apply one event; return its effects.  A refused event changes nothing."""
        handler = getattr(self, "_on_" + event.type, None)
        if handler is None:
            return [Refusal(getattr(event, "seat", None), event.type, "table.event",
                            f"a {event.type!r} event does not belong to a hand")]
        if self.phase == "over" and not isinstance(event, ev.RevealKitty):
            return [Refusal(getattr(event, "seat", None), event.type, "table.over", "the hand is over")]
        seat = getattr(event, "seat", None)
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.players):
            return [Refusal(None, event.type, "table.seat", f"there is no seat {seat} at a table of {self.players}")]
        out = handler(event)
        if out and isinstance(out[0], Refusal):
            return out
        self._log.append(event)
        return out

    def _refuse(self, seat, event, rule, reason):
        out = [Refusal(seat, event.type, rule, reason)]
        if seat is not None:
            out.append(Ring(seat, "refused", len(self.pending) if seat == self.turn else 0))
        return out

    def _refuse_shown(self, e, missing: str):
        """The refusal of cards shown for a (counter-)declaration: one physical card twice, or
        (scanned hands) a card the seat does not hold (``missing`` says how); ``None`` when fine."""
        if len(set(e.cards)) != len(e.cards):
            return self._refuse(e.seat, e, "table.twice", "the same physical card is shown twice")
        if self.mode == "scanned":
            for c in e.cards:
                if c not in self.hands[e.seat]:
                    return self._refuse(e.seat, e, "table.not-in-hand", f"seat {e.seat} {missing} {c}")
        return None

    # ------------------------------------------------------------------ deal and draw
    def _on_deal(self, e: ev.Deal):
        if self.phase != "deal":
            return self._refuse(None, e, "table.phase", "this hand has already been dealt")
        copies = tuple(all_copies(self.ruleset.decks))
        if e.order is not None:
            if sorted(e.order) != sorted(copies):
                return self._refuse(None, e, "R-1.1", f"the stack must hold each of the {len(copies)} cards exactly once")
            self.stack = tuple(e.order)
        elif e.seed is not None:
            stack = list(copies)
            random.Random(e.seed).shuffle(stack)
            self.stack = tuple(stack)
        self.phase = "drawing"
        self.turn = self.first_seat
        self.counts = [0] * self.players
        return [Announce("deal", f"Hand {self.number}: dealing, {self.ruleset.hand_size} cards each; "
                                 f"level {level_text(self.level)}.")]

    def next_draw(self):
        """``(seat, copy)`` of the next draw when the stack is known; ``None`` when the draw is done."""
        hs = self.ruleset.hand_size
        if self.phase != "drawing" or self.drawn >= hs * self.players:
            return None
        seat = (self.first_seat + self.drawn) % self.players
        return seat, (self.stack[self.drawn] if self.stack is not None else None)

    def _on_draw(self, e: ev.Draw):
        if self.phase != "drawing":
            return self._refuse(e.seat, e, "table.phase", "the draw is over")
        nxt = self.next_draw()
        if nxt is None:
            return self._refuse(e.seat, e, "R-7.1", "every seat already holds its full hand; the rest is the kitty")
        seat, expected = nxt
        if e.seat != seat:
            return self._refuse(e.seat, e, "table.draw-order", f"it is seat {seat}'s turn to draw, not seat {e.seat}'s")
        if expected is not None and e.copy != expected:
            return self._refuse(e.seat, e, "table.draw-card", f"the next card on the stack is {expected}, not {e.copy}")
        if any(e.copy in h for h in self.hands):
            return self._refuse(e.seat, e, "table.twice", f"{e.copy} was already drawn")
        self.hands[e.seat][e.copy] = None
        self.dealt[e.seat].append(e.copy)
        self.counts[e.seat] += 1
        self.drawn += 1
        return [Ring(e.seat, "accepted", self.counts[e.seat])]

    def declaration_options(self, seat: int, held=None) -> tuple:
        """Every declaration (tuple of faces) seat ``seat`` could validly make now (for bots).

        ``held``: the copies the seat holds, when the engine does not know them (open play: the
        bot driver keeps the hands); default: the seat's scanned hand.
        """
        if not (self.phase == "drawing" and not self.ruleset.bidding) and not self._may_counter(seat):
            return ()
        groups: dict = {}
        for c in (self.hands[seat] if held is None else held):
            f = c.card
            if f.rank == self.level or f.suit == JOKER:
                groups.setdefault(f, 0)
                groups[f] += 1
        if self.ruleset.two_colour:  # a same-colour pair of level cards declares too
            reds = [f for f in groups if f.suit in ("H", "D") and f.rank == self.level]
            blacks = [f for f in groups if f.suit in ("S", "C") and f.rank == self.level]
        out = []
        hidden = self.ruleset.hidden_declarations
        for f, k in sorted(groups.items(), key=lambda kv: kv[0].index):
            for n in range(1, k + 1):
                cards = (f,) * n
                out.append(cards)
        if self.ruleset.two_colour:
            for col in (reds, blacks):
                if len(col) >= 2:
                    out.append(tuple(col[:2]))
        valid = []
        for cards in out:
            if hidden:
                try:
                    declaration_strength(self.ruleset, self.level, cards)
                except ValueError:
                    continue
                mine = [d for d, _ in self.declarations if d.seat == seat]
                if mine and len(cards) <= len(mine[-1].cards):
                    continue
                valid.append(cards)
            elif check_declaration(self.ruleset, self.level, self.standing, Declaration(seat, cards)).valid:
                valid.append(cards)
        return tuple(valid)

    def _may_counter(self, seat: int) -> bool:
        """Three players: seat ``seat`` may counter-declare now (trump named, kitty not yet taken).
        The dealer only answers another seat's counter (the naming was their own call)."""
        return (self.ruleset.bidding and self.phase == "kitty" and self.dealer is not None
                and self.standing is not None
                and (seat != self.dealer or self.standing.seat != self.dealer))

    def _on_declare(self, e: ev.Declare):
        if self.ruleset.bidding and self.phase == "kitty":
            return self._counter(e)
        if self.phase != "drawing":
            return self._refuse(e.seat, e, "R-6.1", "trump is declared only while the cards are drawn")
        if self.ruleset.bidding:
            return self._refuse(e.seat, e, "R-9 bidding", "with bidding the dealer names trump; nobody declares "
                                                          "(a counter-declaration comes after trump is named)")
        bad = self._refuse_shown(e, "has not drawn")
        if bad:
            return bad
        faces = tuple(c.card for c in e.cards)
        decl = Declaration(e.seat, faces)
        if self.ruleset.hidden_declarations:
            try:
                declaration_strength(self.ruleset, self.level, faces)
            except ValueError as exc:
                return self._refuse(e.seat, e, "R-6.5", f"not a declaration: {exc}.")
            self.declarations.append((decl, e.cards))
            return [Announce("declare", f"Seat {e.seat} makes a hidden declaration.", "R-6.5")]
        res = check_declaration(self.ruleset, self.level, self.standing, decl)
        if not res.valid:
            return self._refuse(e.seat, e, res.rule, res.reason)
        self.declarations.append((decl, e.cards))
        self.standing = res.standing
        return [Announce("declare", f"Seat {e.seat} shows {format_cards(faces)}: {res.reason}", res.rule),
                Ring(e.seat, "declarer")]

    def _on_close_declarations(self, e: ev.CloseDeclarations):
        if self.phase != "drawing":
            return self._refuse(None, e, "table.phase", "there is no draw to close")
        hs = self.ruleset.hand_size
        if self.stack is not None or self.mode == "scanned":
            if self.drawn < hs * self.players:
                return self._refuse(None, e, "R-7.1", f"the draw is not finished: {hs * self.players - self.drawn} cards to go")
        out = []
        if self.mode == "scanned" and self.stack is not None:
            self.kitty = list(self.stack[hs * self.players:])
        elif self.mode == "scanned":
            taken = set().union(*[set(h) for h in self.hands])
            self.kitty = sorted(c for c in all_copies(self.ruleset.decks) if c not in taken)
        if self.mode == "open":
            self.counts = [hs] * self.players
        self.dealt_kitty = tuple(self.kitty)
        if self.ruleset.bidding:
            self.phase = "bidding"
            self.bidders = [(self.first_seat + i) % self.players for i in range(self.players)]
            self.turn = self.bidders[0]
            shown = self.kitty[:3]
            self.shown = tuple(shown)
            if shown:
                out.append(Announce("bid", f"Kitty cards shown: {format_cards(c.card for c in shown)}. "
                                           f"Seat {self.turn} bids first.", "R-9 bidding"))
            return out
        if self.ruleset.hidden_declarations and self.declarations:
            _, standing = run_declarations(self.ruleset, self.level, [d for d, _ in self.declarations])
            self.standing = standing
            if standing is not None:
                out.append(Announce("declare", f"Hidden declarations revealed: seat {standing.seat} "
                                               f"with {format_cards(standing.cards)} stands.", "R-6.5"))
        if self.standing is not None:
            self.trump = self.standing.trump
            if self.dealer is None:
                self.dealer = first_dealer(self.standing)
                out.append(Announce("declare", f"Seat {self.dealer}'s call stands: seat {self.dealer} deals.", "R-6.6"))
        else:
            self.trump = default_trump(self.ruleset, [c.card for c in self.kitty], self.level)
            if self.dealer is None:
                self.dealer = self.first_seat
                out.append(Announce("declare", f"Nobody declared: seat {self.dealer}, who drew first, deals.", "R-6.6"))
            out.append(Announce("trump", f"Nobody declared: {_SUIT_NAME[self.trump]} (R-6.4).", "R-6.4"))
        self.level = self.levels[self.dealer]
        return out + self._start_kitty()

    def _start_kitty(self):
        order_mod = _rules()[0]
        self.order = order_mod.TrumpOrder(self.ruleset, self.level, self.trump)
        out = [Announce("trump", f"Trump: {_SUIT_NAME[self.trump]}, level {level_text(self.level)}; "
                                 f"seat {self.dealer} deals.")]
        if self.ruleset.kitty_size:
            self.phase = "kitty"
            self.turn = self.dealer
        else:
            out += self._after_burial()
        return out

    # ------------------------------------------------------------------ bidding (three players, §9)
    def bid_options(self) -> tuple:
        low = self.bid if self.bid is not None else self.ruleset.total_points + 5
        return tuple(range(5, low, 5))

    def _on_bid(self, e: ev.Bid):
        if self.phase != "bidding":
            return self._refuse(e.seat, e, "table.phase", "there is no bidding now")
        if e.seat != self.turn:
            return self._refuse(e.seat, e, "table.out-of-turn", f"it is seat {self.turn}'s turn to bid")
        if e.points is None:
            if self.bid is None and len(self.bidders) == 1:
                return self._refuse(e.seat, e, "R-9 bidding", "nobody has bid yet: the last bidder must bid")
            self.bidders.remove(e.seat)
            self.bids.append((e.seat, None))
            out = [Announce("bid", f"Seat {e.seat} passes.")]
        else:
            if e.points not in self.bid_options():
                low = self.bid if self.bid is not None else self.ruleset.total_points + 5
                return self._refuse(e.seat, e, "R-9 bidding",
                                    f"a bid is a multiple of 5 from 5 and lower than {low}, not {e.points}")
            self.bid = e.points
            self.bids.append((e.seat, e.points))
            out = [Announce("bid", f"Seat {e.seat} bids {e.points}.")]
        if self.bid is not None:
            winner = [s for s, p in self.bids if p == self.bid][-1]
            if self.bidders == [winner]:
                self.dealer = winner
                self.level = self.levels[winner]
                self.phase = "trump"
                self.turn = winner
                return out + [Announce("bid", f"Seat {winner} wins the bidding at {self.bid} and deals.",
                                      "R-9 bidding")]
        # next: the first seat after this one, in playing order, still bidding
        self.turn = next((e.seat + k) % self.players for k in range(1, self.players + 1)
                         if (e.seat + k) % self.players in self.bidders)
        return out

    def _on_name_trump(self, e: ev.NameTrump):
        if self.phase != "trump":
            return self._refuse(e.seat, e, "table.phase", "trump is not named now")
        if e.seat != self.dealer:
            return self._refuse(e.seat, e, "R-9 bidding", f"the dealer (seat {self.dealer}) names trump")
        if e.suit not in ("S", "H", "C", "D", None):
            return self._refuse(e.seat, e, "R-9 bidding", f"trump is S, H, C, D or none, not {e.suit!r}")
        self.trump = e.suit
        # A counter-declaration overcalls the named trump as if the dealer had made the weakest call of
        # it on the classic ladder: a single level card of the suit, or (no trump) a small-joker pair.
        named = (Card(JOKER, SMALL_JOKER_RANK),) * 2 if e.suit is None else (Card(e.suit, self.level),)
        self.standing = Standing(e.seat, e.suit, (), declaration_strength(self.ruleset, self.level, named)[1])
        return self._start_kitty()

    # ------------------------------------------------------------------ counter-declaration (three players)
    def _counter(self, e: ev.Declare):
        """反牌 (seed 000 三人打法): 反牌規則同經典升級 — an overcall of the classic ladder by a player
        other than the dealer, before the dealer takes the kitty; trump changes, the dealer and the
        bid stay; the counter-declarer then swaps 6 cards drawn at random from the kitty.  As in the
        classic rules the dealer may overcall a counter in turn; the whole kitty is theirs anyway,
        so there is no swap."""
        if not self._may_counter(e.seat):
            return self._refuse(e.seat, e, COUNTER_RULE, "the dealer named trump; a counter-declaration (反牌) "
                                                         "is the other players' (the dealer may only answer one)")
        bad = self._refuse_shown(e, "does not hold")
        if bad:
            return bad
        faces = tuple(c.card for c in e.cards)
        res = check_declaration(self.ruleset, self.level, self.standing, Declaration(e.seat, faces))
        if not res.valid:
            return self._refuse(e.seat, e, res.rule, res.reason)
        standing = res.standing
        assert standing is not None                  # a valid declaration always stands
        self.declarations.append((Declaration(e.seat, faces), e.cards))
        self.standing = standing
        self.trump = standing.trump
        self.order = _rules()[0].TrumpOrder(self.ruleset, self.level, self.trump)
        if e.seat == self.dealer:
            return [Announce("declare", f"The dealer, seat {e.seat}, answers with {format_cards(faces)}: trump is "
                                        f"{_SUIT_NAME[self.trump]}. {res.reason}", COUNTER_RULE),
                    Ring(e.seat, "declarer")]
        self.phase = "exchange"
        self.turn = e.seat
        self.exchange = Exchange(e.seat)
        swap = min(COUNTER_SWAP, len(self.kitty) if self.mode == "scanned" else self.ruleset.kitty_size)
        return [Announce("declare", f"Seat {e.seat} counter-declares with {format_cards(faces)}: trump is "
                                    f"{_SUIT_NAME[self.trump]}. {res.reason} Seat {e.seat} now swaps {swap} "
                                    f"cards drawn at random from the kitty.", COUNTER_RULE),
                Ring(e.seat, "declarer")]

    def _on_counter_draw(self, e: ev.CounterDraw):
        x = self.exchange
        if self.phase != "exchange" or x is None or x.drawn is not None:
            return self._refuse(e.seat, e, "table.phase", "cards are drawn from the kitty right after a counter-declaration")
        if e.seat != x.seat:
            return self._refuse(e.seat, e, COUNTER_RULE, f"the counter-declarer (seat {x.seat}) draws from the kitty")
        if self.mode == "open":
            if e.seed is not None or e.copies is not None:
                return self._refuse(e.seat, e, "table.mode", "in open play the kitty is not known: the draw is not scanned")
            drawn: tuple = ()
            k = min(COUNTER_SWAP, self.ruleset.kitty_size)
        elif e.copies is not None:
            k = min(COUNTER_SWAP, len(self.kitty))
            if len(e.copies) != k or len(set(e.copies)) != k or any(c not in self.kitty for c in e.copies):
                return self._refuse(e.seat, e, COUNTER_RULE, f"the counter-declarer draws {k} different cards of the kitty")
            drawn = tuple(e.copies)
        elif e.seed is not None:
            k = min(COUNTER_SWAP, len(self.kitty))
            drawn = tuple(random.Random(e.seed).sample(self.kitty, k))
        else:
            return self._refuse(e.seat, e, COUNTER_RULE, "with scanned hands the draw names its cards (copies) or "
                                                         "carries the seed that picks them")
        for c in drawn:
            self.kitty.remove(c)
            self.hands[e.seat][c] = None
        self.counts[e.seat] += k
        x.drawn = drawn
        x.count = k
        return [Announce("kitty", f"Seat {e.seat} draws {k} cards from the kitty at random and lays {k} back.",
                         COUNTER_RULE), Ring(e.seat, "turn")]

    def _exchange_tap(self, e):
        x = self.exchange
        if x is None or x.drawn is None:
            return self._refuse(e.seat, e, "table.phase", "the counter-declarer draws from the kitty first")
        if e.seat != x.seat:
            return self._refuse(e.seat, e, COUNTER_RULE, f"the counter-declarer (seat {x.seat}) lays cards back")
        if e.copy in x.laid:                       # tapped again: take it back
            x.laid.remove(e.copy)
            return [Ring(e.seat, "pending", len(x.laid))]
        if isinstance(e, ev.TakeBack):
            return self._refuse(e.seat, e, "table.take-back", f"{e.copy} is not among the cards laid back")
        if self.mode == "scanned" and e.copy not in self.hands[e.seat]:
            return self._refuse(e.seat, e, "table.not-in-hand", f"{e.copy} is not in seat {e.seat}'s hand")
        if len(x.laid) >= x.count:
            return self._refuse(e.seat, e, COUNTER_RULE, f"{x.count} cards go back to the kitty")
        x.laid.append(e.copy)
        return [Ring(e.seat, "pending", len(x.laid))]

    def _exchange_confirm(self, e):
        x = self.exchange
        if x is None or x.drawn is None:
            return self._refuse(e.seat, e, "table.phase", "the counter-declarer draws from the kitty first")
        if e.seat != x.seat:
            return self._refuse(e.seat, e, COUNTER_RULE, f"the counter-declarer (seat {x.seat}) lays cards back")
        if len(x.laid) != x.count:
            return self._refuse(e.seat, e, COUNTER_RULE, f"lay back exactly {x.count} cards; {len(x.laid)} are laid")
        for c in x.laid:
            self.hands[e.seat].pop(c, None)
            if self.mode == "scanned":
                self.kitty.append(c)
        self.counts[e.seat] -= x.count
        self.exchanges.append((e.seat, x.drawn, tuple(x.laid)))
        self.exchange = None
        self.phase = "kitty"
        self.turn = self.dealer
        return [Announce("kitty", f"Seat {e.seat} has laid {x.count} cards back in the kitty.", COUNTER_RULE),
                Ring(self.dealer, "turn")]

    # ------------------------------------------------------------------ kitty
    def _on_take_kitty(self, e: ev.TakeKitty):
        if self.phase != "kitty":
            return self._refuse(e.seat, e, "table.phase", "the kitty is not to be taken now")
        if e.seat != self.dealer:
            return self._refuse(e.seat, e, "R-7.2", f"only the dealer (seat {self.dealer}) takes the kitty")
        for c in self.kitty:
            self.hands[e.seat][c] = None
        self.counts[e.seat] += self.ruleset.kitty_size
        self.phase = "burying"
        return [Announce("kitty", f"Seat {e.seat} takes the kitty and buries {self.ruleset.kitty_size} cards.", "R-7.2"),
                Ring(e.seat, "turn")]

    def _on_bury(self, e: ev.BuryCard):
        if self.phase != "burying":
            return self._refuse(e.seat, e, "table.phase", "cards are buried only after taking the kitty")
        if e.seat != self.dealer:
            return self._refuse(e.seat, e, "R-7.2", f"only the dealer (seat {self.dealer}) buries")
        if e.copy in self.buried:                     # tapped again: take it back
            self.buried.remove(e.copy)
            return [Ring(e.seat, "pending", len(self.buried))]
        if self.mode == "scanned" and e.copy not in self.hands[e.seat]:
            return self._refuse(e.seat, e, "table.not-in-hand", f"{e.copy} is not in the dealer's hand")
        if len(self.buried) >= self.ruleset.kitty_size:
            return self._refuse(e.seat, e, "R-7.2", f"the kitty already holds {self.ruleset.kitty_size} cards")
        self.buried.append(e.copy)
        return [Ring(e.seat, "pending", len(self.buried))]

    def _confirm_burial(self, e: ev.Confirm):
        if e.seat != self.dealer:
            return self._refuse(e.seat, e, "R-7.2", f"only the dealer (seat {self.dealer}) buries")
        k = self.ruleset.kitty_size
        if self.mode == "scanned" and len(self.buried) != k:
            return self._refuse(e.seat, e, "R-7.2", f"bury exactly {k} cards; {len(self.buried)} are buried")
        if self.mode == "open" and self.buried and len(self.buried) != k:
            return self._refuse(e.seat, e, "R-7.2", f"bury exactly {k} cards; {len(self.buried)} are buried")
        for c in self.buried:
            self.hands[e.seat].pop(c, None)
        self.counts[e.seat] -= k
        return [Announce("kitty", f"Seat {e.seat} has buried the kitty.", "R-7.2")] + self._after_burial()

    def _after_burial(self):
        if self.ruleset.teams == "find-friend" and self.ruleset.friend_calls:
            self.phase = "friend"
            self.turn = self.dealer
            return [Ring(self.dealer, "turn")]
        return self._start_play()

    def _on_call_friend(self, e: ev.CallFriend):
        if self.phase != "friend":
            return self._refuse(e.seat, e, "table.phase", "friends are called after the burial")
        if e.seat != self.dealer:
            return self._refuse(e.seat, e, FRIEND_RULE, f"the dealer (seat {self.dealer}) calls the friend")
        why = check_calls(self.ruleset, e.calls)
        if why is not None:
            return self._refuse(e.seat, e, FRIEND_RULE, why)
        self.friend_search = FriendSearch(e.calls, self.dealer)
        return [self.friend_search.announce_calls(e.seat)] + self._start_play()

    # ------------------------------------------------------------------ tricks
    def _start_play(self):
        self.phase = "playing"
        self.leader = self.turn = self.dealer
        self.trick = []
        self.pending = []
        return [Ring(self.dealer, "turn")]

    def _on_tap(self, e: ev.Tap):
        if self.phase == "burying":
            return self._on_bury(ev.BuryCard(e.seat, e.copy))
        if self.phase == "exchange":
            return self._exchange_tap(e)
        if self.phase != "playing":
            return self._refuse(e.seat, e, "table.phase", f"cards are not played now (phase: {self.phase})")
        c = e.copy
        if c in self.pending and e.seat == self.turn:
            return self._take_back(e.seat, c)
        if c in self.played:
            here = any(c in cards for _, cards in self.trick)
            if here:
                return self._refuse(e.seat, e, "table.twice", f"{c} is already on the table in this trick")
            return self._refuse(e.seat, e, "table.already-played", f"{c} was played in an earlier trick")
        if c in self.buried:
            return self._refuse(e.seat, e, "table.kitty", f"{c} is in the kitty")
        if self.mode == "scanned" and c not in self.hands[e.seat]:
            owner = next((s for s in range(self.players) if c in self.hands[s]), None)
            if owner is not None:
                return self._refuse(e.seat, e, "table.wrong-seat",
                                    f"{c} belongs to seat {owner}'s hand, not seat {e.seat}'s")
            return self._refuse(e.seat, e, "table.not-in-hand", f"{c} is not in seat {e.seat}'s hand")
        if e.seat != self.turn:
            return self._refuse(e.seat, e, "table.out-of-turn", f"it is seat {self.turn}'s turn, not seat {e.seat}'s")
        if self.mode == "open" and self.played_count[e.seat] + len(self.pending) >= self.counts[e.seat]:
            # open play: one card more than the seat can hold proves a wrong count
            return self._end_by_ruling(e.seat, "R-10.3", f"seat {e.seat} plays a card after its "
                                                        f"{self.counts[e.seat]} cards: a wrong card count")
        if not self.pending:
            self._entry_start = len(self._log)
        self.pending.append(c)
        need = self.lead_count()
        if self.trick and len(self.pending) == need:
            return self._commit_follow(e)
        return [Ring(e.seat, "pending", len(self.pending))]

    def _on_take_back(self, e: ev.TakeBack):
        if self.phase == "exchange":
            return self._exchange_tap(e)
        if self.phase == "burying":
            if e.copy not in self.buried:
                return self._refuse(e.seat, e, "table.take-back", f"{e.copy} is not among the buried cards")
            return self._on_bury(ev.BuryCard(e.seat, e.copy))
        if e.seat != self.turn or e.copy not in self.pending:
            return self._refuse(e.seat, e, "table.take-back",
                                f"{e.copy} is not a pending card of seat {e.seat}; a committed play cannot be taken back (R-10.4)")
        return self._take_back(e.seat, e.copy)

    def _take_back(self, seat, c):
        self.pending.remove(c)
        return [Ring(seat, "pending", len(self.pending))]

    def _on_confirm(self, e: ev.Confirm):
        if self.phase == "burying":
            return self._confirm_burial(e)
        if self.phase == "exchange":
            return self._exchange_confirm(e)
        if self.phase != "playing":
            return self._refuse(e.seat, e, "table.phase", "nothing to confirm now")
        if e.seat != self.turn:
            return self._refuse(e.seat, e, "table.out-of-turn", f"it is seat {self.turn}'s turn, not seat {e.seat}'s")
        if self.trick:
            return self._refuse(e.seat, e, "R-4.4", f"a follower's play commits by itself at {self.lead_count()} cards")
        if not self.pending:
            return self._refuse(e.seat, e, "R-4.1", "tap the cards to lead first")
        return self._commit_lead(e)

    def _commit_lead(self, e):
        order_mod, units, follow, throw, trick, _ = _rules()
        faces = [c.card for c in self.pending]
        suits = {self.order.suit_of(f) for f in faces}
        if len(suits) != 1:
            return self._refuse(e.seat, e, "R-4.1", "a lead is one unit or a throw of one effective suit")
        out = []
        cards = tuple(self.pending)
        is_throw = throw.is_throw(faces, self.order)
        self.throw_window = False
        if is_throw and self.ruleset.throws == "none":
            return self._refuse(e.seat, e, "R-9 bidding", "throws are not allowed with this ruleset: lead one unit")
        if is_throw and self.mode == "scanned":
            others = {s: self.hand_faces(s) for s in range(self.players) if s != e.seat}
            chk = throw.check_throw(faces, others, self.order)
            if not chk.ok:
                cards = _pick(cards, chk.forced)
                out += self._throw_failed(e.seat, chk, len(faces) - len(cards))
        elif is_throw:
            self.throw_window = True
            out.append(Announce("throw", f"Seat {e.seat} throws {format_cards(faces)}: opponents may challenge.", "R-4.3"))
        self._commit(e.seat, cards)
        out += self._after_commit(e.seat, cards)
        if self.mode == "open" and self.phase == "playing":
            out += self._check_revoke(e.seat)        # a lead is evidence too
        return out

    def _throw_failed(self, seat, chk, withdrawn: int):
        out = [Announce("throw", f"Seat {seat}'s throw fails: {chk.reason} Played: {format_cards(chk.forced)}.", chk.rule)]
        if withdrawn and self.ruleset.throw_penalty != "none":
            pen = throw_penalty(self.ruleset, withdrawn, by_declarers=seat in self.declarers())
            # stored unsigned: the sign follows the side of the seat at the end (find-a-friend teams)
            self.penalties.append((seat, abs(pen.points), pen.reason))
            out.append(Announce("throw", f"Penalty against seat {seat}'s side: {pen.reason}", pen.rule))
        return out

    def _commit_follow(self, e):
        _, units, follow, throw, trick, _ = _rules()
        faces = [c.card for c in self.pending]
        lead = [c.card for c in self.trick[0][1]]
        if self.mode == "scanned":
            v = follow.check_follow(lead, faces, self.hand_faces(e.seat), self.order)
            if not v.ok:
                self.pending.pop()
                return self._refuse(e.seat, e, v.rule, v.reason)
        cards = tuple(self.pending)
        self.throw_window = False
        self._commit(e.seat, cards)
        out = self._after_commit(e.seat, cards)
        if self.mode == "open" and self.phase == "playing":
            out += self._check_revoke(e.seat)
        return out

    def _commit(self, seat, cards):
        self._play_start = self._entry_start
        self.trick.append((seat, cards))
        self.pending = []
        for c in cards:
            self.played.add(c)
            self.hands[seat].pop(c, None)
        self.seat_plays[seat].append(tuple(c.card for c in cards))
        self.played_count[seat] += len(cards)
        if len(self.trick) > 1:
            self.follows[seat].append((len(self.tricks), tuple(c.card for c in self.trick[0][1]),
                                       tuple(c.card for c in cards), len(self.seat_plays[seat]) - 1))

    def _after_commit(self, seat, cards):
        out = [Ring(seat, "accepted", len(cards))]
        if self._deferred_friend is not None:           # the challenge window has closed
            out += self._friend_check(*self._deferred_friend)
            self._deferred_friend = None
        if self.throw_window:
            self._deferred_friend = (seat, cards)       # the throw may still shrink
        else:
            out += self._friend_check(seat, cards)
        if len(self.trick) < self.players:
            self.turn = (seat + 1) % self.players
            out.append(Ring(self.turn, "turn"))
            return out
        return out + self._finish_trick()

    def _friend_check(self, seat, cards):
        return self.friend_search.observe(seat, cards) if self.friend_search is not None else []

    def _finish_trick(self):
        _, _, _, _, trick, _ = _rules()
        plays = [trick.Play(s, tuple(c.card for c in cards)) for s, cards in self.trick]
        wi = trick.winning_index(plays, self.order)
        winner = self.trick[wi][0]
        pts = trick.trick_points(plays)
        self.tricks.append((tuple(self.trick), winner, pts))
        self._trick_views += (TrickView(tuple(plays), winner, pts),)
        self.won[winner] += pts
        self.trick = []
        self.leader = self.turn = winner
        shown = " · ".join(f"seat {p.seat} " + " ".join(c.unicode() for c in p.cards) for p in plays)
        out = [Ring(winner, "won"), Announce("trick", f"Trick {len(self.tricks)} to seat {winner}"
                                                       + (f", {pts} points" if pts else "") + f": {shown}.", "R-5")]
        if self._all_played():
            out += self._end_of_play()
        else:
            out.append(Ring(winner, "turn"))
        return out

    def _all_played(self):
        if self.mode == "scanned":
            return not any(self.hands)
        return sum(len(p) for p in self.seat_plays[0]) >= self.counts[0]

    # ------------------------------------------------------------------ open play: evidence and challenges
    def _check_revoke(self, seat):
        """R-10.2 in open play: a follow proven illegal by the cards the seat has played since."""
        _, _, follow, _, _, _ = _rules()
        plays = self.seat_plays[seat]
        # Every play of the seat re-checks its earlier follows, so only the play just made is new
        # evidence — and a follow's verdict depends only on the led suit's cards in the hand.
        suit_of = self.order.suit_of
        new_suits = {suit_of(f) for f in plays[-1]} if plays else set()
        for trick_no, lead, faces, idx in self.follows[seat]:
            if idx == len(plays) - 1 and trick_no == len(self.tricks):
                continue  # the play just made is checked by later evidence only
            if suit_of(lead[0]) not in new_suits:
                continue  # nothing new about the led suit: the last verdict stands
            known = [f for p in plays[idx:] for f in p]
            v = follow.check_follow(list(lead), list(faces), known, self.order)
            if not v.ok:
                later = [f for p in plays[idx + 1:] for f in p]
                why = (f"seat {seat} revoked in trick {trick_no + 1}: later plays ({format_cards(later)}) "
                       f"prove it could have followed. {v.reason}")
                return self._end_by_ruling(seat, "R-10.2", why)
        return []

    def _on_challenge(self, e: ev.Challenge):
        _, _, _, throw, _, _ = _rules()
        if self.mode != "open":
            return self._refuse(e.seat, e, "R-4.3", "with scanned hands every throw is checked at once")
        if self.phase != "playing" or not self.throw_window or len(self.trick) != 1:
            return self._refuse(e.seat, e, "R-4.3", "there is no throw open to challenge now")
        leader, lead_cards = self.trick[0]
        if e.seat == leader or (self._same_side(e.seat, leader)):
            return self._refuse(e.seat, e, "R-4.3", "only an opponent of the thrower challenges")
        if any(c in self.played for c in e.cards):
            return self._refuse(e.seat, e, "table.already-played", "a card shown has already been played")
        lead = [c.card for c in lead_cards]
        chk = throw.check_throw(lead, {e.seat: [c.card for c in e.cards]}, self.order)
        if chk.ok:
            return self._refuse(e.seat, e, "R-4.2", "the cards shown beat no unit of the throw")
        forced = _pick(lead_cards, chk.forced)
        for c in lead_cards:
            if c not in forced:
                self.played.discard(c)
        self.trick = [(leader, forced)]
        self.seat_plays[leader][-1] = tuple(c.card for c in forced)
        self.played_count[leader] -= len(lead_cards) - len(forced)
        if self._deferred_friend is not None:
            self._deferred_friend = (leader, forced)
        self.pending = []
        self.throw_window = False
        out = self._throw_failed(leader, chk, len(lead_cards) - len(forced))
        out.append(Announce("throw", f"Seat {e.seat} challenged with {format_cards(c.card for c in e.cards)}.", "R-4.3"))
        return out

    def challengers(self) -> tuple:
        """Open play: the seats that may challenge the throw just led now (R-4.3), in playing order
        after the thrower; empty when no throw is open to challenge."""
        if self.mode != "open" or self.phase != "playing" or not self.throw_window or len(self.trick) != 1:
            return ()
        leader = self.trick[0][0]
        seats = ((leader + k) % self.players for k in range(1, self.players))
        return tuple(s for s in seats if not self._same_side(s, leader))

    def _same_side(self, a, b):
        if self.ruleset.teams == "fixed":
            return (a - b) % 2 == 0
        dec = set(self.declarers())
        return a in dec and b in dec

    def _on_reveal_kitty(self, e: ev.RevealKitty):
        if self.mode != "open":
            return self._refuse(None, e, "table.phase", "with scanned hands the kitty is known")
        if self.phase != "over" or self.result is not None:
            return self._refuse(None, e, "table.phase", "the kitty is revealed once, after the last trick")
        self.kitty_revealed = tuple(e.cards)
        size = check_kitty_size(self.ruleset, len(e.cards))
        if not size.ok:
            return self._end_by_ruling(self.dealer, size.rule, size.reason)
        return self._settle()

    # ------------------------------------------------------------------ settlement
    def _end_of_play(self):
        self.phase = "over"
        if self.mode == "open":
            return [Announce("kitty", "Last trick played: reveal the kitty.", "R-7.3")]
        return self._settle()

    def _settle(self):
        _, units, _, _, trick, kitty = _rules()
        dec, att = self.declarers(), self.attackers()
        captured = self.attackers_points()
        plays, winner, _ = self.tricks[-1]
        win_play = next(cards for s, cards in plays if s == winner)
        win_faces = [c.card for c in win_play]
        kitty_cards = [c.card for c in (self.kitty_revealed if self.mode == "open" else self.buried)]
        kitty_points = sum(c.points for c in kitty_cards)
        mult, bonus = 0, 0
        if winner in att:
            mult = kitty.kitty_multiplier(self.ruleset, win_faces, self.order)
            bonus = kitty.kitty_bonus(self.ruleset, kitty_cards, win_faces, self.order)
        penalty = sum(p if s in dec else -p for s, p, _ in self.penalties)
        p = captured + bonus + penalty
        s = settle(self.ruleset, p, bid=self.bid) if self.ruleset.bidding else settle(self.ruleset, p)
        self.result = HandResult(settlement=s, declarers=dec, attackers=att, captured=captured,
                                 kitty_points=kitty_points, multiplier=mult, bonus=bonus, penalty=penalty,
                                 last_winner=winner, last_cards=tuple(win_faces), ruling=None, at_fault=None,
                                 bid=self.bid)
        self.phase = "over"
        text = (f"Attackers captured {captured}" + (f", kitty {kitty_points} × {mult} = {bonus}" if bonus else "")
                + (f", penalties {penalty:+d}" if penalty else "") + f": {p} points. {s.reason}")
        return [Announce("settle", text, s.rule)]

    def _end_by_ruling(self, at_fault, rule, reason):
        """End the hand against the side of ``at_fault`` (R-10.2 revoke / R-10.3 wrong count)."""
        if self.dealer is None:
            self.dealer = self.first_seat
        dec, att = self.declarers(), self.attackers()
        by_declarers = at_fault in dec
        base = revoke(self.ruleset, by_declarers=by_declarers) if rule == "R-10.2" else \
            wrong_count(self.ruleset, by_declarers=by_declarers)
        s = Settlement(base.attackers_points, base.declarers_levels, base.attackers_levels, base.takeover,
                       base.rule, f"{reason} — {base.reason}")
        self.result = HandResult(settlement=s, declarers=dec, attackers=att, captured=self.attackers_points(),
                                 kitty_points=None, multiplier=0, bonus=0, penalty=0, last_winner=None,
                                 last_cards=(), ruling=rule, at_fault=at_fault, bid=self.bid)
        self.phase = "over"
        self.pending = []
        return [Announce("revoke" if rule == "R-10.2" else "referee", s.reason, rule)]

    # ------------------------------------------------------------------ referee: see referee.py
    def _on_referee_penalty(self, e: ev.RefereePenalty):
        return referee.award_penalty(self, e)

    def _on_referee_end_hand(self, e: ev.RefereeEndHand):
        return referee.end_hand(self, e)

    def _on_referee_undo(self, e: ev.RefereeUndo):
        return referee.undo_last_play(self, e)

    # ------------------------------------------------------------------ views and snapshots
    def expect(self, seat: int) -> Expect:
        """What the game waits for from ``seat`` now."""
        ph = self.phase
        if ph == "drawing":
            return Expect("declare", 0, self.declaration_options(seat))
        if ph == "bidding" and seat == self.turn:
            return Expect("bid", 0, self.bid_options())
        if ph == "trump" and seat == self.dealer:
            return Expect("name_trump", 0, ("S", "H", "C", "D", None))
        if ph in ("kitty", "burying") and seat == self.dealer:
            return Expect("bury", self.ruleset.kitty_size)
        if ph == "kitty" and self._may_counter(seat):
            return Expect("declare", 0, self.declaration_options(seat))
        if ph == "exchange" and self.exchange is not None and seat == self.exchange.seat \
                and self.exchange.drawn is not None:
            return Expect("bury", self.exchange.count)
        if ph == "friend" and seat == self.dealer:
            return Expect("call_friend", self.ruleset.friend_calls)
        if ph == "playing" and seat == self.turn:
            return Expect("follow", self.lead_count()) if self.trick else Expect("lead")
        return Expect("none")

    def view(self, seat: int, expect: Optional[Expect] = None) -> SeatView:
        """The read-only view of seat ``seat`` (see ``view.py``)."""
        from ..rules.trick import Play
        holds_kitty = seat == self.dealer and self.phase in ("burying", "friend", "playing", "over")
        return SeatView(
            ruleset=self.ruleset, seat=seat, players=self.players, phase=self.phase, level=self.level,
            levels=self.levels, trump=self.trump if self.order is not None else
            (self.standing.trump if self.standing is not None and not self.ruleset.hidden_declarations else None),
            order=self.order, hand=tuple(c.card for c in sorted(self.hands[seat], key=hash)),
            trick=tuple(Play(s, tuple(c.card for c in cards)) for s, cards in self.trick),
            leader=self.leader,
            tricks=self._trick_views,
            points=tuple(self.won), attackers_points=self.attackers_points() if self.dealer is not None else 0,
            dealer=self.dealer, declarers=frozenset(self.declarers()), friend_calls=self.friend_calls,
            kitty=tuple(c.card for c in (self.buried if self.phase != "burying" else self.kitty)) if holds_kitty else None,
            shown_kitty=tuple(c.card for c in self.shown),
            standing_bid=self.bid, expect=expect if expect is not None else self.expect(seat),
            standing_seat=self.standing.seat if self.standing is not None and not self.ruleset.hidden_declarations
            else None,
        )

    def snapshot(self) -> dict:
        """The whole state as plain JSON values (for replay equality and the referee's view)."""
        def cs(xs):
            return [str(c) for c in xs]
        return {
            "number": self.number, "mode": self.mode, "phase": self.phase, "dealer": self.dealer,
            "level": self.level, "levels": list(self.levels), "trump": self.trump,
            "hands": [cs(self.hand_copies(s)) for s in range(self.players)], "counts": list(self.counts),
            "declarations": [[d.seat, cs(copies)] for d, copies in self.declarations],
            "standing": None if self.standing is None else [self.standing.seat, self.standing.trump, cs(self.standing.cards)],
            "kitty": cs(self.kitty), "buried": cs(self.buried),
            "kitty_revealed": None if self.kitty_revealed is None else cs(self.kitty_revealed),
            "bids": [list(b) for b in self.bids], "bid": self.bid,
            "exchange": None if self.exchange is None else
            [self.exchange.seat, None if self.exchange.drawn is None else cs(self.exchange.drawn),
             cs(self.exchange.laid)],
            "exchanges": [[seat, cs(drawn), cs(laid)] for seat, drawn, laid in self.exchanges],
            "friend_calls": [[str(c), n] for c, n in self.friend_calls], "friends": list(self.friends),
            "leader": self.leader, "turn": self.turn,
            "trick": [[s, cs(cards)] for s, cards in self.trick], "pending": cs(self.pending),
            "tricks": [[[[s, cs(cards)] for s, cards in plays], w, p] for plays, w, p in self.tricks],
            "won": list(self.won), "penalties": [list(p) for p in self.penalties],
            "undone": [[s, cs(c), r] for s, c, r in self.undone],
            "result": None if self.result is None else self.result.to_json(),
        }


def _pick(copies, faces) -> tuple:
    """The copies among ``copies`` that make up ``faces`` (a forced unit of a failed throw)."""
    pool = list(copies)
    out = []
    for f in faces:
        for c in pool:
            if c.card is f:
                out.append(c)
                pool.remove(c)
                break
    return tuple(out)
