"""skidl's electrical rules check (ERC) on a table's circuit, with the accepted warnings spelled out.

ERC flags unconnected pins, nets with a single pin, nets without a driver, outputs fighting each
other, power inputs with no power source.  A table's circuit must pass with nothing left over: any
warning we accept is listed in :data:`ACCEPTED_ERC_WARNINGS` with the reason, and every other
warning or error fails the build (and the ``hardware check`` command).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import eda
from .schematic import Schematic

__all__ = ["ACCEPTED_ERC_WARNINGS", "ErcReport", "run_erc"]

# pattern (regular expression on skidl's message) -> why it is acceptable.
# Empty today: the circuit marks its open pins as no-connects and flags the nets where power enters
# (J1, D1), so skidl has nothing to warn about.  Add an entry only with its reason.
ACCEPTED_ERC_WARNINGS: dict[str, str] = {}


@dataclass(frozen=True)
class ErcReport:
    """What ERC said: ``accepted`` (message, reason) pairs and ``problems`` (level, message)."""
    accepted: tuple[tuple[str, str], ...]
    problems: tuple[tuple[str, str], ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        """One line, then each problem (and each accepted warning with its reason)."""
        head = "ERC: no problems" if self.ok else f"ERC: {len(self.problems)} problem(s)"
        lines = [head]
        lines += [f"  {level}: {text}" for level, text in self.problems]
        lines += [f"  accepted: {text} ({why})" for text, why in self.accepted]
        return "\n".join(lines)


def run_erc(schematic: Schematic, accepted: dict[str, str] | None = None) -> ErcReport:
    """Run skidl's ERC on ``schematic``; sort its messages into accepted and problems."""
    rules = ACCEPTED_ERC_WARNINGS if accepted is None else accepted
    with eda.collect() as messages:
        schematic.circuit.ERC()
    ok: list[tuple[str, str]] = []
    bad: list[tuple[str, str]] = []
    for m in messages:
        why = next((reason for pattern, reason in rules.items() if re.search(pattern, m.text)), None)
        if why is not None and m.level == "WARNING":
            ok.append((m.text, why))
        else:
            bad.append((m.level, m.text))
    return ErcReport(accepted=tuple(ok), problems=tuple(bad))
