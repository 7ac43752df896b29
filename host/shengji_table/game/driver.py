"""Run a match with bots by producing the events a physical table produces.

The driver plays the table's part: it deals (a :class:`Deal` with an explicit seed), moves each card
of the stack to its seat (:class:`Draw`), asks the seat whose hand just changed whether it declares,
closes the draw, and then for every decision asks the bot in that seat (``bot.choose(view)``) and
turns the answer into card entry exactly as a person would do it: each card tapped at the seat's
reader, then the button for a lead or a burial.  So bots exercise the real card-entry path, and a
bot's illegal play is refused like anyone's — which the driver reports as :class:`DriverError`.

Both ways to know the hands (``match.mode``):

* ``scanned`` — the deal carries the seed, every card reaches its seat by a :class:`Draw`, and the
  engine knows every hand.
* ``open`` — the engine does not know the hands, so the driver plays the physical table that keeps
  them apart: it shuffles with the same seed (the same deal as in scanned mode), sends a
  :class:`Deal` without seed and no draws, keeps each seat's cards and the kitty itself
  (:attr:`Driver.held`, :attr:`Driver.kitty`), shows each bot its own cards, and turns over the
  buried kitty after the last trick (:class:`RevealKitty`).  After a throw, the first opponent (in
  playing order) holding a unit that beats it challenges by showing that unit (R-4.3).
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..rules.cards import COPY_KEY, JOKER, all_copies
from . import events as ev
from . import decisions as dd
from . import view as dv
from .effects import Refusal
from .hand import Hand
from .hand.draw import shuffled
from .hand.kitty import holder as kitty_holder
from .match import Match
from .phase import OPEN, Phase

__all__ = ["Driver", "DriverError", "run_match"]

_OVER, _PLAYING = Phase.OVER, Phase.PLAYING   # read at every step: an enum member's look-up is not free


class DriverError(RuntimeError):
    """A bot answered something the game refused, or answered the wrong kind of decision."""


class Driver:
    """Drives ``match`` with one bot per seat.  ``on_event(event, effects)`` sees every step."""

    def __init__(self, match: Match, bots: Sequence, on_event: Callable | None = None,
                 check: Callable | None = None, *, counter_declarations: bool = True,
                 scan_burial: bool = True):
        """``counter_declarations=False``: three players, never offer the counter-declaration (反牌)
        — for a table that cannot yet perform its ``counter_draw``.  ``scan_burial=False``: open
        play, the dealer lays the kitty down face down without tapping it (only the button), as an
        open table may; the engine learns the cards when the kitty is revealed after the last trick."""
        if len(bots) != match.players:
            raise ValueError(f"{match.players} seats need {match.players} bots, not {len(bots)}")
        self.match = match
        self.bots = list(bots)
        self.on_event = on_event
        self.check = check            # called with the match after every event (tests: conservation)
        # Open play: the physical cards the engine does not see (the table keeps them apart).
        # the copies each seat holds (played ones included until committed)
        self.held: list = [[] for _ in range(match.players)]
        self.kitty: list = []          # the face-down kitty: as dealt, then as buried
        self._shown: tuple = ()        # three-player bidding: the kitty cards shown to everybody
        self._picked_up: tuple = ()    # the kitty as the dealer picked it up (the dealer's view while burying)
        self._rng_seed = 0             # seeds the counter-declarer's random draw from the kitty (three players)
        self._rng_now: random.Random | None = None
        self._countered = False        # three players: the counter-declaration round has been offered
        self.counter_declarations = counter_declarations
        self.scan_burial = scan_burial
        self._open = match.mode == OPEN
        # the events the driver sends most, one instance each (events are immutable): a tap of a
        # copy (by its key) at a seat, a seat's button (and for the process, the draws: _DRAWS)
        self._taps: list = [{} for _ in range(match.players)]
        self._confirms = tuple(ev.Confirm(s) for s in range(match.players))
        self._apply = match.apply
        self._plain_now = False                  # finish_hand: whether plays may skip send (_plain)

    # ------------------------------------------------------------------
    def send(self, event):
        """Apply ``event`` to the match and return its effects; a refusal raises :class:`DriverError`.
        ``on_event`` and ``check`` (as given at construction) see it after."""
        effects = self._apply(event)
        if effects and type(effects[0]) is Refusal:
            raise _refused(event, effects[0])
        if self.on_event is not None:
            self.on_event(event, effects)
        if self.check is not None:
            self.check(self.match)
        return effects

    def _plain(self) -> bool:
        """Whether an event may skip :meth:`send` (and its frame): no hooks to call, no subclass's
        own ``send`` to run."""
        return self.on_event is None and self.check is None and type(self).send is Driver.send

    @property
    def _rng(self) -> random.Random:
        """The counter-declarer's random draw from the kitty (three players), seeded per hand and
        built when first used: seeding costs as much as a few events, and few hands draw."""
        rng = self._rng_now
        if rng is None:
            rng = self._rng_now = random.Random(self._rng_seed)
        return rng

    def _hand(self) -> Hand:
        hand = self.match.hand
        if hand is None:
            raise DriverError("no hand has been dealt yet")
        return hand

    @property
    def open(self) -> bool:
        """Whether the match is in open play (the driver keeps the hands)."""
        return self._open

    def hidden_hand(self, seat: int) -> list:
        """Open play: the copies ``seat`` physically holds now (pending cards included)."""
        played = self._hand().played
        return [c for c in self.held[seat] if c not in played]

    def view(self, seat: int, expect=None):
        """The view bots get: the engine's, with the seat's own cards filled in in open play."""
        hand = self.match.hand
        if hand is None:
            raise DriverError("no hand has been dealt yet")
        v = hand.view(seat, expect)
        if not self._open:
            return v
        kitty = v.kitty
        if kitty is not None:              # the dealer: the kitty picked up, then the cards buried
            kitty = tuple(c.card for c in (self._picked_up if hand.phase == Phase.BURYING else self.kitty))
        return v._replace(hand=tuple(c.card for c in sorted(self.hidden_hand(seat), key=COPY_KEY)),
                          kitty=kitty,
                          shown_kitty=self._shown if self.match.ruleset.bidding else v.shown_kitty)

    def _ask(self, seat: int, expect=None):
        return self.bots[seat].choose(self.view(seat, expect))

    def _copies(self, seat: int, faces, exclude=()) -> list:
        """Physical copies in ``seat``'s hand for these faces: for each face, the first copies of it
        in the hand's order (the order the seat received them)."""
        hand = self.match.hand
        assert hand is not None, "copies are picked for a hand in play"
        held = self.hidden_hand(seat) if self._open else hand.hands[seat]
        if len(faces) == 1 and not exclude:    # most plays: one card, the first copy of its face
            return [_first_copy(held, faces[0], seat)]
        out: list = []
        for f in faces:             # a pair or a throw: a scan of the hand per card, short in practice
            for c in held:
                if c.card is f and c not in out and not (exclude and c in exclude):
                    out.append(c)
                    break
            else:
                raise DriverError(f"seat {seat} chose {f}, which it does not hold")
        return out

    # ------------------------------------------------------------------
    def play_hand(self, seed: int, order: tuple | None = None):
        """Deal with ``seed`` and play the hand to its settlement (open play: the driver shuffles
        with ``seed`` and keeps the hands; the engine's deal carries no seed).  ``order``: deal that
        explicit stack instead of a shuffle (a duplicate board); ``seed`` still seeds the rest."""
        self._rng_seed, self._rng_now = seed ^ 0x5EED, None   # the counter-declarer's random draw (three players)
        if self._open:
            return self._play_open_hand(seed, order)
        self.send(ev.Deal(seed=seed) if order is None else ev.Deal(order=tuple(order)))
        self._draw_deal(self._hand())
        self.send(ev.CloseDeclarations())
        return self.finish_hand()

    def _draw_deal(self, hand: Hand) -> None:
        """The deal's draws in order — each seat's turn (``hand.draw_seats``) and the stack's next
        copy (``hand.next_draw`` for each, without the call) — each level card or joker drawn
        followed by its seat's offer to declare; a refused draw raises.  With no hook to see each
        draw (``_plain``) the draws between two offers go to the match as one run."""
        offers, level = not self.match.ruleset.bidding, hand.level
        draws, send, plain, run = _DRAWS, self.send, self._plain(), []
        for seat, copy in zip(hand.draw_seats, hand.stack or ()):
            e = draws[seat].get(copy.key)          # keyed by the copy's number: hashed in C
            if e is None:
                e = draws[seat][copy.key] = ev.Draw(seat, copy)
            offer = offers and (copy.card.rank == level or copy.card.suit == JOKER)
            if plain:
                run.append(e)
                if not offer:
                    continue
                self._apply_draws(run)             # the draws so far, before the offer
                run = []
            else:
                send(e)
            if offer:
                self._offer_declaration(seat)
        if run:
            self._apply_draws(run)

    def _apply_draws(self, run: list) -> None:
        bad = self.match.apply_draws(run)
        if bad is not None:
            raise _refused(run[bad[0]], bad[1])

    def _play_open_hand(self, seed: int, order: tuple | None = None):
        m = self.match
        self.send(ev.Deal())
        hand = self._hand()
        rs = m.ruleset
        # the same deal as a scanned Deal(seed=seed)
        stack = list(shuffled(all_copies(rs.decks), seed) if order is None else order)
        n, hs = m.players, rs.hand_size
        self.held = [[] for _ in range(n)]
        self._picked_up = ()
        for i in range(hs * n):                  # the draw happens at the table; nobody reports it
            seat, copy = (hand.first_seat + i) % n, stack[i]
            self.held[seat].append(copy)
            if not rs.bidding and (copy.card.rank == hand.level or copy.card.suit == JOKER):
                self._offer_declaration(seat)
        self.kitty = stack[hs * n:]
        self._shown = tuple(c.card for c in self.kitty[:3]) if rs.bidding else ()
        self.send(ev.CloseDeclarations())
        return self.finish_hand()

    def _offer_declaration(self, seat: int) -> bool:
        hand = self._hand()
        opts = hand.declaration_options(seat, held=self.hidden_hand(seat) if self._open else None)
        if not opts:
            return False
        d = self._ask(seat, dv.Expect("declare", 0, opts))
        if isinstance(d, dd.Declare):
            self.send(ev.Declare(seat, tuple(self._copies(seat, d.cards))))
            return True
        if not isinstance(d, dd.Pass):
            raise DriverError(f"seat {seat} answered {d!r} to a declare question")
        return False

    def _challenge(self):
        """Open play, a throw just led: the first opponent holding a unit that beats it shows it."""
        from ..rules.throw import check_throw
        hand = self._hand()
        lead = [c.card for c in hand.trick[0][1]]
        for seat in hand.challengers():
            chk = check_throw(lead, {seat: [c.card for c in self.hidden_hand(seat)]}, hand.order)
            if not chk.ok and chk.beaten_by is not None:
                self.send(ev.Challenge(seat, tuple(self._copies(seat, chk.beaten_by[1]))))
                return seat
        return None

    def _reveal_kitty(self):
        """Open play, after the last trick: the buried kitty is turned over and scanned."""
        self.send(ev.RevealKitty(tuple(self.kitty)))

    def _counter_round(self):
        """Three players, trump named: the seats, in turn from the dealer's left, may counter-declare
        (反牌; the dealer only to answer a counter) until every seat has passed in a row; a counter
        by a non-dealer is followed by its swap with the kitty.  Each call is stronger than the
        last, so this ends."""
        hand = self._hand()
        n = self.match.players
        seat, passes = hand.dealer_seat(), 0
        while passes < n and hand.phase == Phase.KITTY:
            seat = (seat + 1) % n
            if self._offer_declaration(seat):
                if hand.phase == Phase.EXCHANGE:  # the dealer's answer to a counter has no swap
                    self._exchange(seat)
                passes = 0
            else:
                passes += 1

    def _exchange(self, seat: int):
        """The counter-declarer draws 6 kitty cards at random (scanned: by a seed in the event; open:
        the table's own draw) and lays back the 6 its bot chooses."""
        hand = self._hand()
        if hand.exchange is not None and hand.exchange.drawn is None:
            if self._open:
                drawn = self._rng.sample(self.kitty, min(len(self.kitty), 6))
                for c in drawn:
                    self.kitty.remove(c)
                self.held[seat].extend(drawn)
                self.send(ev.CounterDraw(seat))
            else:
                self.send(ev.CounterDraw(seat, seed=self._rng.randrange(2 ** 31)))
        d = self._ask(seat)
        if not isinstance(d, dd.Bury):
            raise DriverError(f"seat {seat} answered {d!r} when laying cards back in the kitty")
        cards = self._copies(seat, d.cards)
        for c in cards:
            self.send(ev.Tap(seat, c))
        if self._open:
            for c in cards:
                self.held[seat].remove(c)
            self.kitty.extend(cards)
        self.send(ev.Confirm(seat))

    def finish_hand(self):
        """Play the current hand from wherever it is (after the draw) to its end: each phase's
        step (``_PHASES``) until the hand is over."""
        hand = self._hand()
        self._countered = not self.counter_declarations or hand.phase not in _BEFORE_KITTY
        self._plain_now = self._plain()          # read at every play (_on_playing)
        play = self._PHASES[_PLAYING]            # the step of most steps, without the table's look-up
        while hand.phase is not _OVER:
            if hand.phase is _PLAYING:
                play(self, hand)
                continue
            step = self._PHASES.get(hand.phase)
            if step is None:
                raise DriverError(_unknown(hand.phase))
            step(self, hand)
        if self._open and hand.result is None:
            self._reveal_kitty()
        return hand

    # ---- one step of each phase ------------------------------------------------------------------
    def _on_bidding(self, hand):
        seat = hand.turn
        d = self._ask(seat)
        if isinstance(d, dd.Bid):
            self.send(ev.Bid(seat, d.points))
        elif isinstance(d, dd.Pass):
            self.send(ev.Bid(seat, None))
        else:
            raise DriverError(f"seat {seat} answered {d!r} to a bid question")

    def _on_trump(self, hand):
        d = self._ask(hand.dealer)
        if not isinstance(d, dd.NameTrump):
            raise DriverError(f"seat {hand.dealer} answered {d!r} when naming trump")
        self.send(ev.NameTrump(hand.dealer, d.suit))

    def _on_exchange(self, hand):
        if hand.exchange is None:
            raise DriverError(_unknown(hand.phase))
        self._exchange(hand.exchange.seat)       # three players: a counter-declarer's swap

    def _on_kitty(self, hand):
        if self.match.ruleset.bidding and not self._countered:
            self._countered = True
            self._counter_round()
            return
        if self._open:                     # the dealer picks the kitty up
            self._picked_up = tuple(self.kitty)
            self.held[hand.dealer].extend(self.kitty)
            self.kitty = []
        self.send(ev.TakeKitty(hand.dealer))

    def _on_steal(self, hand):
        """炒地皮 (R-7.4): the seats after the kitty's holder, in turn, may counter; the first who
        does takes the kitty (open play: picks it up) and buries; nobody does: the round closes."""
        n, who = self.match.players, kitty_holder(hand)
        for k in range(1, n):
            seat = (who + k) % n
            if self._offer_declaration(seat):
                if self._open:
                    self.held[seat].extend(self.kitty)
                    self.kitty = []
                return
        self.send(ev.CloseDeclarations())

    def _on_burying(self, hand):
        seat = kitty_holder(hand)
        d = self._ask(seat)
        if not isinstance(d, dd.Bury):
            raise DriverError(f"seat {seat} answered {d!r} to a bury question")
        cards = self._copies(seat, d.cards)
        if self.scan_burial or not self._open:
            for c in cards:
                self.send(ev.Tap(seat, c))
        if self._open:                     # laid face down: the kitty again
            for c in cards:
                self.held[seat].remove(c)
            self.kitty = list(cards)
        self.send(ev.Confirm(seat))

    def _on_friend(self, hand):
        seat = hand.dealer
        d = self._ask(seat)
        if not isinstance(d, dd.CallFriend):
            raise DriverError(f"seat {seat} answered {d!r} to a friend call")
        self.send(ev.CallFriend(seat, tuple((c.card, c.nth) for c in d.calls)))

    def _on_playing(self, hand):
        seat = hand.turn
        leading = not hand.trick
        d = self.bots[seat].choose(self.view(seat) if self._open else hand.view(seat))
        if type(d) is not dd.PlayCards and not isinstance(d, dd.PlayCards):
            raise DriverError(f"seat {seat} answered {d!r} to a play question")
        taps = self._taps[seat]
        cards = d.cards
        if len(cards) == 1 and not self._open:   # most plays: one card, its first copy in the hand
            face = cards[0]
            for c in hand.hands[seat]:          # _first_copy without its call
                if c.card is face:
                    break
            else:
                raise DriverError(f"seat {seat} chose {face}, which it does not hold")
            copies: Sequence = (c,)
        else:
            copies = self._copies(seat, cards)
        # send without its frame when it only applies (no hooks, no subclass's send)
        plain = self._plain_now
        send = self._apply if plain else self.send
        for c in copies:
            e = taps.get(c.key)
            if e is None:
                e = taps[c.key] = ev.Tap(seat, c)
            out = send(e)
            if plain and out and type(out[0]) is Refusal:
                raise _refused(e, out[0])
        if leading:
            e = self._confirms[seat]
            out = send(e)
            if plain and type(out[0]) is Refusal:
                raise _refused(e, out[0])
            if self._open and hand.throw_window:
                self._challenge()

    # the step of each phase finish_hand plays (the draw is play_hand's)
    _PHASES: dict = {Phase.BIDDING: _on_bidding, Phase.TRUMP: _on_trump, Phase.EXCHANGE: _on_exchange,
                     Phase.KITTY: _on_kitty, Phase.BURYING: _on_burying, Phase.STEAL: _on_steal,
                     Phase.FRIEND: _on_friend,
                     Phase.PLAYING: _on_playing}


# a draw of a copy (by its number) at a seat, one instance for the process (events are immutable):
# a deal sends each copy to a seat of its own, so a driver's own table would fill slowly
_DRAWS: tuple = tuple({} for _ in range(6))

# the phases before the kitty is taken: finish_hand from there still offers the counter-declarations
_BEFORE_KITTY = (Phase.DRAWING, Phase.BIDDING, Phase.TRUMP, Phase.KITTY)


def _refused(event, r: Refusal) -> DriverError:
    return DriverError(f"{event.type} by seat {r.seat} refused: {r.rule}: {r.reason}")


def _first_copy(held, face, seat: int):
    """The first copy of ``face`` in ``held`` (the order the seat received them)."""
    for c in held:
        if c.card is face:                     # faces are interned: identity is equality
            return c
    raise DriverError(f"seat {seat} chose {face}, which it does not hold")


def _unknown(phase) -> str:
    return f"the driver does not know phase {str(phase)!r}"


def run_match(match: Match, bots: Sequence, seeds, on_event=None, check=None) -> Match:
    """Play one hand per seed (stopping early when the match is over)."""
    d = Driver(match, bots, on_event, check)
    for seed in seeds:
        if match.over:
            break
        d.play_hand(seed)
    return match
