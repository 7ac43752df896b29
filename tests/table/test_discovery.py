"""Finding the Pico among serial ports, with pyserial's own port-info objects."""
import os

import pytest
from serial.tools.list_ports_common import ListPortInfo

from shengji_table.table.discovery import DiscoveryError, candidates, find_table


def port(device, vid=None, pid=None, product=None, serial=None):
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.product, info.serial_number = vid, pid, product, serial
    info.description = product or "n/a"
    return info


def test_auto_picks_the_one_pico_and_prefers_its_by_id_name(tmp_path):
    target = tmp_path / "ttyACM0"
    target.write_text("")
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    os.symlink(target, by_id / "usb-MicroPython_Board_in_FS_mode_e66038b7-if00")
    ports = [port("/dev/ttyS0"), port(str(target), 0x2E8A, 0x0005, "Board in FS mode", "e66038b7"),
             port("/dev/ttyUSB0", 0x0403, 0x6014, "FT232H")]
    assert find_table("auto", ports, str(by_id)) == str(by_id / "usb-MicroPython_Board_in_FS_mode_e66038b7-if00")


def test_auto_without_a_pico_and_with_two_picos_are_clear_errors(tmp_path):
    with pytest.raises(DiscoveryError, match="no table found"):
        find_table("auto", [port("/dev/ttyS0")], str(tmp_path))
    two = [port("/dev/ttyACM0", 0x2E8A, 5, "Board in FS mode", "a"),
           port("/dev/ttyACM1", 0x2E8A, 5, "Board in FS mode", "b")]
    with pytest.raises(DiscoveryError, match="2 tables found.*ttyACM0.*ttyACM1"):
        find_table("auto", two, str(tmp_path))
    assert [c.serial_number for c in candidates(two, str(tmp_path))] == ["a", "b"]


def test_an_explicit_path_or_url_is_used_as_given():
    assert find_table("loop://") == "loop://"
    assert find_table("/dev/ttyACM3") == "/dev/ttyACM3"
