"""The fake machine / neopixel / rp2 modules and their world (sim/hw), under CPython."""
import json
import pathlib

import pytest

from shengji_table.sim.hw import machine, neopixel, rp2, world
from shengji_table.firmware_src import pn532_model

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
REV, SimNTAG = pn532_model.REV, pn532_model.SimNTAG


@pytest.fixture(autouse=True)
def clean_world():
    world.reset()
    yield
    world.reset()


def load_board(name):
    return json.loads((REPO_ROOT / "boards" / f"{name}.json").read_text())


def test_sim_world_from_board_file_readers_and_buttons():
    board = load_board("table-4")
    readers = world.setup_board(board)
    assert sorted(readers) == sorted(r["name"] for r in board["readers"])
    for r in board["readers"]:
        assert world.readers_by_cs[r["cs"]] is readers[r["name"]]
        assert world.readers_by_rst[r["rst"]] is readers[r["name"]]
    b = board["buttons"][0]["pin"]
    pin = machine.Pin(b, machine.Pin.IN, machine.Pin.PULL_UP)
    assert pin.value() == 1  # idle: pulled up
    edges = []
    pin.irq(lambda p: edges.append(p.value()), machine.Pin.IRQ_FALLING)
    world.press(b)
    assert pin.value() == 0 and edges == [0]
    world.release(b)
    assert pin.value() == 1 and edges == [0]  # falling edges only


def test_sim_world_cs_pin_selects_its_reader_only():
    board = load_board("table-4")
    world.setup_board(board)
    seat1 = board["readers"][1]
    world.reader(seat1["name"]).lose_first_command = False   # counted below as a frame taken
    cs = machine.Pin(seat1["cs"], machine.Pin.OUT, value=1)
    spi = machine.SPI(0)
    cs.value(0)
    assert [m.name for m in world.selected()] == [seat1["name"]]
    spi.write(bytes([REV[0x01]]) + bytes(REV[b] for b in bytes.fromhex("0000ff02fed4022a00")))
    cs.value(1)
    assert world.reader(seat1["name"]).frames == 1
    assert sum(m.frames for m in world.readers_by_cs.values()) == 1


def test_sim_world_rst_pin_reaches_the_chip():
    world.setup_board(load_board("table-4"))
    chip = world.reader("seat0")
    rst = machine.Pin(10, machine.Pin.OUT, value=1)
    rst.value(0)
    assert chip.rst_low
    rst.value(1)
    assert not chip.rst_low


def test_sim_world_place_and_lift_by_name():
    world.setup_board(load_board("table-4"))
    tag = SimNTAG(bytes.fromhex("04a1b2c3d4e5f6"))
    world.place("centre", tag)
    assert world.reader("centre").tags == [tag]
    world.lift("centre")
    assert world.reader("centre").tags == []


def test_sim_spi_is_msb_only_softspi_takes_lsb():
    with pytest.raises(NotImplementedError):
        machine.SPI(0, firstbit=machine.SPI.LSB)  # like rp2's hardware SPI
    chip = world.add_reader(17)
    chip.log = []
    chip.lose_first_command = False   # ready with the ACK of this very first frame, below
    cs = machine.Pin(17, machine.Pin.OUT, value=1)
    soft = machine.SoftSPI(firstbit=machine.SoftSPI.LSB)
    frame = bytes.fromhex("0000ff02fed4022a00")
    cs.value(0)
    soft.write(b"\x01" + frame)  # LSB first on the wire: no bit-reversal table needed
    cs.value(1)
    assert chip.log == [frame]
    cs.value(0)
    status = bytearray(2)
    soft.write_readinto(b"\x02\x00", status)
    cs.value(1)
    assert status[1] == 0x01  # ready with the ACK


def test_sim_spi_unselected_bus_reads_idle_and_conflicts_counted():
    world.add_reader(17)
    world.add_reader(13)
    spi = machine.SPI(0)
    assert spi.read(3) == bytes(3)  # nobody selected: MISO idles low
    a = machine.Pin(17, machine.Pin.OUT, value=0)
    b = machine.Pin(13, machine.Pin.OUT, value=0)
    spi.write(b"\x00")
    assert world.spi_conflicts == 1
    a.value(1)
    b.value(1)
    with pytest.raises(ValueError):
        world.add_reader(17)


def test_sim_neopixel_records_grb_buffer():
    pin = machine.Pin(22, machine.Pin.OUT)
    np = neopixel.NeoPixel(pin, 4)
    np[0] = (10, 20, 30)
    np[3] = (1, 2, 3)
    assert np[0] == (10, 20, 30) and len(np) == 4
    assert world.pixels(22) is None  # nothing written yet
    np.write()
    assert world.pixels(22) == bytes([20, 10, 30, 0, 0, 0, 0, 0, 0, 2, 1, 3])
    np.fill((5, 6, 7))
    np.write()
    assert world.pixels(22) == bytes([6, 5, 7]) * 4 and world.pixel_writes(22) == 2


def test_sim_wdt_starvation_on_sim_clock():
    world.use_sim_clock(0)
    with pytest.raises(ValueError):
        machine.WDT(timeout=9000)  # RP2040 maximum is 8388 ms
    wdt = machine.WDT(timeout=1000)
    world.advance(900)
    wdt.feed()
    world.advance(900)
    wdt.feed()
    assert not world.wdt_fired and world.wdt[2] == 2
    world.advance(1001)
    assert world.wdt_fired


def test_sim_machine_misc():
    assert len(machine.unique_id()) == 8
    assert machine.freq() == 125_000_000
    machine.freq(200_000_000)
    assert machine.freq() == 200_000_000
    with pytest.raises(world.MachineReset):
        machine.reset()
    assert world.resets == 1
    assert rp2.bootsel_button() == 0
    world.bootsel = 1
    assert rp2.bootsel_button() == 1


def test_sim_world_apply_commands():
    world.setup_board(load_board("table-4"))
    assert world.apply({"op": "place", "reader": "seat1", "uid": "04a1b2c3d4e5f6", "user": "534a31", "kind": 215})
    tag = world.reader("seat1").tags[0]
    assert tag.kind == 215 and tag.user_memory()[:3] == b"SJ1"
    world.apply({"op": "place", "reader": "seat2", "uid": "deadbeef"})
    assert world.reader("seat2").tags[0].uid == bytes.fromhex("deadbeef")
    world.apply({"op": "alive", "reader": "seat3", "value": False})
    world.apply({"op": "press", "pin": 3})
    assert world.pins[3] == 0
    status = world.apply({"op": "status"})
    assert status["readers"]["seat1"]["tags"] == ["04a1b2c3d4e5f6"]
    assert status["readers"]["seat3"]["alive"] is False
    world.apply({"op": "lift", "reader": "seat1"})
    assert world.reader("seat1").tags == []
    assert world.apply({"op": "pixels", "pin": 22}) == {"pixels": None, "writes": 0}
    with pytest.raises(ValueError):
        world.apply({"op": "explode"})
    with pytest.raises(KeyError):
        world.apply({"op": "lift", "reader": "nobody"})
