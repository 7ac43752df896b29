"""Player names: the one rendering of a seat for people, ``Seat 1 (Wang)`` (seats count from 0:
the first name is seat 0's).

The game, its events and its records speak of seats by number; a text shown to people (the
screen, the voice, ``play``'s output, the log's export) goes through :func:`with_names`, which
adds the name after every ``Seat N`` / ``seat N`` it finds.

    >>> with_names("Seat 1: refused — must follow ♦ (R-4.4)", ("Li", "Wang", "Zhao", "Chen"))
    'Seat 1 (Wang): refused — must follow ♦ (R-4.4)'
    >>> with_names("trick 3 → seat 0 +10", ("Li", "Wang", "Zhao", "Chen"))
    'trick 3 → seat 0 (Li) +10'
    >>> with_names("seat 2", ())
    'seat 2'
"""
from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["PlayerNamesError", "with_names", "check_names", "names_from_text"]

# "Seat 2" or "seat 2", not already followed by its name, and not part of a longer number
_SEAT = re.compile(r"\b([Ss]eat) (\d+)\b(?! \()")


class PlayerNamesError(ValueError):
    """A list of player names that does not fit the table (count, empty or repeated names)."""


def with_names(text: str, names: Sequence[str] | None) -> str:
    """``text`` with every ``Seat N`` / ``seat N`` followed by seat N's name (no names: unchanged;
    a seat without a name, or named already, stays as it is)."""
    if not names:
        return text

    def named(m: re.Match) -> str:
        seat = int(m.group(2))
        return f"{m.group(0)} ({names[seat]})" if seat < len(names) and names[seat] else m.group(0)
    return _SEAT.sub(named, text)


def check_names(names: Sequence[object], players: int, game: str = "the game") -> tuple[str, ...]:
    """``names`` as a tuple of stripped strings, one a seat in seat order; :class:`PlayerNamesError`
    when their number is not ``players`` (of ``game``, for the message) or a name is empty, not
    text or given twice."""
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise PlayerNamesError(f"player names are a list of {players} names, not {names!r}")
    if not all(isinstance(n, str) for n in names):
        raise PlayerNamesError(f"player names are text: {list(names)!r}")
    out = tuple(str(n).strip() for n in names)
    if len(out) != players:
        raise PlayerNamesError(f"{len(out)} player name(s) given ({', '.join(out)}) but {game} has {players} "
                         f"players: give one name a seat, in seat order (seat 0 first)")
    if not all(out):
        raise PlayerNamesError(f"a player name is empty: {', '.join(repr(n) for n in out)}")
    twice = sorted({n for n in out if out.count(n) > 1})
    if twice:
        raise PlayerNamesError(f"player name(s) given twice: {', '.join(twice)}")
    return out


def names_from_text(text: str, players: int, game: str = "the game") -> tuple[str, ...]:
    """``"Li,Wang,Zhao,Chen"`` → the checked names (:func:`check_names`)."""
    return check_names(text.split(","), players, game)
