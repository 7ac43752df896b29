"""The virtual USB cable: a pseudo-terminal behind a stable device name.

Plugging makes a new pty pair and points the device name (a symlink) at its slave side, as a USB
re-enumeration gives the same ``/dev/serial/by-id`` name a new tty; pulling closes both ends and
removes the name, so the host's reads and writes fail as they do when a cable is pulled.  The
host opens the name with pyserial, so its real serial code path (termios, raw mode) runs.
"""
from __future__ import annotations

import os
import tty

__all__ = ["plug", "pull"]


def plug(device: str) -> tuple:
    """A new raw, non-blocking (on the master side) pty behind ``device``; returns (master, slave)."""
    master, slave = os.openpty()
    tty.setraw(master)
    tty.setraw(slave)
    os.set_blocking(master, False)
    tmp = device + ".new"
    if os.path.lexists(tmp):
        os.unlink(tmp)
    os.symlink(os.ttyname(slave), tmp)
    os.replace(tmp, device)           # atomic: the name never points nowhere while plugged
    return master, slave


def pull(device: str, *fds) -> None:
    """Remove the device name and close the pty's file descriptors (None entries are skipped)."""
    if os.path.lexists(device):
        os.unlink(device)
    for fd in fds:
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass
