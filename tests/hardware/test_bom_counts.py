"""The bill of materials follows the board file: one PN532 per seat plus the centre, one ring per
ring entry, one button per seat, one reader regulator, and the capacitors and resistors each
part calls for; the supply line carries the rating of the power budget."""
import csv
import io

import pytest

from shengji_table.board import load_board
from shengji_table.hardware.bom import COLUMNS, bom_csv, bom_lines
from shengji_table.hardware.build import BOARDS_DIR, generate
from shengji_table.hardware.netlist import parse_netlist
from shengji_table.hardware.power import budget


def _rows(csv_text):
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    assert rows and list(rows[0]) == list(COLUMNS)
    return rows


def _qty(rows, part, value=None):
    return sum(int(r["qty"]) for r in rows if r["part"] == part and (value is None or r["value"] == value))


@pytest.mark.parametrize("name, seats", [("table-4", 4), ("table-6", 6)])
def test_bom_counts_follow_the_board_file(generated, name, seats):
    board, outputs, _ = generated[name]
    rows = _rows(outputs.files[f"{name}-bom.csv"])
    readers = seats + 1                                    # every seat, plus the centre
    rings = len(board.leds.rings)
    assert _qty(rows, "PN532_Module") == readers
    (pn532,) = [r for r in rows if r["part"] == "PN532_Module"]
    assert pn532["seats"].split() == [f"seat{i}" for i in range(seats)] + ["centre"]
    assert _qty(rows, "WS2812B_Ring") == rings
    assert _qty(rows, "WS2812B_Ring", "WS2812B ring, 16 LEDs") == 1             # the centre ring
    assert _qty(rows, "WS2812B_Ring", "WS2812B ring, 12 LEDs") == seats
    assert _qty(rows, "SW_Push") == seats
    assert _qty(rows, "RaspberryPi_Pico") == 1
    assert _qty(rows, "74AHCT125") == 1
    assert _qty(rows, "AMS1117-3.3") + _qty(rows, "LM1085IT-3.3") == 1        # one reader regulator
    # capacitors: 100n + 10u per reader, 100n at each button, 100u per ring, 100n at the shifter, the
    # regulator's in/out pair and the 1000u bulk capacitor
    assert _qty(rows, "C", "100n") == readers + seats + 1
    assert _qty(rows, "C", "10u") == readers + 1
    assert _qty(rows, "C", "22u") == 0 and _qty(rows, "CP_Tantalum", "22u") == 1   # LDO output: tantalum
    assert _qty(rows, "CP", "100u") == rings
    assert _qty(rows, "CP", "1000u") == 1
    # resistors: a CS pull-up per reader, the LED data series resistor, 33 R in series at the Pico on
    # SCK, MOSI and each chip select, 1 k in series with each button
    assert _qty(rows, "R", "10k") == readers
    assert _qty(rows, "R", "330") == 1
    assert _qty(rows, "R", "33") == 2 + readers
    assert _qty(rows, "R", "1k") == seats
    # ESD clamp per button; a seat cable (two connectors) per reader; an input connector per ring
    assert _qty(rows, "D_TVS") == seats
    assert _qty(rows, "Conn_02x06_Seat") == 2 * readers
    assert _qty(rows, "Conn_01x03_Ring") == rings
    assert _qty(rows, "seat cable") == readers and _qty(rows, "ring cable") == rings
    assert _qty(rows, "ferrite sheet") == readers
    (supply,) = [r for r in rows if r["part"] == "power supply"]
    assert supply["value"] == f"5 V {budget(board).supply_a} A"


def test_bom_references_are_unique_and_match_the_netlist(generated):
    for name, (_, outputs, netlist) in generated.items():
        rows = _rows(outputs.files[f"{name}-bom.csv"])
        refs = [ref for r in rows for ref in r["references"].split()]
        assert len(refs) == len(set(refs))
        assert set(refs) == set(netlist.components)
        for r in rows:
            if r["references"]:
                assert int(r["qty"]) == len(r["references"].split())


def test_bom_grows_with_a_board_of_eight_seats(board_copy):
    """A bigger table than the committed ones: counts and the supply follow the file."""
    def eight(data):
        data["name"] = "table-8"
        data["seats"] = 8
        data["readers"] = [{"name": f"seat{i}", "seat": i, "cs": cs, "rst": None, "irq": None}
                           for i, cs in zip(range(8), [17, 6, 7, 8, 9, 10, 11, 12])]
        data["readers"].append({"name": "centre", "seat": "centre", "cs": 13, "rst": None, "irq": None})
        data["leds"]["rings"] = [{"seat": i, "first": 12 * i, "count": 12} for i in range(8)] + \
                                [{"seat": "centre", "first": 96, "count": 16}]
        data["buttons"] = [{"seat": i, "pin": p, "pull": "up", "active": "low"}
                           for i, p in zip(range(8), [0, 1, 2, 3, 4, 5, 14, 15])]
    board = load_board(board_copy("table-6", eight))
    outputs = generate(board)
    rows = _rows(outputs.files["table-8-bom.csv"])
    assert _qty(rows, "PN532_Module") == 9
    assert _qty(rows, "SW_Push") == 8
    assert _qty(rows, "WS2812B_Ring") == 9
    assert _qty(rows, "LM1085IT-3.3") == 1          # 9 x 100 mA: too much heat for the SOT-223 part
    b = budget(board)
    # every LED white at the firmware's cap of 64/256: 60 mA / 4, plus 1 mA idle each
    assert (b.bright, b.full) == (64, 256)
    assert b.total_ma == 9 * 100 + 112 * (15 + 1) + 50
    assert b.leds_full_ma == 112 * 60                 # what the 5 V wiring is rated for
    (supply,) = [r for r in rows if r["part"] == "power supply"]
    # sized for every LED full white: (900 + 6720 + 50) mA x 1.2 = 9.2 A
    assert supply["value"] == "5 V 10 A"


def test_power_budget_follows_the_firmwares_brightness_cap():
    """The budget reads the cap from the firmware's own text; the supply is sized for every LED full
    white whatever the cap (a fault on the data line, or another firmware, can light them so)."""
    from shengji_table.hardware.power import brightness_cap
    assert brightness_cap("_BRIGHT = const(64)\n", "FULL = const(256)\n") == (64, 256)
    board = load_board(BOARDS_DIR / "table-6.json")
    quarter, full = budget(board, cap=(64, 256)), budget(board, cap=(256, 256))
    assert quarter.leds_ma == 88 * 16 and full.leds_ma == 88 * 61
    assert quarter.supply_a == full.supply_a == 8 and quarter.fuse_a == 8     # 6030 mA uncapped
    with pytest.raises(Exception, match="brightness cap"):
        brightness_cap("bright = 64\n", "FULL = const(256)\n")


def test_bom_csv_quotes_and_orders_lines(generated):
    _, outputs, netlist = generated["table-4"]
    lines = bom_lines(netlist)
    text = bom_csv(lines)
    rows = _rows(text)
    assert [int(r["item"]) for r in rows] == list(range(1, len(rows) + 1))
    assert rows[0]["part"] == "RaspberryPi_Pico"             # the controller first
    assert not any(r["group"] == "off-board" for r in rows)   # without a budget: only the circuit
    # descriptions with commas survive the CSV round trip
    assert any("," in r["description"] for r in rows)
    assert len(parse_netlist(outputs.files["table-4.net"]).components) == sum(int(r["qty"]) for r in rows)


def test_bom_regulator_choice_follows_current_and_heat(board_copy):
    """The smallest regulator whose current (with 25 % margin) and heat both fit is chosen."""
    from shengji_table.hardware.power import PowerError
    # 5 readers x 100 mA: 625 mA needed, 0.85 W: the SOT-223 part
    assert budget(load_board(BOARDS_DIR / "table-4.json")).regulator.spec.name == "AMS1117-3.3"
    # 5 readers x 120 mA: 750 mA needed (fits 1 A) but 1.02 W: more than the SOT-223 sheds
    hot = load_board(board_copy("table-4", lambda d: d["power"].update(reader_ma=120)))
    assert budget(hot).regulator.spec.name == "LM1085IT-3.3"
    # 5 readers x 500 mA: 3125 mA needed: nothing in the catalogue
    with pytest.raises(PowerError, match="2500 mA"):
        budget(load_board(board_copy("table-4", lambda d: d["power"].update(reader_ma=500))))


def test_bom_budget_without_power_figures_uses_the_documented_defaults(board_copy):
    from shengji_table.hardware.power import DEFAULT_POWER
    board = load_board(board_copy("table-4", lambda d: d.pop("power")))
    b = budget(board)
    assert (b.reader_ma, b.led_ma, b.pico_ma) == (DEFAULT_POWER.reader_ma, DEFAULT_POWER.led_ma, DEFAULT_POWER.pico_ma)
    assert b.total_ma == 5 * 100 + 64 * (60 * 64 // 256 + 1) + 50 and b.leds_full_ma == 64 * 60
