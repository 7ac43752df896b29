"""``shengji-table deck check --deck-set FILE``: tap a deck set through and report what is wrong.

    shengji-table deck check --deck-set decks/club-red.json --station blinka-spi
    shengji-table deck check --deck-set decks/club-red.json --station table --reader 4
    shengji-table deck check --deck-set decks/club-red.json --taps taps.txt

Each tap prints the card (or why the tag is refused: not in this set, or a card of another deck
set by its code).  The check ends when every card has been seen, at the end of a taps file, or
when ``q`` is typed; it then lists missing cards, cards tapped more than once, and foreign tags.

A deck set that requires originality signatures (``enroll --require-signature``) has each tag's
checked when the station reads them (blinka-*): a tag whose signature does not verify is listed
as foreign ("forged?").  The table station reads no signatures; the check then says so.

Exit status: 0 the deck set is complete (every card once, nothing foreign); 1 it is not;
2 bad input (options, deck-set file, station).
"""
from __future__ import annotations

import argparse

from ..table.registry import DeckCheck, DeckSet, RegistryError
from ..table.stations import StationError, TapsFileStation
from .station_args import Keyboard, add_station_arguments, fail, feed, open_station, say


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    check = sub.add_parser("check", help="tap a deck set through: missing, duplicate and foreign cards",
                           description="tap a deck set through: missing, duplicate and foreign cards")
    check.add_argument("--deck-set", required=True, metavar="FILE", help="the deck-set JSON file")
    check.add_argument("--keep-going", action="store_true",
                       help="do not stop when every card has been seen (to catch extra, foreign tags)")
    add_station_arguments(check)


def run(args: argparse.Namespace) -> int:
    try:
        deck_set = DeckSet.load(args.deck_set)
        station = open_station(args)
    except (RegistryError, StationError) as exc:
        return fail("deck check", exc)
    check = DeckCheck(deck_set, check_signatures=station.reads_signatures)
    total = 54 * deck_set.decks
    say(f"checking deck set {deck_set.name!r} (id {deck_set.id}): {deck_set.decks} deck(s), {total} cards; "
        f"{len(deck_set.cards)} registered")
    if deck_set.require_signature:
        say("originality signatures: checked at every tap" if check.check_signatures else
            f"originality signatures: NOT checked (the {station.name} station does not read them)")
    counts: dict = {}

    def on_tap(tap):
        result = check.tap(tap.uid, tap.card_code(), tap.signature)
        if isinstance(result, RegistryError):
            say(f"refused: {result}")
            return
        counts[result] = counts.get(result, 0) + 1
        again = f"  (tapped {counts[result]} times)" if counts[result] > 1 else ""
        say(f"{len(counts)}/{total} {result}{again}")

    def on_undo():
        say("undo has no meaning in a check; ignored")

    def finished():
        return not args.keep_going and len(counts) == total

    keyboard = None if isinstance(station, TapsFileStation) else Keyboard()
    if keyboard is not None:
        say("tap the cards in any order (type q + Enter to stop early)")
    with station:
        try:
            feed(station, on_tap, on_undo, finished, keyboard=keyboard)
        except StationError as exc:
            say(f"shengji-table deck check: {exc}; report so far:")
    report = check.report()
    for line in report.lines():
        say(line)
    return 0 if report.ok else 1
