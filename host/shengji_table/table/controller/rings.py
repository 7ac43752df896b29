"""The rings: the firmware's vocabulary, the colours, and the game's effects shown on the rings."""
from __future__ import annotations

from dataclasses import dataclass

from ... import firmware_src
from ...game.effects import Announce, Line, Ring
from ...game.match import Match
from ...game.names import with_names
from ...game.phase import Phase
from ...rules.ruleset import Ruleset

__all__ = ["R", "RingCommand", "SUIT_COLOURS", "Rings"]


def _firmware_rings():
    """The firmware's ring vocabulary (``firmware/rings.py``): the pattern ids are the firmware's
    own, read from its file so the two can never disagree."""
    return firmware_src.load("rings")


R = _firmware_rings()

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


class Rings:
    """The controller's rings: each ring's last command, and the game's effects shown on them.

    The controller (``core.py``) sets the attributes used here."""
    match: Match
    ruleset: Ruleset
    rings: dict               # ring index -> RingCommand last commanded
    board_seats: int
    centre: int
    ring_sizes: dict
    names: tuple = ()         # the players' names, seat by seat (game/names.py); () = none given

    def _text(self, out, text: str, said: Announce | None = None) -> str:
        """Show ``text`` on the screen and through the voice, seats named; the text shown (a
        :class:`Line` carrying the message of ``said``, or of ``text`` when it is a Line)."""
        named = with_names(text, self.names)
        line = Line.of(said, named) if said is not None else Line(named, getattr(text, "msg", None),
                                                                   getattr(text, "args", None),
                                                                   getattr(text, "kind", None))
        out.texts.append(line)
        return line

    def _ring(self, out, ring: int, pattern: int, rgb=(0, 0, 0), count: int = 0, arg: int = 0) -> None:
        rc = RingCommand(ring, pattern, rgb[0], rgb[1], rgb[2], min(count, 255), min(arg, 0xFFFF))
        self.rings[ring] = rc
        out.rings.append(rc)

    def _set_all(self, out, pattern: int) -> None:
        for ring in list(range(self.board_seats)) + [self.centre]:
            self._ring(out, ring, pattern)

    def _show_bid(self, out, seat: int, bid: int) -> None:
        # the whole bid range on the ring: points per pixel, a multiple of 5, so the top bid fits
        pixels = max(1, self.ring_sizes.get(seat, 12))
        per = 5 * max(1, -(-self.ruleset.total_points // (5 * pixels)))
        self._ring(out, seat, R.POINTS, SUIT_COLOURS[None], per, bid)

    def _show(self, eff, out) -> None:
        """One game effect on the rings (and, for an announcement, the screen)."""
        if isinstance(eff, Ring):
            self._show_ring(eff, out)
        elif isinstance(eff, Announce):
            self._show_announce(eff, out)

    def _show_ring(self, eff: Ring, out) -> None:
        st = eff.state
        if st == "turn":
            self._ring(out, eff.seat, R.TURN, TURN_COLOUR)
        elif st == "pending":
            view = self.match.public_view()
            need = 0
            if view is not None and view.phase == Phase.PLAYING and view.trick:
                need = len(view.trick[0].cards)
            elif view is not None and view.phase == Phase.BURYING:
                need = self.ruleset.kitty_size
            self._ring(out, eff.seat, R.PENDING, PENDING_COLOUR, eff.cards, need)
        elif st == "accepted":
            self._ring(out, eff.seat, R.PENDING, ACCEPTED_COLOUR, eff.cards, 0)
        elif st == "refused":
            self._ring(out, eff.seat, R.REFUSED, REFUSED_COLOUR, eff.cards, REFUSED_MS)
        elif st == "won":
            self._ring(out, eff.seat, R.TRICK_WON, WON_COLOUR)
            view = self.match.public_view()
            if view is not None and view.dealer is not None:
                self._ring(out, self.centre, R.POINTS, POINTS_COLOUR, 5, view.attackers_points)
        elif st == "declarer":
            ref = self.match.referee_view()       # the declarer's own ring shows its call
            suit = ref.call[1] if ref is not None and ref.call is not None else None
            self._ring(out, eff.seat, R.TRUMP, SUIT_COLOURS.get(suit, SUIT_COLOURS[None]))
        else:
            self._ring(out, eff.seat, R.OFF)

    def _show_announce(self, eff: Announce, out) -> None:
        view = self.match.public_view()
        self._text(out, eff.text, eff)
        if eff.kind == "settle" and view is not None and view.result is not None:
            pts = max(0, view.result.settlement.attackers_points)
            self._ring(out, self.centre, R.POINTS, POINTS_COLOUR, 5, pts)
        elif eff.kind == "trump" and view is not None and view.trump_fixed:
            self._ring(out, self.centre, R.TRUMP, SUIT_COLOURS.get(view.trump, SUIT_COLOURS[None]))
        elif eff.kind == "level" and self.match.summaries:
            s = self.match.summaries[-1]
            for key, change in s["changes"].items():
                self._ring(out, int(key), R.LEVEL, LEVEL_COLOUR, min(change[1], 14), 3000)
