"""The committed outputs in schematics/ and the generated blocks of docs/hardware.md are what the
board files generate now; the drawing is a well-formed SVG showing every part and every net."""
import pathlib
import re
import xml.etree.ElementTree as ET

import pytest

from shengji_table.cli import main
from shengji_table.board import load_board
from shengji_table.hardware.build import BOARDS_DIR, SCHEMATICS_DIR, all_boards, output_names
from shengji_table.hardware.power import budget
from shengji_table.hardware.wiring import board_section, doc_blocks, update_doc, DocError

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("name", ["table-4", "table-6"])
def test_schematic_committed_outputs_equal_a_fresh_generation(generated, name):
    _, outputs, _ = generated[name]
    assert set(outputs.files) == set(output_names(name).values())
    for filename, text in outputs.files.items():
        committed = (SCHEMATICS_DIR / filename).read_text(encoding="utf-8")
        assert committed == text, (f"schematics/{filename} is stale: run "
                                   f"`shengji-table hardware build --out schematics`")


def test_schematic_every_board_has_committed_outputs():
    names = {p.stem for p in all_boards()}
    assert names >= {"table-4", "table-6"}
    for name in names:
        for filename in output_names(name).values():
            assert (SCHEMATICS_DIR / filename).exists(), filename


@pytest.mark.parametrize("name", ["table-4", "table-6"])
def test_schematic_drawing_shows_every_part_and_net(generated, name):
    _, outputs, netlist = generated[name]
    root = ET.fromstring(outputs.files[f"{name}.svg"])
    assert root.tag == f"{SVG}svg"
    groups = {g.get("id") for g in root.iter(f"{SVG}g")}
    assert groups == set(netlist.components)
    labels = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "net"]
    for net_name, nodes in netlist.nets.items():
        # one label per connected pin
        assert labels.count(net_name) == len(nodes), net_name
    assert len(labels) == sum(len(nodes) for nodes in netlist.nets.values())


def test_schematic_build_command_writes_the_three_files(tmp_path, capsys):
    assert main(["hardware", "build", "--board", str(BOARDS_DIR / "table-4.json"), "--out", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["table-4-bom.csv", "table-4.net", "table-4.svg"]
    assert capsys.readouterr().out.count("wrote ") == 3
    assert (tmp_path / "table-4.net").read_text() == (SCHEMATICS_DIR / "table-4.net").read_text()


def test_schematic_build_command_rejects_a_bad_board(tmp_path, capsys, board_copy):
    bad = board_copy("table-4", lambda d: d["readers"][0].update(cs=25))   # GP25 is the on-board LED
    assert main(["hardware", "build", "--board", str(bad), "--out", str(tmp_path)]) == 2
    assert "GP25 is not on the Pico's header" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [bad]                               # nothing written


def test_schematic_docs_wiring_and_budget_match_the_board_files():
    page = (REPO_ROOT / "docs" / "hardware.md").read_text(encoding="utf-8")
    blocks = doc_blocks(page)
    for path in all_boards():
        board = load_board(path)
        assert blocks.get(board.name) == board_section(board), \
            f"docs/hardware.md is stale for {board.name}: run `shengji-table hardware docs --update`"


def test_schematic_docs_budget_shows_the_arithmetic():
    board = load_board(BOARDS_DIR / "table-6.json")
    text = board_section(board)
    assert "readers (3.3 V): 7 x 100 mA = 700 mA" in text
    # every LED white at the firmware's cap (64/256 of 60 mA) plus 1 mA idle; the uncapped figure beside
    assert "LED rings (5 V): 88 LEDs x (60 mA x 64/256 firmware cap + 1 mA idle) = 1408 mA" in text
    assert "uncapped full white: 5280 mA" in text
    assert "5 V supply total: 700 + 1408 + 50 = 2158 mA" in text
    assert "uncapped (every LED full white): 700 + 5280 + 50 = 6030 mA" in text
    assert "a regulated 5 V 8 A supply, behind a 8 A fuse" in text
    assert budget(board).supply_a == 8
    # each seat's row names its CS pin with the Pico header pin
    assert re.search(r"\| seat 0 \| GP17 \(pin 22\) \| GP12 \(pin 16\) \|", text)
    assert "| 3.3 V Pico | 3V3_OUT (pin 36) | the chip-select pull-ups" in text
    assert re.search(r"\| centre \(kitty\) \| GP11 \(pin 15\) \|", text)


def test_schematic_docs_update_rewrites_only_its_blocks():
    board = load_board(BOARDS_DIR / "table-4.json")
    page = "intro\n<!-- generated: table-4 -->\nold\n<!-- end generated -->\noutro\n"
    new = update_doc(page, [board])
    assert new.startswith("intro\n<!-- generated: table-4 -->\n") and new.endswith("<!-- end generated -->\noutro\n")
    assert "old" not in new and board_section(board) in new
    with pytest.raises(DocError, match="table-4"):
        update_doc("no blocks here", [board])


def test_schematic_build_command_reports_a_table_no_supply_can_feed(tmp_path, capsys, board_copy):
    """Seven 64-LED rings of LEDs drawing 250 mA each at full white: 448 x 250 mA = 112 A, more than
    any supply listed."""
    def huge(data):
        data["name"] = "table-huge"
        data["power"]["led_ma"] = 250
        rings = data["leds"]["rings"]
        for i, ring in enumerate(rings):
            ring.update(first=64 * i, count=64)
    bad = board_copy("table-6", huge)
    assert main(["hardware", "build", "--board", str(bad), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "112750 mA at worst (every LED full white)" in err and "fewer or smaller rings" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", ["table-4", "table-6"])
def test_schematic_netlist_has_the_kicad_version_d_shape(generated, name):
    """What KiCad's netlist reader needs: version D, every component with ref, value, footprint
    ("Library:Name") and libsource, every net with code, name and nodes on existing components."""
    from simp_sexp import Sexp
    _, outputs, netlist = generated[name]
    tree = Sexp(outputs.files[f"{name}.net"])
    assert tree[0] == "export" and ["version", "D"] in tree
    (components,) = [x for x in tree[1:] if x[0] == "components"]
    (nets,) = [x for x in tree[1:] if x[0] == "nets"]
    for comp in components[1:]:
        keys = {x[0] for x in comp[1:] if isinstance(x, list)}
        assert {"ref", "value", "footprint", "libsource", "tstamps"} <= keys
        footprint = next(x[1] for x in comp[1:] if x[0] == "footprint")
        assert re.fullmatch(r"[\w.-]+:[\w.-]+", footprint), footprint
    codes = [next(x[1] for x in net[1:] if x[0] == "code") for net in nets[1:]]
    assert codes == list(range(1, len(codes) + 1))
    for net_name, nodes in netlist.nets.items():
        assert len(nodes) >= 2, f"{net_name}: a net with one pin is a wire to nowhere"
        for ref, _ in nodes:
            assert ref in netlist.components


@pytest.mark.parametrize("where", ["an existing file", "under a file", "an unwritable place"])
def test_schematic_build_command_bad_out_folder_is_a_clear_error(where, tmp_path, capsys):
    """``hardware build --out`` that cannot be a folder: exit 2 with a sentence, not a traceback."""
    afile = tmp_path / "afile"
    afile.write_text("keep\n")
    out = {"an existing file": afile, "under a file": afile / "sub", "an unwritable place": "/proc/nope"}[where]
    assert main(["hardware", "build", "--board", str(BOARDS_DIR / "table-4.json"), "--out", str(out)]) == 2
    assert capsys.readouterr().err.startswith(f"hardware build: cannot write to {out}: ")
    assert afile.read_text() == "keep\n"
