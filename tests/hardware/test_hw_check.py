"""`shengji-table hardware check`: the board file, the committed schematic and the firmware's view
(firmware/board.py under the real MicroPython) agree pin by pin, and the first difference is named."""
import shutil

import pytest

from shengji_table.cli import main
from shengji_table.board import load_board
from shengji_table.hardware.build import BOARDS_DIR, SCHEMATICS_DIR
from shengji_table.hardware.check import (PinMismatch, StaleOutput, board_roles, check_board, compare,
                                          firmware_dump, firmware_roles, schematic_roles)


@pytest.mark.micropython
@pytest.mark.parametrize("name", ["table-4", "table-6"])
def test_hw_check_passes_for_the_committed_board(name, capsys):
    assert main(["hardware", "check", "--board", str(BOARDS_DIR / f"{name}.json")]) == 0
    out = capsys.readouterr().out
    board = load_board(BOARDS_DIR / f"{name}.json")
    assert f"agree on {len(board.pin_uses())} pins" in out
    assert f"GP{board.readers[0].cs:<2}  seat0 reader CS" in out
    assert "ERC: no problems" in out
    assert out.count("up to date:") == 3


@pytest.mark.micropython
def test_hw_check_names_the_chip_select_moved_in_the_board_file_only(board_copy, capsys):
    """Seat 0's reader CS moves from GP17 to GP21 in a copy of the board file; the committed
    schematic still wires GP17.  The check stops at GP17 and says what each view holds."""
    moved = board_copy("table-4", lambda d: d["readers"][0].update(cs=21))
    with pytest.raises(PinMismatch) as info:
        check_board(moved)
    assert info.value.pin == 17
    message = str(info.value)
    assert message.startswith("GP17 (Pico pin 22):")
    assert "board file says 'unused'" in message
    assert "schematic (table-4.net) says 'seat0 reader CS'" in message
    assert "firmware (micropython) says 'unused'" in message

    assert main(["hardware", "check", "--board", str(moved)]) == 1
    err = capsys.readouterr().err
    assert "FAILED: GP17 (Pico pin 22)" in err


@pytest.mark.micropython
def test_hw_check_swapped_chip_selects_name_the_lower_pin(board_copy):
    def swap(data):
        a, b = data["readers"][1], data["readers"][2]
        a["cs"], b["cs"] = b["cs"], a["cs"]          # GP6 <-> GP7
    with pytest.raises(PinMismatch) as info:
        check_board(board_copy("table-6", swap))
    assert info.value.pin == 6
    assert "board file says 'seat2 reader CS'" in str(info.value)
    assert "says 'seat1 reader CS'" in str(info.value)


@pytest.mark.micropython
@pytest.mark.parametrize("name", ["table-4", "table-6"])
def test_hw_check_firmware_view_same_under_micropython_and_cpython(name):
    path = str(BOARDS_DIR / f"{name}.json")
    assert firmware_dump(path, "micropython") == firmware_dump(path, "cpython")
    assert firmware_roles(firmware_dump(path, "cpython")) == board_roles(load_board(path))


def test_hw_check_a_firmware_that_misreads_a_pin_is_caught(generated):
    """The firmware's view is compared, not assumed: a loader that put the centre reader at index 0
    would make every reader's pins disagree; the first is named."""
    board, _, netlist = generated["table-4"]
    dump = firmware_dump(str(BOARDS_DIR / "table-4.json"), "cpython")
    dump["readers"] = dump["readers"][-1:] + dump["readers"][:-1]
    with pytest.raises(PinMismatch) as info:
        compare({"board file": board_roles(board), "schematic": schematic_roles(netlist),
                 "firmware": firmware_roles(dump)})
    assert info.value.pin == 6           # lowest GPIO whose role differs (seat1's CS)
    assert "firmware says 'seat2 reader CS'" in str(info.value)


def test_hw_check_led_chain_order_is_compared(board_copy, tmp_path):
    def reorder(data):                    # seat1's ring first on the data line, seat0's second
        rings = data["leds"]["rings"]
        rings[0]["first"], rings[1]["first"] = 12, 0
    with pytest.raises(PinMismatch) as info:
        check_board(board_copy("table-4", reorder), interpreter="cpython")
    assert info.value.pin is None
    assert "LED chain order (data line GP22)" in str(info.value)
    assert "'seat1 x12 -> seat0 x12" in str(info.value)


def test_hw_check_stale_committed_output_is_refused(tmp_path):
    for f in SCHEMATICS_DIR.glob("table-4*"):
        shutil.copy(f, tmp_path / f.name)
    bom = tmp_path / "table-4-bom.csv"
    bom.write_text(bom.read_text().replace("PN532", "PN533", 1))
    with pytest.raises(StaleOutput, match="table-4-bom.csv"):
        check_board(BOARDS_DIR / "table-4.json", tmp_path / "table-4.net", interpreter="cpython")


def test_hw_check_bad_inputs_exit_2_with_a_reason(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["hardware", "check", "--board", str(bad)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["hardware", "check", "--board", str(BOARDS_DIR / "table-4.json"),
                 "--schematic", str(tmp_path / "missing.net")]) == 2
    assert "no schematic netlist" in capsys.readouterr().err
    junk = tmp_path / "junk.net"
    junk.write_text("(kicad_sch (version 1))")
    assert main(["hardware", "check", "--board", str(BOARDS_DIR / "table-4.json"), "--schematic", str(junk)]) == 2
    assert "not a KiCad netlist" in capsys.readouterr().err


def test_hw_check_schematic_view_reads_a_rewired_netlist(generated, tmp_path):
    """Edit the committed netlist as a KiCad user would (move seat3's CS wire to GP20): the schematic
    view follows the file, and the check names GP8 (now open in the schematic)."""
    board, outputs, _ = generated["table-4"]
    text = outputs.files["table-4.net"]
    net = tmp_path / "table-4.net"
    # Pico pin 11 = GP8 (seat3 CS), pin 26 = GP20 (unused)
    marker = '(ref "U1")\n        (pin "11")'
    assert text.count(marker) == 1
    net.write_text(text.replace(marker, '(ref "U1")\n        (pin "26")'))
    with pytest.raises(PinMismatch) as info:
        check_board(BOARDS_DIR / "table-4.json", net, interpreter="cpython")
    assert info.value.pin == 8
    assert "schematic (table-4.net) says 'unused'" in str(info.value)


@pytest.mark.micropython
def test_hw_check_passes_for_a_rebuilt_variant_board(board_copy, tmp_path):
    """Not tied to the committed boards: a variant with an IRQ wired, an unwired reset and
    active-high buttons, built afresh, agrees with its own firmware view."""
    def variant(data):
        data["readers"][0]["rst"] = None
        data["readers"][1]["irq"] = 21
        data["buttons"][1].update(pull="down", active="high")
        data["buttons"][2].update(pull="none", active="high")
    from shengji_table.hardware.build import write_outputs
    board_path = board_copy("table-4", variant)
    out = tmp_path / "out"
    write_outputs(board_path, out)
    result = check_board(board_path, out / "table-4.net")
    roles = result.agreement.roles
    assert roles[21] == "seat1 reader IRQ"
    assert roles[3] == "seat1 button, active high, pull down"
    assert roles[4] == "seat2 button, active high, pull none"   # the schematic's external pull-down
    assert 10 not in roles                      # seat0's reset is no longer a Pico pin
    assert result.erc_summary == "ERC: no problems"


@pytest.mark.micropython
def test_hw_check_catches_a_firmware_that_opens_the_bus_wrongly(generated, tmp_path):
    """The firmware's view is what its own code configures: a copy of firmware/ whose main.py
    swaps MOSI and MISO when it opens the SPI bus disagrees at GP16 (MISO in the board file)."""
    from shengji_table.firmware_src import FIRMWARE_DIR
    mutant = tmp_path / "firmware"
    shutil.copytree(FIRMWARE_DIR, mutant)
    main_py = mutant / "main.py"
    text = main_py.read_text()
    original = "mosi=machine.Pin(board.mosi), miso=machine.Pin(board.miso)"
    assert original in text, "main.py no longer opens the bus this way: update this test"
    main_py.write_text(text.replace(original, "mosi=machine.Pin(board.miso), miso=machine.Pin(board.mosi)"))
    board, _, netlist = generated["table-4"]
    dump = firmware_dump(str(BOARDS_DIR / "table-4.json"), "micropython", firmware_dir=mutant)
    with pytest.raises(PinMismatch) as info:
        compare({"board file": board_roles(board), "schematic": schematic_roles(netlist),
                 "firmware": firmware_roles(dump)})
    assert info.value.pin == 16
    assert "firmware says 'SPI0 MOSI'" in str(info.value)


def test_hw_check_a_pin_the_firmware_opens_without_a_role_is_named():
    dump = firmware_dump(str(BOARDS_DIR / "table-4.json"), "cpython")
    assert firmware_roles(dump) == board_roles(load_board(BOARDS_DIR / "table-4.json"))
    dump["pins"].append([27, 1])                    # e.g. a stray machine.Pin(27, Pin.OUT)
    assert firmware_roles(dump)[27] == "configured by the firmware, no role in the board file"


@pytest.mark.micropython
def test_hw_check_a_table_of_modules_without_reset_pins(board_copy, tmp_path):
    """Red "PN532 V3" modules bring out RSTO, not RSTPDN: every reader "rst": null.  The circuit
    ties each RSTPDN to the readers' 3.3 V at its module, the seat cable's reset pin stays open at
    both ends, no reset GPIO is used, and board file, schematic and firmware still agree."""
    from shengji_table.hardware.build import write_outputs
    from shengji_table.hardware.netlist import parse_netlist
    board_path = board_copy("table-6", lambda data: [r.update(rst=None) for r in data["readers"]])
    out = tmp_path / "out"
    write_outputs(board_path, out)
    result = check_board(board_path, out / "table-6.net")
    assert not any("reader RST" in role for role in result.agreement.roles.values())
    netlist = parse_netlist((out / "table-6.net").read_text())
    for reader in netlist.by_part("PN532_Module"):
        assert netlist.net_of(reader.ref, 8) == "+3V3_RDR"
    for cable in netlist.by_part("Conn_02x06_Seat"):
        assert netlist.net_of(cable.ref, 10) is None
