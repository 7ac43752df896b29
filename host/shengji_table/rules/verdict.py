"""The one answer of a rules check: :class:`Verdict` (ok, the rule id it rests on, a sentence)."""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Verdict"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """``ok``, the rule id it rests on, and one sentence a player understands.  True when ``ok``."""

    ok: bool
    rule: str
    reason: str

    def __bool__(self) -> bool:
        return self.ok
