"""Finding the table's Pico among the serial ports.

A Pico running MicroPython enumerates as USB CDC with vendor id 0x2E8A (Raspberry Pi) and product
id 0x0005 (MicroPython); its product string is "Board in FS mode".  Linux also gives it a stable
name under ``/dev/serial/by-id/`` (``usb-MicroPython_Board_in_FS_mode_<serial>-if00``), which is
what a club should put in its configuration: it survives re-plugging into another USB socket.

``--device auto`` picks the only matching port; two tables on one host must be named explicitly.
"""
from __future__ import annotations

import glob
import os
from dataclasses import dataclass

__all__ = ["PICO_VID", "MICROPYTHON_PID", "Candidate", "DiscoveryError", "candidates", "find_table"]

PICO_VID = 0x2E8A
MICROPYTHON_PID = 0x0005
BY_ID_DIR = "/dev/serial/by-id"


class DiscoveryError(RuntimeError):
    """No table found, or more than one and the choice is the user's."""


@dataclass(frozen=True)
class Candidate:
    device: str          # what to open: a /dev/serial/by-id path when there is one
    description: str
    serial_number: str | None


def _by_id_names(by_id_dir: str) -> dict:
    names = {}
    for link in glob.glob(os.path.join(by_id_dir, "*")):
        try:
            names[os.path.realpath(link)] = link
        except OSError:
            continue
    return names


def candidates(ports=None, by_id_dir: str = BY_ID_DIR) -> list:
    """Ports that look like a Pico running MicroPython, most specific name first.

    ``ports`` defaults to pyserial's ``serial.tools.list_ports.comports()``; tests pass their own
    list of port-info objects (anything with device/vid/pid/product/serial_number/description).
    """
    if ports is None:
        from serial.tools import list_ports
        ports = list_ports.comports()
    by_id = _by_id_names(by_id_dir)
    found = []
    for port in ports:
        product = (getattr(port, "product", None) or "")
        if port.vid == PICO_VID and (port.pid == MICROPYTHON_PID or "shengji" in product.lower()):
            device = by_id.get(os.path.realpath(port.device), port.device)
            found.append(Candidate(device, f"{port.description} [{port.vid:04x}:{port.pid:04x}]",
                                   getattr(port, "serial_number", None)))
    return sorted(found, key=lambda c: c.device)


def find_table(spec: str = "auto", ports=None, by_id_dir: str = BY_ID_DIR) -> str:
    """Resolve ``--device``: ``auto`` → the one Pico found; anything else is used as given (a
    path, or a pyserial URL such as ``loop://`` or ``socket://host:port``)."""
    if spec != "auto":
        return spec
    found = candidates(ports, by_id_dir)
    if not found:
        raise DiscoveryError("no table found: no USB serial port with a Raspberry Pi Pico running MicroPython "
                             f"(vendor {PICO_VID:04x}, product {MICROPYTHON_PID:04x}); is the cable in? "
                             "Name the port with --device PATH")
    if len(found) > 1:
        listing = "; ".join(f"{c.device} ({c.serial_number})" for c in found)
        raise DiscoveryError(f"{len(found)} tables found: {listing}. Choose one with --device PATH")
    return found[0].device
