"""The referee's PIN: its file, its salted hash, the lockout and the console's sessions.

A PIN file holds either the PIN itself (one line) or its salted hash, as ``shengji-table referee
set-pin FILE`` writes it::

    scrypt$16384$8$1$<salt hex>$<hash hex>

The process keeps only the hash (a PIN read in clear is hashed at once with a fresh salt).  A PIN
(or passphrase) has at least :data:`MIN_PIN` characters.  Five wrong PINs in a row from one client
address lock that address for 60 s, each further lock of it twice as long (the clock is injectable
for tests); while it is locked every PIN from it is refused, the right one too, and no other
address and no open session is affected.  A browser that logged in holds a session token (a cookie,
HttpOnly, SameSite=Strict) and the session's anti-forgery token; scripts send HTTP Basic with the
user ``referee``.
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

__all__ = ["basic_credentials", "hash_pin", "verify_pin", "load_pin_file", "pin_problem", "PinError", "RefereeGate",
           "MAX_TRIES", "LOCK_S", "MIN_PIN", "SCRYPT_N", "SCRYPT_R", "SCRYPT_P"]

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 14, 8, 1
MAX_TRIES = 5            # wrong PINs in a row from one address …
LOCK_S = 60.0           # … lock it this long; each further lock of it twice as long …
MAX_LOCK_S = 3600.0     # … at most this
WINDOW_S = 60.0         # one summary of an address's wrong PINs per window
MAX_SUMMARIES = 20      # addresses named in the log per window; the rest in one line
MAX_ADDRESSES = 4096    # addresses followed in memory at once
MAX_SESSIONS = 1024
SESSION_S = 12 * 3600.0
MIN_PIN = 8


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
    if "\n" in text:
        raise PinError(f"the referee PIN file {path} holds neither a PIN (one line) nor a PIN hash")
    problem = pin_problem(text)
    if problem:
        raise PinError(f"the referee PIN file {path}: {problem}")
    return hash_pin(text)


def pin_problem(pin: str) -> str | None:
    """Why ``pin`` is too weak to set (None: it will do): at least :data:`MIN_PIN` characters, not
    one character repeated, not a run such as 12345678; a passphrase may hold spaces."""
    if len(pin) < MIN_PIN:
        return (f"a PIN has at least {MIN_PIN} characters (it was {len(pin)}): a longer number, or a "
                f"passphrase of a few words")
    if pin != pin.strip() or any(c.isspace() and c != " " for c in pin):
        return "a PIN has no spaces at either end and no tabs or line breaks"
    steps = {ord(b) - ord(a) for a, b in zip(pin, pin[1:])}
    if len(steps) == 1 and steps <= {-1, 0, 1}:
        return "a PIN is not one character repeated or a run such as 12345678"
    return None


class _Address:
    """One client address's wrong PINs: the run since its last right PIN, its lock, and the counts
    of the summary window still open (``docs/security.md``)."""
    __slots__ = ("run", "locks", "locked_until", "first", "last", "wrong", "refused", "how")

    def __init__(self, now: float):
        self.run = self.locks = self.wrong = self.refused = 0
        self.locked_until = 0.0
        self.first = self.last = now
        self.how: set = set()


class RefereeGate:
    """Checks PINs against the hash, with a lockout per client address, and keeps the console's
    sessions, each with its anti-forgery token.

    ``max_tries`` wrong PINs in a row from one address lock that address for ``lock_s``; each
    further lock of the same address lasts twice as long as the one before (at most
    :data:`MAX_LOCK_S`); a right PIN from it clears it.  Other addresses, and every session already
    open, are never locked by it.  The wrong PINs are counted here, in memory, never one log row
    each: :meth:`summaries` gives one summary per address per ``window_s`` (at most
    :data:`MAX_SUMMARIES` a window, the rest in one line), for the log."""

    def __init__(self, pin_hash: str, *, clock: Callable[[], float] = time.monotonic,
                 max_tries: int = MAX_TRIES, lock_s: float = LOCK_S, window_s: float = WINDOW_S):
        _parse(pin_hash)
        self._hash = pin_hash
        self.clock = clock
        self.max_tries = max_tries
        self.lock_s = lock_s
        self.window_s = window_s
        self._addresses: dict[str, _Address] = {}
        self._sessions: dict = {}
        self._once: dict = {}
        self._dropped = [0, 0]                  # wrong, refused: of addresses forgotten since the last summary
        self._mutex = threading.Lock()          # the state above: never held while scrypt runs
        self._scrypt = threading.Lock()         # one PIN compared at a time: a flood queues here

    def locked_for(self, address: str = "?") -> float:
        """Seconds the address stays locked (0: not locked)."""
        with self._mutex:
            a = self._addresses.get(address)
            return max(0.0, a.locked_until - self.clock()) if a is not None else 0.0

    def _entry(self, address: str, now: float) -> _Address:
        a = self._addresses.get(address)
        if a is None:
            if len(self._addresses) >= MAX_ADDRESSES:
                self._forget(now)
            a = self._addresses[address] = _Address(now)
        return a

    def _forget(self, now: float) -> None:
        """Room for one more address: drop those neither locked nor in an open window, else the
        one seen longest ago (their counts go to the summary of the addresses not named)."""
        idle = [k for k, a in self._addresses.items() if a.locked_until <= now and not (a.wrong or a.refused)]
        for k in idle or [min(self._addresses, key=lambda k: self._addresses[k].last)]:
            a = self._addresses.pop(k)
            self._dropped[0] += a.wrong
            self._dropped[1] += a.refused

    def check(self, pin: str, address: str = "?", how: str = "basic") -> str:
        """``"ok"``, ``"wrong"`` or ``"locked"`` (then no PIN is even compared)."""
        with self._mutex:
            now = self.clock()
            a = self._addresses.get(address)
            if a is not None and a.locked_until > now:
                self._count(a, now, how, refused=True)
                return "locked"
        with self._scrypt:
            right = verify_pin(pin, self._hash)
        with self._mutex:
            now = self.clock()
            a = self._entry(address, now)
            if right:
                a.run = a.locks = 0
                return "ok"
            self._count(a, now, how, refused=False)
            a.run += 1
            if a.run >= self.max_tries:
                a.run = 0
                a.locked_until = now + min(MAX_LOCK_S, self.lock_s * 2 ** a.locks)
                a.locks += 1
            return "wrong"

    def _count(self, a: _Address, now: float, how: str, refused: bool) -> None:
        if not (a.wrong or a.refused):
            a.first = now
        a.last = now
        a.how.add(how)
        if refused:
            a.refused += 1
        else:
            a.wrong += 1

    def summaries(self, force: bool = False) -> list[dict]:
        """The failures of each address whose window (``window_s`` from its first failure) has
        closed, or of every address with ``force``; each at most once.  Busiest first, at most
        :data:`MAX_SUMMARIES`; the rest summed in one more with ``"address": "others"``."""
        with self._mutex:
            now = self.clock()
            due = [(k, a) for k, a in self._addresses.items()
                   if (a.wrong or a.refused) and (force or now - a.first >= self.window_s)]
            due.sort(key=lambda ka: -(ka[1].wrong + ka[1].refused))
            out = [{"address": k, "wrong": a.wrong, "refused_locked": a.refused, "how": sorted(a.how),
                    "seconds": round(a.last - a.first, 1), "locked_for": round(max(0.0, a.locked_until - now))}
                   for k, a in due[:MAX_SUMMARIES]]
            rest = due[MAX_SUMMARIES:]
            wrong = sum(a.wrong for _, a in rest) + self._dropped[0]
            refused = sum(a.refused for _, a in rest) + self._dropped[1]
            if wrong or refused:
                out.append({"address": "others", "addresses": len(rest), "wrong": wrong, "refused_locked": refused})
            self._dropped = [0, 0]
            for _, a in due:
                a.wrong = a.refused = 0
                a.how = set()
            return out

    def open_session(self) -> str:
        token = secrets.token_urlsafe(32)
        with self._mutex:
            now = self.clock()
            if len(self._sessions) >= MAX_SESSIONS:
                self._sessions = {k: v for k, v in self._sessions.items() if v[0] >= now}
            if len(self._sessions) >= MAX_SESSIONS:
                self._sessions.pop(min(self._sessions, key=lambda k: self._sessions[k][0]))
            self._sessions[token] = (now + SESSION_S, secrets.token_urlsafe(32))
        return token

    def session_ok(self, token: str | None) -> bool:
        return self.csrf_token(token) is not None

    def csrf_token(self, token: str | None) -> str | None:
        """The anti-forgery token of the session ``token`` (None: no such session, or expired)."""
        if not token:
            return None
        with self._mutex:
            held = self._sessions.get(token)
            if held is None or held[0] < self.clock():
                self._sessions.pop(token, None)
                return None
            return held[1]

    def csrf_ok(self, token: str | None, csrf: str | None) -> bool:
        """True when ``csrf`` is the anti-forgery token of the open session ``token``."""
        expected = self.csrf_token(token)
        return expected is not None and csrf is not None and hmac.compare_digest(expected.encode(), csrf.encode())

    def close_session(self, token: str | None) -> None:
        with self._mutex:
            self._sessions.pop(token or "", None)

    def once(self, *key) -> bool:
        """True the first time ``key`` is seen within a session's length (then False): what is
        logged once per session (a login by HTTP Basic, the first read of the hands)."""
        with self._mutex:
            now = self.clock()
            until = self._once.get(key)
            if until is not None and until >= now:
                return False
            if len(self._once) >= MAX_SESSIONS:
                self._once = {k: v for k, v in self._once.items() if v >= now}
                if len(self._once) >= MAX_SESSIONS:
                    self._once.pop(next(iter(self._once)))
            self._once[key] = now + SESSION_S
            return True


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
