"""The card registry: which NFC tag UID is which physical card (face + deck index), per deck set.

A deck set is the group of physical decks played together at a table (2 decks for classic).  It is
kept as a small JSON file a referee can read::

    {"schema": 1, "name": "club-red", "id": 305419896, "decks": 2,
     "cards": {"04a1b2c3d4e5f6": "S10#1", …}}

Optionally, the tags' NTAG21x originality signatures read at enrolment and a policy on them::

     "signatures": {"04a1b2c3d4e5f6": "8b76…b3", …}, "require_signature": true,
     "signature_key": "04494e…bc61"

The signature is NXP's ECDSA over secp128r1 of the tag's 7-byte UID (AN11350), 32 bytes r‖s, read
with READ_SIG (0x3C 00); ``signature_key`` is the public key it must verify with (default NXP's
published NTAG21x key, :data:`NXP_NTAG21X_KEY`).  With ``require_signature`` a tag whose signature
is missing or does not verify is refused (:class:`ForgedTag`) wherever a station reads signatures
(enrolment and deck checks at a Blinka station; the table's own readers read UIDs and codes only).
It stops a UID-changeable clone that cannot answer with NXP's signature; a clone that also
replays a genuine tag's signature passes (the signature is readable, not a challenge).

:class:`Enrollment` registers a deck set by taps in a stated order; :class:`DeckCheck` taps a deck
set through and reports missing, duplicate and foreign cards.  Both are pure state machines: the
enrol/check commands feed them UIDs from whichever reader is at hand.
"""
from __future__ import annotations

import json
import os
import pathlib
from dataclasses import dataclass, field

from ..rules.cards import CardCopy, CardError, all_copies, parse_copy

__all__ = ["DeckSet", "RegistryError", "UnknownTag", "ForeignDeck", "Enrollment", "DeckCheck",
           "CheckReport", "uid_hex", "standard_order", "DuplicateTag", "ForgedTag", "NXP_NTAG21X_KEY",
           "signature_verifies"]

# NXP's NTAG21x originality public key (AN11350; the same in Proxmark3 and NXP's TagInfo): an
# uncompressed secp128r1 point, 04 ‖ X ‖ Y.
NXP_NTAG21X_KEY = "04494e1a386d3d3cfe3dc10e5de68a499b1c202db5b132393e89ed19fe5be8bc61"


class RegistryError(ValueError):
    """A registry file or an enrolment step that is not right; the message says what."""


class UnknownTag(RegistryError):
    """A tag this deck set does not know."""

    def __init__(self, uid: str, hint: str = ""):
        self.uid = uid
        super().__init__(f"unknown card: tag {uid} is not in this deck set{hint}")


class ForeignDeck(RegistryError):
    """A tag whose card code says it belongs to another deck set."""

    def __init__(self, uid: str, deck_set: int, copy: CardCopy):
        self.uid, self.deck_set, self.copy = uid, deck_set, copy
        super().__init__(f"foreign card: tag {uid} is {copy} of deck set {deck_set}, not of this table's set")


class ForgedTag(RegistryError):
    """A tag whose originality signature is missing or does not verify, in a deck set that requires one."""

    def __init__(self, uid: str, why: str):
        self.uid = uid
        super().__init__(f"tag {uid} {why}: not an original NXP tag (a clone?); this deck set requires a "
                         f"valid originality signature")


def _verifying_key(key_hex: str):
    """The ``ecdsa`` verifying key for a secp128r1 public key in hex; :class:`RegistryError` if it is not one.
    Why ``ecdsa``: a well-kept pure-Python library that has secp128r1 (few do; ``cryptography`` not)."""
    from ecdsa import SECP128r1, VerifyingKey
    from ecdsa.errors import MalformedPointError
    try:
        raw = bytes.fromhex(key_hex)
        return VerifyingKey.from_string(raw, curve=SECP128r1)
    except (ValueError, MalformedPointError, AssertionError):
        raise RegistryError(f"'signature_key' is a secp128r1 public key in hex (04 + X + Y, 33 bytes), "
                            f"not {key_hex!r}") from None


def signature_verifies(uid, signature: bytes, key_hex: str = NXP_NTAG21X_KEY) -> bool:
    """Does ``signature`` (32 bytes, r ‖ s) verify as the originality signature of ``uid``?
    NXP signs the UID bytes themselves, unhashed (AN11350)."""
    from ecdsa import BadSignatureError
    from ecdsa.util import sigdecode_string
    if len(signature) != 32:
        return False
    try:
        return bool(_verifying_key(key_hex).verify_digest(signature, bytes.fromhex(uid_hex(uid)),
                                                          sigdecode=sigdecode_string))
    except BadSignatureError:
        return False


def uid_hex(uid) -> str:
    """Canonical UID text: lower-case hex without separators (accepts bytes or text with ':' or ' ')."""
    if isinstance(uid, (bytes, bytearray)):
        text = bytes(uid).hex()
    else:
        text = str(uid).replace(":", "").replace(" ", "").lower()
        try:
            bytes.fromhex(text)
        except ValueError:
            raise RegistryError(f"not a tag UID: {uid!r}") from None
    if len(text) not in (8, 14, 20):
        raise RegistryError(f"a tag UID has 4, 7 or 10 bytes, not {len(text) // 2}: {uid!r}")
    return text


def standard_order(decks: int) -> list:
    """The stated enrolment order: deck by deck; in each ♠ ♥ ♣ ♦ from 2 to A, then LJ, BJ."""
    return list(all_copies(decks))


@dataclass
class DeckSet:
    """A registered deck set: ``uid → CardCopy`` and back."""

    name: str
    id: int
    decks: int
    cards: dict = field(default_factory=dict)       # uid hex -> CardCopy
    signatures: dict = field(default_factory=dict)  # uid hex -> the tag's originality signature (bytes)
    require_signature: bool = False
    signature_key: str = NXP_NTAG21X_KEY

    def __post_init__(self):
        if not 1 <= self.decks <= 4:
            raise RegistryError(f"a deck set has 1 to 4 decks, not {self.decks}")
        self._by_copy: dict[CardCopy, str] = {}   # copy -> uid hex
        for uid, copy in self.cards.items():
            if copy in self._by_copy:
                raise RegistryError(f"{copy} is registered twice (tags {self._by_copy[copy]} and {uid})")
            if copy.deck > self.decks:
                raise RegistryError(f"{copy} names deck {copy.deck} but the set has {self.decks}")
            self._by_copy[copy] = uid
        if self.require_signature:
            _verifying_key(self.signature_key)          # a bad key is refused now, not at the first tap

    def check_signature(self, uid, signature: bytes | None) -> bool:
        """Whether ``signature`` verifies for ``uid`` with this set's key; with ``require_signature``
        a missing or failing one raises :class:`ForgedTag` instead of returning False."""
        key = uid_hex(uid)
        if signature is None:
            if self.require_signature:
                raise ForgedTag(key, "gave no originality signature (READ_SIG)")
            return False
        ok = signature_verifies(key, signature, self.signature_key)
        if not ok and self.require_signature:
            raise ForgedTag(key, "has an originality signature that does not verify")
        return ok

    def identify(self, uid, code=None) -> CardCopy:
        """The physical card of a tag; :class:`UnknownTag` or :class:`ForeignDeck` otherwise.

        ``code`` is the decoded card code from the tag's memory, ``(deck_set, CardCopy)``, if any:
        it lets the refusal say *which* foreign card it is.
        """
        key = uid_hex(uid)
        copy = self.cards.get(key)
        if copy is not None:
            return copy
        if code is not None and code[0] != self.id:
            raise ForeignDeck(key, code[0], code[1])
        raise UnknownTag(key)

    def uid_of(self, copy: CardCopy) -> str | None:
        return self._by_copy.get(copy)

    @property
    def complete(self) -> bool:
        return len(self.cards) == 54 * self.decks

    # ---- JSON file -----------------------------------------------------------------------
    def to_json(self) -> dict:
        out: dict = {"schema": 1, "name": self.name, "id": self.id, "decks": self.decks,
                     "cards": {uid: str(copy) for uid, copy in sorted(self.cards.items())}}
        if self.signatures:                 # (a set enrolled without signatures keeps its old form)
            out["signatures"] = {uid: sig.hex() for uid, sig in sorted(self.signatures.items())}
        if self.require_signature:
            out["require_signature"] = True
        if self.signature_key != NXP_NTAG21X_KEY:
            out["signature_key"] = self.signature_key
        return out

    @classmethod
    def from_json(cls, data) -> DeckSet:
        if not isinstance(data, dict):
            raise RegistryError("a deck-set file holds one JSON object")
        if data.get("schema") != 1:
            raise RegistryError(f"unsupported deck-set schema {data.get('schema')!r} (this host reads 1)")
        missing = {"name", "id", "decks", "cards"} - data.keys()
        if missing:
            raise RegistryError(f"deck-set file lacks {', '.join(sorted(missing))}")
        if not isinstance(data["cards"], dict):
            raise RegistryError("'cards' maps tag UID → card, e.g. {\"04a1b2c3d4e5f6\": \"S10#1\"}")
        if not isinstance(data["id"], int) or isinstance(data["id"], bool) or not 0 <= data["id"] <= 0xFFFFFFFF:
            raise RegistryError("'id' is a deck-set number from 0 to 4294967295")
        if not isinstance(data["decks"], int) or isinstance(data["decks"], bool):
            raise RegistryError("'decks' is a whole number from 1 to 4")
        cards: dict = {}
        spelled: dict = {}                           # uid hex -> the key as the file spells it
        for uid, text in data["cards"].items():
            key = uid_hex(uid)
            if key in cards:                         # the same tag twice, in another case or form
                raise DuplicateTag(key, (spelled[key], uid))
            try:
                cards[key] = parse_copy(text)
            except CardError as exc:
                raise RegistryError(f"tag {uid}: {exc}") from None
            spelled[key] = uid
        return cls(str(data["name"]), data["id"], data["decks"], cards, **_signature_fields(data))

    @classmethod
    def load(cls, path) -> DeckSet:
        try:
            text = pathlib.Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RegistryError(f"cannot read deck set {path}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise RegistryError(f"deck set {path} is not UTF-8 text (a deck-set file is JSON written by "
                                f"shengji-table enroll)") from None
        try:
            data = json.loads(text, object_pairs_hook=_refuse_repeated_keys)
        except json.JSONDecodeError as exc:
            raise RegistryError(f"{path} is not JSON: {exc}") from None
        except RecursionError:
            raise RegistryError(f"{path} is not a deck set: JSON nested too deeply") from None
        except _RepeatedKey as exc:
            try:
                uid_hex(exc.key)
            except RegistryError:
                raise RegistryError(f"{path}: the key {exc.key!r} appears twice") from None
            raise DuplicateTag(uid_hex(exc.key), (exc.key, exc.key)).located(path, text) from None
        try:
            return cls.from_json(data)
        except DuplicateTag as exc:
            raise exc.located(path, text) from None

    def save(self, path) -> None:
        """Write atomically (temp file + rename) so a crash never leaves half a registry."""
        path = pathlib.Path(path)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(tmp, path)


def _signature_fields(data: dict) -> dict:
    """``signatures``, ``require_signature`` and ``signature_key`` of a deck-set file, checked; with
    ``require_signature`` every stored signature must verify (an edited file is refused)."""
    require, key = data.get("require_signature", False), data.get("signature_key", NXP_NTAG21X_KEY)
    if not isinstance(require, bool):
        raise RegistryError("'require_signature' is true or false")
    if not isinstance(key, str):
        raise RegistryError("'signature_key' is a secp128r1 public key in hex (04 + X + Y, 33 bytes)")
    key = key.lower()
    raw = data.get("signatures", {})
    if not isinstance(raw, dict):
        raise RegistryError("'signatures' maps tag UID → its 32-byte originality signature in hex")
    signatures = {}
    for uid, sig in raw.items():
        try:
            signatures[uid_hex(uid)] = bytes.fromhex(sig) if isinstance(sig, str) else b""
        except ValueError:
            signatures[uid_hex(uid)] = b""
        if len(signatures[uid_hex(uid)]) != 32:
            raise RegistryError(f"signature of tag {uid}: 32 bytes in hex expected, not {sig!r}")
    if require:
        _verifying_key(key)
        bad = [uid for uid, sig in signatures.items() if not signature_verifies(uid, sig, key)]
        if bad:
            raise RegistryError(f"the stored signature of tag {bad[0]} does not verify with the set's key "
                                f"({len(bad)} such): the file was edited, or enrolled with another key")
    return {"signatures": signatures, "require_signature": require, "signature_key": key}


class DuplicateTag(RegistryError):
    """One tag UID listed twice in a deck-set file (also in another case, or with separators):
    JSON would keep only the last, so a card would silently go missing."""

    def __init__(self, uid: str, spellings: tuple, where: str = ""):
        self.uid, self.spellings = uid, spellings
        super().__init__(f"tag {uid} is listed twice{where}: a tag names one card; remove one of them")

    def located(self, path, text: str) -> DuplicateTag:
        """The same error naming the file and the lines where the tag stands."""
        lines = []
        for spelling in dict.fromkeys(self.spellings):
            needle = json.dumps(spelling)
            lines += [n for n, line in enumerate(text.splitlines(), 1) if needle in line]
        where = f" in {path}" + (f" (lines {', '.join(map(str, sorted(set(lines))))})" if lines else "")
        return DuplicateTag(self.uid, self.spellings, where)


class _RepeatedKey(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _refuse_repeated_keys(pairs: list) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise _RepeatedKey(key)
        out[key] = value
    return out


class Enrollment:
    """Register a deck set by tapping its cards in a stated order (default :func:`standard_order`).

    ``tap(uid)`` assigns the next expected card and returns it; a tag tapped again is refused with
    the card it was already given (nothing changes); ``undo()`` takes the last assignment back.
    """

    def __init__(self, name: str, deck_set_id: int, decks: int, order=None):
        self.deck_set = DeckSet(name, deck_set_id, decks)
        self.order = list(order) if order is not None else standard_order(decks)
        if len(set(self.order)) != len(self.order):
            raise RegistryError("the enrolment order names a card twice")
        self._done: list = []

    @property
    def expected(self) -> CardCopy | None:
        return self.order[len(self._done)] if len(self._done) < len(self.order) else None

    def tap(self, uid) -> CardCopy:
        key = uid_hex(uid)
        copy = self.expected
        if copy is None:
            raise RegistryError("enrolment is complete; no more cards are expected")
        if key in self.deck_set.cards:
            raise RegistryError(f"tag {key} is already enrolled as {self.deck_set.cards[key]}; "
                                f"still waiting for {copy}")
        self.deck_set.cards[key] = copy
        self.deck_set._by_copy[copy] = key
        self._done.append(key)
        return copy

    @property
    def last_uid(self) -> str | None:
        """The tag enrolled last (what :meth:`undo` takes back)."""
        return self._done[-1] if self._done else None

    def undo(self) -> CardCopy | None:
        if not self._done:
            return None
        key = self._done.pop()
        copy = self.deck_set.cards.pop(key)
        del self.deck_set._by_copy[copy]
        return copy

    @property
    def done(self) -> bool:
        return self.expected is None


@dataclass
class CheckReport:
    seen: list            # CardCopy in tap order
    missing: list         # CardCopy never tapped
    duplicates: list      # (CardCopy, times) tapped more than once
    foreign: list         # uid hex (and what its code says, if anything)

    @property
    def ok(self) -> bool:
        return not (self.missing or self.duplicates or self.foreign)

    def lines(self) -> list:
        out = [f"{len(self.seen)} cards seen"]
        if self.missing:
            out.append("missing: " + " ".join(map(str, self.missing)))
        if self.duplicates:
            out.append("tapped more than once: " + " ".join(f"{c}×{n}" for c, n in self.duplicates))
        if self.foreign:
            out.append("foreign tags: " + " ".join(self.foreign))
        if self.ok:
            out.append("deck set complete")
        return out


class DeckCheck:
    """Tap a deck set through; :meth:`report` lists missing, duplicate and foreign cards.

    ``check_signatures``: the station reads originality signatures, so a set that requires them
    has each tag's checked (a failing one is listed as foreign: it is not one of the set's tags)."""

    def __init__(self, deck_set: DeckSet, check_signatures: bool = False):
        self.deck_set = deck_set
        self.check_signatures = check_signatures and deck_set.require_signature
        self._counts: dict = {}
        self._seen: list = []
        self._foreign: list = []

    def tap(self, uid, code=None, signature=None):
        """Returns the card, or the refusal (an exception instance) for a foreign/unknown/forged tag."""
        try:
            copy = self.deck_set.identify(uid, code)
            if self.check_signatures:
                self.deck_set.check_signature(uid, signature)
        except ForgedTag as exc:
            label = f"{uid_hex(uid)}(forged?)"
            if label not in self._foreign:
                self._foreign.append(label)
            return exc
        except (UnknownTag, ForeignDeck) as exc:
            label = uid_hex(uid) if isinstance(exc, UnknownTag) else f"{uid_hex(uid)}({exc.copy} of set {exc.deck_set})"
            if label not in self._foreign:
                self._foreign.append(label)
            return exc
        self._counts[copy] = self._counts.get(copy, 0) + 1
        if self._counts[copy] == 1:
            self._seen.append(copy)
        return copy

    def report(self) -> CheckReport:
        everything = [c for c in all_copies(self.deck_set.decks)]
        missing = [c for c in everything if c not in self._counts]
        dups = [(c, n) for c, n in self._counts.items() if n > 1]
        return CheckReport(list(self._seen), missing, dups, list(self._foreign))
