"""Reading a judge situation: the checks every query shares, each a clear :class:`SituationError`.

Each reader takes the decoded JSON (or one value of it) and returns rules values — a ruleset, a
level, a trump, cards, a seat — or raises :class:`SituationError` saying what is wrong and how to
write it.  The usual spellings are read by table look-ups (``cards.faces_of``), since a referee's
batch reads thousands of situations.
"""
from __future__ import annotations

from functools import cache
from typing import Any
from collections.abc import Mapping

from .cards import ALL_FACES, CardError, faces_of, parse_card
from .ruleset import Ruleset, RulesetError, level_from_text
from .settle import JOKER_LEVEL, top_level

__all__ = ["SituationError", "MAX_CARDS", "read_ruleset", "read_level", "read_trump", "read_cards", "read_seat",
           "read_int", "check_copies", "read_object", "read_seat_cards", "read_match_level"]

_TRUMPS = ("S", "H", "C", "D", "NT")
_TRUMPS_AS_WRITTEN = frozenset(_TRUMPS)     # the usual spelling: no stripping and upper-casing


class SituationError(ValueError):
    """The situation is malformed; the message says what is wrong and how to write it."""


# ---- reading the situation ---------------------------------------------------------------------

def read_ruleset(sit: Mapping) -> Ruleset:
    """The situation's ruleset: ``preset`` (default classic) and ``options``."""
    preset = sit.get("preset", "classic")
    options = sit.get("options")
    if not isinstance(preset, str):
        raise SituationError(f"'preset' is a preset name (text), not {preset!r}")
    if options is not None and not isinstance(options, Mapping):
        raise SituationError("'options' is a JSON object of option name → value")
    try:
        return Ruleset.from_preset(preset, **options) if options else _preset_ruleset(preset)
    except RulesetError as exc:
        raise SituationError(str(exc)) from None


@cache
def _preset_ruleset(name: str) -> Ruleset:
    """A preset as it is: rulesets are immutable, so one per preset serves every situation."""
    return Ruleset.from_preset(name)


def read_level(sit: Mapping, required: bool = True, default: int = 2) -> int:
    """The situation's ``level``: a level rank 2..14 (``default`` when absent and not ``required``)."""
    if "level" not in sit:
        if required:
            raise SituationError("'level' is missing: the level rank being played, e.g. \"10\" or \"J\"")
        return default
    value = sit["level"]
    level = _LEVEL_TEXT.get(value) if type(value) is str else None
    if level is not None:
        return level
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise SituationError(f"'level' is a rank such as \"10\" or \"J\", not {value!r}")
    try:
        return level_from_text(value)
    except RulesetError as exc:
        raise SituationError(str(exc)) from None


# The usual ways to write a level: a table look-up (anything else goes through level_from_text).
_LEVEL_TEXT = {t: level_from_text(t) for t in [str(n) for n in range(2, 15)] + list("JQKAjqkaTt")}


def read_trump(sit: Mapping, ruleset: Ruleset, required: bool = True):
    """The situation's ``trump``: ``S H C D`` or ``NT`` (None), one the ruleset allows."""
    if "trump" not in sit:
        if required:
            raise SituationError("'trump' is missing: one of S, H, C, D or NT")
        return None
    value = sit["trump"]
    t: str | None = value
    if not (type(value) is str and value in _TRUMPS_AS_WRITTEN):
        t = value.strip().upper() if isinstance(value, str) else None
    if t not in _TRUMPS:
        raise SituationError(f"'trump' is one of S, H, C, D or NT, not {value!r}")
    if t == "NT":
        return None
    if ruleset.two_colour:      # with two colours H/D mean red, S/C black (R-2.5)
        t = "H" if t in ("H", "D") else "S"
    return t


# Four decks hold 216 cards: no hand, play or kitty in a situation has more.
MAX_CARDS = 216


def read_cards(value: Any, where: str) -> tuple:
    """A JSON list of card texts as faces (``where`` names it in the error)."""
    if not isinstance(value, list):
        raise SituationError(f"{where} is a list of cards such as [\"SA\", \"H10\"], not {value!r}")
    if len(value) > MAX_CARDS:
        raise SituationError(f"{where} lists {len(value)} cards; four decks hold {MAX_CARDS}")
    cards = faces_of(value)
    if cards is not None:
        return cards
    out = []
    for item in value:
        if not isinstance(item, str):
            raise SituationError(f"{where}: a card is written as text such as \"SA\", not {item!r}")
        try:
            out.append(parse_card(item))
        except CardError as exc:
            raise SituationError(f"{where}: {exc}") from None
    return tuple(out)


def read_seat(value: Any, where: str, ruleset: Ruleset) -> int:
    """A seat number ``0 .. players - 1`` (``where`` names it in the error)."""
    if type(value) is int and 0 <= value < ruleset.players:
        return value
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SituationError(f"{where}: a seat is a number 0..{ruleset.players - 1}, not {value!r}")
    if not 0 <= value < ruleset.players:
        raise SituationError(f"{where}: there is no seat {value} at a table of {ruleset.players} "
                             f"(seats are 0..{ruleset.players - 1})")
    return value


def read_int(sit: Mapping, key: str, required: bool = True):
    """The whole number under ``key`` (None when absent and not ``required``)."""
    if key not in sit:
        if required:
            raise SituationError(f"'{key}' is missing")
        return None
    value = sit[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise SituationError(f"'{key}' is a whole number, not {value!r}")
    return value


def check_copies(ruleset: Ruleset, groups, what: str) -> None:
    """No face may appear more often than the decks hold (R-1.1).  ``groups`` are card lists that
    are physically distinct (e.g. one per seat)."""
    total = [0] * len(ALL_FACES)
    for cards in groups:
        for c in cards:
            total[c.index] += 1
    if max(total) <= ruleset.decks:
        return
    for cards in groups:
        for card in cards:
            n = total[card.index]
            if n > ruleset.decks:
                raise SituationError(f"{card} appears {n} times in {what}, but {ruleset.decks} deck(s) hold "
                                     f"only {ruleset.decks} of it")


def read_object(value: Any, where: str) -> Mapping:
    """A JSON object (``where`` names it in the error)."""
    if type(value) is not dict and not isinstance(value, Mapping):   # a dict: skip the ABC check
        raise SituationError(f"{where} is a JSON object, not {value!r}")
    return value


def read_seat_cards(value: Any, where: str, wrong: str | None = None) -> Mapping:
    """A play or a declaration: ``{"seat": n, "cards": [...]}`` and nothing else (``wrong``: the
    message when it is not, instead of the generic one)."""
    d = read_object(value, where)
    if len(d) == 2 and "seat" in d and "cards" in d:
        return d
    extra = [k for k in d if k not in ("seat", "cards")]
    if extra or "seat" not in d or "cards" not in d:
        raise SituationError(wrong or f"{where} is {{\"seat\": n, \"cards\": [...]}}" +
                             (f"; unknown key {extra[0]!r}" if extra else ""))
    return d


def read_match_level(value, where: str, ruleset: Ruleset) -> int:
    """A seat's level in a match: ``"5"``, ``"A"``, 2..14; ``"jokers"`` past A when the match goes on
    beyond it (``match_end`` beyond-a)."""
    top = top_level(ruleset)
    if top == JOKER_LEVEL and (value == JOKER_LEVEL or (isinstance(value, str) and value.strip().lower() == "jokers")):
        return JOKER_LEVEL
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise SituationError(f"{where} is a level such as \"5\" or \"A\", not {value!r}")
    try:
        return level_from_text(value)
    except RulesetError as exc:
        extra = " (or \"jokers\" with match_end beyond-a)" if top == JOKER_LEVEL else ""
        raise SituationError(f"{where}: {exc}{extra}") from None
