"""``shengji_table.firmware_src``: the firmware's folder found as package data, and its modules run
by CPython as the Pico imports them (top-level names for one another) without ``sys.path``."""
import sys

import pytest

from shengji_table import firmware_src
from shengji_table.firmware_src import FIRMWARE_DIR, MODULES, FirmwareModules


def test_firmware_src_finds_the_firmware_folder_and_its_modules():
    assert (FIRMWARE_DIR / "main.py").is_file() and (FIRMWARE_DIR / "protocol.py").is_file()
    assert {"compat", "link", "main", "protocol", "rings", "scan", "pn532_model"} <= MODULES
    assert "__init__" not in MODULES


def test_firmware_src_host_modules_are_one_set_registered_under_the_package():
    protocol, compat = firmware_src.protocol, firmware_src.load("compat")
    assert sys.modules["shengji_table._firmware.protocol"] is protocol
    assert protocol.const is compat.const                     # its `from compat import const`: the set's own
    from shengji_table.table import protocol as host_protocol
    from shengji_table.table.controller import R
    assert host_protocol is protocol and R is firmware_src.rings


def test_firmware_src_a_private_set_shares_nothing_with_the_host():
    pico = FirmwareModules()
    link, scan = pico.load("link"), pico.load("scan")
    assert link.P is scan.P is pico.load("protocol")
    assert link.P is not firmware_src.protocol
    assert pico.load("link") is link                          # loaded once per set
    assert sys.modules.get("shengji_table._firmware.link") is not link


def test_firmware_src_unknown_names_are_refused():
    with pytest.raises(ImportError, match="no firmware module 'nope'"):
        firmware_src.load("nope")
    with pytest.raises(AttributeError):
        firmware_src.nope  # noqa: B018
