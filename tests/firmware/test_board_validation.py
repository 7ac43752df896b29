"""Board files: the two shipped boards load; every kind of bad file is rejected with a clear message."""
import copy
import json
import pathlib

import pytest
from hypothesis import given, strategies as st

from shengji_table.board import CENTRE, PICO_PINS, Board, BoardError, load_board, parse_board
from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.micropython import run_micropython

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]

BOARDS = REPO_ROOT / "boards"
SHIPPED = sorted(BOARDS.glob("*.json"))


def good():
    return json.loads((BOARDS / "table-4.json").read_text())


def rejected(data) -> list[str]:
    with pytest.raises(BoardError) as info:
        parse_board(data, "test.json")
    assert str(info.value).startswith("bad board file test.json:")
    return info.value.problems


def test_board_shipped_files_are_valid_and_complete():
    assert {p.name for p in SHIPPED} >= {"table-4.json", "table-6.json"}
    for path, seats in ((BOARDS / "table-4.json", 4), (BOARDS / "table-6.json", 6)):
        board = load_board(path)
        assert isinstance(board, Board)
        assert board.seats == seats
        for seat in list(range(seats)) + [CENTRE]:
            assert board.reader_for(seat).cs >= 0
        for seat in range(seats):
            assert board.ring_for(seat) is not None
            assert board.button_for(seat).pin >= 0
        uses = board.pin_uses()
        assert len(uses) == 3 + 1 + seats + sum(1 for r in board.readers for p in (r.cs, r.rst, r.irq) if p is not None)


def test_board_value_is_frozen():
    board = load_board(BOARDS / "table-4.json")
    with pytest.raises(AttributeError):
        board.seats = 5  # type: ignore[misc]


def test_board_pin_used_twice_names_both_uses():
    data = good()
    data["buttons"][2]["pin"] = data["readers"][1]["cs"]  # GP6
    problems = rejected(data)
    assert problems == ["GP6 is used twice: by readers[1] (seat1) cs and by buttons[2] (seat 2) pin"]


def test_board_led_pin_shared_with_spi():
    data = good()
    data["leds"]["pin"] = 19
    assert rejected(data) == ["GP19 is used twice: by spi.mosi (SPI0) and by leds.pin (LED data)"]


@pytest.mark.parametrize("pin, words", [(23, "not on the Pico's header"), (25, "on-board LED"),
                                        (29, "not on the Pico's header"), (30, "the Pico has no GP30"),
                                        (-1, "the Pico has no GP-1")])
def test_board_pin_the_pico_does_not_have(pin, words):
    data = good()
    data["readers"][0]["rst"] = pin
    problems = rejected(data)
    assert len(problems) == 1 and problems[0].startswith("readers[0].rst:") and words in problems[0]


@pytest.mark.parametrize("role, pin", [("sck", 10), ("mosi", 11), ("miso", 12), ("sck", 17)])
def test_board_spi_pin_the_bus_cannot_use(role, pin):
    data = good()
    data["spi"][role] = pin
    problems = rejected(data)
    assert problems[0].startswith(f"spi.{role}: SPI0 cannot use GP{pin} as {role.upper()}")


def test_board_spi1_pins_accepted_on_bus_1():
    data = good()
    data["spi"] = {"bus": 1, "sck": 14, "mosi": 15, "miso": 28, "baudrate": 2_000_000}
    # GP14 is seat3's reader reset on table-4: move it out of the way.
    data["readers"][4]["rst"] = None
    board = parse_board(data)
    assert board.spi.bus == 1 and board.spi.miso == 28


@pytest.mark.parametrize("part, words", [("readers", "seat 2 has no reader"), ("leds", "seat 2 has no ring"),
                                         ("buttons", "seat 2 has no button")])
def test_board_seat_without_reader_ring_or_button(part, words):
    data = good()
    if part == "leds":
        data["leds"]["rings"] = [r for r in data["leds"]["rings"] if r["seat"] != 2]
    else:
        data[part] = [x for x in data[part] if x["seat"] != 2]
    problems = rejected(data)
    assert any(words in p for p in problems), problems


def test_board_centre_needs_exactly_one_reader():
    data = good()
    data["readers"] = [r for r in data["readers"] if r["seat"] != "centre"]
    assert any("centre must have exactly one reader, found 0" in p for p in rejected(data))


def test_board_seat_with_two_readers():
    data = good()
    extra = {"name": "seat1b", "seat": 1, "cs": 27, "rst": None, "irq": None}
    data["readers"].append(extra)
    assert "readers: seat 1 has 2 readers (exactly one expected)" in rejected(data)


def test_board_centre_has_no_button():
    data = good()
    data["buttons"].append({"seat": "centre", "pin": 27, "pull": "up", "active": "low"})
    assert any("the centre has no button" in p for p in rejected(data))


def test_board_seat_out_of_range():
    data = good()
    data["buttons"][3]["seat"] = 4
    problems = rejected(data)
    assert "buttons[3].seat: seat 4 does not exist (seats are 0..3)" in problems


def test_board_overlapping_ring_ranges():
    data = good()
    data["leds"]["rings"][2]["first"] = 30  # seat 2: 30..41 overlaps seat 3: 36..47
    problems = rejected(data)
    assert problems == ["leds.rings: the ring of seat 3 (pixels 36-47) overlaps the ring of seat 2 (pixels 30-41)"]


def test_board_rings_may_be_listed_in_any_order():
    data = good()
    data["leds"]["rings"].reverse()
    board = parse_board(data)
    assert [r.first for r in board.leds.rings] == [0, 12, 24, 36, 48]
    assert board.leds.pixels == 64


def test_board_bad_json(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"schema": 1,\n "name": "x",,}')
    with pytest.raises(BoardError) as info:
        load_board(path)
    assert "not valid JSON" in str(info.value) and "line 2" in str(info.value)


def test_board_missing_file(tmp_path):
    with pytest.raises(BoardError, match="cannot read the file"):
        load_board(tmp_path / "nope.json")


def test_board_top_level_not_an_object():
    assert rejected([1, 2]) == ["must be an object, not a list"]


@pytest.mark.parametrize("path, value, words", [
    (("seats",), "4", "seats: must be an integer, not a string"),
    (("seats",), True, "seats: must be an integer, not a boolean"),
    (("spi", "baudrate"), 1e6, "spi.baudrate: must be an integer, not a number"),
    (("spi", "baudrate"), 8_000_000, "spi.baudrate: 8000000 is out of range"),
    (("readers",), {}, "readers: must be a list, not an object"),
    (("readers", 0, "cs"), "GP17", "readers[0].cs: must be a GPIO number, not a string"),
    (("readers", 0, "irq"), [3], "readers[0].irq: must be a GPIO number or null, not a list"),
    (("leds", "order"), "GRBW", "leds.order: 'GRBW' is not one of"),
    (("leds", "rings", 0, "count"), 0, "leds.rings[0].count: 0 is out of range"),
    (("buttons", 0, "pull"), "sideways", "buttons[0].pull: 'sideways' is not one of down, none, up"),
    (("buttons", 0, "active"), None, "buttons[0].active: must be a string, not null"),
    (("schema",), 2, "schema: version 2 is not supported"),
    (("mcu",), "esp32", "mcu: 'esp32' is not one of raspberry-pi-pico"),
    (("readers", 1, "seat"), "kitty", 'readers[1].seat: must be a seat number or "centre", not a string'),
])
def test_board_wrong_types_and_values(path, value, words):
    data = good()
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    problems = rejected(data)
    assert any(p.startswith(words) for p in problems), problems


@pytest.mark.parametrize("where, label", [((), "colour"), (("spi",), "spi.colour"),
                                          (("readers", 0), "readers[0].colour"), (("leds",), "leds.colour"),
                                          (("leds", "rings", 1), "leds.rings[1].colour"),
                                          (("buttons", 2), "buttons[2].colour"), (("power",), "power.colour")])
def test_board_unknown_keys(where, label):
    data = good()
    node = data
    for key in where:
        node = node[key]
    node["colour"] = "blue"
    problems = rejected(data)
    assert len(problems) == 1 and problems[0].startswith(f"{label}: unknown key (known keys here:"), problems


def test_board_missing_required_key():
    data = good()
    del data["spi"]["miso"]
    assert rejected(data) == ["spi.miso: missing"]


def test_board_duplicate_reader_names():
    data = good()
    data["readers"][1]["name"] = "seat0"
    assert rejected(data) == ["readers[1].name: 'seat0' is already the name of readers[0]"]


def test_board_every_problem_reported_at_once():
    data = good()
    data["leds"]["pin"] = 23
    data["buttons"][0]["pull"] = "sideways"
    data["spi"]["sck"] = 3
    problems = rejected(data)
    assert len(problems) == 3


def test_board_validation_does_not_touch_input():
    data = good()
    before = copy.deepcopy(data)
    parse_board(data)
    assert data == before


def test_board_firmware_loader_reads_the_same_file_under_micropython():
    """The Pico's loader (firmware/board.py) sees what the host validated: index = seat, centre last."""
    out = run_micropython(
        "import board\n"
        "b = board.load('boards/table-6.json')\n"
        "print(b.seats, b.spi_bus, b.sck, b.mosi, b.miso, b.baudrate, b.led_pin, b.led_order, b.pixels)\n"
        "print([r.cs for r in b.readers], [r.rst for r in b.readers])\n"
        "print(b.rings)\n"
        "print([(x.pin, x.active_low) for x in b.buttons])\n",
        path=[FIRMWARE_DIR], cwd=REPO_ROOT).stdout.decode().splitlines()
    host = load_board(BOARDS / "table-6.json")
    order = list(range(6)) + [CENTRE]
    assert out[0] == (f"6 0 {host.spi.sck} {host.spi.mosi} {host.spi.miso} {host.spi.baudrate} "
                      f"{host.leds.pin} GRB {host.leds.pixels}")
    assert out[1] == f"{[host.reader_for(s).cs for s in order]} {[host.reader_for(s).rst for s in order]}"
    assert out[2] == str([(host.ring_for(s).first, host.ring_for(s).count) for s in order])
    assert out[3] == str([(host.button_for(s).pin, True) for s in range(6)])


_json = st.recursive(st.none() | st.booleans() | st.integers(-5, 40) | st.floats(allow_nan=False) | st.text(max_size=6)
                     | st.sampled_from(["centre", "up", "low", "GRB"]),
                     lambda inner: (st.lists(inner, max_size=3)
                                    | st.dictionaries(st.text(max_size=5), inner, max_size=3)),
                     max_leaves=8)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


@given(st.data())
def test_board_any_corruption_is_a_board_error_or_a_valid_board(data):
    """Whatever value lands wherever in a good file, the validator answers with a Board or a BoardError
    that names at least one problem — never another exception."""
    board = good()
    paths = [p for p in _paths(board) if p]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        node = board
        try:
            for key in path[:-1]:
                node = node[key]
            if data.draw(st.booleans()) and isinstance(node, dict):
                del node[path[-1]]
            else:
                node[path[-1]] = data.draw(_json)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed this path
    try:
        result = parse_board(board)
    except BoardError as exc:
        assert exc.problems and all(isinstance(p, str) and p for p in exc.problems)
    else:
        assert isinstance(result, Board)
        pins = [result.spi.sck, result.spi.mosi, result.spi.miso, result.leds.pin]
        pins += [p for r in result.readers for p in (r.cs, r.rst, r.irq) if p is not None]
        pins += [b.pin for b in result.buttons]
        assert len(pins) == len(set(pins)) and set(pins) <= PICO_PINS


def test_board_timing_defaults_and_values():
    from shengji_table.board import Timing
    assert parse_board(good()).timing == Timing(lift_ms=600, cs_setup_us=1000, reply_timeout_ms=100,
                                                activation_ms=100)
    data = good()
    data["timing"] = {"lift_ms": 800, "cs_setup_us": 0}
    t = parse_board(data).timing
    assert (t.lift_ms, t.cs_setup_us, t.reply_timeout_ms, t.activation_ms) == (800, 0, 100, 100)


def test_board_dwell_defaults_to_30_ms_and_reaches_the_firmware(tmp_path):
    """A card must dwell before it is a tap: the board file says how long (R-4.1)."""
    import sys
    from shengji_table.firmware_src import FIRMWARE_DIR
    assert parse_board(good()).timing.dwell_ms == 30
    data = good()
    data["timing"] = {"dwell_ms": 0}
    assert parse_board(data).timing.dwell_ms == 0
    if str(FIRMWARE_DIR) not in sys.path:
        sys.path.append(str(FIRMWARE_DIR))
    import importlib.util
    spec = importlib.util.spec_from_file_location("firmware_board", FIRMWARE_DIR / "board.py")
    fb = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fb)
    assert fb.Board(good()).dwell_ms == 30 and fb.Board(data).dwell_ms == 0


@pytest.mark.parametrize("timing, where", [
    ({"lift_ms": 50}, "timing.lift_ms: 50 is out of range (100..5000)"),
    ({"cs_setup_us": 6000}, "timing.cs_setup_us: 6000 is out of range (0..5000)"),
    ({"reply_timeout_ms": "fast"}, "timing.reply_timeout_ms: must be an integer, not a string"),
    ({"activation_ms": True}, "timing.activation_ms: must be an integer, not a boolean"),
    ({"lift_polls": 2}, "timing.lift_polls: unknown key"),
    ({"dwell_ms": 501}, "timing.dwell_ms: 501 is out of range (0..500)"),
    ({"dwell_ms": -1}, "timing.dwell_ms: -1 is out of range (0..500)"),
    ({"dwell_ms": 300, "lift_ms": 300}, "timing.dwell_ms: 300 must be shorter than timing.lift_ms (300)"),
    ([600], "timing: must be an object, not a list"),
])
def test_board_timing_rejects_bad_values(timing, where):
    data = good()
    data["timing"] = timing
    assert any(p.startswith(where) for p in rejected(data)), rejected(data)


def test_board_rst_null_is_a_reader_without_reset():
    data = good()
    data["readers"][2]["rst"] = None
    assert parse_board(data).readers[2].rst is None
