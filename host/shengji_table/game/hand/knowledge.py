"""What the host knows about the hands: one strategy object per way of knowing them.

* :class:`ScannedHands` — every card drawn is registered to its seat, so a card a seat does not
  hold is refused, a follow is checked against the hand on the spot and a throw against the other
  hands (R-4.3), and the kitty is known.
* :class:`OpenHands` — the hands are not known: the engine checks what it sees, proves a revoke
  from later evidence (R-10.2), lets an opponent challenge a throw (R-4.3), and learns the kitty
  when it is turned over after the last trick.

The phase rules ask ``hand.knowledge`` instead of testing the mode.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...rules.cards import CardCopy, all_copies, format_cards
from ...rules.follow import check_follow, one_card_follow_is_legal
from ...rules.throw import check_throw
from ..effects import Announce
from ..phase import OPEN, SCANNED, Phase
from . import evidence, settle
from .counter import COUNTER_RULE
from .play import pick, throw_failed

if TYPE_CHECKING:
    from .core import Hand

__all__ = ["Knowledge", "ScannedHands", "OpenHands", "KNOWLEDGE", "MODES", "COUNTER_SWAP"]

MODES = (SCANNED, OPEN)
# Three players (seed 000 三人打法): 反牌者只能從底牌中隨機換6張 — the counter-declarer swaps 6.
COUNTER_SWAP = 6



class Knowledge:
    """The questions whose answer depends on whether the hands are known."""

    mode = ""
    scanned = False
    plays_are_evidence = False   # whether a play is evidence to check (``after_play``, ``overplayed``)

    def __init__(self):
        # the flags read at every play, copied onto the instance: an instance's own attribute is
        # read several times faster than its class's
        self.scanned, self.plays_are_evidence = type(self).scanned, type(self).plays_are_evidence

    def missing(self, hand: Hand, seat: int, copies) -> CardCopy | None:
        """The first of ``copies`` that ``seat`` is known not to hold (None: none is)."""
        return None

    def draw_must_finish(self, hand: Hand) -> bool:
        """Whether closing the draw waits for every card to be drawn (R-7.1)."""
        return hand.stack is not None

    def close_draw(self, hand: Hand) -> None:
        """The draw is closed: what is left is the kitty."""

    def swap_count(self, hand: Hand) -> int:
        """How many cards a counter-declarer swaps with the kitty (§9 反牌)."""
        return min(COUNTER_SWAP, hand.ruleset.kitty_size)

    def draw_from_kitty(self, hand: Hand, e):
        """``(drawn copies, count)`` of a counter-declarer's draw, or the refusal's effects."""
        raise NotImplementedError

    def lay_back(self, hand: Hand, copies) -> None:
        """Copies a counter-declarer laid back go to the kitty."""

    def burial_complete(self, hand: Hand) -> bool:
        """Whether the burial may be confirmed with the cards buried so far (R-7.2)."""
        return not hand.buried or len(hand.buried) == hand.ruleset.kitty_size

    def refuse_card(self, hand: Hand, e) -> list | None:
        """A card tapped in play that the seat is known not to hold: the refusal."""
        return None

    def overplayed(self, hand: Hand, seat: int) -> bool:
        """Whether one card more proves a wrong card count (R-10.3)."""
        return False

    def lead_throw(self, hand: Hand, seat: int, faces: list, cards: tuple) -> tuple[tuple, list]:
        """A throw led: ``(the cards that stand, effects)``."""
        raise NotImplementedError

    def refuse_follow(self, hand: Hand, seat: int, lead: tuple, faces: Sequence):
        """The verdict against a follow, when it can be judged now and is illegal (R-4.4–4.7)."""
        return None

    def after_play(self, hand: Hand, seat: int) -> list:
        """Effects of a committed play seen as evidence (open play: R-10.2)."""
        return []

    def all_played(self, hand: Hand) -> bool:
        return sum(len(p) for p in hand.seat_plays[0]) >= hand.counts[0]

    def end_of_play(self, hand: Hand) -> list:
        """The last trick is played."""
        raise NotImplementedError

    def final_kitty(self, hand: Hand) -> tuple:
        """The kitty as it counts at the settlement (R-7.3)."""
        raise NotImplementedError


class ScannedHands(Knowledge):
    mode = SCANNED
    scanned = True

    def missing(self, hand, seat, copies):
        return next((c for c in copies if c not in hand.hands[seat]), None)

    def draw_must_finish(self, hand):
        return True

    def close_draw(self, hand):
        hs = hand.ruleset.hand_size
        if hand.stack is not None:
            hand.kitty = list(hand.stack[hs * hand.players:])
        else:
            taken = set().union(*[set(h) for h in hand.hands])
            hand.kitty = sorted(c for c in all_copies(hand.ruleset.decks) if c not in taken)

    def swap_count(self, hand):
        return min(COUNTER_SWAP, len(hand.kitty))

    def draw_from_kitty(self, hand, e):
        if e.copies is not None:
            k = min(COUNTER_SWAP, len(hand.kitty))
            if len(e.copies) != k or len(set(e.copies)) != k or any(c not in hand.kitty for c in e.copies):
                return hand.refuse(e.seat, e, COUNTER_RULE,
                                   f"the counter-declarer draws {k} different cards of the kitty")
            return tuple(e.copies), k
        if e.seed is not None:
            k = min(COUNTER_SWAP, len(hand.kitty))
            return tuple(random.Random(e.seed).sample(hand.kitty, k)), k
        return hand.refuse(e.seat, e, COUNTER_RULE, "with scanned hands the draw names its cards (copies) or "
                                                    "carries the seed that picks them")

    def lay_back(self, hand, copies):
        hand.kitty.extend(copies)

    def burial_complete(self, hand):
        return len(hand.buried) == hand.ruleset.kitty_size

    def refuse_card(self, hand, e):
        c = e.copy
        if c in hand.hands[e.seat]:
            return None
        owner = next((s for s in range(hand.players) if c in hand.hands[s]), None)
        if owner is not None:
            return hand.refuse(e.seat, e, "table.wrong-seat",
                               f"{c} belongs to seat {owner}'s hand, not seat {e.seat}'s")
        return hand.refuse(e.seat, e, "table.not-in-hand", f"{c} is not in seat {e.seat}'s hand")

    def lead_throw(self, hand, seat, faces, cards):
        others = {s: hand.hand_faces(s) for s in range(hand.players) if s != seat}
        chk = check_throw(faces, others, hand.trump_order(), leader=seat)
        if chk.ok:
            return cards, []
        forced = pick(cards, chk.forced)
        return forced, throw_failed(hand, seat, chk, len(faces) - len(forced))

    def refuse_follow(self, hand, seat, lead, faces):
        held, order, rule = hand.hands[seat], hand.order, hand.lead_rule()
        if len(faces) == 1 and one_card_follow_is_legal(faces[0], rule, held.counts(), order):
            return None                  # the commonest follow; a verdict is only worked out to refuse
        v = check_follow(lead, faces, held.faces(), order, rule, held.counts())
        return None if v.ok else v

    def all_played(self, hand):
        return not any(hand.hands)

    def end_of_play(self, hand):
        return settle.settle(hand)

    def final_kitty(self, hand):
        return tuple(hand.buried)


class OpenHands(Knowledge):
    mode = OPEN
    plays_are_evidence = True

    def close_draw(self, hand):
        hand.counts = [hand.ruleset.hand_size] * hand.players

    def draw_from_kitty(self, hand, e):
        if e.seed is not None or e.copies is not None:
            return hand.refuse(e.seat, e, "table.mode", "in open play the kitty is not known: the draw is not scanned")
        return (), min(COUNTER_SWAP, hand.ruleset.kitty_size)

    def overplayed(self, hand, seat):
        return hand.played_count[seat] + len(hand.pending) >= hand.counts[seat]

    def lead_throw(self, hand, seat, faces, cards):
        hand.throw_window = True
        return cards, [Announce("throw", f"Seat {seat} throws {format_cards(faces)}: opponents may challenge.",
                                "R-4.3", msg="throw.lead", args={"seat": seat, "cards": format_cards(faces)})]

    def after_play(self, hand, seat):
        return evidence.check_revoke(hand, seat) if hand.phase == Phase.PLAYING else []

    def end_of_play(self, hand):
        return [Announce("kitty", "Last trick played: reveal the kitty.", "R-7.3", msg="kitty.reveal", args={})]

    def final_kitty(self, hand):
        assert hand.kitty_revealed is not None, "open play settles once the kitty is revealed"
        return hand.kitty_revealed


KNOWLEDGE: dict[str, Knowledge] = {SCANNED: ScannedHands(), OPEN: OpenHands()}
