"""``shengji-table enroll``: register a deck set by tapping its cards in a stated order.

    shengji-table enroll --deck-set decks/club-red.json --name club-red --decks 2 --station blinka-spi
    shengji-table enroll --deck-set decks/club-red.json --name club-red --decks 2 --station blinka-spi --write-codes
    shengji-table enroll --deck-set decks/club-red.json --name club-red --decks 2 --station table --reader 4
    shengji-table enroll --deck-set decks/club-red.json --name club-red --decks 2 --taps taps.txt
    shengji-table enroll --deck-set decks/club-red.json --name club-red --station blinka-spi --require-signature

A Blinka station also reads each tag's NTAG21x originality signature and keeps it in the deck set;
``--require-signature`` refuses a tag whose signature does not verify with NXP's public key (or
``--signature-key HEX``), and the set keeps that policy for later deck checks.

The next expected card is always shown; a tag tapped twice is refused with the card it already is;
``u`` (typed, or a line of a taps file) takes the last card back.  Progress is kept in
``FILE.partial`` after every card, so the same command run again resumes an interrupted enrolment.

Exit status: 0 the deck set is complete and saved; 1 stopped before the end (progress kept);
2 bad input (options, files, station) — nothing changed.
"""
from __future__ import annotations

import argparse
import sys

from ..table.enrollment_session import Accepted, EnrollmentSession, load_order
from ..table.registry import RegistryError
from ..table.stations import StationError, TapsFileStation
from .progress import progress
from .station_args import Keyboard, add_station_arguments, fail, feed, open_station, say


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deck-set", required=True, metavar="FILE", help="the deck-set JSON file to create")
    parser.add_argument("--name", required=True, help="the deck set's name, e.g. club-red")
    parser.add_argument("--decks", type=int, default=2, help="how many decks the set has (default 2)")
    parser.add_argument("--id", type=int, default=None, dest="set_id",
                        help="deck-set id written into card codes (default: random 32-bit)")
    parser.add_argument("--order", metavar="FILE", default=None,
                        help="the order the cards will be tapped in (copies like S2#1); default deck by "
                             "deck, ♠ ♥ ♣ ♦ from 2 to A, then LJ, BJ")
    parser.add_argument("--write-codes", action="store_true",
                        help="also write each card's code into its NTAG user memory and read it back")
    parser.add_argument("--require-signature", action="store_true",
                        help="refuse a tag whose NTAG21x originality signature does not verify (a clone); "
                             "needs a station that reads signatures (blinka-*)")
    parser.add_argument("--signature-key", metavar="HEX", default=None,
                        help="the secp128r1 public key the signatures must verify with (default NXP's NTAG21x key)")
    add_station_arguments(parser)


def run(args: argparse.Namespace) -> int:
    try:
        if not 1 <= args.decks <= 4:
            raise RegistryError(f"a deck set has 1 to 4 decks, not {args.decks}")
        if args.set_id is not None and not 0 <= args.set_id <= 0xFFFFFFFF:
            raise RegistryError(f"--id is a number from 0 to 4294967295, not {args.set_id}")
        order = load_order(args.order, args.decks) if args.order else None
        station = open_station(args)
    except (RegistryError, StationError) as exc:
        return fail("enroll", exc)
    with station:
        try:
            session = EnrollmentSession(args.deck_set, args.name, args.decks, deck_set_id=args.set_id,
                                        order=order, write_codes=args.write_codes, station=station,
                                        require_signature=args.require_signature,
                                        signature_key=args.signature_key)
        except RegistryError as exc:
            return fail("enroll", exc)
        return _enrol(session, station)


def _enrol(session: EnrollmentSession, station) -> int:
    ds = session.deck_set
    if session.resumed:
        say(f"resuming {session.partial}: {session.count} of {session.total} cards already enrolled")
    else:
        say(f"enrolling deck set {ds.name!r} (id {ds.id}), {ds.decks} deck(s), {session.total} cards"
            + (", writing card codes" if session.write_codes else ""))
    if not session.done:
        say(f"tap {session.expected}" + ("   (type u + Enter to undo, q to stop)"
                                          if not isinstance(station, TapsFileStation) else ""))

    step = lambda n=1, note="": None    # noqa: E731 — the progress bar's, once it is drawn

    def on_tap(tap):
        outcome = session.tap(tap)
        if isinstance(outcome, Accepted):
            step(1, f"next {session.expected}" if not session.done else "")
            nxt = f"; next {session.expected}" if not session.done else ""
            signed = {True: " (signature verified)", False: " (signature does not verify)"}.get(outcome.signed, "")
            say(f"{session.count}/{session.total} {outcome.copy} = tag {outcome.uid}"
                + (" (code written, read back)" if outcome.written else "") + signed + nxt)
        else:
            say(f"refused: {outcome.reason}")

    def on_undo():
        copy = session.undo()
        if copy is not None:
            step(-1, f"next {session.expected}")
        say(f"undone: {copy} (tap it again)" if copy is not None else "nothing to undo")

    keyboard = None if isinstance(station, TapsFileStation) else Keyboard()
    try:
        with progress(session.total, "cards enrolled") as step:
            step(session.count)           # resumed: the cards enrolled before
            why = feed(station, on_tap, on_undo, lambda: session.done, keyboard=keyboard)
    except StationError as exc:
        print(f"shengji-table enroll: {exc}", file=sys.stderr, flush=True)
        why = "error"
    if session.done:
        session.finish()
        say(f"saved {session.path}: deck set {ds.name!r}, {session.total} cards")
        return 0
    say(f"stopped ({why}) with {session.count} of {session.total} cards enrolled, next {session.expected}; "
        f"progress is in {session.partial} — run the same command again to resume")
    return 1
