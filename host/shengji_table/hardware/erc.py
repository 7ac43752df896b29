"""skidl's electrical rules check (ERC) on a table's circuit, with the accepted warnings spelled out,
and the table's own design rules (:func:`design_problems`).

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

__all__ = ["ACCEPTED_ERC_WARNINGS", "ErcReport", "run_erc", "design_problems"]

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


def design_problems(schematic: Schematic) -> list[str]:
    """The design rules ERC cannot know, one sentence a broken one:

    * a wire connector takes the gauge of the cable the BOM puts in it (a part's ``Cable`` field
      against its kind's ``awg`` range: JST-XH crimps take AWG 28-22, not a ring's AWG 18);
    * the 5 V supply and its fuse cover the uncapped worst case (every LED full white), which the
      5 V wiring is rated for.
    """
    from .parts import SPECS
    out = []
    for part in schematic.parts:
        cable = part.fields.get("Cable", "")
        m = re.fullmatch(r"AWG (\d+)", cable)
        spec = SPECS.get(part.name)
        if not m or spec is None or spec.awg is None:
            continue
        thin, thick = spec.awg
        if not thick <= int(m.group(1)) <= thin:
            out.append(f"{part.ref} ({spec.value}, {part.fields.get('Seat', '')}): takes AWG {thin}-{thick}, "
                       f"its cable is {cable}: use a connector that takes it or another cable")
    power = schematic.budget
    if power.supply_a * 1000 < power.uncapped_ma or power.fuse_a * 1000 < power.uncapped_ma:
        out.append(f"J1: the supply ({power.supply_a} A) and its fuse ({power.fuse_a} A) must carry the uncapped "
                   f"worst case, {power.uncapped_ma} mA")
    return out


def run_erc(schematic: Schematic, accepted: dict[str, str] | None = None) -> ErcReport:
    """Run skidl's ERC on ``schematic``; sort its messages into accepted and problems; the design
    rules' problems (:func:`design_problems`) are problems too."""
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
    bad += [("DESIGN", text) for text in design_problems(schematic)]
    return ErcReport(accepted=tuple(ok), problems=tuple(bad))
