"""A killed host leaves no virtual Pico behind: the MicroPython process of the virtual table dies
with the process that started it, even when that one is SIGKILLed (it cannot clean up)."""
import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.micropython

HOLDER = """
import sys, time
from shengji_table.sim.virtual_table import VirtualTable
vt = VirtualTable().start()
print(vt.proc.pid, flush=True)
time.sleep(120)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"     # a zombie has died
    except FileNotFoundError:
        return False


def test_sigkilled_host_takes_its_virtual_pico_with_it():
    host = subprocess.Popen([sys.executable, "-c", HOLDER], stdout=subprocess.PIPE, text=True)
    try:
        pico = int(host.stdout.readline())
        assert _alive(pico)
        os.kill(host.pid, signal.SIGKILL)
        host.wait(timeout=10)
        end = time.monotonic() + 10
        while _alive(pico) and time.monotonic() < end:
            time.sleep(0.05)
        assert not _alive(pico), f"the virtual Pico (pid {pico}) outlived its killed host"
    finally:
        host.kill()
        host.wait()
