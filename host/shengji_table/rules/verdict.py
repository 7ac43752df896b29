"""The one answer of a rules check: :class:`Verdict` (ok, the rule id it rests on, a sentence)."""
from __future__ import annotations

from typing import NamedTuple

__all__ = ["Verdict"]


class Verdict(NamedTuple):
    """``ok``, the rule id it rests on, and one sentence a player understands.  True when ``ok``.

    Immutable; a named tuple because every check returns one (built several times faster than a
    frozen dataclass)."""

    ok: bool
    rule: str
    reason: str

    def __bool__(self) -> bool:
        return self.ok
