"""The PN532 driver, the Reader and the PN532 model under the REAL MicroPython interpreter, with only
``machine``/``neopixel``/``rp2`` replaced by the fakes of sim/hw (first on MICROPYPATH)."""
import json
import pathlib

import pytest

from shengji_table.sim.hw import HW_DIR
from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.micropython import run_micropython

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.micropython

PATH = [HW_DIR, FIRMWARE_DIR]

PRELUDE = """
import json, gc, binascii
import machine, world, pn532, reader
from pn532_model import SimNTAG, SimTag
def hx(b):
    return binascii.hexlify(b).decode()
def out(**kw):
    print(json.dumps(kw))
"""


def run(script):
    proc = run_micropython(PRELUDE + script, path=PATH, timeout=60)
    return [json.loads(line) for line in proc.stdout.decode().splitlines() if line.startswith("{")]


def test_pn532_micropython_driver_against_model():
    results = run("""
world.reset()
chip = world.add_reader(17, rst=20, name="seat0")
chip.log = []
spi = machine.SPI(0, baudrate=1000000, polarity=0, phase=0)
pn = pn532.PN532(spi, machine.Pin(17, machine.Pin.OUT, value=1), machine.Pin(20, machine.Pin.OUT, value=1))
fw = pn.begin()
uid = bytearray(pn532.UID_MAX)
page = bytearray(16)
empty = pn.list_passive_target(uid)
chip.place(SimNTAG(b"\\x04\\xa1\\xb2\\xc3\\xd4\\xe5\\xf6", b"SJ1:HA:0001"))
n7 = pn.list_passive_target(uid)
uid7 = hx(uid[:n7])
pn.read_pages(4, page)
pn.release()
chip.lift()
chip.place(SimTag(b"\\xde\\xad\\xbe\\xef"))
n4 = pn.list_passive_target(uid)
chip.lift()
chip.drop_acks = 1
try:
    pn.firmware_version()
    noack = None
except pn532.PN532NoAck:
    noack = "PN532NoAck"
chip.alive = False
pn.ack_timeout_ms = 5
try:
    pn.firmware_version()
    dead = None
except pn532.PN532Timeout:
    dead = "PN532Timeout"
out(fw=fw, frames=[hx(f) for f in chip.log], empty=empty, n7=n7, uid7=uid7, page=hx(page), n4=n4,
    uid4=hx(uid[:n4]), noack=noack, dead=dead)
""")
    r = results[0]
    assert r["fw"] == 0x32010607
    # GetFirmwareVersion twice: the first command after power-up is lost, begin() resends it
    assert r["frames"][:7] == ["0000ff02fed4022a00", "0000ff02fed4022a00", "0000ff05fbd4140114010200",
                               "0000ff06fad43205ff0101f400", "0000ff04fcd44a0200e000", "0000ff04fcd44a0200e000",
                               "0000ff05fbd440013004b700"]
    assert r["frames"][7] == "0000ff03fdd45200da00"
    assert r["empty"] == 0
    assert (r["n7"], r["uid7"]) == (7, "04a1b2c3d4e5f6")
    assert bytes.fromhex(r["page"]) == b"SJ1:HA:0001" + bytes(5)
    assert (r["n4"], r["uid4"]) == (4, "deadbeef")
    assert r["noack"] == "PN532NoAck" and r["dead"] == "PN532Timeout"


def test_pn532_micropython_reader_health_from_board_file():
    board = (REPO_ROOT / "boards" / "table-4.json").read_text()
    results = run(f"""
board = json.loads({board!r})
chips = world.setup_board(board)
spi = machine.SPI(0)
events = []
def changed(r, alive, fw):
    events.append([r.name, alive, fw])
readers = []
for rd in board["readers"]:
    pn = pn532.PN532(spi, machine.Pin(rd["cs"], machine.Pin.OUT, value=1),
                     machine.Pin(rd["rst"], machine.Pin.OUT, value=1), 1, 3, 10)
    readers.append(reader.Reader(rd["name"], pn, changed, 2, 50))
for r in readers:
    r.start(0)
chips["centre"].place(SimNTAG(b"\\x04\\x11\\x22\\x33\\x44\\x55\\x66"))
chips["seat2"].alive = False
centre_seen = []
for t in range(1, 60):
    for r in readers:
        n = r.poll(t * 10)
        if r.name == "centre":
            centre_seen.append(n)
chips["seat2"].alive = True
for t in range(60, 120):
    for r in readers:
        r.poll(t * 10)
out(events=events, centre=centre_seen, alive=[r.alive for r in readers], fields_max=chips["seat0"].fields_max,
    seat2_recoveries=readers[2].recoveries)
""")
    r = results[0]
    names = ["seat0", "seat1", "seat2", "seat3", "centre"]
    assert r["events"][:5] == [[n, True, 0x32010607] for n in names]
    assert r["events"][5:] == [["seat2", False, 0], ["seat2", True, 0x32010607]]
    assert r["centre"] == [7] * 59  # the centre kept reading while seat 2 was dead
    assert r["alive"] == [True] * 5 and r["seat2_recoveries"] == 1
    assert r["fields_max"] == 1  # one RF field at a time


def test_pn532_micropython_steady_state_polls_allocate_nothing():
    """Idle polls and polls with a card held allocate no heap (driver, Reader, fake SPI and model)."""
    results = run("""
world.reset()
chip = world.add_reader(17, name="seat0")
pn = pn532.PN532(machine.SPI(0), machine.Pin(17, machine.Pin.OUT, value=1))
r = reader.Reader("seat0", pn)
r.start()
def alloc(polls):
    for i in range(3):
        r.poll()  # warm-up: first-time dict/list growth
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    for i in range(polls):
        r.poll()
    b = gc.mem_alloc()
    gc.enable()
    return b - a
idle = alloc(20)
chip.place(SimNTAG(b"\\x04\\x01\\x02\\x03\\x04\\x05\\x06", b"code"))
held = alloc(20)
out(idle=idle, held=held, uid=r.uid_len, code_ok=r.code_ok)
""")
    r = results[0]
    assert r["uid"] == 7 and r["code_ok"]
    assert r["idle"] == 0 and r["held"] == 0


def test_sim_micropython_fakes_neopixel_wdt_rp2():
    results = run("""
import neopixel, rp2
world.reset()
np = neopixel.NeoPixel(machine.Pin(22, machine.Pin.OUT), 3)
np[1] = (1, 2, 3)
np.write()
world.use_sim_clock(0)
w = machine.WDT(timeout=100)
world.advance(50)
w.feed()
fired_early = world.wdt_fired
world.advance(101)
world.bootsel = 1
try:
    machine.SPI(0, firstbit=machine.SPI.LSB)
    lsb = "accepted"
except NotImplementedError:
    lsb = "NotImplementedError"
out(pixels=hx(world.pixels(22)), fired_early=fired_early, fired=world.check_wdt(), boot=rp2.bootsel_button(),
    lsb=lsb)
""")
    r = results[0]
    assert r["pixels"] == "000000020103000000"
    assert r["fired_early"] is False and r["fired"] is True
    assert r["boot"] == 1 and r["lsb"] == "NotImplementedError"


def test_sim_micropython_world_apply():
    results = run("""
world.reset()
world.add_reader(17, name="seat0")
world.apply({"op": "place", "reader": "seat0", "uid": "04a1b2c3d4e5f6", "user": "534a31"})
out(status=world.apply({"op": "status"}))
""")
    assert results[0]["status"]["readers"]["seat0"]["tags"] == ["04a1b2c3d4e5f6"]
