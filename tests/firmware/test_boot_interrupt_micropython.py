"""A 0x03 from the host during boot or in the scan loop must not stop the firmware (real MicroPython).

The host asks for a snapshot as soon as it opens the port, and most host frames carry a 0x03 (a
COBS code byte).  On rp2 every received 0x03 raises KeyboardInterrupt while the interrupt char is
set (``sim/hw/usb_cdc.py`` models that, standing in for ``micropython``).  The firmware must switch
it off before anything else, so the bytes land during the readers' bring-up in ``boot()`` and again
inside the scan loop, and the table keeps running: it answers the snapshot request, reports a card.
And whatever escapes ``main()`` (KeyboardInterrupt included) must end in ``machine.reset()``.
"""
import json
import pathlib

import pytest

from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.micropython import run_micropython
from shengji_table.sim.hw import HW_DIR

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
PATH = [HW_DIR, FIRMWARE_DIR]

pytestmark = pytest.mark.micropython

SCRIPT = r'''
import sys, json
import usb_cdc
sys.modules["micropython"] = usb_cdc       # rp2's Ctrl-C behaviour, before any firmware import
import world, machine
import protocol as P
from pn532_model import SimNTAG

raw = json.load(open("boards/table-4.json"))
world.setup_board(raw)
usb_cdc.reset()
port = usb_cdc.Port()
w = P.Writer(b"\x11\x22\x33\x44")
buf = bytearray(P.MAX_FRAME)
def frame(seq):
    n = P.encode_snapshot_request(w, buf, seq)
    return bytes(buf[:n])
req = [frame(s) for s in range(1, 400) if 3 in frame(s)][:2]
assert all(3 in f for f in req)
usb_cdc.schedule(1, req[0])       # in boot(), as the escape button's pin is made
usb_cdc.schedule(400, req[1])     # in the scan loop (boot and the readers' bring-up take ~200)
world.place("seat1", SimNTAG(bytes.fromhex("04a1b2c3d4e5f6"), b"SJ01S-A1"))
import main as fw
result = "ran"
try:
    sc = fw.main("boards/table-4.json", BUILD, stream=port, max_steps=STEPS)
except KeyboardInterrupt:
    result = "KeyboardInterrupt"
d = P.Decoder(P.TO_HOST)
seen = []
for x in port.sent:
    if d.push(x):
        seen.append(P.NAMES[d.typ])
print(json.dumps({"result": result, "interrupts": usb_cdc.interrupts, "pending": usb_cdc.pending(),
                  "char": usb_cdc.interrupt_char, "frames": seen, "events": usb_cdc._edges}))
'''


def run(tmp_path, steps=80):
    build = tmp_path / "build.json"
    build.write_text(json.dumps({"sim": False, "board": "table-4"}))
    script = f"BUILD = {str(build)!r}\nSTEPS = {steps}\n" + SCRIPT
    out = run_micropython(script, path=PATH, timeout=60, cwd=REPO_ROOT).stdout.decode()
    return json.loads(out.strip().splitlines()[-1])


def test_boot_interrupt_0x03_during_boot_and_scan_loop_keeps_the_firmware_running(tmp_path):
    got = run(tmp_path)
    assert got["result"] == "ran", got
    assert got["interrupts"] == 0 and got["pending"] == 0      # both frames were delivered, as data
    assert got["char"] == -1                                    # Ctrl-C stays off while the table runs
    assert got["frames"].count("SNAPSHOT") == 2                 # each request was answered
    assert "TAP" in got["frames"] and got["frames"][0] == "HELLO"


ESCAPE_SCRIPT = r'''
import sys, json
import usb_cdc
sys.modules["micropython"] = usb_cdc
import world, machine
import main as fw
raw = json.load(open("boards/table-4.json"))
world.setup_board(raw)
usb_cdc.reset()
def boom(*a):
    raise KeyboardInterrupt()
fw.main = boom
try:
    fw.run()
    print(json.dumps({"result": "returned"}))
except world.MachineReset:
    print(json.dumps({"result": "reset", "resets": world.resets}))
'''


def test_boot_interrupt_anything_escaping_main_resets_the_pico():
    out = run_micropython(ESCAPE_SCRIPT, path=PATH, timeout=60, cwd=REPO_ROOT).stdout.decode()
    assert json.loads(out.strip().splitlines()[-1]) == {"result": "reset", "resets": 1}
