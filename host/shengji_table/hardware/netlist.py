"""The KiCad netlist of a schematic: written by skidl, read back as plain data.

skidl stamps the netlist with the generating script and the time; :func:`netlist_text` replaces both
with the board file's name and an empty date, so the committed netlist of ``schematics/`` is
byte-for-byte what a fresh generation gives (a test holds it to that).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import eda
from .schematic import Schematic

__all__ = ["netlist_text", "Netlist", "Component", "parse_netlist", "NetlistError", "ACCEPTED_NETLIST_WARNINGS"]

# skidl's own reports while writing the netlist that are expected, each with why it is harmless.
ACCEPTED_NETLIST_WARNINGS = {
    # skidl checks that every hierarchy node has a tag for PCB re-annotation; the top node of a flat
    # circuit cannot carry one (its tag is its empty hierarchical name), and there is no other node.
    r"^Missing tag on  instantiated at ": "the flat circuit's top node has no tag by construction",
}


class NetlistError(ValueError):
    """A netlist that is not one of ours (unreadable, or missing what the check needs)."""


def netlist_text(schematic: Schematic) -> str:
    """The KiCad (version D, KiCad 6+) netlist of ``schematic``, stable across runs."""
    with eda.collect() as messages:
        text = str(schematic.circuit.generate_netlist(tool="kicad6", do_backup=False, track_src=False))
    unexpected = [m for m in messages
                  if not any(re.search(pattern, m.text) for pattern in ACCEPTED_NETLIST_WARNINGS)]
    if unexpected:
        raise NetlistError("skidl reported while writing the netlist:\n" +
                           "\n".join(f"  {m.level}: {m.text}" for m in unexpected))
    source = f"boards/{schematic.board.name}.json"
    text = re.sub(r'\(source "[^"]*"\)', f'(source "{source}")', text)
    text = re.sub(r'\(date "[^"]*"\)', '(date "")', text, count=1)
    text = text.replace("(title)", f'(title "{schematic.board.name}: {_quote(schematic.board.description)}")', 1)
    return text if text.endswith("\n") else text + "\n"


def _quote(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


@dataclass(frozen=True)
class Component:
    """One part in a netlist: reference, value, symbol name and its fields."""
    ref: str
    value: str
    part: str
    fields: dict[str, str]


@dataclass(frozen=True)
class Netlist:
    """A netlist as data: components by reference, nets as name -> ((ref, pin number), …)."""
    components: dict[str, Component]
    nets: dict[str, tuple[tuple[str, str], ...]]

    def net_of(self, ref: str, pin: str | int) -> str | None:
        """The name of the net on pin ``pin`` of ``ref``, or ``None`` if it is open."""
        node = (ref, str(pin))
        return next((name for name, nodes in self.nets.items() if node in nodes), None)

    def by_part(self, part: str) -> list[Component]:
        """Components whose symbol is ``part`` (e.g. ``"PN532_Module"``), by reference."""
        return sorted((c for c in self.components.values() if c.part == part), key=lambda c: _ref_key(c.ref))


def _ref_key(ref: str) -> tuple[str, int]:
    m = re.match(r"([A-Za-z]+)(\d+)$", ref)
    return (m.group(1), int(m.group(2))) if m else (ref, 0)


def parse_netlist(text: str, source: str = "<netlist>") -> Netlist:
    """Read a KiCad version-D netlist (as written by :func:`netlist_text`)."""
    eda.skidl()
    from simp_sexp import Sexp
    try:
        tree = Sexp(text)
    except Exception as exc:  # the parser raises plain exceptions of several kinds
        raise NetlistError(f"{source}: not an S-expression netlist ({exc})") from exc
    if not tree or tree[0] != "export":
        raise NetlistError(f"{source}: not a KiCad netlist (no 'export' at the top)")

    def child(node, key):
        return next((x for x in node[1:] if isinstance(x, list) and x and x[0] == key), None)

    def children(node, key):
        return [x for x in node[1:] if isinstance(x, list) and x and x[0] == key]

    def scalar(node, key, default=""):
        c = child(node, key)
        return str(c[1]) if c is not None and len(c) > 1 else default

    comps_node, nets_node = child(tree, "components"), child(tree, "nets")
    if comps_node is None or nets_node is None:
        raise NetlistError(f"{source}: no components or nets section")
    components = {}
    for comp in children(comps_node, "comp"):
        fields = {}
        fnode = child(comp, "fields")
        for f in children(fnode, "field") if fnode is not None else []:
            name = scalar(f, "name")
            value = next((str(x) for x in f[1:] if not isinstance(x, list)), "")
            fields[name] = value
        lib = child(comp, "libsource")
        part = scalar(lib, "part") if lib is not None else ""
        ref = scalar(comp, "ref")
        components[ref] = Component(ref=ref, value=scalar(comp, "value"), part=part, fields=fields)
    nets = {}
    for net in children(nets_node, "net"):
        nodes = tuple((scalar(n, "ref"), scalar(n, "pin")) for n in children(net, "node"))
        nets[scalar(net, "name")] = nodes
    return Netlist(components=components, nets=nets)
