"""One writer a file: an exclusive ``flock`` held for a program's whole run, and who holds it.

``serve`` and ``demo`` hold one on the table's event log (``store/log.py``) and on the serial port
(pyserial's ``exclusive=True`` takes the same kind of lock), so a second program on the same table
is refused at once, naming the first one's process id, instead of splitting the taps between two
logs.  SQLite's own locks are of another kind (POSIX record locks) and do not interact.
Use: ``fd = hold(path)`` (raises :class:`Busy` naming the holder), later ``release(fd)``.
"""
from __future__ import annotations

import fcntl
import os

__all__ = ["Busy", "hold", "holder_of", "release"]


class Busy(OSError):
    """Another program holds the lock: ``pid`` is its process id when the system tells it."""

    def __init__(self, path: str, pid: int | None):
        self.path, self.pid = path, pid
        who = f"process {pid}" + _command_of(pid) if pid is not None else "another program"
        super().__init__(f"{path} is in use by {who}")


def hold(path: str) -> int:
    """Open ``path`` and take an exclusive lock on it for as long as the returned descriptor is
    open (:func:`release`); :class:`Busy` when another program holds it."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise Busy(path, holder_of(path)) from None
    return fd


def release(fd: int) -> None:
    os.close(fd)                # closing the descriptor drops the lock


def holder_of(path: str) -> int | None:
    """The process id holding an exclusive ``flock`` on ``path`` (Linux: ``/proc/locks``), else None."""
    try:
        st = os.stat(path)
        with open("/proc/locks", encoding="ascii") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    for line in lines:
        parts = line.split()
        if len(parts) >= 6 and parts[1] == "FLOCK" and parts[3] == "WRITE":
            dev_inode = parts[5].split(":")
            if len(dev_inode) == 3 and int(dev_inode[2]) == st.st_ino:
                return int(parts[4])
    return None


def _command_of(pid: int | None) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            args = fh.read().split(b"\0")
    except OSError:
        return ""
    text = " ".join(a.decode(errors="replace") for a in args if a)
    return f" ({text[:120]})" if text else ""
