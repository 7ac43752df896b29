"""``flash`` asks the Pico which MicroPython it runs before copying anything, and says what it needs.

The real ``mpremote`` CLI does the asking.  Where no Pico is attached it must say "no Pico found"
(``connect auto`` with no USB device, or a port that does not exist).  For a board that answers,
the test gives mpremote a pseudo-terminal with a raw REPL behind it that runs what it is sent in
the real MicroPython interpreter (unix port): mpremote's own protocol, a real
``sys.implementation``.  That interpreter is not a Pico, so it is refused for its platform; the
versions a Pico could report (too old, another mpy format, fine) go through an injected runner."""
import os
import pathlib
import subprocess
import threading
import tty

import pytest

from shengji_table.hardware.flash import MIN_MICROPYTHON, FlashError, check_pico_firmware, pico_firmware
from shengji_table.micropython import micropython_binary, venv_tool

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
BANNER = b"raw REPL; CTRL-B to exit\r\n>"


class RawRepl:
    """A board's raw REPL (MicroPython's pyboard protocol) on a pseudo-terminal: Ctrl-A enters it,
    Ctrl-D alone soft-resets, ``\\x05A\\x01`` is answered "raw paste not supported", code + Ctrl-D
    runs under the real MicroPython interpreter, its output framed by Ctrl-D as a board frames it."""

    def __init__(self):
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.path = os.ttyname(slave)
        self.slave = slave
        self.stop = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        state, code = "friendly", b""
        while not self.stop:
            try:
                data = os.read(self.master, 1024)
            except OSError:
                return
            for b in data:
                c = bytes([b])
                if state == "friendly":
                    if c == b"\x01":
                        os.write(self.master, BANNER)
                        state, code = "raw", b""
                elif state == "raw":
                    if c == b"\x04" and not code:
                        os.write(self.master, b"soft reboot\r\n" + BANNER)
                    elif c == b"\x04":
                        os.write(self.master, b"OK")
                        proc = subprocess.run([micropython_binary(), "-c", code.decode()], capture_output=True)
                        os.write(self.master, proc.stdout + b"\x04" + proc.stderr + b"\x04>")
                        code = b""
                    elif c == b"\x05":
                        state = "paste"
                    elif c == b"\x02":
                        state = "friendly"
                    elif c not in (b"\x03", b"\x01"):
                        code += c
                elif state == "paste" and c == b"\x01":
                    os.write(self.master, b"R\x00")
                    state = "raw"

    def close(self):
        self.stop = True
        for fd in (self.slave, self.master):
            os.close(fd)


def _have_mpremote():
    if not venv_tool("mpremote"):
        pytest.skip("mpremote is not installed (the dev extras: make venv)")


def test_no_pico_attached_is_no_pico_found():
    """mpremote's auto-detection finds no USB serial device on a machine without a Pico."""
    _have_mpremote()
    listed = subprocess.run([venv_tool("mpremote"), "devs"], capture_output=True, text=True).stdout
    if "2e8a:" in listed:                # Raspberry Pi's USB vendor id: a real Pico is plugged in
        pytest.skip("a Pico is attached to this machine")
    with pytest.raises(FlashError, match="^no Pico found: plug it in"):
        pico_firmware("auto")


def test_a_port_that_does_not_exist_is_no_pico_found():
    _have_mpremote()
    with pytest.raises(FlashError, match=r"^no Pico found on /dev/ttyACM97"):
        pico_firmware("/dev/ttyACM97")


@pytest.mark.micropython
def test_mpremote_reads_the_boards_micropython_and_a_non_pico_is_refused():
    _have_mpremote()
    repl = RawRepl()
    try:
        fw = pico_firmware(repl.path)
    finally:
        repl.close()
    probe = subprocess.run([micropython_binary(), "-c", "import sys; i = sys.implementation; "
                            "print(i.version[0], i.version[1], i._mpy, sys.platform)"],
                           capture_output=True, text=True).stdout.split()
    assert [str(fw.version[0]), str(fw.version[1]), str(fw.mpy), fw.platform] == probe
    assert fw.name == "micropython" and fw.mpy & 0xFF == 6 and fw.platform == "linux"
    with pytest.raises(FlashError, match="not on a Raspberry Pi Pico \\(rp2\\): the firmware needs MicroPython 1.23"):
        check_pico_firmware(fw)


def _answer(stdout="", stderr="", rc=0):
    def run(argv, **kw):
        assert argv[1:4] == ["connect", "/dev/ttyACM0", "exec"]
        return subprocess.CompletedProcess(argv, rc, stdout, stderr)
    return run


# sys.implementation._mpy on a Pico: format | sub-version << 8 | arch << 10 (armv6m is 4)
def _mpy(fmt, sub):
    return fmt | sub << 8 | 4 << 10


@pytest.mark.parametrize("line, verdict", [
    (f"SHENGJI-PROBE micropython 1.24.1 {_mpy(6, 3)} rp2", None),
    (f"SHENGJI-PROBE micropython 1.23.0 {_mpy(6, 3)} rp2", None),
    (f"SHENGJI-PROBE micropython 1.22.2 {_mpy(6, 2)} rp2",
     "too old for this build; it needs MicroPython 1.23 or later"),
    (f"SHENGJI-PROBE micropython 1.19.1 {_mpy(6, 0)} rp2", "too old for this build"),
    (f"SHENGJI-PROBE micropython 1.30.0 {_mpy(6, 3)} esp32", "not on a Raspberry Pi Pico"),
    ("SHENGJI-PROBE circuitpython 9.0.0 0 rp2", "the board runs circuitpython 9.0.0"),
    (f"SHENGJI-PROBE micropython 1.40.0 {_mpy(7, 0)} rp2", "loads .mpy format 7"),
])
def test_the_version_check_says_what_the_pico_runs_and_needs(line, verdict):
    fw = pico_firmware("/dev/ttyACM0", run=_answer(stdout="some banner\n" + line + "\n"))
    if verdict is None:
        check_pico_firmware(fw)
        assert fw.version >= MIN_MICROPYTHON
    else:
        with pytest.raises(FlashError, match=verdict) as err:
            check_pico_firmware(fw)
        assert "https://micropython.org/download/RPI_PICO/" in str(err.value)


def test_a_board_that_does_not_reach_its_repl_gets_the_escape_hint():
    with pytest.raises(FlashError, match="hold seat 0's button"):
        pico_firmware("/dev/ttyACM0", run=_answer(stderr="mpremote: could not enter raw repl", rc=1))


def test_flash_stops_before_copying_when_the_pico_is_missing(tmp_path):
    """The CLI: a clear sentence, exit 2, nothing deployed (the build folder is local)."""
    _have_mpremote()
    proc = subprocess.run([str(pathlib.Path(venv_tool("mpremote")).parent / "shengji-table"), "flash", "--port",
                           "/dev/ttyACM97", "--board", str(REPO_ROOT / "boards" / "table-4.json"), "--build-dir",
                           str(tmp_path / "fw")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "no Pico found on /dev/ttyACM97" in proc.stdout
    assert "flashed" not in proc.stdout
