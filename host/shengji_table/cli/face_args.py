"""The options of what people see and hear, shared by ``serve`` and ``demo`` (one code path):

    --voice zh|en|off   speak the announcements (espeak-ng; zh: the Mandarin voice cmn).  Default:
                        the --lang language when stdout is a terminal, off otherwise (logs, CI)
    --lang en|zh        the screen's words (labels, legend, announcements)
    --plain             plain lines (HH:MM:SS sentence) even in a terminal; automatic when stdout is
                        not one

:func:`make_face` builds the :class:`~shengji_table.face.terminal.TableView` for a controller.
"""
from __future__ import annotations

import sys

__all__ = ["add_face_arguments", "make_face"]


def add_face_arguments(parser) -> None:
    parser.add_argument("--voice", choices=("zh", "en", "off"), default=None,
                        help="speak announcements with espeak-ng: zh (Mandarin), en, off "
                             "(default: --lang in a terminal, off otherwise)")
    parser.add_argument("--no-voice", dest="voice", action="store_const", const="off",
                        help="the same as --voice off")
    parser.add_argument("--lang", choices=("en", "zh"), default="en",
                        help="the screen's language: labels, ring legend, announcements (default en)")
    parser.add_argument("--plain", action="store_true",
                        help="plain text lines even in a terminal (automatic when stdout is not one)")


def make_face(args, controller, *, title: str = "", out=None, speaker=None):
    """The terminal view (and its voice) the options ask for; ``speaker`` replaces espeak-ng."""
    from ..face.terminal import TableView, is_terminal
    from ..face.voice import Voice
    out = out or sys.stdout
    terminal = is_terminal(out)
    lang = args.voice if args.voice is not None else (args.lang if terminal else "off")
    view = TableView(controller, out, plain=args.plain or not terminal, lang=args.lang, title=title)
    if lang != "off":
        view.voice = Voice(lang, speaker=speaker, notice=view.status, names=getattr(controller, "names", ()) or ())
    return view
