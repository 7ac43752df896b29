"""Test helper (not a test): fakes shared by tests in several folders.

Import it by putting this folder on ``sys.path`` (the tests run with ``--import-mode=importlib``)::

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from fakes import LinkPipe  # noqa: E402
"""
from __future__ import annotations


class LinkPipe:
    """The serial line of the Pico's link (``firmware/link.py``) in memory, for the link run by CPython.

    It keeps the link's stream contract: ``readinto(buf)`` hands over what is waiting and never
    blocks; ``write(buf, off, n)`` takes ``buf[off:off + n]``.

    * ``inb``: bytes towards the Pico, waiting to be read by the link (a test appends to it);
    * ``out``: every byte the link wrote, towards the host (a test reads and clears it);
    * ``keep_writes=True``: each write is also kept apart in ``writes`` (:meth:`take` empties it),
      so a test can see that one write carried one frame;
    * ``fail = True``: writes raise ``OSError(EIO)``, as a USB port that has gone does.
    """

    def __init__(self, keep_writes: bool = False):
        self.inb = bytearray()
        self.out = bytearray()
        self.writes: list[bytes] | None = [] if keep_writes else None
        self.fail = False

    def readinto(self, buf) -> int:
        n = min(len(buf), len(self.inb))
        buf[:n] = self.inb[:n]
        del self.inb[:n]
        return n

    def write(self, buf, off: int, n: int) -> None:
        if self.fail:
            raise OSError(5, "EIO")
        data = bytes(buf[off:off + n])
        self.out += data
        if self.writes is not None:
            self.writes.append(data)

    def take(self) -> list[bytes]:
        """The writes kept since the last call (``keep_writes=True``), one bytes object each."""
        assert self.writes is not None, "LinkPipe(keep_writes=True) keeps the writes apart"
        out, self.writes = self.writes, []
        return out
