"""An enrolment in progress, kept safe on disk: the registry's :class:`Enrollment` plus the checks on
card codes, the optional writing of codes into tags, and a partial file to resume from.

While a deck set is being enrolled its progress lives in ``FILE.partial`` (the deck-set JSON with
the enrolment order added), rewritten atomically after every accepted or undone card; ``FILE``
itself appears only when the set is complete.  So an interrupted enrolment (Ctrl-C, a dead laptop
battery, the end of a taps file) loses at most the card being tapped, and the same command run
again carries on from the next expected card.
"""
from __future__ import annotations

import json
import os
import pathlib
import secrets
from dataclasses import dataclass, field

from ..rules.cards import CardCopy, CardError, all_copies, parse_copy
from .card_code import encode_card_code
from .registry import NXP_NTAG21X_KEY, DeckSet, Enrollment, ForgedTag, RegistryError
from .stations import Station, StationError, StationTap

__all__ = ["EnrollmentSession", "Accepted", "Refused", "partial_path", "load_order"]


def partial_path(path) -> pathlib.Path:
    """Where the progress of an enrolment into ``path`` is kept."""
    path = pathlib.Path(path)
    return path.with_name(path.name + ".partial")


def load_order(path, decks: int) -> list:
    """An enrolment order from a file: card copies (``S2#1`` …) separated by spaces, commas or new
    lines, or a JSON list of them.  It must name every card of ``decks`` decks exactly once."""
    try:
        text = pathlib.Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RegistryError(f"cannot read order file {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RegistryError(f"order file {path} is not UTF-8 text (card copies like S2#1)") from None
    if text.lstrip().startswith("["):
        try:
            tokens = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RegistryError(f"order file {path} is not JSON: {exc}") from None
        if not all(isinstance(t, str) for t in tokens):
            raise RegistryError(f"order file {path}: a JSON order is a list of cards like \"S2#1\"")
    else:
        tokens = text.replace(",", " ").split()
    try:
        order = [parse_copy(t) for t in tokens]
    except CardError as exc:
        raise RegistryError(f"order file {path}: {exc}") from None
    return check_order(order, decks, str(path))


def check_order(order: list, decks: int, source: str = "the order") -> list:
    everything = list(all_copies(decks))
    seen: set = set()
    for c in order:
        if c in seen:
            raise RegistryError(f"{source} names {c} twice")
        seen.add(c)
    missing = [c for c in everything if c not in seen]
    extra = [c for c in order if c not in set(everything)]
    if extra:
        raise RegistryError(f"{source} names {extra[0]}, which is not in {decks} deck(s)")
    if missing:
        raise RegistryError(f"{source} leaves out {len(missing)} card(s), e.g. {', '.join(map(str, missing[:5]))}")
    return order


@dataclass(frozen=True)
class Accepted:
    """A tap that enrolled ``copy`` (and wrote its code when ``written``); ``signed``: its
    originality signature verified (True), did not (False), or was not read (None)."""
    copy: CardCopy
    uid: str
    written: bool = False
    signed: bool | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Refused:
    """A tap that changed nothing, and why."""
    uid: str
    reason: str


class EnrollmentSession:
    """Enrol the deck set ``path`` names, resuming from its partial file if there is one.

    Raises :class:`RegistryError` when the deck set is already complete, or the partial file does
    not belong to this command (another name, deck count, order or signature policy): nothing is
    touched then.  ``require_signature``: refuse a tag whose originality signature does not verify
    with ``signature_key`` (default NXP's); the signatures a station reads are kept in the set.
    """

    def __init__(self, path, name: str, decks: int, *, deck_set_id: int | None = None, order=None,
                 write_codes: bool = False, station: Station | None = None, require_signature: bool = False,
                 signature_key: str | None = None):
        self.path = pathlib.Path(path)
        self.partial = partial_path(path)
        self.write_codes = write_codes
        self.station = station
        policy = (require_signature, (signature_key or NXP_NTAG21X_KEY).lower())
        if write_codes and (station is None or not station.can_write):
            raise RegistryError(f"the {station.name if station else 'chosen'} station cannot write card "
                                f"codes; use a Blinka station (blinka-spi, blinka-i2c, blinka-uart)")
        if require_signature and station is not None and not station.reads_signatures:
            raise RegistryError(f"the {station.name} station reads no originality signatures; enrol a set that "
                                f"requires them at a Blinka station (blinka-spi, blinka-i2c, blinka-uart)")
        folder = self.path.parent
        if not folder.is_dir():
            raise RegistryError(f"folder {folder} does not exist; create it first")
        if not os.access(folder, os.W_OK):
            raise RegistryError(f"cannot write in {folder}: the deck set and its progress are kept there")
        if self.path.exists():
            existing = DeckSet.load(self.path)      # a broken file is reported, never overwritten
            raise RegistryError(f"{self.path} already holds deck set {existing.name!r} with "
                                f"{len(existing.cards)} cards; check it with `shengji-table deck check` "
                                f"or enrol into another file")
        self.resumed = self.partial.exists()
        if self.resumed:
            self.enrollment = self._resume(name, decks, deck_set_id, order, policy)
        else:
            order = check_order(list(order), decks) if order is not None else None
            set_id = deck_set_id if deck_set_id is not None else secrets.randbits(32)
            self.enrollment = Enrollment(name, set_id, decks, order)
            # a bad key is refused before the first tap
            DeckSet(name, set_id, decks, require_signature=policy[0], signature_key=policy[1])
            self.deck_set.require_signature, self.deck_set.signature_key = policy

    def _resume(self, name, decks, deck_set_id, order, policy) -> Enrollment:
        where = str(self.partial)
        try:
            data = json.loads(self.partial.read_text(encoding="utf-8"))
        except OSError as exc:
            raise RegistryError(f"cannot read {where}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise RegistryError(f"{where} is not UTF-8 text; move it away to start afresh") from None
        except json.JSONDecodeError as exc:
            raise RegistryError(f"{where} is not JSON ({exc}); move it away to start afresh") from None
        saved = DeckSet.from_json(data)
        if saved.name != name or saved.decks != decks:
            raise RegistryError(f"{where} is an enrolment of {saved.name!r} with {saved.decks} deck(s), not "
                                f"{name!r} with {decks}; give the same --name and --decks to resume")
        if deck_set_id is not None and deck_set_id != saved.id:
            raise RegistryError(f"{where} enrols deck set id {saved.id}, not {deck_set_id}")
        if (saved.require_signature, saved.signature_key) != policy:
            raise RegistryError(f"{where} was started "
                                + ("with" if saved.require_signature else "without") + " --require-signature"
                                + (f" and key {saved.signature_key}" if saved.require_signature else "")
                                + "; resume with the same signature options")
        try:
            saved_order = [parse_copy(t) for t in data.get("order", [])]
        except (CardError, TypeError) as exc:
            raise RegistryError(f"{where}: bad 'order': {exc}") from None
        saved_order = check_order(saved_order, decks, where)
        if order is not None and list(order) != saved_order:
            raise RegistryError(f"{where} was started with another enrolment order; resume with the same --order")
        enrollment = Enrollment(name, saved.id, decks, saved_order)
        # Replay the saved cards in order: they must be the first cards of the order.
        for copy in saved_order[:len(saved.cards)]:
            uid = saved.uid_of(copy)
            if uid is None:
                raise RegistryError(f"{where} has {len(saved.cards)} cards but not {copy}, which comes "
                                    f"before some of them in its order; the file was edited")
            enrollment.tap(uid)
        ds = enrollment.deck_set
        ds.signatures = {u: sig for u, sig in saved.signatures.items() if u in ds.cards}
        ds.require_signature, ds.signature_key = saved.require_signature, saved.signature_key
        return enrollment

    # ---- progress --------------------------------------------------------------------------
    @property
    def deck_set(self) -> DeckSet:
        return self.enrollment.deck_set

    @property
    def expected(self) -> CardCopy | None:
        return self.enrollment.expected

    @property
    def count(self) -> int:
        return len(self.deck_set.cards)

    @property
    def total(self) -> int:
        return len(self.enrollment.order)

    @property
    def done(self) -> bool:
        return self.enrollment.done

    def tap(self, tap: StationTap):
        """Enrol the tapped tag as the expected card; :class:`Accepted` or :class:`Refused`."""
        expected = self.expected
        if expected is None:
            return Refused(tap.uid, "the deck set is complete; no more cards are expected")
        if tap.uid in self.deck_set.cards:
            return Refused(tap.uid, f"tag {tap.uid} is already enrolled as {self.deck_set.cards[tap.uid]}; "
                                    f"still waiting for {expected}")
        code = tap.card_code()
        if code is not None:
            set_id, says = code
            if set_id != self.deck_set.id:
                return Refused(tap.uid, f"tag {tap.uid} carries the code of {says} of deck set {set_id}: it "
                                        f"belongs to another deck set; still waiting for {expected}")
            if says != expected and not self.write_codes:
                return Refused(tap.uid, f"tag {tap.uid} carries the code of {says}, but {expected} is next: "
                                        f"is the deck out of order?")
        signed = None
        try:
            if tap.signature is not None or self.deck_set.require_signature:
                signed = self.deck_set.check_signature(tap.uid, tap.signature)
        except ForgedTag as exc:
            return Refused(tap.uid, f"{exc}; still waiting for {expected}")
        copy = self.enrollment.tap(tap.uid)
        if self.write_codes:
            assert self.station is not None
            try:
                self.station.write_code(tap.uid, encode_card_code(copy, self.deck_set.id))
            except StationError as exc:
                self.enrollment.undo()
                return Refused(tap.uid, str(exc))
        if tap.signature is not None:
            self.deck_set.signatures[tap.uid] = tap.signature
        self._save_progress()
        return Accepted(copy, tap.uid, self.write_codes, signed)

    def undo(self) -> CardCopy | None:
        """Take the last enrolled card back (it is expected next again); ``None`` if there is none."""
        uid = self.enrollment.last_uid
        copy = self.enrollment.undo()
        if copy is not None:
            self.deck_set.signatures.pop(uid, None)
            self._save_progress()
        return copy

    def _save_progress(self) -> None:
        data = self.deck_set.to_json()
        data["order"] = [str(c) for c in self.enrollment.order]
        _atomic_write(self.partial, json.dumps(data, indent=1, ensure_ascii=False) + "\n")

    def finish(self) -> None:
        """Write the complete deck set to its file (atomically) and drop the partial file."""
        if not self.done:
            raise RegistryError(f"{self.total - self.count} cards are still to be enrolled")
        self.deck_set.save(self.path)
        self.partial.unlink(missing_ok=True)


def _atomic_write(path: pathlib.Path, text: str) -> None:
    """Temp file, fsync, rename: the file is always either the old or the new version, whole."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
