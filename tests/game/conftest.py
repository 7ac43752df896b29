"""Helpers for the game tests: arranged deals and card entry by faces, as a table would send them."""
import pytest

from shengji_table.game import events as ev
from shengji_table.game.effects import Refusal
from shengji_table.game.match import Match
from shengji_table.game.stack import stack_for
from shengji_table.rules.cards import parse_cards
from shengji_table.rules.ruleset import Ruleset


class Table:
    """A scripted table: ``t = Table("classic", {0: "BJ BJ"}); t.draw(); t.declare(0, "BJ BJ")``."""

    def __init__(self, preset="classic", hands=None, kitty="", mode="scanned", first_seat=0, **options):
        self.rs = Ruleset.from_preset(preset, **options)
        self.match = Match(self.rs, mode)
        self.stack = stack_for(self.rs, hands or {}, kitty=kitty, first_seat=first_seat)
        self.log = []
        self.send(ev.Deal(order=self.stack) if mode == "scanned" else ev.Deal())

    @property
    def hand(self):
        return self.match.hand

    def send(self, event):
        out = self.match.apply(event)
        self.log.append((event, out))
        return out

    def ok(self, event):
        out = self.send(event)
        assert not (out and isinstance(out[0], Refusal)), f"refused: {out[0]}"
        return out

    def draw(self, n=None):
        """Draw ``n`` cards (all when None) from the arranged stack."""
        k = 0
        while n is None or k < n:
            nxt = self.hand.next_draw()
            if nxt is None:
                break
            self.ok(ev.Draw(*nxt))
            k += 1

    def copies(self, seat, text, taken=()):
        out = []
        for f in parse_cards(text):
            c = next(c for c in self.hand.hand_copies(seat) if c.card is f and c not in out and c not in taken)
            out.append(c)
        return out

    def declare(self, seat, text):
        return self.send(ev.Declare(seat, tuple(self.copies(seat, text))))

    def close(self):
        return self.ok(ev.CloseDeclarations())

    def bury(self, text=None):
        """Take the kitty and bury ``text`` (default: the kitty as dealt)."""
        d = self.hand.dealer
        self.ok(ev.TakeKitty(d))
        cards = self.copies(d, text) if text else list(self.hand.kitty)
        for c in cards:
            self.ok(ev.BuryCard(d, c))
        return self.ok(ev.Confirm(d))

    def play(self, seat, text, confirm=None):
        """Tap ``text`` at ``seat`` (confirm when leading); returns the effects of the last event."""
        leading = not self.hand.trick if confirm is None else confirm
        out = []
        for c in self.copies(seat, text):
            out = self.send(ev.Tap(seat, c))
        if leading:
            out = self.send(ev.Confirm(seat))
        return out


@pytest.fixture
def table():
    return Table
