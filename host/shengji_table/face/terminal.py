"""The live terminal view of a table, for ``serve`` (a real table) and ``demo`` (the virtual one)
alike: each ring drawn in colour as the firmware draws it, the teams, the trick on the table,
points, levels, the announcements and a legend of the ring colours in words — on the terminal's
whole size (read at each frame, so a resized window is filled; 80×24 when it cannot be read).

The rings are drawn by the firmware's own renderer (``firmware/rings.py``), so the screen shows
what the LEDs show.  The screen is redrawn in place (cursor home, each line cleared to its end,
the rest of the screen cleared once): no full-screen clear, so no flicker at 12 frames a second.
Written with plain ANSI escape codes rather than a terminal library: the view needs per-pixel
24-bit colour and an in-place redraw, three escape sequences, and the host package depends on
pyserial alone.

Plain mode (``--plain``, or stdout not a terminal): one line per announcement, refusal or status,
``HH:MM:SS  sentence`` — for logs.  Every public sentence also goes to the :class:`~.voice.Voice`.
Hidden information (hands, the kitty) is never drawn: the view reads the public state (the trick
on the table, points taken, levels) and the controller's public texts.
"""
from __future__ import annotations

import io
import math
import os
import re
import sys
import time
import unicodedata

from ..game.phase import Phase
from ..game.views import PublicView
from ..rules.cards import level_text, suit_symbol
from ..table.controller import R
from .labels import LABELS, PATTERNS, PHASES, legend, level_word, teams_line
from .messages import line_text
from .voice import Voice

__all__ = ["TableView", "width", "is_terminal", "terminal_size", "COLUMNS", "ROWS"]

COLUMNS, ROWS = 80, 24          # the size drawn when the terminal's cannot be read
_RGB = R.order_offsets("RGB")
_ESC = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def width(text: str) -> int:
    """Columns ``text`` takes on a terminal (escape codes take none, CJK characters two)."""
    plain = _ESC.sub("", text)
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in plain)


def _clip(text: str, columns: int = COLUMNS) -> str:
    """``text`` cut to ``columns`` (escape codes kept whole; a cut line ends with …)."""
    if width(text) <= columns:
        return text
    out, used, i = [], 0, 0
    while i < len(text):
        m = _ESC.match(text, i)
        if m:
            out.append(m.group())
            i = m.end()
            continue
        w = 2 if unicodedata.east_asian_width(text[i]) in "WF" else 1
        if used + w > columns - 1:
            break
        out.append(text[i])
        used += w
        i += 1
    return "".join(out) + "\x1b[0m…"


class TableView:
    """Draws ``controller``'s table on ``out`` and speaks with ``voice``.

    ``plain``: lines instead of the live screen (None: plain when ``out`` is not a terminal);
    ``lang``: the screen's words (``en``/``zh``; in ``zh`` the announcements are shown in
    Mandarin too); ``voice``: a :class:`Voice` (None: silent)."""

    def __init__(self, controller, out=None, *, plain: bool | None = None, lang: str = "en",
                 voice: Voice | None = None, title: str = "", size: tuple[int, int] | None = None):
        self.controller = controller
        self.ring_sizes = controller.ring_sizes
        self.out = out or sys.stdout
        self.plain = (not is_terminal(self.out)) if plain is None else plain
        self.lang = lang
        self.voice = voice
        self.title = title
        self.size = size                 # (columns, rows); None: the terminal's, read at each frame
        self.texts: list = []
        self._states: dict = {}          # ring -> (RingState, since seconds)
        self._last_draw = 0.0
        self._drawn = False
        self._dirty = False              # a sentence arrived since the last frame

    @property
    def tty(self) -> bool:
        return not self.plain

    # ---- inputs ----------------------------------------------------------------------------
    def say(self, text: str) -> None:
        """A public sentence (an announcement or a refusal): shown and spoken."""
        self._show(text)
        if self.voice is not None:
            self.voice.say(text)

    def status(self, text: str) -> None:
        """The program's own news (connected, resumed, stopped): shown, not spoken (in the screen's
        language when it is a message of the catalogs)."""
        self._show(text, translate=getattr(text, "msg", None) is not None)

    def _show(self, text: str, translate: bool = True) -> None:
        names = getattr(self.controller, "names", ()) or ()
        shown = line_text(text, self.lang, names) if translate else text
        self.texts.append(shown)
        del self.texts[:-200]
        self._dirty = True
        if self.plain:
            self.out.write(f"{time.strftime('%H:%M:%S')}  {shown}\n")
            self.out.flush()

    def announce_title(self) -> None:
        """Plain mode: print the title once, as the first line (the live screen draws it on top)."""
        if self.plain and self.title:
            self.out.write(self.title + "\n")
            self.out.flush()

    def refresh(self, force: bool = False) -> None:
        """Redraw in place (live screen only; at most 12 times a second unless ``force``)."""
        if self.plain:
            return
        now = time.monotonic()
        if not force and now - self._last_draw < 1 / 12:
            return
        self._last_draw = now
        head = "\x1b[?25l\x1b[H" if self._drawn else "\x1b[?25l\x1b[H\x1b[2J"
        self._drawn, self._dirty = True, False
        body = "\x1b[K\n".join(self.render(now).split("\n"))
        self.out.write(head + body + "\x1b[K\x1b[J")
        self.out.flush()

    def pace(self, backlog: int = 2, seconds: float = 0.05) -> None:
        """For the virtual table's bots: wait a moment while more than ``backlog`` sentences are
        still to be said, so the voice keeps up with the game (one short wait per call: the caller's
        loop keeps serving the link)."""
        if self.voice is not None and self.voice.backlog > backlog:
            time.sleep(seconds)

    def refresh_paced(self) -> None:
        """:meth:`refresh`, then :meth:`pace`: the virtual table's idle step."""
        self.refresh()
        self.pace()

    def close(self) -> None:
        """Let the voice finish what it was given; put the cursor back under the view (drawn once
        more only when a sentence came since the last frame: an error printed after the last frame
        stays readable)."""
        if not self.plain and self._drawn:
            if self._dirty:
                self.refresh(force=True)
            self.out.write("\x1b[?25h\n")
            self.out.flush()
            self._drawn = False
        if self.voice is not None:
            self.voice.close()

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
            cells.append(f"\x1b[38;2;{r};{g};{b}m●\x1b[0m" if r or g or b else "\x1b[38;2;60;60;60m·\x1b[0m")
        rc = self.controller.rings.get(ring)
        name = R.NAMES[rc.pattern] if rc is not None and rc.pattern < len(R.NAMES) else "OFF"
        return "".join(cells) + " " + PATTERNS[self.lang].get(name, name.lower())

    def _hand_line(self, view: PublicView | None) -> str:
        w = LABELS[self.lang]
        if view is None:
            return w["waiting"]
        trump = suit_symbol(view.trump) if view.trump_fixed else w["drawing"]
        dealer = "?" if view.dealer is None else self._dealer_name(view.dealer)
        head = f"第{view.number}副" if self.lang == "zh" else f"{w['hand']} {view.number}"
        return (f"{head} · {PHASES[self.lang][view.phase]} · {w['level']} {level_text(view.level)} · "
                f"{w['trump']} {trump} · {w['dealer']} {dealer}")

    def _dealer_name(self, seat: int) -> str:
        """The dealer on the hand line: the player's name when given, else the seat's number."""
        names = getattr(self.controller, "names", ()) or ()
        return names[seat] if seat < len(names) and names[seat] else str(seat)

    def _seat_name(self, seat: int) -> str:
        """How the screen names a seat: the player's name when given, else "seat N" / "N号位"."""
        names = getattr(self.controller, "names", ()) or ()
        if seat < len(names) and names[seat]:
            return names[seat]
        return f"{seat}号位" if self.lang == "zh" else f"seat {seat}"

    def _seat_lines(self, view: PublicView | None, now: float) -> list:
        c, w = self.controller, LABELS[self.lang]
        lines = []
        on_turn = view is not None and view.phase in (Phase.PLAYING, Phase.BIDDING, Phase.DRAWING)
        for seat in range(c.seats):
            turn = "▶" if on_turn and view.turn == seat else " "  # type: ignore[union-attr]
            role = ""
            if view is not None and view.dealer is not None:
                role = w["dealer_tag"] if seat == view.dealer else w["decl"] if seat in view.declarers else (
                    w["unknown"] if view.attackers is None else w["att"])
            lvl = level_word(c.match.levels[seat], self.lang)
            name = _pad(self._seat_name(seat), 12)
            lines.append(f"{turn} {name} {_pad(role, 8)} {w['level']} {lvl:<3} {self._ring_text(seat, now)}")
        lines.append(f"  {_pad(w['centre'], 25)} {self._ring_text(c.centre, now)}")
        return lines

    def _clock_text(self, now: float) -> str:
        """"clock: seat 2 12 s" while a seat is on the play clock (table/clock.py), else ""."""
        w, clock = LABELS[self.lang], self.controller.clock_state(now)
        if clock is None:
            return ""
        seat = self._seat_name(clock["seat"])
        what = f" {w['burial']}" if clock["phase"] == Phase.BURYING else ""
        left = math.ceil(clock["left"])
        return f"{w['clock']}: {seat}{what} " + (f"{left} s" if left > 0 else w["out"])

    def _trick_lines(self, view: PublicView | None, now: float = 0.0) -> list:
        w = LABELS[self.lang]
        if view is None:
            return []
        last = view.last_trick
        shown = view.trick if view.trick else (last.plays if last is not None else ())
        label = w["trick"] if view.trick else w["last"]
        plays = "  ".join(f"{self._seat_name(p.seat)}: {' '.join(x.unicode() for x in p.cards)}" for p in shown)
        lines = [f"{label}: {plays}"]
        extra = []
        if view.entering:
            # how many, never which: a card entered can still be taken back into the hand
            extra.append(f"{view.turn} {w['entering']}: {view.entering}")
        if view.dealer is not None:
            extra.append(f"{w['points']} {view.attackers_points} · {w['tricks']} {len(view.tricks)}")
        clock = self._clock_text(now)
        if clock:
            extra.append(clock)
        lines.append("   ".join(extra))
        return lines

    def screen_size(self) -> tuple[int, int]:
        """(columns, rows) drawn: ``size`` when given, else the terminal's (80×24 if unknown)."""
        return self.size or terminal_size(self.out)

    def render(self, now: float | None = None) -> str:
        """The whole screen, within :meth:`screen_size`; the announcements fill the rows left."""
        now = time.monotonic() if now is None else now
        columns, rows = self.screen_size()
        c = self.controller
        view = c.match.public_view()
        lines = [f"\x1b[1m{self.title}\x1b[0m", self._hand_line(view), teams_line(view, c.ruleset, self.lang)]
        lines += self._seat_lines(view, now)
        lines += self._trick_lines(view, now)
        lines += legend(self.lang)
        room = rows - len(lines) - 1
        lines.append(f"{LABELS[self.lang]['news']}:")
        lines += ["  " + t for t in self.texts[-room:]] if room > 0 else []
        return "\n".join(_clip(x, columns) for x in lines[:rows])


def _pad(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))


def terminal_size(out) -> tuple[int, int]:
    """(columns, rows) of the terminal ``out`` writes to; (80, 24) when it has none or says 0."""
    try:
        size = os.get_terminal_size(out.fileno())
    except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
        return COLUMNS, ROWS
    return (size.columns or COLUMNS, size.lines or ROWS)


def is_terminal(out) -> bool:
    try:
        return bool(out.isatty())
    except (AttributeError, ValueError):
        return False
