"""Taps and button events in: each gesture is looked up in the gesture table (``table/gestures.py``)
and dispatched to the method of its step.  The steps of the deciding phases are in ``entry.py``."""
from __future__ import annotations


from ...game import events as ev
from ...game.hand import COUNTER_RULE
from ...game.hand.kitty import holder as kitty_holder
from ...rules.cards import CardCopy
from .. import protocol as P
from ..card_code import CardCodeError, decode_card_code
from ..gestures import At, Gesture, Row, Step, resolve
from ..registry import ForeignDeck, RegistryError, UnknownTag
from .core import Outcome
from .entry import Entry
from .rings import PENDING_COLOUR, R

__all__ = ["Gestures", "STEPS"]

# Step -> the method that takes it; every method is called as (row, seat, copy, out).
STEPS = {
    Step.DRAW: "_draw", Step.TAP: "_tap", Step.PASS: "_pass", Step.BURY: "_bury",
    Step.CLOSE: "_close", Step.REVEAL_KITTY: "_reveal_kitty", Step.TAKE_KITTY: "_take_kitty",
    Step.COUNTER_DRAW: "_counter_draw", Step.CONFIRM: "_confirm", Step.DECLARE: "_declare",
    Step.CHALLENGE: "_challenge", Step.BID: "_bid", Step.NAME_TRUMP: "_name_trump",
    Step.SHOW: "_show_card", Step.SHOW_CHALLENGE: "_show_challenge", Step.KITTY_DRAW: "_kitty_draw",
    Step.REVEAL: "_reveal", Step.CHOOSE_SUIT: "_choose_suit", Step.TRUMP_STEP: "_trump_step",
    Step.CHOOSE_FACE: "_choose_face", Step.NEXT_BID: "_next_bid", Step.NEXT_COPY: "_next_copy",
    Step.CALL: "_call", Step.WITHDRAW: "_withdraw", Step.REFUSE_IDLE: "_refuse_idle",
    Step.REFUSE_CENTRE: "_refuse_centre", Step.REFUSE_TURN: "_refuse_turn", Step.WAIT: "_nothing",
    Step.UNHOLD: "_unhold", Step.NONE: "_nothing", Step.HOLD_CHALLENGE: "_nothing",
    Step.TAKE_BACK: "_take_back", Step.UNSHOW: "_unshow", Step.AS_LONG_PRESS: "_as_long_press",
    Step.ENTERED: "_nothing",
}

_BUTTON = {P.RELEASE: Gesture.RELEASE, P.LONG_PRESS: Gesture.LONG_PRESS}     # anything else: PRESS


class Gestures(Entry):
    """The physical events: a tag on a reader, a seat's button."""

    def gesture_row(self, gesture: Gesture, seat: int | None, copy: CardCopy | None = None) -> Row:
        """The row of the gesture table that ``gesture`` at ``seat`` (None: the centre) takes now."""
        return resolve(gesture, At(self.match.hand, seat, copy, self.mode, self.ruleset.bidding,
                                   tuple(self.shown.get(seat, ())), tuple(self.challenge.get(seat, ())),
                                   seat in self.held))

    def _dispatch(self, gesture: Gesture, seat: int | None, copy: CardCopy | None, out: Outcome) -> None:
        row = self.gesture_row(gesture, seat, copy)
        getattr(self, STEPS[row.step])(row, seat, copy, out)

    # ---- the physical events -------------------------------------------------------------------
    def on_tap(self, reader: int, uid: bytes, code: bytes | None) -> Outcome:
        """A tag arrived on ``reader``."""
        return self._card_gesture(reader, uid, code, None)

    def on_take_back(self, reader: int, uid: bytes, code: bytes | None) -> Outcome:
        """The take-back gesture: seat ``reader``'s button held long with this card on its reader.
        What follows is that press's RELEASE, which is no step."""
        where = self.readers.get(reader)
        if isinstance(where, int) and where < self.seats:
            self.held.add(where)
            self.took_back.add(where)
        return self._card_gesture(reader, uid, code, Gesture.TAKE_BACK)

    def on_stack(self, reader: int, cards: int) -> Outcome:
        """Two cards on ``reader`` (``cards`` 2; its ring shows it, drawn by the firmware): the
        players are asked to clear the pad; ``cards`` 0 or 1: it is cleared."""
        out = Outcome()
        where = self.readers.get(reader)
        if where is None:
            return out
        name = "the centre reader" if where == "centre" else f"seat {where}'s reader"
        if cards >= 2:
            text = self._text(out, f"Two cards on {name}: clear the pad and lay one card at a time.")
        else:
            text = f"{name[0].upper()}{name[1:]} is clear again."
        out.rows.append(("effect", {"type": "stack", "reader": reader, "cards": cards, "text": text}))
        return out

    def _card_gesture(self, reader: int, uid: bytes, code: bytes | None, gesture: Gesture | None) -> Outcome:
        out = Outcome()
        where = self.readers.get(reader)
        seat = where if isinstance(where, int) else None
        if where is None:
            self._refuse(out, None, "tap", "table.reader", f"reader {reader} is not on this board", ring=reader)
            return out
        if seat is not None and seat >= self.seats:
            self._refuse(out, None, "tap", "table.reader", f"seat {seat} is empty: preset "
                         f"{self.ruleset.preset!r} has {self.seats} players", ring=reader)
            return out
        decoded = None
        if code:
            try:
                decoded = decode_card_code(code)
            except CardCodeError:
                decoded = None        # a blank or foreign tag: the registry decides
        try:
            copy = self.deck_set.identify(uid, decoded)
        except ForeignDeck as exc:
            self._refuse(out, seat, "tap", "table.foreign-deck", str(exc), ring=reader)
            return out
        except (UnknownTag, RegistryError) as exc:
            self._refuse(out, seat, "tap", "table.unknown-tag", str(exc), ring=reader)
            return out
        if gesture is None:
            gesture = Gesture.SEAT_TAP if seat is not None else Gesture.CENTRE_TAP
        elif seat is None:
            return out                  # the centre has no button: no take-back there
        self._dispatch(gesture, seat, copy, out)
        self._auto(out)
        return out

    def on_button(self, seat: int, kind: int) -> Outcome:
        """Seat ``seat``'s button: ``kind`` is protocol.PRESS, LONG_PRESS or RELEASE.  A release or a
        long press takes its own automatic steps (when it sent a game event); a press always."""
        out = Outcome()
        if not 0 <= seat < self.seats:
            if kind != P.PRESS:
                return out              # one refusal a push: at its PRESS
            why = (f"seat {seat} is empty: preset {self.ruleset.preset!r} has {self.seats} players"
                   if 0 <= seat < self.board_seats else f"button {seat} is not on this board")
            self._refuse(out, None, "confirm", "table.reader", why)
            return out
        gesture = _BUTTON.get(kind, Gesture.PRESS)
        if gesture is Gesture.RELEASE and seat in self.took_back:
            # the release of a take-back: its press was never sent, it is no step
            self.took_back.discard(seat)
            self.held.discard(seat)
            self.pressed_in.pop(seat, None)
            return out
        self.took_back.discard(seat)
        hand = self.match.hand
        now_in = None if hand is None else (hand.number, str(hand.phase))
        if gesture is Gesture.LONG_PRESS:
            self.held.add(seat)         # its release is not a step
        elif gesture is Gesture.PRESS:
            self.held.discard(seat)
            self.pressed_in[seat] = now_in
        elif self.pressed_in.pop(seat, now_in) != now_in:
            # the release of a press that ended its phase (the burial's confirm, the draw's close)
            # belongs to that press: it is no step of the next phase's decision
            self.held.discard(seat)
            return out
        self._dispatch(gesture, seat, None, out)
        if gesture is Gesture.PRESS:
            self._auto(out)
        return out

    # ---- steps that change nothing for the game ------------------------------------------------
    def _nothing(self, row: Row, seat: int | None, copy: CardCopy | None, out: Outcome) -> None:
        pass

    def _unhold(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        self.held.discard(seat)

    def _as_long_press(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        """A take-back of a card that is not entered: the long press it also is (a bid, a trump
        named, a hold to challenge …)."""
        self.took_back.discard(seat)       # its release is what a long press's release is
        self._dispatch(Gesture.LONG_PRESS, seat, None, out)

    def _take_back(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        assert copy is not None
        self._game(ev.TakeBack(seat, copy), out)

    def _unshow(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        assert copy is not None
        table = self.shown if copy in self.shown.get(seat, ()) else self.challenge
        what = "shown" if table is self.shown else "challenge"
        cards = table.get(seat, [])
        if copy in cards:
            cards.remove(copy)
        self._ring(out, seat, R.PENDING, PENDING_COLOUR, len(cards), 0)
        out.rows.append(("effect", {"type": "pending", "what": what, "seat": seat, "cards": [str(c) for c in cards]}))

    def _refuse_idle(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        event = "tap" if row.gesture is Gesture.SEAT_TAP else "confirm"
        self._refuse(out, seat, event, "table.phase", "no hand is being played")

    def _refuse_centre(self, row: Row, seat: None, copy: CardCopy | None, out: Outcome) -> None:
        self._refuse(out, None, "tap", "table.phase",
                     "the centre reader takes the burial, a counter-declarer's draw from the kitty and, "
                     "in open play, the kitty after the last trick",
                     ring=self.centre)

    # ---- cards shown: declarations, counter-declarations, challenges ---------------------------
    def _add_shown(self, table: dict, seat: int, copy: CardCopy, out: Outcome, what: str) -> None:
        cards = table.setdefault(seat, [])
        if copy not in cards:           # shown again: the gesture table took it for ENTERED
            cards.append(copy)
        self._ring(out, seat, R.PENDING, PENDING_COLOUR, len(cards), 0)
        out.rows.append(("effect", {"type": "pending", "what": what, "seat": seat, "cards": [str(c) for c in cards]}))

    def _show_card(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        assert copy is not None
        self._add_shown(self.shown, seat, copy, out, "shown")

    def _show_challenge(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        assert copy is not None
        self._add_shown(self.challenge, seat, copy, out, "challenge")

    def _declare(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        cards = tuple(self.shown.pop(seat))
        if not self._game(ev.Declare(seat, cards), out):
            self.shown[seat] = list(cards)       # refused: the cards stay shown
        self._auto(out)

    def _challenge(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        cards = tuple(self.challenge.pop(seat))
        self.held.discard(seat)          # the release that challenges ends the hold
        if not self._game(ev.Challenge(seat, cards), out):
            self.challenge[seat] = list(cards)
        self._auto(out)

    def _withdraw(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        self.shown.pop(seat, None)
        self.challenge.pop(seat, None)
        self._ring(out, seat, R.OFF)
        out.rows.append(("effect", {"type": "pending", "what": "withdrawn", "seat": seat, "cards": []}))

    # ---- game events sent at once --------------------------------------------------------------
    def _draw(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        assert copy is not None
        self._game(ev.Draw(seat, copy), out)

    def _tap(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        assert copy is not None
        self._game(ev.Tap(seat, copy), out)

    def _close(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        self._game(ev.CloseDeclarations(), out, seat=seat)

    def _take_kitty(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        self._game(ev.TakeKitty(seat), out)          # the dealer's button: no (more) 反牌

    def _counter_draw(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        self._game(ev.CounterDraw(seat), out)        # open play: the draw is not scanned

    def _confirm(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        self._game(ev.Confirm(seat), out)

    # ---- the centre reader: the burial, a counter-declarer's draw, the kitty revealed ----------
    def _bury(self, row: Row, seat: None, copy: CardCopy | None, out: Outcome) -> None:
        assert copy is not None
        self._game(ev.BuryCard(kitty_holder(self._hand()), copy), out)   # 炒地皮: the seat that took it

    def _kitty_draw(self, row: Row, seat: None, copy: CardCopy | None, out: Outcome) -> None:
        """Three players, scanned: the counter-declarer's cards drawn from the kitty, each tapped on
        the centre reader; the last one makes the ``counter_draw``."""
        assert copy is not None
        hand = self._hand()
        x = hand.exchange
        k = min(len(hand.kitty), 6)
        if copy in self.kitty_drawn:
            self.kitty_drawn.remove(copy)
        elif copy not in hand.kitty:
            self._refuse(out, None, "counter_draw", COUNTER_RULE, f"{copy} is not in the kitty", ring=self.centre)
            return
        else:
            self.kitty_drawn.append(copy)
        self._ring(out, self.centre, R.PENDING, PENDING_COLOUR, len(self.kitty_drawn), k)
        out.rows.append(("effect", {"type": "pending", "what": "kitty_drawn", "seat": x.seat,
                                    "cards": [str(c) for c in self.kitty_drawn]}))
        if len(self.kitty_drawn) == k:
            if self._game(ev.CounterDraw(x.seat, copies=tuple(self.kitty_drawn)), out):
                self.kitty_drawn = []
            else:
                self.kitty_drawn.pop()

    def _reveal(self, row: Row, seat: None, copy: CardCopy | None, out: Outcome) -> None:
        assert copy is not None
        if copy in self.revealed:
            self.revealed.remove(copy)
        else:
            self.revealed.append(copy)
        self._ring(out, self.centre, R.PENDING, PENDING_COLOUR, len(self.revealed), self.ruleset.kitty_size)

    def _reveal_kitty(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        if self._game(ev.RevealKitty(tuple(self.revealed)), out, seat=seat):
            self.revealed = []
