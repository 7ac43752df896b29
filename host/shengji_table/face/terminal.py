"""A live terminal view of a table: each ring drawn in colour (ANSI 24-bit), the trick on the table,
points, levels and the announcements; read aloud with espeak-ng where it is installed.

The rings are drawn by the firmware's own renderer (``firmware/rings.py``), so the screen shows
what the LEDs show.  Without a terminal the view prints the announcements as plain lines.
Hidden information (hands, the kitty) is never drawn.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import time

from ..game.phase import Phase
from ..rules.cards import level_text, suit_symbol
from ..table.controller import R

__all__ = ["TableView"]

_RGB = R.order_offsets("RGB")


class TableView:
    """Draws ``controller``'s table on ``out``; ``ring_sizes`` is the pixel count per ring index."""

    def __init__(self, controller, ring_sizes: dict, out=None, tty: bool | None = None, voice: bool = True,
                 title: str = ""):
        self.controller = controller
        self.ring_sizes = ring_sizes
        self.out = out or sys.stdout
        self.tty = self.out.isatty() if tty is None else tty
        self.title = title
        self.texts: list = []
        self._states: dict = {}          # ring -> (RingState, since seconds)
        self._last_draw = 0.0
        self._espeak = shutil.which("espeak-ng") if voice else None
        self._voice: subprocess.Popen | None = None

    # ---- inputs ----------------------------------------------------------------------------
    def say(self, text: str) -> None:
        """An announcement or a refusal: shown (and spoken) now."""
        self.texts.append(text)
        del self.texts[:-8]
        if not self.tty:
            self.out.write(text + "\n")
            self.out.flush()
        self._speak(text)

    def _speak(self, text: str) -> None:
        if self._espeak is None or text.startswith("Trick "):
            return
        if self._voice is not None and self._voice.poll() is None:
            return                     # still speaking: the screen has it, do not queue up
        try:
            self._voice = subprocess.Popen([self._espeak, "-s", "170", text], stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL)
        except OSError:
            self._espeak = None

    def refresh(self, force: bool = False) -> None:
        """Redraw (a terminal only; at most 12 times a second unless ``force``)."""
        if not self.tty:
            return
        now = time.monotonic()
        if not force and now - self._last_draw < 1 / 12:
            return
        self._last_draw = now
        self.out.write("\x1b[H\x1b[2J" + self.render(now) + "\n")
        self.out.flush()

    # ---- drawing ------------------------------------------------------------------------------
    def ring_pixels(self, ring: int, now: float) -> list:
        """The ring's pixels right now as (r, g, b), rendered by the firmware's ``rings.render``."""
        rc = self.controller.rings.get(ring)
        n = self.ring_sizes.get(ring, 12)
        entry = self._states.get(ring)
        if entry is None:
            entry = self._states[ring] = (R.RingState(), now)
        st, since = entry
        if rc is not None and st.set(*rc.state(), 0):
            since = now
            self._states[ring] = (st, since)
        buf = bytearray(3 * n)
        R.render(buf, 0, n, _RGB, st, int((now - since) * 1000), R.FULL)
        return [(buf[3 * i], buf[3 * i + 1], buf[3 * i + 2]) for i in range(n)]

    def _ring_text(self, ring: int, now: float) -> str:
        cells = []
        for r, g, b in self.ring_pixels(ring, now):
            if r or g or b:
                cells.append(f"\x1b[38;2;{r};{g};{b}m●\x1b[0m")
            else:
                cells.append("\x1b[38;2;60;60;60m·\x1b[0m")
        rc = self.controller.rings.get(ring)
        name = R.NAMES[rc.pattern] if rc is not None and rc.pattern < len(R.NAMES) else "OFF"
        return "".join(cells) + f"  {name.lower()}"

    def render(self, now: float | None = None) -> str:
        now = time.monotonic() if now is None else now
        c = self.controller
        m = c.match
        hand = m.hand
        lines = [f"\x1b[1m{self.title}\x1b[0m"]
        if hand is not None:
            trump = suit_symbol(hand.trump) if hand.order is not None else "(drawing)"
            lines.append(f"Hand {hand.number} · phase {hand.phase} · level {level_text(hand.level)} · trump {trump}"
                         f" · dealer {'?' if hand.dealer is None else hand.dealer}")
        lines.append("")
        for seat in range(c.seats):
            turn = "▶" if hand is not None and hand.turn == seat and hand.phase == Phase.PLAYING else " "
            lvl = m.levels[seat]
            lines.append(f" {turn} seat {seat}  level {level_text(lvl) if lvl <= 14 else 'won'}  "
                         f"{self._ring_text(seat, now)}")
        lines.append(f"   centre            {self._ring_text(c.centre, now)}")
        lines.append("")
        if hand is not None:
            shown = hand.trick if hand.trick else (hand.tricks[-1][0] if hand.tricks else ())
            label = "Trick on the table" if hand.trick else "Last trick"
            plays = "  ".join(f"{s}: {' '.join(x.card.unicode() for x in cards)}" for s, cards in shown)
            lines.append(f"{label}: {plays}")
            if hand.pending:
                lines.append(f"Seat {hand.turn} is entering: {' '.join(x.card.unicode() for x in hand.pending)}")
            if hand.dealer is not None:
                lines.append(f"Attackers' points: {hand.attackers_points()}   tricks played: {len(hand.tricks)}")
        lines.append("")
        lines.append("Announcements:")
        lines += [f"  {t}" for t in self.texts]
        return "\n".join(lines)

    def close(self) -> None:
        if self._voice is not None:
            try:
                self._voice.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._voice.kill()
