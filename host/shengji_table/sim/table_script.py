"""The command language of ``shengji-table virtual-table``: what a person does at the table, typed
or read from a file, one action a line::

    tap 2 SA#1        # lay the ace of spades of deck 1 on reader 2 (it stays until lifted)
    stack 2 SK#1      # lay the king on top of it: two cards on one reader
    lift 2            # take them off again
    press 0           # a short press of seat 0's button
    long 0            # a long press (held 1 s)
    wait 500          # pause 500 ms (for files)
    quit              # stop the virtual table

A reader is its index (seat ``s`` is ``s``, the centre is the number of seats) or ``centre``.  A card
is a copy as the rest of the package writes it (``S10#2``, ``♥Q#1``, ``BJ#1``); the tag laid down is
that copy's virtual NTAG (:func:`~shengji_table.sim.virtual_table.sim_uid`, its card code in the
tag's memory), the same tags the virtual table's deck set registers.  A ``#`` that starts a word
starts a comment.

:func:`parse_line` turns a line into an :class:`Action` or raises :class:`ScriptError` naming what
is wrong; :class:`ScriptedTable` is a :class:`VirtualTable` that carries the actions to the
firmware as SIM frames, slipped into the host's stream only between two of its frames.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass

from ..rules.cards import CardCopy, CardError, parse_copy
from ..table import protocol as P
from .virtual_table import SIM_DECK_SET_ID, VirtualTable, sim_pages, sim_uid

__all__ = ["Action", "ScriptError", "parse_line", "parse_script", "ScriptedTable", "PRESS_MS", "LONG_MS"]

PRESS_MS = 120        # held past the firmware's 20 ms settle time, well short of a long press
LONG_MS = 1000        # past the firmware's 800 ms long-press time
WAIT_MAX_MS = 600_000
VERBS = ("tap", "stack", "lift", "press", "long", "wait", "quit")
_COMMENT = re.compile(r"(?:^|\s)#")      # a '#' that starts a word; the one in SA#1 is the card's copy


class ScriptError(ValueError):
    """A line of the command language that means nothing; the message names the line and the fix."""


@dataclass(frozen=True)
class Action:
    """One parsed line: ``verb`` with its reader/seat ``index``, ``copy`` (tap) or ``ms`` (wait)."""
    verb: str
    index: int = -1
    copy: CardCopy | None = None
    ms: int = 0


def _number(word: str, what: str, top: int) -> int:
    if not word.isdigit() or int(word) > top:
        raise ScriptError(f"{what} must be a number from 0 to {top}, not {word!r}")
    return int(word)


def parse_line(line: str, seats: int, decks: int = 2) -> Action | None:
    """The action of one line (``None`` for a blank or comment line) on a table of ``seats`` seats
    whose virtual deck set has ``decks`` decks; :class:`ScriptError` when it means nothing."""
    words = _COMMENT.split(line, maxsplit=1)[0].split()
    if not words:
        return None
    verb = words[0].lower()
    if verb not in VERBS:
        raise ScriptError(f"unknown command {words[0]!r}: use one of {', '.join(VERBS)}")
    want = {"tap": 3, "stack": 3, "lift": 2, "press": 2, "long": 2, "wait": 2, "quit": 1}[verb]
    if len(words) != want:
        usage = {"tap": "tap READER CARD (e.g. tap 2 SA#1)", "stack": "stack READER CARD (e.g. stack 2 SK#1)",
                 "lift": "lift READER", "press": "press SEAT",
                 "long": "long SEAT", "wait": "wait MS", "quit": "quit"}[verb]
        raise ScriptError(f"{verb} takes {want - 1} argument{'s' if want != 2 else ''}: {usage}")
    if verb == "quit":
        return Action("quit")
    if verb == "wait":
        return Action("wait", ms=_number(words[1], "wait's milliseconds", WAIT_MAX_MS))
    if verb in ("press", "long"):
        return Action(verb, index=_number(words[1], "a seat", seats - 1))
    index = seats if words[1].lower() in ("centre", "center") else _number(words[1], "a reader", seats)
    if verb == "lift":
        return Action("lift", index=index)
    try:
        copy = parse_copy(words[2])
    except CardError as exc:
        raise ScriptError(str(exc)) from None
    if copy.deck > decks:
        raise ScriptError(f"{copy} is of deck {copy.deck}; the virtual deck set has {decks} deck(s)")
    return Action(verb, index=index, copy=copy)


def parse_script(text: str, seats: int, decks: int = 2, source: str = "script") -> list[Action]:
    """Every action of a file; :class:`ScriptError` naming the first bad line (nothing is run)."""
    actions = []
    for n, line in enumerate(text.splitlines(), 1):
        try:
            action = parse_line(line, seats, decks)
        except ScriptError as exc:
            raise ScriptError(f"{source} line {n}: {exc}") from None
        if action is not None:
            actions.append(action)
    return actions


class ScriptedTable(VirtualTable):
    """A virtual table that a script drives: :meth:`do` carries one action to the firmware.

    SIM frames are written into the line towards the Pico only at a frame boundary of the host's
    stream (after its 0x00 delimiter), so neither side's frame is cut in two."""

    def __init__(self, *args, deck_set_id: int = SIM_DECK_SET_ID, **kw) -> None:
        super().__init__(*args, **kw)
        self.deck_set_id = deck_set_id
        self.seats = int(self.board["seats"])
        self._writer = P.Writer(b"VTBL")
        self._out = bytearray(P.MAX_FRAME)
        self._seq = 0
        self._boundary = True
        self._waiting: list[bytes] = []

    def _to_pico(self, data: bytes) -> None:
        super()._to_pico(data)
        with self._lock:
            self._boundary = data.endswith(b"\x00")
            waiting, self._waiting = (self._waiting, []) if self._boundary else ([], self._waiting)
            proc = self.proc
            for frame in waiting:
                self._write_pico(proc, frame)

    def _write_pico(self, proc, frame: bytes) -> None:
        if proc is None:
            return
        try:
            proc.stdin.write(frame)
            self.bytes_to_pico += len(frame)
        except OSError:
            pass

    def _sim(self, n: int) -> None:
        frame = bytes(self._out[:n])
        with self._lock:
            if self._boundary:
                self._write_pico(self.proc, frame)
            else:
                self._waiting.append(frame)

    def _next(self) -> int:
        self._seq = P.next_seq(self._seq) if self._seq else 1
        return self._seq

    def place(self, reader: int, copy: CardCopy, on_top: bool = False) -> bytes:
        """Lay ``copy``'s virtual tag on ``reader`` (``on_top``: on the card lying there); returns
        its UID."""
        uid = sim_uid(copy, self.deck_set_id)
        self._sim(P.encode_sim_place(self._writer, self._out, self._next(),
                                     reader | (P.SIM_ON_TOP if on_top else 0), uid,
                                     sim_pages(copy, self.deck_set_id)))
        return uid

    def lift(self, reader: int) -> None:
        self._sim(P.encode_sim_lift(self._writer, self._out, self._next(), reader))

    def button(self, seat: int, down: bool) -> None:
        self._sim(P.encode_sim_button(self._writer, self._out, self._next(), seat, down))

    def do(self, action: Action, sleep=time.sleep) -> str:
        """Carry out ``action``; returns what was done, in words."""
        where = "centre" if action.index == self.seats else f"reader {action.index}"
        if action.verb in ("tap", "stack"):
            assert action.copy is not None
            uid = self.place(action.index, action.copy, on_top=action.verb == "stack")
            on = " on the card there" if action.verb == "stack" else ""
            return f"{where}: {action.copy} laid down{on} (tag {uid.hex()})"
        if action.verb == "lift":
            self.lift(action.index)
            return f"{where}: card lifted"
        if action.verb in ("press", "long"):
            held = PRESS_MS if action.verb == "press" else LONG_MS
            self.button(action.index, True)
            sleep(held / 1000)
            self.button(action.index, False)
            return f"seat {action.index}: button {'pressed' if action.verb == 'press' else 'held'} ({held} ms)"
        if action.verb == "wait":
            sleep(action.ms / 1000)
            return f"waited {action.ms} ms"
        return "quit"
