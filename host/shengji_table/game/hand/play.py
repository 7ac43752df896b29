"""Tricks (R-4, R-5), card by card per seat: a follower's play commits when it reaches the lead's
count, a leader's on ``Confirm``; a pending card tapped again is taken back.  A failed throw is
played as its forced unit with the throw penalty (R-4.3, R-10.1)."""
from __future__ import annotations

from operator import attrgetter, getitem, itemgetter
from typing import TYPE_CHECKING

from ...rules.cards import ALL_FACES, format_cards
from ...rules.penalties import throw_penalty
from ...rules.throw import is_throw
from ...rules.follow import single_follow_is_legal
from ...rules.trick import Play, single_winner, winning_index
from .. import events as ev
from ..effects import Announce, ring, seat_rings
from ..phase import Phase
from ..view import TrickView
from .settle import end_by_ruling
from .trick import SeatPlay, TrickTaken

if TYPE_CHECKING:
    from .core import Hand

__all__ = ["start_play", "tap", "take_back", "confirm", "throw_failed", "pick"]

_FACE = attrgetter("card")                                  # a copy's face, read in C
_CARDS, _FIRST, _INDEX = attrgetter("cards"), itemgetter(0), attrgetter("index")
_GLYPH = {f.index: f.unicode() for f in ALL_FACES}          # the trick announcements' ♠10, 大王
_POINTS = tuple(f.points for f in ALL_FACES)                # by face index
_TURN, _WON = seat_rings("turn"), seat_rings("won")              # by seat: read at every play
_PENDING_ONE, _ACCEPTED_ONE = seat_rings("pending", 1), seat_rings("accepted", 1)


def start_play(hand: Hand) -> list:
    hand.phase = Phase.PLAYING
    hand.leader = hand.turn = hand.dealer
    trick = hand.trick = []
    hand._trick_src = (trick, 0, ())
    hand.counted_suit = None
    hand.pending = []
    return [ring(hand.dealer_seat(), "turn")]


def tap(hand: Hand, e: ev.Tap) -> list:
    c, seat, pending = e.copy, e.seat, hand.pending
    if not pending and seat == hand.turn and _SHORT_CUTS and hand.knowledge.scanned:
        held = hand.hands[seat]
        if c in held:
            # The commonest taps, by one test: a copy the seat on turn holds, nothing entered yet (so
            # nothing to take back, nothing to refuse) — a lead's first card, or a follow's.
            hand.entry_start = len(hand.log)       # not .events: that copies the list
            suit = hand.counted_suit
            if suit is not None:
                # a one-card follow to a one-card lead, laid at once when counting says it is legal
                # otherwise _commit_follow gives the verdict
                if single_follow_is_legal(c.card, suit, held.face_counts or held.counts(),
                                          hand.order):
                    return _lay_one(hand, seat, c, held)
                pending.append(c)
                return _commit_follow(hand, e)
            pending.append(c)
            trick = hand.trick
            if trick and len(trick[0].cards) == 1:     # a one-card lead whose follow counting cannot decide
                return _commit_follow(hand, e)
            return [_PENDING_ONE[seat]]                # a lead waits for the button, a longer follow for more
    if pending and c in pending and seat == hand.turn:
        return _take_back(hand, seat, c)
    return _tap_checked(hand, e, c, seat, pending)


def _tap_checked(hand: Hand, e: ev.Tap, c, seat: int, pending: list) -> list:
    """A tap the short cut does not take: the checks in order, then the card entered."""
    # A copy the engine knows the seat holds is neither played nor buried (both leave the hand), so
    # the usual case skips those checks; anything else goes through them in order.
    knowledge = hand.knowledge
    if not (knowledge.scanned and c in hand.hands[seat]):
        refused = _refuse_unheld(hand, e)
        if refused:
            return refused
    if seat != hand.turn:
        return hand.refuse(seat, e, "table.out-of-turn", f"it is seat {hand.turn}'s turn, not seat {seat}'s")
    if knowledge.plays_are_evidence and knowledge.overplayed(hand, seat):
        # open play: one card more than the seat can hold proves a wrong count
        return end_by_ruling(hand, seat, "R-10.3", f"seat {seat} plays a card after its "
                                                   f"{hand.counts[seat]} cards: a wrong card count")
    if not pending:
        hand.entry_start = len(hand.log)
    pending.append(c)
    trick = hand.trick
    if trick and len(pending) == len(trick[0].cards):
        return _commit_follow(hand, e)
    return [ring(seat, "pending", len(pending))]


# The one-card play's short cuts (scanned hands): a one-card follow (about 60 of a classic hand's 92
# plays) and a one-card lead, laid by _lay_one instead of _commit_follow / _commit_lead → _commit →
# _after_commit; a one-card trick's end read from tables.  False: every play takes the general path
# (the tests compare the two).
_SHORT_CUTS = True


def _lay_one(hand: Hand, seat: int, c, held) -> list:
    """:func:`_commit` and :func:`_after_commit` of one held copy, scanned hands: no throw is open
    (so the throw window is shut and no friend check waits for one) and a play is no evidence; the
    pending list is empty (the caller empties it)."""
    hand.play_starts.append(hand.entry_start)
    trick = hand.trick
    laid = _LAID[seat].get(c)                   # shared: immutable, and a copy is laid once a hand
    if laid is None:
        laid = _LAID[seat][c] = (SeatPlay(seat, (c,)), _single(seat, c.card))
    trick.append(laid[0])
    laid_now = len(trick)
    # the trick's faces are current: with scanned hands only this file changes the trick
    hand._trick_src = (trick, laid_now, hand._trick_src[2] + (laid[1],))
    if laid_now == 1:
        _led_one(hand)
    hand.played.add(c)
    held.pop(c)
    hand.played_count[seat] += 1
    if hand.friend_search is not None:
        out = [_ACCEPTED_ONE[seat], *hand.friend_search.observe(seat, (c,))]
        if laid_now < hand.players:
            turn = hand.turn = (seat + 1) % hand.players
            out.append(_TURN[turn])
            return out
        return out + _finish_trick(hand)
    if laid_now < hand.players:
        turn = hand.turn = (seat + 1) % hand.players
        return [_ACCEPTED_ONE[seat], _TURN[turn]]
    return [_ACCEPTED_ONE[seat], *_finish_trick(hand)]


def _refuse_unheld(hand: Hand, e: ev.Tap) -> list | None:
    """The refusal of a tapped copy already played, buried or (known to be) not held; else None."""
    c = e.copy
    if c in hand.played:
        if any(c in cards for _, cards in hand.trick):
            return hand.refuse(e.seat, e, "table.twice", f"{c} is already on the table in this trick")
        return hand.refuse(e.seat, e, "table.already-played", f"{c} was played in an earlier trick")
    if c in hand.buried:
        return hand.refuse(e.seat, e, "table.kitty", f"{c} is in the kitty")
    return hand.knowledge.refuse_card(hand, e)


def take_back(hand: Hand, e: ev.TakeBack) -> list:
    if e.seat != hand.turn or e.copy not in hand.pending:
        return hand.refuse(e.seat, e, "table.take-back", f"{e.copy} is not a pending card of seat {e.seat}; "
                                                         f"a committed play cannot be taken back (R-10.4)")
    return _take_back(hand, e.seat, e.copy)


def _take_back(hand: Hand, seat: int, c) -> list:
    hand.pending.remove(c)
    return [ring(seat, "pending", len(hand.pending))]


def confirm(hand: Hand, e: ev.Confirm) -> list:
    pending, seat = hand.pending, e.seat
    if len(pending) == 1 and seat == hand.turn and not hand.trick and _SHORT_CUTS and hand.knowledge.scanned:
        # the commonest confirm, first: a one-card lead (one card is one unit) by the seat on turn
        hand.pending = []
        return _lay_one(hand, seat, pending[0], hand.hands[seat])
    if seat != hand.turn:
        return hand.refuse(seat, e, "table.out-of-turn", f"it is seat {hand.turn}'s turn, not seat {seat}'s")
    if hand.trick:
        return hand.refuse(seat, e, "R-4.4", f"a follower's play commits by itself at {hand.lead_count()} cards")
    if not pending:
        return hand.refuse(seat, e, "R-4.1", "tap the cards to lead first")
    return _commit_lead(hand, e)


def _commit_lead(hand: Hand, e: ev.Confirm) -> list:
    order = hand.trump_order()
    faces = list(map(_FACE, hand.pending))
    if len(faces) > 1 and len({order.face_suit[f.index] for f in faces}) != 1:
        return hand.refuse(e.seat, e, "R-4.1", "a lead is one unit or a throw of one effective suit")
    out: list = []
    cards = tuple(hand.pending)
    throwing = len(faces) > 1 and is_throw(faces, order)      # one card is one unit
    hand.throw_window = False
    if throwing and hand.ruleset.throws == "none":
        return hand.refuse(e.seat, e, "R-4.1", "throws are not allowed with this ruleset: lead one unit")
    if throwing:
        cards, out = hand.knowledge.lead_throw(hand, e.seat, faces, cards)
    _commit(hand, e.seat, cards, None if throwing else tuple(faces))
    out += _after_commit(hand, e.seat, cards)
    if hand.knowledge.plays_are_evidence:
        out += hand.knowledge.after_play(hand, e.seat)       # a lead is evidence too
    return out


def throw_failed(hand: Hand, seat: int, chk, withdrawn: int) -> list:
    out = [Announce("throw", f"Seat {seat}'s throw fails: {chk.reason} Played: {format_cards(chk.forced)}.", chk.rule,
                    msg="throw.fails", args={"seat": seat, "reason": chk.reason, "cards": format_cards(chk.forced)})]
    if withdrawn and hand.ruleset.throw_penalty != "none":
        pen = throw_penalty(hand.ruleset, withdrawn, by_declarers=seat in hand.declarers())
        # stored unsigned: the sign follows the side of the seat at the end (find-a-friend teams)
        hand.penalties.append((seat, abs(pen.points), pen.reason))
        out.append(Announce("throw", f"Penalty against seat {seat}'s side: {pen.reason}", pen.rule,
                            msg="throw.penalty", args={"seat": seat, "reason": pen.reason, "points": abs(pen.points)}))
    return out


def _commit_follow(hand: Hand, e: ev.Tap) -> list:
    seat, knowledge = e.seat, hand.knowledge
    faces = tuple(map(_FACE, hand.pending))
    plays = hand.trick_plays()
    v = knowledge.refuse_follow(hand, seat, plays[0].cards, faces)
    if v is not None:
        hand.pending.pop()
        return hand.refuse(seat, e, v.rule, v.reason)
    cards = tuple(hand.pending)
    hand.throw_window = False
    _commit(hand, seat, cards, faces, plays)
    out = _after_commit(hand, seat, cards)
    if knowledge.plays_are_evidence:
        out += knowledge.after_play(hand, seat)
    return out


def _commit(hand: Hand, seat: int, cards: tuple, faces: tuple | None = None, plays: tuple | None = None) -> None:
    """Lay ``cards`` (whose faces are ``faces``) as ``seat``'s play: into the trick, out of the hand.
    ``plays``: the trick's face plays so far, when the caller has them."""
    hand.play_starts.append(hand.entry_start)
    trick = hand.trick
    if plays is None:
        src = hand._trick_src                  # trick_plays() when it is current: the usual case inline
        plays = src[2] if src[0] is trick and src[1] == len(trick) else hand.trick_plays()
    trick.append(SeatPlay(seat, cards))
    held = hand.hands[seat]
    if len(cards) == 1:
        c = cards[0]
        play = _single(seat, c.card)
        faces = play.cards
        hand.played.add(c)
        if held:                               # open play knows no hands
            held.pop(c, None)
    else:
        if faces is None:
            faces = tuple(map(_FACE, cards))
        play = Play(seat, faces)
        add = hand.played.add
        for c in cards:
            add(c)
            if held:
                held.pop(c, None)
    hand._trick_src = (trick, len(trick), plays + (play,))
    if len(trick) == 1 and len(cards) == 1:
        _led_one(hand)
    hand.pending = []
    hand.played_count[seat] += len(cards)
    if hand.knowledge.plays_are_evidence:      # open play: the evidence a revoke is proven from
        mine = hand.seat_plays[seat]
        mine.append(faces)
        if plays:
            hand.follows[seat].append((len(hand.tricks), plays[0].cards, faces, len(mine) - 1))


def _single(seat: int, face) -> Play:
    """``Play(seat, (face,))``, one shared instance each (a play is immutable; most are one card)."""
    key = seat * 64 + face.index
    play = _SINGLES.get(key)
    if play is None:
        play = _SINGLES[key] = Play(seat, (face,))
    return play


_SINGLES: dict = {}
_LAID: tuple = tuple({} for _ in range(6))      # by seat: copy -> (its SeatPlay, its Play)


def _led_one(hand: Hand) -> None:
    """A one-card lead is laid: its follow rule, and the suit its one-card follows are counted
    against (``Hand.counted_suit``)."""
    hand.lead_rule()
    hand.counted_suit = hand.lead_analysis[2]


def _after_commit(hand: Hand, seat: int, cards: tuple) -> list:
    out: list = [_ACCEPTED_ONE[seat] if len(cards) == 1 else ring(seat, "accepted", len(cards))]
    if hand.deferred_friend is not None:           # the challenge window has closed
        out += friend_check(hand, *hand.deferred_friend)
        hand.deferred_friend = None
    if hand.throw_window:
        hand.deferred_friend = (seat, cards)       # the throw may still shrink
    elif hand.friend_search is not None:
        out += hand.friend_search.observe(seat, cards)
    if len(hand.trick) < hand.players:
        turn = hand.turn = (seat + 1) % hand.players
        out.append(_TURN[turn])
        return out
    out += _finish_trick(hand)
    return out


def friend_check(hand: Hand, seat: int, cards: tuple) -> list:
    return hand.friend_search.observe(seat, cards) if hand.friend_search is not None else []


def _shown(seat: int, faces: tuple) -> str:
    """``seat 2 ♠10 ♠10``: one play as the trick's announcement shows it."""
    return f"seat {seat} " + " ".join([_GLYPH[c.index] for c in faces])


# A one-card play's text by seat and face index, and by leader the rows of a trick's seats in
# playing order: a one-card trick's plays are read from them in C (map over the face indices).
_SEAT_TEXT = tuple(tuple(_shown(seat, (f,)) for f in ALL_FACES) for seat in range(6))
_ROWS = tuple(tuple(tuple(_SEAT_TEXT[(leader + i) % n] for i in range(n)) for leader in range(n))
              for n in range(7))


def _finish_trick(hand: Hand) -> list:
    plays = hand._trick_src[2]                  # the faces the views hold (_commit has just set them)
    order = hand.order
    assert order is not None                    # trump is fixed before the play
    if _SHORT_CUTS and len(plays[0].cards) == 1:
        # a one-card trick (most of them): every play is one card, the seats follow the leader; its
        # points and announcement from tables
        idx = list(map(_INDEX, map(_FIRST, map(_CARDS, plays))))   # each play's face index, in C
        winner = plays[single_winner(plays, order)].seat     # winning_index of a one-card lead
        pts = sum(itemgetter(*idx)(_POINTS))    # three or more plays: a tuple
        shown = " · ".join(map(getitem, _ROWS[hand.players][plays[0].seat], idx))
    else:
        winner, pts, shown = _tally(plays, order)
    hand.tricks.append(TrickTaken(tuple(hand.trick), winner, pts))
    hand.trick_views += (TrickView(plays, winner, pts),)     # Hand.add_trick_view, without the call
    hand.won[winner] += pts
    trick = hand.trick = []
    hand._trick_src = (trick, 0, ())            # the next trick's plays: none yet (the views read them)
    hand.counted_suit = None
    hand.leader = hand.turn = winner
    said = Announce("trick", f"Trick {len(hand.tricks)} to seat {winner}" + (f", {pts} points" if pts else "")
                    + f": {shown}.", "R-5", msg="trick.points" if pts else "trick.won",
                    args={"trick": len(hand.tricks), "seat": winner, "points": pts, "plays": shown})
    out = [_WON[winner], said]
    if not any(hand.hands) and hand.knowledge.all_played(hand):     # a card still held: not the end
        hand.phase = Phase.OVER
        return out + hand.knowledge.end_of_play(hand)
    out.append(_TURN[winner])
    return out


def _tally(plays: tuple, order) -> tuple:
    """``(winner, points, the announcement's plays)`` of any trick (R-5)."""
    winner = plays[winning_index(plays, order)].seat
    pts = 0
    for p in plays:
        for c in p.cards:
            pts += _POINTS[c.index]
    return winner, pts, " · ".join([_shown(p.seat, p.cards) for p in plays])


def pick(copies, faces) -> tuple:
    """The copies among ``copies`` that make up ``faces`` (a forced unit of a failed throw)."""
    pool = list(copies)
    out = []
    for f in faces:
        for c in pool:
            if c.card is f:
                out.append(c)
                pool.remove(c)
                break
    return tuple(out)
