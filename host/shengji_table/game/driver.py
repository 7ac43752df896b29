"""Run a match with bots by producing the events a physical table produces.

The driver plays the table's part: it deals (a :class:`Deal` with an explicit seed), moves each card
of the stack to its seat (:class:`Draw`), asks the seat whose hand just changed whether it declares,
closes the draw, and then for every decision asks the bot in that seat (``bot.choose(view)``) and
turns the answer into card entry exactly as a person would do it: each card tapped at the seat's
reader, then the button for a lead or a burial.  So bots exercise the real card-entry path, and a
bot's illegal play is refused like anyone's — which the driver reports as :class:`DriverError`.

Scanned hands only: in open play the engine does not know the hands, so a simulation of it needs a
table that keeps them apart (the tests build open-play events by hand).
"""
from __future__ import annotations

from typing import Callable, Optional, Sequence

from ..rules.cards import JOKER
from . import events as ev
from . import view as dv
from .effects import Refusal
from .match import Match

__all__ = ["Driver", "DriverError", "run_match"]


class DriverError(RuntimeError):
    """A bot answered something the game refused, or answered the wrong kind of decision."""


class Driver:
    """Drives ``match`` with one bot per seat.  ``on_event(event, effects)`` sees every step."""

    def __init__(self, match: Match, bots: Sequence, on_event: Optional[Callable] = None,
                 check: Optional[Callable] = None):
        if len(bots) != match.players:
            raise ValueError(f"{match.players} seats need {match.players} bots, not {len(bots)}")
        self.match = match
        self.bots = list(bots)
        self.on_event = on_event
        self.check = check            # called with the match after every event (tests: conservation)

    # ------------------------------------------------------------------
    def send(self, event):
        effects = self.match.apply(event)
        if effects and isinstance(effects[0], Refusal):
            r = effects[0]
            raise DriverError(f"{event.type} by seat {r.seat} refused: {r.rule}: {r.reason}")
        if self.on_event is not None:
            self.on_event(event, effects)
        if self.check is not None:
            self.check(self.match)
        return effects

    def _ask(self, seat: int, expect=None):
        hand = self.match.hand
        return self.bots[seat].choose(hand.view(seat, expect))

    def _copies(self, seat: int, faces, exclude=()) -> list:
        """Physical copies in ``seat``'s hand for these faces (lowest deck first)."""
        pool = {}
        for c in self.match.hand.hands[seat]:
            if c not in exclude:
                pool.setdefault(c.card, []).append(c)
        out = []
        for f in faces:
            lst = pool.get(f)
            if not lst:
                raise DriverError(f"seat {seat} chose {f}, which it does not hold")
            out.append(lst.pop(0))
        return out

    # ------------------------------------------------------------------
    def play_hand(self, seed: int):
        """Deal with ``seed`` and play the hand to its settlement."""
        m = self.match
        self.send(ev.Deal(seed=seed))
        hand = m.hand
        bidding = m.ruleset.bidding
        while True:
            nxt = hand.next_draw()
            if nxt is None:
                break
            seat, copy = nxt
            self.send(ev.Draw(seat, copy))
            if not bidding and (copy.card.rank == hand.level or copy.card.suit == JOKER):
                opts = hand.declaration_options(seat)
                if opts:
                    d = self._ask(seat, dv.Expect("declare", 0, opts))
                    if isinstance(d, dv.Declare):
                        self.send(ev.Declare(seat, tuple(self._copies(seat, d.cards))))
                    elif not isinstance(d, dv.Pass):
                        raise DriverError(f"seat {seat} answered {d!r} to a declare question")
        self.send(ev.CloseDeclarations())
        return self.finish_hand()

    def finish_hand(self):
        """Play the current hand from wherever it is (after the draw) to its end."""
        hand = self.match.hand
        while hand.phase != "over":
            ph = hand.phase
            if ph == "bidding":
                seat = hand.turn
                d = self._ask(seat)
                if isinstance(d, dv.Bid):
                    self.send(ev.Bid(seat, d.points))
                elif isinstance(d, dv.Pass):
                    self.send(ev.Bid(seat, None))
                else:
                    raise DriverError(f"seat {seat} answered {d!r} to a bid question")
            elif ph == "trump":
                d = self._ask(hand.dealer)
                if not isinstance(d, dv.NameTrump):
                    raise DriverError(f"seat {hand.dealer} answered {d!r} when naming trump")
                self.send(ev.NameTrump(hand.dealer, d.suit))
            elif ph == "kitty":
                self.send(ev.TakeKitty(hand.dealer))
            elif ph == "burying":
                seat = hand.dealer
                d = self._ask(seat)
                if not isinstance(d, dv.Bury):
                    raise DriverError(f"seat {seat} answered {d!r} to a bury question")
                for c in self._copies(seat, d.cards):
                    self.send(ev.Tap(seat, c))
                self.send(ev.Confirm(seat))
            elif ph == "friend":
                seat = hand.dealer
                d = self._ask(seat)
                if not isinstance(d, dv.CallFriend):
                    raise DriverError(f"seat {seat} answered {d!r} to a friend call")
                self.send(ev.CallFriend(seat, tuple((c.card, c.nth) for c in d.calls)))
            elif ph == "playing":
                seat = hand.turn
                leading = not hand.trick
                d = self._ask(seat)
                if not isinstance(d, dv.PlayCards):
                    raise DriverError(f"seat {seat} answered {d!r} to a play question")
                for c in self._copies(seat, d.cards):
                    self.send(ev.Tap(seat, c))
                if leading:
                    self.send(ev.Confirm(seat))
            else:
                raise DriverError(f"the driver does not know phase {ph!r}")
        return hand


def run_match(match: Match, bots: Sequence, seeds, on_event=None, check=None) -> Match:
    """Play one hand per seed (stopping early when the match is over)."""
    d = Driver(match, bots, on_event, check)
    for seed in seeds:
        if match.over:
            break
        d.play_hand(seed)
    return match
