"""The table's words as data: message catalogs, one a language, and the renderer of a message.

A public sentence is a message id and its parameters (``Announce.msg``/``args`` in
``game/effects.py``; :class:`~shengji_table.game.effects.Line` carries them to the screens and the
voice).  Each language's catalog is a gettext PO file, ``locale/<lang>.po`` (``msgid``: the message
id, ``msgstr``: the sentence with ``{name}`` fields, flag ``python-brace-format``), read with Babel
when the module first needs it — the format translators and their tools (Poedit, Weblate,
``msgfmt --check``) know.  The English catalog renders the game's own text byte for byte
(``tests/face/test_messages.py`` replays every preset to check it).

A parameter is rendered by its name, per language: ``seat``/``*_seat`` (a seat: its number in
English — names are added by ``with_names`` — the player's name or "N号位" in Chinese), ``seats``
(several), ``cards``/``card`` (card codes or symbols: 黑桃10, 一对大王 in Chinese), ``nth`` (first: 第一张),
``calls`` (a friend's calls, ``[[nth, card], …]``), ``trump`` / ``suit`` (the English
suit word: 黑桃为主 / 黑桃), ``why`` (a refusal's public reason, read with its ``rule``), anything else
as it is.

    >>> render("trick.won", {"trick": 3, "seat": 1, "points": 10}, "zh", ("李明", "王芳", "赵强", "陈静"))
    '第3墩归王芳，10分。'
"""
from __future__ import annotations

import functools
import pathlib
from collections.abc import Sequence

from ..game.names import with_names
from .words_zh import NTH_ZH, SUIT_WORD_ZH, cards_zh, to_zh, why_zh

__all__ = ["LANGS", "catalog", "render", "line_text", "seat_name", "LOCALE_DIR"]

LANGS = ("en", "zh")
LOCALE_DIR = pathlib.Path(__file__).with_name("locale")


@functools.cache
def catalog(lang: str) -> dict[str, str]:
    """``{message id: template}`` of ``locale/<lang>.po`` (entries without a translation left out)."""
    from babel.messages.pofile import read_po
    if lang not in LANGS:
        raise ValueError(f"language {lang!r}: one of {', '.join(LANGS)}")
    with open(LOCALE_DIR / f"{lang}.po", "rb") as f:
        cat = read_po(f, locale=lang)
    return {m.id: m.string for m in cat if isinstance(m.id, str) and m.id and isinstance(m.string, str) and m.string}


def seat_name(seat: int, lang: str, names: Sequence[str] = ()) -> str:
    """A seat as a sentence names it: ``2`` in English (the caller adds names), the player's name
    or ``2号位`` in Chinese."""
    if lang == "zh":
        return names[seat] if 0 <= seat < len(names) and names[seat] else f"{seat}号位"
    return str(seat)


def _param(key: str, value, lang: str, names: Sequence[str], args: dict) -> str:
    if key == "seat" or key.endswith("_seat"):
        return seat_name(int(value), lang, names)
    if key == "seats":
        return ("、" if lang == "zh" else ", ").join(seat_name(int(s), lang, names) for s in value)
    if key == "calls":                       # [[nth, card], …]: a friend's calls
        if lang == "zh":
            return "；".join(NTH_ZH.get(nth, "") + cards_zh(card) for nth, card in value)
        return "; ".join(f"the {nth} {card}" for nth, card in value)
    if lang != "zh":
        return str(value)
    if key in ("cards", "card"):
        return cards_zh(str(value))
    if key == "nth":
        return NTH_ZH.get(str(value), "")
    if key == "trump":
        word = SUIT_WORD_ZH.get(str(value), "")
        return "无主" if word == "无主" else f"{word}为主"
    if key == "suit":
        return SUIT_WORD_ZH.get(str(value), str(value))
    if key == "why":
        return why_zh(str(value), str(args.get("rule", "")))
    return str(value)


def render(msg: str, args: dict, lang: str, names: Sequence[str] = ()) -> str | None:
    """Message ``msg`` with ``args`` in ``lang`` (None: the catalog has no such message)."""
    template = catalog(lang).get(msg)
    if template is None:
        return None
    return template.format(**{k: _param(k, v, lang, names, args) for k, v in args.items()})


def line_text(text: str, lang: str, names: Sequence[str] = ()) -> str:
    """A public sentence as shown in ``lang``: rendered from its message when it carries one
    (a :class:`~shengji_table.game.effects.Line`), else the English as given, or the Mandarin of
    the phrase catalogue (``words_zh.py``) for a sentence without a message."""
    msg = getattr(text, "msg", None)
    if msg is not None:
        said = render(msg, text.args, lang, names)       # type: ignore[attr-defined]
        if said is not None:
            return with_names(said, names) if lang == "en" else said
    return to_zh(text, getattr(text, "kind", None)) if lang == "zh" else str(text)
