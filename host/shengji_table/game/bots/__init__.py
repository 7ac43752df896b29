"""Bots that fill seats: in simulation, and for empty seats at a real table.

``make_bot(name, seed)`` builds one by name:

* ``random`` — :class:`RandomLegalBot`, a random legal answer at every decision (seeded);
* ``heuristic`` — :class:`HeuristicBot`, sensible play (pairs kept, points fed, point tricks
  ruffed, the kitty protected);
* ``strong`` — :class:`StrongBot`, the heuristic's candidate plays judged by heuristic rollouts in
  sampled deals of the cards it cannot see.

A bot answers ``bot.choose(view) -> Decision`` (see :mod:`shengji_table.game.view`).
"""
from __future__ import annotations

from .heuristic import HeuristicBot
from .random_legal import RandomLegalBot
from .strong import StrongBot

__all__ = ["BOTS", "make_bot", "RandomLegalBot", "HeuristicBot", "StrongBot"]

BOTS = {"random": RandomLegalBot, "heuristic": HeuristicBot, "strong": StrongBot}


def make_bot(name: str, seed: int = 0):
    """A new bot of kind ``name`` (``random``, ``heuristic`` or ``strong``) with its own generator seeded by
    ``seed``.  Unknown names raise ``ValueError`` listing the valid ones."""
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; valid bots: {', '.join(BOTS)}") from None
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"a bot seed is a whole number, not {seed!r}")
    return cls(seed)
