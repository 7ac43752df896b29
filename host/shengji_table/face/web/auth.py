"""The referee's PIN: its file, its salted hash, the lockout and the console's sessions.

A PIN file holds either the PIN itself (one line) or its salted hash, as ``shengji-table referee
set-pin FILE`` writes it::

    scrypt$16384$8$1$<salt hex>$<hash hex>

The process keeps only the hash (a PIN read in clear is hashed at once with a fresh salt).  Five
wrong PINs in a row lock the console for 60 s (the clock is injectable for tests); while it is
locked every PIN is refused, the right one too.  A browser that logged in holds a session token
(a cookie, HttpOnly, SameSite=Strict); scripts send HTTP Basic with the user ``referee``.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import pathlib
import secrets
import threading
import time
from collections.abc import Callable

__all__ = ["basic_credentials", "hash_pin", "verify_pin", "load_pin_file", "PinError", "RefereeGate",
           "MAX_TRIES", "LOCK_S", "SCRYPT_N", "SCRYPT_R", "SCRYPT_P"]

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 14, 8, 1
MAX_TRIES = 5
LOCK_S = 60.0
SESSION_S = 12 * 3600.0
MIN_PIN = 4


class PinError(ValueError):
    """A PIN file that cannot be used, or a PIN too short to set."""


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=128 * r * (n + p + 2), dklen=32)


def hash_pin(pin: str, *, salt: bytes | None = None) -> str:
    """``scrypt$n$r$p$salt_hex$hash_hex`` for ``pin`` (a fresh 16-byte salt unless given)."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = _scrypt(pin, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def _parse(stored: str) -> tuple:
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != "scrypt":
        raise PinError("not a scrypt PIN hash (scrypt$n$r$p$salt_hex$hash_hex)")
    try:
        n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
        salt, digest = bytes.fromhex(parts[4]), bytes.fromhex(parts[5])
    except ValueError as exc:
        raise PinError(f"a broken PIN hash: {exc}") from None
    if n < 2 or n & (n - 1) or not 1 <= r <= 64 or not 1 <= p <= 16 or n > 2 ** 20 or not salt or len(digest) < 16:
        raise PinError("a PIN hash with impossible scrypt parameters")
    return n, r, p, salt, digest


def verify_pin(pin: str, stored: str) -> bool:
    n, r, p, salt, digest = _parse(stored)
    got = hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=128 * r * (n + p + 2),
                         dklen=len(digest))
    return hmac.compare_digest(got, digest)


def load_pin_file(path) -> str:
    """The PIN hash from ``path`` (a PIN in clear is hashed here; only the hash is returned)."""
    try:
        text = pathlib.Path(path).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise PinError(f"cannot read the referee PIN file {path}: {exc}") from None
    if not text:
        raise PinError(f"the referee PIN file {path} is empty")
    if text.startswith("scrypt$"):
        _parse(text)
        return text
    if "\n" in text or len(text) < MIN_PIN:
        raise PinError(f"the referee PIN file {path} holds neither a PIN (one line, at least {MIN_PIN} "
                       f"characters) nor a PIN hash")
    return hash_pin(text)


class RefereeGate:
    """Checks PINs against the hash, with the lockout, and keeps the console's sessions."""

    def __init__(self, pin_hash: str, *, clock: Callable[[], float] = time.monotonic,
                 max_tries: int = MAX_TRIES, lock_s: float = LOCK_S):
        _parse(pin_hash)
        self._hash = pin_hash
        self.clock = clock
        self.max_tries = max_tries
        self.lock_s = lock_s
        self.failures = 0
        self.locked_until = 0.0
        self._sessions: dict = {}
        self._mutex = threading.Lock()

    def locked_for(self) -> float:
        """Seconds the console stays locked (0: not locked)."""
        return max(0.0, self.locked_until - self.clock())

    def check(self, pin: str) -> str:
        """``"ok"``, ``"wrong"`` or ``"locked"`` (then no PIN is even compared)."""
        with self._mutex:
            if self.locked_for() > 0:
                return "locked"
            if verify_pin(pin, self._hash):
                self.failures = 0
                return "ok"
            self.failures += 1
            if self.failures >= self.max_tries:
                self.failures = 0
                self.locked_until = self.clock() + self.lock_s
            return "wrong"

    def open_session(self) -> str:
        token = secrets.token_urlsafe(32)
        with self._mutex:
            self._sessions[token] = self.clock() + SESSION_S
        return token

    def session_ok(self, token: str | None) -> bool:
        if not token:
            return False
        with self._mutex:
            until = self._sessions.get(token)
            if until is None or until < self.clock():
                self._sessions.pop(token, None)
                return False
            return True

    def close_session(self, token: str | None) -> None:
        with self._mutex:
            self._sessions.pop(token or "", None)


def basic_credentials(header: str) -> tuple[str, str] | None:
    """``(user, password)`` of an HTTP Basic ``Authorization`` header; None when it is not Basic.
    A Basic header that does not decode raises :class:`ValueError`."""
    if header[:6].lower() != "basic ":
        return None
    try:
        user, _, password = base64.b64decode(header[6:].strip(), validate=True).decode("utf-8").partition(":")
    except (binascii.Error, UnicodeDecodeError):
        raise ValueError("a malformed Authorization header") from None
    return user, password
