"""firmware/pn532.py's shared transport: every PN532 on one SPI bus uses one ``PN532Bus`` (frame
buffers and chunk views), which is safe because one transaction runs at a time.  Checked against
the simulated PN532s (CPython) and, for allocation, under the real MicroPython interpreter."""
import json
import pathlib
import sys

import pytest

from shengji_table.sim.hw import HW_DIR, machine, world
from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.micropython import run_micropython
from shengji_table.firmware_src import pn532_model

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
SimNTAG, SimTag = pn532_model.SimNTAG, pn532_model.SimTag

if str(FIRMWARE_DIR) not in sys.path:
    sys.path.append(str(FIRMWARE_DIR))
import pn532  # noqa: E402


def _firmware_module(name):
    """firmware/<name>.py by path: ``board`` and ``main`` are taken by other packages on CPython."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"firmware_{name}", FIRMWARE_DIR / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

UID_A = bytes.fromhex("04a1b2c3d4e5f6")
UID_B = bytes.fromhex("deadbeef")
CODE_A = b"SJ1:HA:0001" + bytes(5)
FRAME_IN_LIST_PASSIVE_TARGET = "0000ff04fcd44a0200e000"
FRAME_READ_PAGE_4 = "0000ff05fbd440013004b700"
FRAME_IN_RELEASE = "0000ff03fdd45200da00"


@pytest.fixture(autouse=True)
def clean_world():
    world.reset()
    yield
    world.reset()


def two_chips_on_one_bus():
    a = world.add_reader(17, name="seat0")
    b = world.add_reader(13, name="seat1")
    bus = pn532.PN532Bus(machine.SPI(0))
    pa = pn532.PN532(bus, machine.Pin(17, machine.Pin.OUT, value=1))
    pb = pn532.PN532(bus, machine.Pin(13, machine.Pin.OUT, value=1))
    return bus, (a, pa), (b, pb)


def test_pn532_shared_bus_interleaved_polls_each_get_their_own_card():
    bus, (a, pa), (b, pb) = two_chips_on_one_bus()
    assert pa.begin() == pb.begin() == 0x32010607
    a.place(SimNTAG(UID_A, CODE_A))
    b.place(SimTag(UID_B))
    a.log, b.log = [], []
    uid_a, uid_b, page = bytearray(10), bytearray(10), bytearray(16)
    for _ in range(3):
        assert pa.list_passive_target(uid_a) == 7
        assert pb.list_passive_target(uid_b) == 4      # B's reply lands in the same rx buffer...
        pa.read_pages(4, page)                          # ...and A's next exchange is still A's
        pa.release()
        pb.release()
        assert bytes(uid_a[:7]) == UID_A and bytes(uid_b[:4]) == UID_B and bytes(page) == CODE_A
        assert (pa.sel_res, pb.sel_res) == (0x00, 0x08)  # per-chip results stay per chip
    assert [f.hex() for f in a.log] == [FRAME_IN_LIST_PASSIVE_TARGET, FRAME_READ_PAGE_4, FRAME_IN_RELEASE] * 3
    assert [f.hex() for f in b.log] == [FRAME_IN_LIST_PASSIVE_TARGET, FRAME_IN_RELEASE] * 3
    assert world.spi_conflicts == 0                     # never two chips selected at once


def test_pn532_shared_bus_a_failing_chip_does_not_spoil_the_next_transaction():
    bus, (a, pa), (b, pb) = two_chips_on_one_bus()
    pa.begin()
    pb.begin()
    pb.ack_timeout_ms = 2
    a.place(SimNTAG(UID_A, CODE_A))
    b.alive = False
    uid = bytearray(10)
    for _ in range(3):
        with pytest.raises(pn532.PN532Timeout):
            pb.list_passive_target(bytearray(10))
        assert pa.list_passive_target(uid) == 7 and bytes(uid[:7]) == UID_A
        pa.release()


class RecordingSPI:
    """An SPI bus that records MOSI and plays back MISO bytes (wire order)."""

    def __init__(self, miso=b""):
        self.mosi = bytearray()
        self.miso = miso
        self.played = 0
        self.calls = 0

    def write(self, buf):
        self.calls += 1
        self.mosi += bytes(buf)

    def readinto(self, buf, write=0):
        self.calls += 1
        for i in range(len(buf)):
            buf[i] = self.miso[self.played]
            self.played += 1
            self.mosi.append(write)


@pytest.mark.parametrize("n", range(0, 33))
def test_pn532_shared_bus_write_sends_exactly_n_bytes_mirrored(n):
    spi = RecordingSPI()
    bus = pn532.PN532Bus(spi)
    for i in range(n):
        bus.tx[i] = 0x11 * (i % 15) + 1
    bus.write(n)
    assert bytes(spi.mosi) == bytes(pn532.REV[bus.tx[i]] for i in range(n))
    assert spi.calls == n // 32 + bin(n % 32).count("1")   # one transfer per power-of-two chunk


@pytest.mark.parametrize("start,n", [(0, 6), (6, 1), (6, 19), (6, 63), (6, 64), (3, 0)])
def test_pn532_shared_bus_read_fills_exactly_the_span_in_chip_order(start, n):
    wire = bytes(range(7, 7 + 97))
    spi = RecordingSPI(wire)
    bus = pn532.PN532Bus(spi)
    bus.rx[:] = b"\xee" * len(bus.rx)
    bus.read(start, n)
    got = bytes(bus.rx)
    assert len(spi.mosi) == n
    assert got[:start] == b"\xee" * start and got[start + n:] == b"\xee" * (len(got) - start - n)
    assert got[start:start + n] == bytes(pn532.REV[b] for b in wire[:n])   # in order, mirrored back
    assert spi.calls == n // 32 + bin(n % 32).count("1")   # chunks of 32, 16, 8, 4, 2, 1 bytes


def test_pn532_shared_bus_main_build_gives_every_reader_one_bus():
    raw = json.loads((REPO_ROOT / "boards" / "table-4.json").read_text())
    world.setup_board(raw)
    board = _firmware_module("board").Board(raw)
    readers, _, _ = _firmware_module("main").build(machine, board, False)
    live = [r for r in readers if r is not None]
    assert len(live) == 5
    assert len({id(r.pn.bus) for r in live}) == 1
    assert len({id(r.uid) for r in live}) == 1 and live[0].uid is live[0].pn.bus.uid  # last card: shared too
    assert len({id(r.pn._cs) for r in live}) == 5       # but each its own chip-select
    for r in live:
        r.start(0)
    assert all(r.alive for r in live)


MP_SCRIPT = r'''
import gc, json, machine, world, pn532, reader
from pn532_model import SimNTAG
world.reset()
chips = [world.add_reader(17, name="a"), world.add_reader(13, name="b")]
bus = pn532.PN532Bus(machine.SPI(0))
readers = [reader.Reader(c.name, pn532.PN532(bus, machine.Pin(cs, machine.Pin.OUT, value=1)))
           for c, cs in zip(chips, (17, 13))]
for r in readers:
    r.start(0)
cards = [SimNTAG(b"\x04\xa1\xb2\xc3\xd4\xe5\xf6", b"SJ1:HA:0001"),
         SimNTAG(b"\x04\x11\x22\x33\x44\x55\x66", b"SJ1:SB:0002")]
def run():
    seen = []
    alloc = 0
    for t in range(40):
        if t == 10:
            chips[0].place(cards[0])
            chips[1].place(cards[1])
        if t == 30:
            chips[0].lift()
        for r in readers:
            before = gc.mem_alloc()
            n = r.poll(t)
            alloc += gc.mem_alloc() - before     # only the poll itself is counted
            if t in (12, 35):
                seen.append([r.name, n, bytes(r.uid[:n]).hex(), n > 0 and r.code_ok])
    return alloc, seen

gc.collect()
gc.disable()
alloc, seen = run()
gc.enable()
print(json.dumps({"alloc": alloc, "seen": seen, "conflicts": world.spi_conflicts}))
'''


@pytest.mark.micropython
def test_pn532_shared_bus_micropython_polls_with_cards_allocate_nothing():
    """Under the real interpreter: two readers on one bus, cards arriving (the first card on each
    reader included) and leaving — not one byte allocated, and each reader saw its own card."""
    proc = run_micropython(MP_SCRIPT, path=[HW_DIR, FIRMWARE_DIR], timeout=60)
    r = json.loads(proc.stdout.decode().strip().splitlines()[-1])
    assert r["alloc"] == 0
    assert r["seen"] == [["a", 7, UID_A.hex(), True], ["b", 7, "04112233445566", True],
                         ["a", 0, "", False], ["b", 7, "04112233445566", True]]
    assert r["conflicts"] == 0
