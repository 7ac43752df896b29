"""The card code written into an NTAG's user memory (pages 4–7, 16 bytes), so a card says what it is
even to a host that has never seen its UID.

Layout (big-endian)::

    0-1   b"SJ"          magic
    2     1              format version
    3-6   deck-set id    u32, names the physical deck set the card belongs to
    7     face index     0..53 (Card.index)
    8     deck           1..4  (which copy)
    9-13  zero           reserved
    14-15 CRC-16/CCITT   over bytes 0-13

A CRC rather than a signature: the code guards against mis-reads and stray tags, not forgery (a
referee's registry of UIDs is the trust anchor; NTAG originality signatures are static and can be
replayed, see docs/hardware-notes.md).
"""
from __future__ import annotations

import struct

from ..rules.cards import ALL_FACES, CardCopy

__all__ = ["CODE_BYTES", "CardCodeError", "encode_card_code", "decode_card_code", "crc16_ccitt"]

CODE_BYTES = 16
_MAGIC = b"SJ"
_VERSION = 1


class CardCodeError(ValueError):
    """Bytes that are not a valid card code."""


def crc16_ccitt(data: bytes, crc: int = 0xFFFF) -> int:
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def encode_card_code(copy: CardCopy, deck_set: int) -> bytes:
    if not 0 <= deck_set <= 0xFFFFFFFF:
        raise CardCodeError(f"deck-set id must fit in 32 bits, not {deck_set}")
    if not 1 <= copy.deck <= 4:
        raise CardCodeError(f"deck index must be 1..4, not {copy.deck}")
    body = _MAGIC + struct.pack(">BIBB5x", _VERSION, deck_set, copy.card.index, copy.deck)
    return body + struct.pack(">H", crc16_ccitt(body))


def decode_card_code(data: bytes):
    """``(deck_set, CardCopy)`` from 16 bytes of user memory; :class:`CardCodeError` otherwise."""
    data = bytes(data)
    if len(data) < CODE_BYTES:
        raise CardCodeError(f"a card code is {CODE_BYTES} bytes, got {len(data)}")
    data = data[:CODE_BYTES]
    if data[:2] != _MAGIC:
        raise CardCodeError("no card code on this tag (blank or foreign tag)")
    if crc16_ccitt(data[:14]) != struct.unpack(">H", data[14:])[0]:
        raise CardCodeError("card code checksum does not match (mis-read or damaged tag)")
    version, deck_set, face, deck = struct.unpack(">BIBB5x", data[2:14])
    if version != _VERSION:
        raise CardCodeError(f"card code format {version} is not supported (this host reads {_VERSION})")
    if face >= len(ALL_FACES) or not 1 <= deck <= 4:
        raise CardCodeError(f"card code names no card (face {face}, deck {deck})")
    return deck_set, CardCopy(ALL_FACES[face], deck)
