"""Decisions entered at the seat: bids, trump, friend calls — the steps of the gesture table's
deciding phases (``table/gestures.py``).

A decision is entered by taps and presses at the seat whose decision it is (:func:`decider`):
the bidder on turn, else the dealer.  What it has entered so far (``entry``) is the controller's
own state, saved with the rest (``state_json``), so a restarted host continues it.
"""
from __future__ import annotations


from ...game import events as ev
from ...game.effects import Line
from ...game.friend import RULE as FRIEND_RULE, nth_text
from ...game.phase import DECIDING, Phase
from ...rules.cards import JOKER, CardCopy, parse_card, suit_word
from ..gestures import Gesture, Row, decider
from .core import Core, Outcome
from .rings import PENDING_COLOUR, SUIT_COLOURS, TURN_COLOUR, R

__all__ = ["Entry"]

_TRUMP_FIRST = "tap a card of the trump suit (a joker for no trump), then hold the button"


class Entry(Core):
    """The steps of a decision (one method each, named in ``dispatch.py``'s step table)."""

    def _entry(self, hand) -> dict:
        """The decision being entered now; a fresh one when the hand, the phase, the seat on turn
        or the number of bids has moved on (so nothing stale carries over)."""
        key = [hand.number, hand.phase, hand.turn, len(hand.bids)]
        if self.entry.get("key") != key:
            self.entry = {"key": key}
            if hand.phase == Phase.FRIEND:
                self.entry.update(face=None, nth=0, calls=[])
        return self.entry

    def entry_state(self) -> dict:
        """The decision being entered now (for the screen and the virtual table's players):
        ``bid`` (bidding), ``suit`` (trump: a suit letter, ``"NT"``), ``face``/``nth``/``calls``
        (friend); empty when nothing is being entered."""
        hand = self.match.hand
        if hand is None or hand.phase not in DECIDING:
            return {}
        e = self._entry(hand)
        return {k: v for k, v in e.items() if k != "key"}

    def _say(self, out: Outcome, text: str, what: str, seat: int, e: dict) -> None:
        self._text(out, text)
        out.rows.append(("effect", {"type": "entry", "what": what, "seat": seat,
                                    **{k: v for k, v in e.items() if k != "key"}}))

    # ---- a seat whose decision it is not -------------------------------------------------------
    def _refuse_turn(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        hand = self._hand()
        who = decider(hand)
        event = "tap" if row.gesture is Gesture.SEAT_TAP else "confirm"
        if hand.phase == Phase.BIDDING:
            self._refuse(out, seat, event, "table.out-of-turn", f"it is seat {who}'s turn to bid")
        elif hand.phase == Phase.TRUMP:
            self._refuse(out, seat, event, "R-9 bidding", f"the dealer (seat {who}) names trump")
        else:
            self._refuse(out, seat, event, FRIEND_RULE, f"the dealer (seat {who}) calls the friend")

    # ---- bidding (three players) ---------------------------------------------------------------
    def _pass(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        # a tap passes (any card: its face does not matter); the game refuses it out of turn
        if self._game(ev.Bid(seat, None), out):
            self.entry = {}

    def _next_bid(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        """A short press of the bidder, counted at its release: the next bid down."""
        hand = self._hand()
        e = self._entry(hand)
        steps = sorted(hand.bid_options(), reverse=True)      # the game's bids, highest first
        if not steps:
            self._refuse(out, seat, "bid", "R-9 bidding", "no lower bid is left: tap a card to pass")
            return
        cur = e.get("bid")
        e["bid"] = steps[0] if cur not in steps or cur == steps[-1] else steps[steps.index(cur) + 1]
        self._show_bid(out, seat, e["bid"])
        self._say(out, Line(f"Seat {seat}: bid {e['bid']}? Hold the button to bid it, tap a card to pass.",
                            "prompt.bid", {"seat": seat, "points": e["bid"]}, "bid"), "bid", seat, e)

    def _bid(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        e = self._entry(self._hand())
        if e.get("bid") is None:
            self._refuse(out, seat, "bid", "R-9 bidding",
                         "press the button to choose a bid, then hold it; tap a card to pass")
        elif self._game(ev.Bid(seat, e["bid"]), out):
            self.entry = {}
        self._auto(out)

    # ---- trump (three players: the bidding winner) ---------------------------------------------
    def _choose_suit(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        assert copy is not None
        e = self._entry(self._hand())
        suit = None if copy.card.suit == JOKER else copy.card.suit
        e["suit"] = "NT" if suit is None else suit
        self._ring(out, seat, R.TRUMP, SUIT_COLOURS.get(suit, SUIT_COLOURS[None]))
        name = suit_word(suit)
        self._say(out, Line(f"Seat {seat}: trump {name}? Hold the button to name it.", "prompt.trump",
                            {"seat": seat, "trump": name}, "trump"), "trump", seat, e)

    def _trump_step(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        e = self._entry(self._hand())
        if "suit" not in e:
            self._refuse(out, seat, "name_trump", "R-9 bidding", _TRUMP_FIRST)
        # with a suit chosen a short press changes nothing: hold it to name the trump

    def _name_trump(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        e = self._entry(self._hand())
        if "suit" not in e:
            self._refuse(out, seat, "name_trump", "R-9 bidding", _TRUMP_FIRST)
        elif self._game(ev.NameTrump(seat, None if e["suit"] == "NT" else e["suit"]), out):
            self.entry = {}
        self._auto(out)

    # ---- find a friend: the dealer's calls -----------------------------------------------------
    def _choose_face(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        # the face of the card tapped is the card called; the copy stays in the hand
        assert copy is not None
        e = self._entry(self._hand())
        e["face"] = str(copy.card)
        e["nth"] = 0
        self._ring(out, seat, R.PENDING, PENDING_COLOUR, 0, self.ruleset.decks)
        self._say(out, Line(f"Seat {seat} calls {copy.card.unicode()}: press once for the first copy, twice "
                            f"for the second …; hold the button to confirm.", "prompt.friend-face",
                            {"seat": seat, "card": copy.card.unicode()}, "friend"), "friend", seat, e)

    def _next_copy(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        e = self._entry(self._hand())
        if e.get("face") is None:
            self._refuse(out, seat, "call_friend", FRIEND_RULE,
                         "tap a card of the face you call first, then press once per copy")
            return
        e["nth"] = e["nth"] % self.ruleset.decks + 1          # the count goes round
        self._ring(out, seat, R.PENDING, PENDING_COLOUR, e["nth"], self.ruleset.decks)
        card = parse_card(e["face"]).unicode()
        self._say(out, Line(f"Seat {seat} calls the {nth_text(e['nth'])} {card}? Hold the button to confirm.",
                            "prompt.friend-copy", {"seat": seat, "nth": nth_text(e["nth"]), "card": card}, "friend"),
                  "friend", seat, e)

    def _call(self, row: Row, seat: int, copy: CardCopy | None, out: Outcome) -> None:
        self._note_call(seat, self._entry(self._hand()), out)
        self._auto(out)

    def _note_call(self, seat: int, e: dict, out: Outcome) -> None:
        """The call (face, copy) entered is noted; the last of the preset's calls makes them."""
        if e.get("face") is None or not e.get("nth"):
            self._refuse(out, seat, "call_friend", FRIEND_RULE,
                         "tap a card of the face you call, press once per copy (twice: the second), "
                         "then hold the button")
            return
        call = [e["face"], e["nth"]]
        if call in e["calls"]:
            self._refuse(out, seat, "call_friend", FRIEND_RULE, "the same card and copy is called twice")
            return
        e["calls"].append(call)
        e["face"], e["nth"] = None, 0
        if len(e["calls"]) < self.ruleset.friend_calls:
            self._ring(out, seat, R.TURN, TURN_COLOUR)
            self._say(out, Line(f"Seat {seat}: call {len(e['calls'])} of {self.ruleset.friend_calls} "
                                f"noted; tap the card of the next call.", "prompt.friend-noted",
                                {"seat": seat, "count": len(e["calls"]), "of": self.ruleset.friend_calls}, "friend"),
                      "friend", seat, e)
            return
        calls = tuple((parse_card(f), n) for f, n in e["calls"])
        if self._game(ev.CallFriend(seat, calls), out):
            self.entry = {}
        else:
            e["calls"].pop()
            e["face"], e["nth"] = call
