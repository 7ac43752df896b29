"""What a tap, a press and a long press mean in each phase: one table, read in both directions.

A seat has a reader, a button and a ring; the table has one more reader in the centre.  What the
host gets from them are *gestures*: a card tapped at a seat or at the centre, a button going down
(PRESS), coming up after a short press (RELEASE) and held 800 ms (LONG_PRESS; it arrives as PRESS,
LONG_PRESS, RELEASE — firmware/debounce.py — and its release is not a step, so "press N times, then
hold" means N), and a take-back (TAKE_BACK: the button held 800 ms while the seat's reader sees a
card; it arrives as TAKE_BACK with that card, then RELEASE, without PRESS — firmware/scan.py).  A
card on a reader is a tap only once it has dwelt there, and a tap never takes a card back: a card
a seat has entered is taken back by the take-back gesture alone; tapped again it is ignored.
:data:`TABLE` says, for each (:class:`~shengji_table.game.phase.Phase`,
:class:`Gesture`), what it becomes: a list of :class:`Row`, tried in order; the first whose
condition (a small named predicate, :class:`When`) holds is taken.  A row names the controller's
:class:`Step` and the game event kind it sends or helps to enter (``event``).

* Forwards, the controller (``table/controller/``) dispatches every gesture through
  :func:`resolve` to one method per step.
* Backwards, the virtual table's players (``sim/players.py``) ask :func:`performing` which rows
  perform the next planned game event in the current phase, and do the first one still needed.
* ``docs/table.md`` lists every row (:func:`markdown`, checked by tests/table/test_gestures.py;
  ``python -m shengji_table.table.gestures docs/table.md`` rewrites that section).

Before the table is consulted the controller refuses what belongs to no seat: a reader not on the
board, a seat the preset leaves empty (``table.reader``), a tag not in the deck set
(``table.unknown-tag``, ``table.foreign-deck``).  After a tap or a press it takes its automatic
steps (the next ``deal``; ``take_kitty`` when the draw closes, except with three-player bidding).
"""
from __future__ import annotations

import enum
import sys
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

from ..game import events as ev
from ..game.phase import DECIDING, OPEN, SCANNED, Phase
from ..rules.cards import JOKER, CardCopy

__all__ = ["Gesture", "Step", "At", "When", "Row", "TABLE", "phase_of", "decider", "resolve",
           "performing", "markdown", "DOCS_BEGIN", "DOCS_END", "game_entered"]


class Gesture(enum.StrEnum):
    SEAT_TAP = "seat tap"          # a card on a seat's reader
    CENTRE_TAP = "centre tap"      # a card on the centre reader
    PRESS = "press"                # a seat's button goes down
    RELEASE = "release"            # … and comes up (after a long press: swallowed)
    LONG_PRESS = "long press"      # … held 800 ms
    TAKE_BACK = "take back"        # … held 800 ms with a card on the seat's reader (that card)


class Step(enum.StrEnum):
    """What the controller does; one method each (``Controller._STEPS``)."""
    # game events sent at once
    DRAW = "draw"                  # Draw(seat, card)
    TAP = "tap"                    # Tap(seat, card): card entry (the game buries, lays back, plays)
    PASS = "pass"                  # Bid(seat, None)
    BURY = "bury"                  # BuryCard(dealer, card)
    CLOSE = "close"                # CloseDeclarations()
    REVEAL_KITTY = "reveal kitty"  # RevealKitty(the cards revealed)
    TAKE_KITTY = "take kitty"      # TakeKitty(seat)
    COUNTER_DRAW = "counter draw"  # CounterDraw(seat): open play, the draw is not scanned
    CONFIRM = "confirm"            # Confirm(seat)
    DECLARE = "declare"            # Declare(seat, the cards shown)
    CHALLENGE = "challenge"        # Challenge(seat, the cards shown)
    BID = "bid"                    # Bid(seat, the bid chosen)
    NAME_TRUMP = "name trump"      # NameTrump(seat, the suit chosen)
    # entry: the controller's own state until the entry is complete
    SHOW = "show"                  # a card shown to declare (again: withdrawn)
    SHOW_CHALLENGE = "show challenge"
    HOLD_CHALLENGE = "hold challenge"  # the seat on turn holds its button: its taps challenge
    KITTY_DRAW = "kitty draw"      # a card drawn from the kitty; the last one sends CounterDraw
    REVEAL = "reveal"              # a kitty card revealed (again: put back)
    CHOOSE_SUIT = "choose suit"
    TRUMP_STEP = "trump step"      # nothing once a suit is chosen (hold to name it)
    CHOOSE_FACE = "choose face"
    NEXT_BID = "next bid"
    NEXT_COPY = "next copy"
    CALL = "call"                  # a friend call noted; the last one sends CallFriend
    WITHDRAW = "withdraw"
    TAKE_BACK = "take back"        # TakeBack(seat, card): a pending card back into the hand
    UNSHOW = "unshow"              # a card shown (or shown to challenge) withdrawn
    AS_LONG_PRESS = "as long press"  # a take-back with nothing to take back: a long press
    ENTERED = "entered"            # a card tapped that the seat has entered already: nothing
    # nothing for the game
    REFUSE_IDLE = "refuse idle"
    REFUSE_CENTRE = "refuse centre"
    REFUSE_TURN = "refuse turn"
    WAIT = "wait"                  # counts later: at the release, or the long press
    UNHOLD = "unhold"              # the release of a long press
    NONE = "none"


@dataclass(frozen=True)
class At:
    """Where a gesture happens: the hand (None before the first deal), the seat (None: the centre),
    the card tapped, and what the controller holds for that seat."""
    hand: Any
    seat: int | None
    copy: CardCopy | None = None
    mode: str = SCANNED
    bidding: bool = False           # the preset bids (three players)
    shown: tuple = ()               # this seat's cards shown to declare
    challenge: tuple = ()           # this seat's cards shown to challenge a throw
    held: bool = False              # this seat's press became a long press


@dataclass(frozen=True)
class When:
    """A named condition of a row."""
    name: str
    text: str
    test: Callable[[At], bool]

    def __call__(self, at: At) -> bool:
        return self.test(at)


def phase_of(hand) -> Phase:
    """The hand's phase; before the first deal, :attr:`Phase.DEAL`."""
    return Phase.DEAL if hand is None else Phase(hand.phase)


def decider(hand) -> int:
    """The seat whose decision is being entered: the bidder on turn, else the dealer."""
    return hand.turn if hand.phase == Phase.BIDDING else hand.dealer


def _shows_on_draw(at: At) -> bool:
    if at.mode == OPEN:
        return True
    c = at.copy
    assert c is not None and at.seat is not None
    return c in at.hand.hands[at.seat] and (c.card.rank == at.hand.level or c.card.suit == JOKER)


def _challenges(at: At) -> bool:
    # the seat on turn challenges while it holds its button down (its taps are its play otherwise)
    h = at.hand
    return bool(at.mode == OPEN and h.throw_window and (at.seat != h.turn or at.held) and h.trick
                and at.seat != h.trick[0][0])


def _turn_may_challenge(at: At) -> bool:
    h = at.hand
    return bool(at.mode == OPEN and h.throw_window and at.seat == h.turn and h.trick
                and at.seat != h.trick[0][0] and not h.pending and not at.challenge)


def game_entered(hand, seat: int | None, copy: CardCopy | None) -> bool:
    """Whether ``copy`` is a card ``seat`` has entered in the game and not committed: pending in
    play (the seat on turn), buried and not confirmed, laid back to the kitty."""
    if hand is None or seat is None or copy is None:
        return False
    ph = phase_of(hand)
    if ph == Phase.PLAYING:
        return seat == hand.turn and copy in hand.pending
    if ph == Phase.BURYING:
        return copy in hand.buried
    if ph == Phase.EXCHANGE:
        x = hand.exchange
        return x is not None and x.seat == seat and copy in x.laid
    return False


def _kitty_to_draw(mode: str) -> Callable[[At], bool]:
    return lambda at: (at.mode == mode and at.hand.exchange is not None
                       and at.hand.exchange.drawn is None)


ALWAYS = When("always", "otherwise", lambda at: True)
IDLE = When("idle", "no hand is being played (none dealt, or settled)",
            lambda at: at.hand is None or (at.hand.phase == Phase.OVER and at.hand.result is not None))
PENDING = When("pending", "this seat has cards shown or challenge cards pending",
               lambda at: bool(at.shown or at.challenge))
SHOWN = When("shown", "this seat has cards shown", lambda at: bool(at.shown) and at.hand is not None)
CHALLENGING = When("challenging", "this seat has challenge cards shown",
                   lambda at: bool(at.challenge) and at.hand is not None)
HELD = When("held", "the press became a long press", lambda at: at.held)
ENTERED = When("entered", "a card this seat has entered and not committed (pending, buried, laid back, "
               "shown)", lambda at: at.copy in at.shown or at.copy in at.challenge
               or game_entered(at.hand, at.seat, at.copy))
SHOWN_CARD = When("shown card", "a card this seat shows (to declare or to challenge)",
                  lambda at: at.copy in at.shown or at.copy in at.challenge)
GAME_ENTERED = When("game entered", "a card this seat has entered and not committed (pending, buried, "
                    "laid back)", lambda at: game_entered(at.hand, at.seat, at.copy))
SHOWS = When("shows", "open play (draws are not scanned), or a level card or joker already in the "
             "seat's hand", _shows_on_draw)
CHALLENGES = When("challenges", "open play, a throw open to challenge, a seat other than the leader "
                  "and, if on turn, holding its button down", _challenges)
TURN_CHALLENGES = When("turn challenges", "open play, a throw open to challenge, the seat on turn "
                       "with no card entered", _turn_may_challenge)
HAS_DEALER = When("dealer", "the hand has a dealer", lambda at: at.hand.dealer is not None)
SCANNED_DRAW = When("scanned draw", "scanned, the counter-declarer's cards not drawn yet",
                    _kitty_to_draw(SCANNED))
OPEN_DRAW = When("open draw", "open play, the counter-declarer's cards not drawn yet",
                 _kitty_to_draw(OPEN))
AWAITS_KITTY = When("awaits kitty", "open play, the hand not settled: the kitty is to be revealed",
                    lambda at: at.mode == OPEN and at.hand.result is None)
THREE = When("bidding preset", "the preset bids (three players)", lambda at: at.bidding)
DECIDER = When("decider", "the seat whose decision it is", lambda at: at.seat == decider(at.hand))
NOT_DECIDER = When("not decider", "a seat whose decision it is not", lambda at: at.seat != decider(at.hand))


@dataclass(frozen=True)
class Row:
    """One line of the table: in ``phase`` (None: every phase), ``gesture`` when ``when`` holds
    becomes ``step``; ``event`` is the game event kind the step sends or helps to enter."""
    phase: Phase | None
    gesture: Gesture
    when: When
    step: Step
    event: type[ev.Event] | None = None
    text: str = ""

    @property
    def kind(self) -> str | None:
        """The game event kind (``"draw"``, ``"bid"`` …), or None."""
        return None if self.event is None else self.event.type


G = Gesture
S = Step
P = Phase

# Rows every phase tries first, and last (the phase's own rows come between).
FIRST = (
    Row(None, G.SEAT_TAP, IDLE, S.REFUSE_IDLE, None, "refused: no hand is being played (`table.phase`)"),
    Row(None, G.PRESS, IDLE, S.REFUSE_IDLE, None, "refused: no hand is being played (`table.phase`)"),
    Row(None, G.SEAT_TAP, ENTERED, S.ENTERED, None,
        "nothing: the card is entered already (to take it back, hold the button with the card on the pad)"),
    Row(None, G.TAKE_BACK, SHOWN_CARD, S.UNSHOW, None, "the card is no longer shown"),
    Row(None, G.TAKE_BACK, GAME_ENTERED, S.TAKE_BACK, ev.TakeBack, "the card is taken back (R-10.4)"),
    Row(None, G.PRESS, PENDING, S.WAIT, None, "nothing yet: the release declares or challenges"),
    Row(None, G.RELEASE, CHALLENGING, S.CHALLENGE, ev.Challenge, "the throw is challenged with the cards shown"),
    Row(None, G.RELEASE, HELD, S.UNHOLD, None, "nothing: the end of a long press"),
    Row(None, G.RELEASE, SHOWN, S.DECLARE, ev.Declare,
        "the cards shown are declared (kitty phase, three players: a counter-declaration); refused: "
        "they stay shown"),
    Row(None, G.LONG_PRESS, PENDING, S.WITHDRAW, None, "this seat's shown / challenge cards are withdrawn"),
)
LAST = (
    Row(None, G.SEAT_TAP, ALWAYS, S.TAP, ev.Tap, "card entry (the game refuses it out of place)"),
    Row(None, G.CENTRE_TAP, ALWAYS, S.REFUSE_CENTRE, None,
        "refused: the centre reader takes the burial, a counter-declarer's draw and, in open play, "
        "the kitty after the last trick (`table.phase`)"),
    Row(None, G.PRESS, ALWAYS, S.CONFIRM, ev.Confirm, "confirm (the game refuses it out of place)"),
    Row(None, G.RELEASE, ALWAYS, S.NONE, None, "nothing"),
    Row(None, G.LONG_PRESS, ALWAYS, S.NONE, None, "nothing"),
    Row(None, G.TAKE_BACK, ALWAYS, S.AS_LONG_PRESS, None, "a long press (the card on the pad is not entered)"),
)


def _deciding(phase: Phase, tap: Step, tap_event: type, step: Step, long: Step, tap_text: str,
              step_text: str, long_text: str) -> tuple:
    """The rows of a decision entered at one seat (bid, trump, friend call)."""
    taps = (Row(phase, G.SEAT_TAP, ALWAYS, tap, tap_event, tap_text),) if tap is S.PASS else (
        Row(phase, G.SEAT_TAP, NOT_DECIDER, S.REFUSE_TURN, None, "refused: not this seat's decision"),
        Row(phase, G.SEAT_TAP, ALWAYS, tap, tap_event, tap_text))
    return taps + (
        Row(phase, G.PRESS, NOT_DECIDER, S.REFUSE_TURN, None, "refused: not this seat's decision"),
        Row(phase, G.PRESS, ALWAYS, S.WAIT, None, "nothing yet: it counts at the release or the long press"),
        Row(phase, G.RELEASE, DECIDER, step, tap_event, step_text),
        Row(phase, G.LONG_PRESS, NOT_DECIDER, S.NONE, None, "nothing (its press was refused)"),
        Row(phase, G.LONG_PRESS, ALWAYS, long, tap_event, long_text),
    )


ROWS = (
    Row(P.DRAWING, G.SEAT_TAP, SHOWS, S.SHOW, ev.Declare,
        "the card is shown (pending, one pixel each; a take-back withdraws it)"),
    Row(P.DRAWING, G.SEAT_TAP, ALWAYS, S.DRAW, ev.Draw, "a card drawn"),
    Row(P.DRAWING, G.PRESS, ALWAYS, S.CLOSE, ev.CloseDeclarations, "the draw is closed"),
    *_deciding(P.BIDDING, S.PASS, ev.Bid, S.NEXT_BID, S.BID,
               "a pass (any card: its face does not matter; another seat: refused by the game)",
               "the next bid: the game's step (5) down from the highest allowed, round to the highest "
               "after the lowest; the ring shows it (POINTS); none left: refused",
               "the bid shown is bid (none chosen: refused)"),
    *_deciding(P.TRUMP, S.CHOOSE_SUIT, ev.NameTrump, S.TRUMP_STEP, S.NAME_TRUMP,
               "the card's suit is the trump chosen (a joker: no trump); the ring shows its colour",
               "nothing (no suit chosen: refused)", "trump is named (no suit chosen: refused)"),
    Row(P.KITTY, G.SEAT_TAP, THREE, S.SHOW, ev.Declare, "the card is shown for a counter-declaration (反牌)"),
    Row(P.KITTY, G.PRESS, THREE, S.TAKE_KITTY, ev.TakeKitty, "the dealer takes the kitty (the 反牌 window closes)"),
    Row(P.EXCHANGE, G.CENTRE_TAP, SCANNED_DRAW, S.KITTY_DRAW, ev.CounterDraw,
        "a kitty card the counter-declarer drew (again: put back; not in the kitty: refused, `§9 反牌`); "
        "the last of the 6 draws them"),
    Row(P.EXCHANGE, G.SEAT_TAP, ALWAYS, S.TAP, ev.Tap, "the counter-declarer: a card laid back"),
    Row(P.EXCHANGE, G.PRESS, OPEN_DRAW, S.COUNTER_DRAW, ev.CounterDraw, "the counter-declarer's draw (not scanned)"),
    Row(P.EXCHANGE, G.PRESS, ALWAYS, S.CONFIRM, ev.Confirm, "the cards laid back are confirmed"),
    Row(P.BURYING, G.SEAT_TAP, ALWAYS, S.TAP, ev.Tap, "the game buries the card"),
    Row(P.BURYING, G.CENTRE_TAP, HAS_DEALER, S.BURY, ev.BuryCard, "the dealer buries the card"),
    Row(P.BURYING, G.PRESS, ALWAYS, S.CONFIRM, ev.Confirm, "the burial is confirmed"),
    Row(P.STEAL, G.SEAT_TAP, SHOWS, S.SHOW, ev.Declare,
        "the card is shown for 炒地皮, a counter that takes the kitty (pending; a take-back withdraws it)"),
    Row(P.STEAL, G.PRESS, ALWAYS, S.CLOSE, ev.CloseDeclarations, "nobody counters: the kitty stands (炒地皮 ends)"),
    *_deciding(P.FRIEND, S.CHOOSE_FACE, ev.CallFriend, S.NEXT_COPY, S.CALL,
               "the card's face is the card called (the copy is not played); the count starts at 0",
               "the next copy (1, 2, … up to the number of decks, then 1 again); the ring lights that "
               "many pixels (no face tapped: refused)",
               "the call (face, copy) is noted; with the preset's number of calls, they are called "
               "(none chosen, or the same twice: refused)"),
    Row(P.PLAYING, G.SEAT_TAP, CHALLENGES, S.SHOW_CHALLENGE, ev.Challenge, "a challenge card (pending)"),
    Row(P.PLAYING, G.SEAT_TAP, ALWAYS, S.TAP, ev.Tap,
        "card entry: a follower's play commits at the lead's count"),
    Row(P.PLAYING, G.PRESS, TURN_CHALLENGES, S.WAIT, None,
        "nothing yet: held long, the seat on turn challenges the throw instead of following"),
    Row(P.PLAYING, G.PRESS, ALWAYS, S.CONFIRM, ev.Confirm, "the lead is confirmed"),
    Row(P.PLAYING, G.LONG_PRESS, TURN_CHALLENGES, S.HOLD_CHALLENGE, ev.Challenge,
        "while the button is held the seat's taps are challenge cards; letting go challenges"),
    Row(P.OVER, G.CENTRE_TAP, AWAITS_KITTY, S.REVEAL, ev.RevealKitty, "a kitty card revealed (pending)"),
    Row(P.OVER, G.PRESS, AWAITS_KITTY, S.REVEAL_KITTY, ev.RevealKitty, "the kitty is revealed"),
)


def _table() -> dict:
    out: dict = {}
    for phase in Phase:
        for g in Gesture:
            out[(phase, g)] = tuple(r for r in FIRST + ROWS + LAST
                                    if r.gesture is g and r.phase in (None, phase))
    return out


TABLE: dict = _table()
"""``{(Phase, Gesture): (Row, …)}`` — every phase's rows, the common ones included, in order."""


def resolve(gesture: Gesture, at: At) -> Row:
    """The row a gesture takes now: the first of its phase's whose condition holds."""
    return next(r for r in TABLE[(phase_of(at.hand), gesture)] if r.when(at))


def performing(phase: Phase, event_type: str) -> tuple:
    """The rows that perform (send or help to enter) a game event of ``event_type`` in ``phase``,
    in gesture order: taps (which enter) before presses (which send)."""
    return tuple(r for g in Gesture for r in TABLE[(phase, g)] if r.kind == event_type)


# ---- the docs ------------------------------------------------------------------------------------
DOCS_BEGIN = "<!-- gestures: generated from host/shengji_table/table/gestures.py; do not edit -->"
DOCS_END = "<!-- gestures: end -->"


def markdown() -> str:
    """Every row as a Markdown table (docs/table.md), with its markers."""
    lines = [DOCS_BEGIN, "", "| phase | gesture | when | game event | becomes | step |",
             "|---|---|---|---|---|---|"]

    def line(phase: str, r: Row) -> None:
        when = "" if r.when is ALWAYS else r.when.text
        kind = f"`{r.kind}`" if r.kind else ""
        lines.append(f"| {phase} | {r.gesture} | {when} | {kind} | {r.text} | `{r.step}` |")

    for r in FIRST:
        line("every phase, first", r)
    for phase in Phase:
        for g in Gesture:
            for r in TABLE[(phase, g)]:
                if r.phase is phase:
                    line(str(phase), r)
    for r in LAST:
        line("every phase, otherwise", r)
    lines += ["", DECIDING_NOTE, "", DOCS_END]
    return "\n".join(lines)


DECIDING_NOTE = ("Deciding phases ({}): the seat whose decision it is is the bidder on turn in "
                 "bidding, the dealer otherwise.".format(", ".join(sorted(DECIDING))))


def rewrite_docs(text: str) -> str:
    """``text`` (docs/table.md) with the generated section replaced by :func:`markdown`."""
    head, _, rest = text.partition(DOCS_BEGIN)
    _, _, tail = rest.partition(DOCS_END)
    return head + markdown() + tail


if __name__ == "__main__":          # python -m shengji_table.table.gestures docs/table.md
    import pathlib
    for name in sys.argv[1:]:
        path = pathlib.Path(name)
        path.write_text(rewrite_docs(path.read_text(encoding="utf-8")), encoding="utf-8")
