"""ERC (skidl's electrical rules check) on the generated circuits: nothing unexplained may remain."""
import re

import pytest

from shengji_table.hardware import eda
from shengji_table.board import load_board
from shengji_table.hardware.build import BOARDS_DIR, ErcFailed, generate
from shengji_table.hardware.erc import ACCEPTED_ERC_WARNINGS, run_erc
from shengji_table.hardware.netlist import ACCEPTED_NETLIST_WARNINGS
from shengji_table.hardware.schematic import build_schematic


@pytest.mark.parametrize("name", ["table-4", "table-6"])
def test_schematic_erc_passes_with_no_unexplained_warning(generated, name):
    _, outputs, _ = generated[name]
    assert outputs.erc.problems == ()
    # Every accepted warning that did occur is one of the listed patterns, with its reason.
    for _text, why in outputs.erc.accepted:
        assert why in ACCEPTED_ERC_WARNINGS.values() and why.strip()


def test_schematic_accepted_warnings_each_have_a_reason():
    for table in (ACCEPTED_ERC_WARNINGS, ACCEPTED_NETLIST_WARNINGS):
        for pattern, reason in table.items():
            re.compile(pattern)
            assert len(reason) > 15, f"accepted warning {pattern!r} needs its reason"


def _sabotage_dangling_input(schematic):
    """Add a part whose input hangs on a net of its own (what a forgotten wire looks like)."""
    sk = eda.skidl()
    part = sk.Part(tool=sk.SKIDL, name="X", ref="U99", tag="U99", circuit=schematic.circuit,
                   pins=[sk.Pin(num=1, name="IN", func=sk.Pin.types.INPUT),
                         sk.Pin(num=2, name="OUT", func=sk.Pin.types.OUTPUT)])
    net = sk.Net("DANGLING", circuit=schematic.circuit)
    net += part[1]
    return part


def test_schematic_erc_flags_a_forgotten_wire():
    schematic = build_schematic(load_board(BOARDS_DIR / "table-4.json"))
    _sabotage_dangling_input(schematic)
    report = run_erc(schematic)
    assert not report.ok
    texts = " | ".join(text for _, text in report.problems)
    assert "DANGLING" in texts            # the one-pin net, without a driver
    assert "Unconnected pin" in texts and "U99" in texts   # the open output


def test_schematic_erc_flags_two_outputs_fighting():
    schematic = build_schematic(load_board(BOARDS_DIR / "table-4.json"))
    sk = eda.skidl()
    # A second driver on the LED data line: a push-pull output against the Pico's GPIO and the shifter.
    part = sk.Part(tool=sk.SKIDL, name="X", ref="U98", tag="U98", circuit=schematic.circuit,
                   pins=[sk.Pin(num=1, name="OUT", func=sk.Pin.types.PWROUT)])
    led = next(n for n in schematic.circuit.nets if n.name == "LED_DATA_5V")
    led += part[1]
    report = run_erc(schematic)
    assert not report.ok
    assert any("LED_DATA_5V" in text or "U98" in text for _, text in report.problems)


def test_schematic_accepted_list_only_excuses_what_it_names():
    schematic = build_schematic(load_board(BOARDS_DIR / "table-4.json"))
    _sabotage_dangling_input(schematic)
    report = run_erc(schematic, accepted={r"DANGLING": "test: this net is known to dangle"})
    # The dangling-net warnings are excused; the open pin of U99 is not.
    assert report.accepted and all("DANGLING" in text for text, _ in report.accepted)
    assert report.problems and all("DANGLING" not in text for _, text in report.problems)


def test_schematic_build_refuses_to_write_when_erc_fails(monkeypatch, tmp_path):
    import shengji_table.hardware.build as build

    def broken(board):
        schematic = build_schematic(board)
        _sabotage_dangling_input(schematic)
        return schematic
    monkeypatch.setattr(build, "build_schematic", broken)
    with pytest.raises(ErcFailed) as info:
        generate(load_board(BOARDS_DIR / "table-4.json"))
    assert "U99" in str(info.value)


def _variant(data):
    """Every optional way of wiring the board file allows, in one table."""
    data["readers"][0]["rst"] = None          # reset tied high
    data["readers"][1]["irq"] = 21            # IRQ wired
    data["buttons"][0].update(pull="none")    # external pull-up
    data["buttons"][1].update(pull="down", active="high")   # to 3.3 V, internal pull-down
    data["buttons"][2].update(pull="none", active="high")   # to 3.3 V, external pull-down
    data["leds"]["rings"] = [r for r in data["leds"]["rings"] if r["seat"] != "centre"]


def test_schematic_erc_passes_for_every_optional_wiring(board_copy):
    board = load_board(board_copy("table-4", _variant))
    report = run_erc(build_schematic(board))
    assert report.problems == ()


# ---- the design rules (erc.design_problems): what ERC cannot know ---------------------------------

def test_design_rule_flags_a_cable_its_connector_does_not_take():
    """A ring cable of AWG 18 into a JST-XH (AWG 28-22) is a class of error the check catches: the
    ring connector is JST-VH (AWG 22-16), and a cable outside its range fails ERC naming the part."""
    import dataclasses
    from shengji_table.hardware import parts
    from shengji_table.hardware.erc import design_problems
    schematic = build_schematic(load_board(BOARDS_DIR / "table-4.json"))
    assert design_problems(schematic) == []
    rings = [p for p in schematic.parts if p.name == parts.RING_CONNECTOR.name]
    assert rings and all(p.fields["Cable"] == "AWG 18" for p in rings)
    xh = dataclasses.replace(parts.RING_CONNECTOR, awg=(28, 22))
    saved = parts.SPECS[xh.name]
    parts.SPECS[xh.name] = xh
    try:
        found = design_problems(schematic)
    finally:
        parts.SPECS[xh.name] = saved
    assert len(found) == len(rings)
    assert found[0].startswith(f"{rings[0].ref} (ring input 1x3, seat0): takes AWG 28-22, its cable is AWG 18")
    report = run_erc(schematic)
    assert report.ok


def test_design_rule_flags_a_supply_below_the_uncapped_worst_case():
    import dataclasses
    from shengji_table.hardware.erc import design_problems
    schematic = build_schematic(load_board(BOARDS_DIR / "table-6.json"))
    b = schematic.budget
    assert b.supply_a * 1000 >= b.uncapped_ma * 1.2 and b.fuse_a * 1000 >= b.uncapped_ma
    assert b.uncapped_ma == b.readers_ma + b.leds * b.led_ma + b.pico_ma == 6030
    schematic.budget = dataclasses.replace(b, supply_a=3)       # sized on the capped figure, as before
    problems = design_problems(schematic)
    assert problems == ["J1: the supply (3 A) and its fuse (8 A) must carry the uncapped worst case, 6030 mA"]
    assert ("DESIGN", problems[0]) in run_erc(schematic).problems


def test_bom_has_the_fuse_the_stickers_and_a_tantalum_at_the_ldo(generated):
    import csv
    import io
    _, outputs, _ = generated["table-6"]
    rows = list(csv.DictReader(io.StringIO(outputs.files["table-6-bom.csv"])))
    parts = {r["part"]: r for r in rows}
    assert parts["fuse"]["value"] == "8 A slow-blow" and parts["power supply"]["value"] == "5 V 8 A"
    assert parts["card tags"]["qty"] == "240" and "162 for find-friend-5-three-decks, six-players" in \
        parts["card tags"]["description"]
    assert parts["CP_Tantalum"]["value"] == "22u" and "regulator output" not in parts["CP_Tantalum"]["part"]
    assert "JST-VH" in parts["Conn_01x03_Ring"]["buy"] and parts["ring data wire"]["qty"] == "6"
