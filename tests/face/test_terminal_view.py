"""The terminal view (face/terminal.py): within 80×24 for every preset (3–6 seats) and both
languages, with the legend of the ring colours and the teams; plain lines when stdout is not a
terminal; an in-place redraw (no full-screen clear after the first frame)."""
import io
import re
import sys
from pathlib import Path

import pytest

from shengji_table.face.terminal import COLUMNS, ROWS, TableView, width
from shengji_table.game.phase import Phase
from shengji_table.rules.ruleset import PRESETS

sys.path.insert(0, str(Path(__file__).parent))
from views import replay  # noqa: E402

ESC = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Tty(io.StringIO):
    def isatty(self):
        return True


def _moments(preset):
    """The view at the draw, in the first tricks, mid-hand and at the end (the texts said so far)."""
    texts, picked = [], {}
    for c, said in replay(preset):
        texts += said
        hand = c.match.hand
        key = (hand.phase, min(len(hand.tricks), 3) if hand.phase == Phase.PLAYING else 0)
        if key not in picked:
            picked[key] = True
            yield c, list(texts)
    yield c, texts


def _check_fits(screen: str):
    lines = screen.split("\n")
    assert len(lines) <= ROWS, f"{len(lines)} lines"
    for line in lines:
        assert width(line) <= COLUMNS, f"{width(line)} columns: {ESC.sub('', line)!r}"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_view_fits_80x24_with_legend_and_teams_for_every_preset(preset):
    for c, texts in _moments(preset):
        for lang, legend_word, team_words in (("en", "your turn", ("declare", "Teams", "friend", "alone")),
                                              ("zh", "轮到你", ("坐庄", "队伍", "朋友", "联手"))):
            view = TableView(c, Tty(), lang=lang, title=f"Shengji — {preset}")
            for t in texts:
                view.say(t)
            screen = view.render(0.5)
            _check_fits(screen)
            assert legend_word in screen and "●" in screen
            assert any(w in screen for w in team_words), screen
            assert screen.count("\n") >= 10
    hand = c.match.hand
    if PRESETS[preset].get("teams", "fixed") == "fixed":
        dec = "+".join(map(str, hand.declarers()))
        assert f"seats {dec} declare" in TableView(c, Tty()).render(0.0)


def test_find_a_friend_teams_are_unknown_until_the_friend_shows():
    seen_unknown = seen_known = False
    for c, _ in replay("find-friend-4"):
        hand = c.match.hand
        if hand.phase != Phase.PLAYING:
            continue
        line = TableView(c, Tty()).render(0.0).split("\n")[2]
        if hand.friends:
            seen_known = seen_known or "declare" in line
            assert "unknown" not in line
        else:
            seen_unknown = seen_unknown or "friend unknown until the friend shows" in line
    assert seen_unknown and seen_known


def test_plain_mode_prints_lines_and_no_escape_codes():
    out = io.StringIO()                              # not a terminal: plain without asking
    c, texts = next(iter(_moments("classic")))
    view = TableView(c, out)
    assert view.plain
    view.say("Hand 1: dealing, 25 cards each; level 2.")
    view.status("table connected on /dev/ttyACM0")
    view.refresh(force=True)
    text = out.getvalue()
    assert "\x1b" not in text
    lines = text.splitlines()
    assert len(lines) == 2 and re.match(r"\d\d:\d\d:\d\d  Hand 1: dealing", lines[0])
    assert lines[1].endswith("table connected on /dev/ttyACM0")


def test_plain_mode_in_mandarin_prints_the_chinese():
    out = io.StringIO()
    c, _ = next(iter(_moments("classic")))
    TableView(c, out, lang="zh").say("Trump: spades, level 2; seat 1 deals.")
    assert out.getvalue().rstrip().endswith("黑桃为主，打2，1号位坐庄。")


def test_the_live_screen_redraws_in_place_without_a_full_clear():
    out = Tty()
    c, texts = next(iter(_moments("classic")))
    view = TableView(c, out)
    assert not view.plain
    view.refresh(force=True)
    first = out.getvalue()
    view.refresh(force=True)
    second = out.getvalue()[len(first):]
    assert "\x1b[2J" in first and "\x1b[2J" not in second     # cleared once, then drawn over
    assert second.startswith("\x1b[?25l\x1b[H") and "\x1b[K" in second
    view.close()
    assert out.getvalue().endswith("\x1b[?25h\n")             # the cursor is given back


def _pty_of_size(columns: int, rows: int):
    """A real pseudo-terminal whose window is ``columns``×``rows`` (as a terminal emulator sets it)."""
    import fcntl
    import os
    import pty
    import struct
    import termios
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    return master, os.fdopen(slave, "w", encoding="utf-8")


def test_the_view_fills_a_160x50_terminal_instead_of_80x24():
    """The live screen takes the terminal's whole size: in a 160×50 pseudo-terminal the
    announcements fill the 50 rows and a long one is not cut at 80 columns."""
    import os
    from shengji_table.face.terminal import terminal_size
    master, out = _pty_of_size(160, 50)
    try:
        assert terminal_size(out) == (160, 50)
        c, _ = next(iter(_moments("classic")))
        view = TableView(c, out)
        assert not view.plain and view.screen_size() == (160, 50)
        long = "Seat 2 shows H2 H2: seat 2 overcalls with hearts (反主); " + "the kitty stays buried " * 3
        for i in range(60):
            view.say(f"{i}: {long}")
        lines = view.render(0.5).split("\n")
        assert len(lines) == 50
        assert max(width(x) for x in lines) > 100 and all(width(x) <= 160 for x in lines)
        assert "59: Seat 2 shows" in lines[-1] and "…" not in ESC.sub("", lines[-1])
    finally:
        out.close()
        os.close(master)


def test_without_a_readable_size_the_view_keeps_80x24():
    c, _ = next(iter(_moments("classic")))
    view = TableView(c, Tty())
    assert view.screen_size() == (COLUMNS, ROWS)
    _check_fits(view.render(0.5))


def test_the_seat_rows_and_the_trick_name_the_players():
    """With names (``--players``) the seat rows say the players' names, not "seat N"."""
    names = ("李明", "王芳", "赵强", "陈静")
    for c, _ in _moments("classic"):
        c.names = names
        for lang in ("en", "zh"):
            screen = ESC.sub("", TableView(c, Tty(), lang=lang, size=(120, 40)).render(0.5))
            for n in names:
                assert n in screen
            assert "seat 1 " not in screen and "1号位" not in screen
            view = c.match.public_view()
            if view is not None and view.dealer is not None:
                assert screen.split("\n")[1].rstrip().endswith(names[view.dealer])     # the hand line's dealer
