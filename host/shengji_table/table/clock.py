"""The play clock: how long a seat has had for its play or the dealer for the burial, and when the
ruleset's time (``play_clock``, ``bury_clock``, seconds; 0 = no clock) has run out.

Pure logic, no clock inside: every call is given ``now`` (the service passes ``time.monotonic()``;
tests pass numbers).  A turn on the clock is who must act in which phase, and how far the hand has
got (cards committed, plays undone), so a new play restarts the time and a tap of a card that is
not yet committed does not.  A turn that runs out gives ONE :class:`Expiry` — a ruling row of
type ``clock`` that the service logs and shows to everybody; the referee decides what follows (no
automatic penalty).

    >>> from shengji_table.rules.ruleset import Ruleset
    >>> clock = PlayClock(Ruleset.from_preset("tournament"))
    >>> clock.tick(None, 100.0), clock.deadline(None)      # no hand dealt: nobody on the clock
    (None, None)

While the referee has paused the table the clock stands still: the turn keeps the time it had
left.  The time is not saved: a restarted host starts the turn's time again.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..game.phase import Phase
from ..game.views import PublicView
from ..rules.ruleset import Ruleset

__all__ = ["Turn", "Expiry", "PlayClock", "timed_turn"]


@dataclass(frozen=True)
class Turn:
    """Who is on the clock: ``seat`` must act in ``phase`` of hand ``hand`` within ``seconds``;
    ``progress`` tells one play of the seat from its next."""

    hand: int
    phase: str
    seat: int
    seconds: int
    progress: tuple


@dataclass(frozen=True)
class Expiry:
    """A turn whose time ran out."""

    hand: int
    seat: int
    phase: str
    seconds: int

    def to_json(self) -> dict:
        return {"type": "clock", "hand": self.hand, "seat": self.seat, "phase": self.phase,
                "seconds": self.seconds}

    def text(self) -> str:
        """The sentence for the screen, the voice and the referee."""
        what = "burial" if self.phase == Phase.BURYING else "play"
        return f"Seat {self.seat}: the {what} clock ({self.seconds} s) has run out — the referee decides."


def timed_turn(pub: PublicView | None, ruleset: Ruleset) -> Turn | None:
    """The turn on the clock in the hand ``pub`` shows (None: no hand, nobody on the clock, or the
    clock off)."""
    if pub is None:
        return None
    progress = (pub.committed, pub.undos)
    if pub.phase == Phase.PLAYING and ruleset.play_clock > 0 and pub.turn is not None:
        return Turn(pub.number, Phase.PLAYING, pub.turn, ruleset.play_clock, progress)
    if pub.phase == Phase.BURYING and ruleset.bury_clock > 0 and pub.kitty_holder is not None:
        return Turn(pub.number, Phase.BURYING, pub.kitty_holder, ruleset.bury_clock, progress)
    return None


class PlayClock:
    """The clock of one table: :meth:`tick` with the hand in play's view and the time now."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self.turn: Turn | None = None
        self.since = 0.0                 # when self.turn began (the first tick that saw it)
        self.expired = False             # self.turn's expiry was given
        self.last: float | None = None   # the time of the last tick

    def tick(self, view: PublicView | None, now: float, held: bool = False) -> Expiry | None:
        """The expiry of the turn on the clock, the first time ``now`` reaches its deadline; None
        otherwise.  A turn that differs from the last one seen starts its time at ``now``.
        ``held``: the referee has paused the table; the time since the last tick does not count,
        so the turn keeps the time it had left."""
        turn = timed_turn(view, self.ruleset)
        last, self.last = self.last, now
        if turn != self.turn:
            self.turn, self.since, self.expired = turn, now, False
            return None
        if held:
            if last is not None:
                self.since += now - last
            return None
        if turn is None or self.expired or now < self.since + turn.seconds:
            return None
        self.expired = True
        return Expiry(turn.hand, turn.seat, str(turn.phase), turn.seconds)

    def deadline(self, view: PublicView | None) -> float | None:
        """When the turn on the clock runs out (the time of its first tick + its seconds); None
        when nobody is on the clock or the turn has not been ticked yet."""
        turn = timed_turn(view, self.ruleset)
        if turn is None or turn != self.turn:
            return None
        return self.since + turn.seconds
