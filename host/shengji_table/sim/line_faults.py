"""A serial line that damages frames on purpose, and knows exactly how many bad frames it made.

Used by the protocol fuzz tests and the virtual table's fault runs: frames (COBS, 0x00-delimited,
see ``firmware/protocol.py``) written to one end come out of the other dropped, corrupted,
truncated, preceded by garbage, duplicated or replayed from earlier traffic. Each damaging fault
is built so the receiver *must* reject exactly one frame for it, which lets a test assert that
the receiver's bad-frame counter equals :attr:`FaultyLine.injected_bad`:

* corrupt — one data byte (never a COBS code byte nor the delimiter) replaced by another non-zero
  byte: a single-byte error in the body, which CRC-16 always detects;
* truncate — the frame cut after 1..len-2 bytes and the line going idle (0x00): a COBS block cut
  short or a body shorter than its LEN field says;
* garbage — 1..7 random non-zero bytes then 0x00 (shorter than the shortest valid frame), or a
  burst longer than the longest frame;
* drop / duplicate / replay damage nothing the receiver can see as bad: they test sequencing;
* noise — any byte, delimiters included, replaced by a random one (0x00 too): frames split and merge,
  so the count of bad frames is no longer exact (``injected_bad`` then only counts the exact faults)
  and a corrupted frame passes the CRC with odds of 1 in 65536: use it with a fixed seed.
"""
from __future__ import annotations

import random
from collections import Counter

__all__ = ["FaultyLine", "split_frames", "code_positions"]

SHORTEST_BODY = 11      # protocol.HEADER + CRC: a COBS run of fewer bytes cannot be a frame
LONG_GARBAGE = 240       # longer than protocol.MAX_FRAME


def split_frames(buf: bytearray) -> list[bytes]:
    """Remove and return the complete frames (each with its 0x00) at the front of ``buf``."""
    frames: list[bytes] = []
    while True:
        i = buf.find(0)
        if i < 0:
            return frames
        frames.append(bytes(buf[:i + 1]))
        del buf[:i + 1]


def code_positions(frame: bytes) -> set[int]:
    """Indexes of the COBS code bytes of ``frame`` (ending in its 0x00)."""
    codes, i = set(), 0
    end = len(frame) - 1
    while i < end:
        codes.add(i)
        i += frame[i]
    return codes


class FaultyLine:
    """One direction of a damaged line; feed it what a sender wrote, deliver what :meth:`carry`
    returns. Probabilities are per frame; ``rng`` makes a run reproducible."""

    def __init__(self, rng: random.Random, *, drop: float = 0.0, corrupt: float = 0.0,
                 truncate: float = 0.0, garbage: float = 0.0, duplicate: float = 0.0,
                 replay: float = 0.0, noise: float = 0.0):
        self.rng = rng
        self.p = {"drop": drop, "corrupt": corrupt, "truncate": truncate, "garbage": garbage,
                  "duplicate": duplicate, "replay": replay, "noise": noise}
        self.injected_bad = 0
        self.faults: Counter = Counter()
        self.history: list[bytes] = []
        self._pending = bytearray()

    def quiet(self) -> None:
        """From now on carry everything intact."""
        self.p = {k: 0.0 for k in self.p}

    def _hit(self, kind: str) -> bool:
        return self.p[kind] > 0 and self.rng.random() < self.p[kind]

    def carry(self, data: bytes) -> bytes:
        self._pending += data
        out = bytearray()
        for frame in split_frames(self._pending):
            if len(frame) == 1:          # idle delimiter: pass it on
                out += frame
                continue
            if self._hit("garbage"):
                out += self._garbage()
            if self._hit("replay") and self.history:
                out += self.rng.choice(self.history)
                self.faults["replay"] += 1
            self.history.append(frame)
            del self.history[:-64]
            if self._hit("drop"):
                self.faults["drop"] += 1
                continue
            if self._hit("corrupt"):
                out += self._corrupt(frame)
            elif self._hit("truncate") and len(frame) > 2:
                cut = self.rng.randint(1, len(frame) - 2)
                out += frame[:cut] + b"\x00"
                self.faults["truncate"] += 1
                self.injected_bad += 1
            else:
                out += frame
            if self._hit("duplicate"):
                out += frame
                self.faults["duplicate"] += 1
        if self.p["noise"]:
            for i in range(len(out)):
                if self.rng.random() < self.p["noise"]:
                    out[i] = self.rng.randrange(256)
                    self.faults["noise"] += 1
        return bytes(out)

    def _garbage(self) -> bytes:
        self.faults["garbage"] += 1
        self.injected_bad += 1
        n = self.rng.choice([self.rng.randint(1, SHORTEST_BODY),
                             self.rng.randint(LONG_GARBAGE, LONG_GARBAGE + 60)])
        return bytes(self.rng.randint(1, 255) for _ in range(n)) + b"\x00"

    def _corrupt(self, frame: bytes) -> bytes:
        codes = code_positions(frame)
        data = [i for i in range(len(frame) - 1) if i not in codes]
        i = self.rng.choice(data)
        b = bytearray(frame)
        b[i] = self.rng.choice([v for v in range(1, 256) if v != b[i]])
        self.faults["corrupt"] += 1
        self.injected_bad += 1
        return bytes(b)
