"""``shengji-table selftest`` when it cannot run (exit 2, a clear message, nothing sent) and when the
port is there but no Pico answers on it (exit 1, the report says so)."""
import json
import os
import subprocess
import sys
from pathlib import Path

from shengji_table.hardware.build import BOARDS_DIR

EXE = Path(sys.executable).parent / "shengji-table"


def selftest(*args, timeout=30):
    return subprocess.run([str(EXE), "selftest", *args], capture_output=True, text=True, timeout=timeout)


def test_selftest_missing_device_exits_2(tmp_path):
    missing = tmp_path / "ttyACM9"
    p = selftest("--device", str(missing), "--board", str(BOARDS_DIR / "table-4.json"))
    assert p.returncode == 2
    assert f"selftest: no such device: {missing}" in p.stderr
    assert p.stdout == ""


def test_selftest_auto_without_a_pico_exits_2():
    # no USB Pico on a test machine: discovery says so (a machine with one would find it)
    from shengji_table.table.discovery import candidates
    if candidates():
        import pytest
        pytest.skip("a Pico is plugged in here")
    p = selftest("--device", "auto", "--board", str(BOARDS_DIR / "table-4.json"))
    assert p.returncode == 2
    assert "no table found" in p.stderr


def test_selftest_bad_board_file_exits_2(tmp_path):
    bad_json = tmp_path / "broken.json"
    bad_json.write_text("{ not json")
    p = selftest("--device", "loop://", "--board", str(bad_json))
    assert p.returncode == 2
    assert f"bad board file {bad_json}" in p.stderr and "not valid JSON" in p.stderr

    data = json.loads((BOARDS_DIR / "table-4.json").read_text())
    data["readers"][1]["cs"] = data["readers"][0]["cs"]      # one chip-select wired twice
    twice = tmp_path / "twice.json"
    twice.write_text(json.dumps(data))
    p = selftest("--device", "loop://", "--board", str(twice))
    assert p.returncode == 2
    assert "GP17 is used twice" in p.stderr

    p = selftest("--device", "loop://", "--board", str(tmp_path / "absent.json"))
    assert p.returncode == 2 and "cannot read the file" in p.stderr


def test_selftest_bad_timeout_exits_2():
    p = selftest("--device", "loop://", "--timeout", "0", "--board", str(BOARDS_DIR / "table-4.json"))
    assert p.returncode == 2 and "must be positive" in p.stderr


def test_selftest_silent_port_exits_1_and_says_no_answer():
    """A port that opens but where no Pico talks (a pseudo-terminal with nobody behind it); without
    --board the repository's table-4 board file is the one tested."""
    master, slave = os.openpty()
    try:
        p = selftest("--device", os.ttyname(slave), "--connect-timeout", "0.5")
    finally:
        os.close(master)
        os.close(slave)
    assert p.returncode == 1, p.stderr
    assert "no answer from the Pico" in p.stdout
    assert p.stdout.splitlines()[-4].startswith("Self-test of table-4 (4 seats + centre) on /dev/")
    assert "RESULT: FAIL — 1 problem" in p.stdout


def test_selftest_table_speaking_another_protocol_exits_1():
    """Frames whose version byte is not ours (old firmware on the Pico): the link refuses them and
    the report says to flash the matching firmware."""
    import threading
    import time

    from shengji_table.table import protocol as P

    w = P.Writer(b"\x01\x02\x03\x04")
    frame = bytearray(P.MAX_FRAME)
    w.begin(P.HEARTBEAT, 0)
    w.body[0] = P.VERSION + 1
    for x in (1, 1, 0, 0):
        w.u16(x)
    w.u8(1)
    n = w.end(frame)
    master, slave = os.openpty()
    stop = threading.Event()

    def pico_of_another_version():
        while not stop.is_set():
            os.write(master, bytes(frame[:n]))
            time.sleep(0.05)

    threading.Thread(target=pico_of_another_version, daemon=True).start()
    try:
        p = selftest("--device", os.ttyname(slave), "--connect-timeout", "5")
    finally:
        stop.set()
        time.sleep(0.1)
        os.close(master)
        os.close(slave)
    assert p.returncode == 1, p.stderr
    assert "the serial link failed: every frame from the port carries another protocol version" in p.stdout
