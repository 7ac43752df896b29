"""Deal, draw and declare (R-6, R-7.1): cards reach the seats one at a time; declarations and
overcalls follow the ruleset's ladder, hidden until the draw closes with four decks (R-6.5).
Closing the draw fixes trump and, in the first hand, the dealer (R-6.4, R-6.6)."""
from __future__ import annotations

import random
from itertools import cycle, islice
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING

from ...rules.cards import BIG_JOKER, JOKER, SMALL_JOKER, SUITS, Card, all_copies, format_cards, level_text, suit_word
from ...rules.declare import (
    Declaration,
    check_declaration,
    check_steal,
    declaration_strength,
    default_trump,
    first_dealer,
    is_call,
    run_declarations,
)
from .. import events as ev
from ..effects import Announce, ring, seat_rings
from ..phase import Phase
from .counter import may_counter
from .kitty import holder, start_kitty
from .shown import refuse_shown

if TYPE_CHECKING:
    from .core import Hand

_DRAWING, _STEAL = Phase.DRAWING, Phase.STEAL    # read at every draw and offer: a Phase.X read is not free
NO_COPY = object()           # hand.next_copies where no draw of a known stack's copy is due
_DRAWN = tuple(seat_rings("accepted", n) for n in range(64))   # [cards held][seat]: a draw's ring

__all__ = ["deal", "shuffled", "draw", "draw_run", "declare", "close_declarations", "next_draw", "declaration_options",
           "may_counter"]


def deal(hand: Hand, e: ev.Deal) -> list:
    copies = tuple(all_copies(hand.ruleset.decks))
    if e.order is not None:
        if sorted(e.order) != sorted(copies):
            return hand.refuse(None, e, "R-1.1", f"the stack must hold each of the {len(copies)} cards exactly once")
        hand.stack = tuple(e.order)
    elif e.seed is not None:
        hand.stack = shuffled(copies, e.seed)
    hand.phase = Phase.DRAWING
    hand.turn = hand.first_seat
    size = hand.deal_size
    first = hand.first_seat                            # the seats from the first drawer on, round and round
    hand.draw_seats = tuple(islice(cycle((*range(first, hand.players), *range(first))), size))
    hand.next_copies = (hand.stack[:size] if hand.stack is not None else (NO_COPY,) * size) + (NO_COPY,)
    hand.counts = [0] * hand.players
    return [Announce("deal", f"Hand {hand.number}: dealing, {hand.ruleset.hand_size} cards each; "
                             f"level {level_text(hand.level)}.", msg="deal.hand",
                     args={"hand": hand.number, "count": hand.ruleset.hand_size, "level": level_text(hand.level)})]


def shuffled(copies, seed) -> tuple:
    """``random.Random(seed).shuffle`` of ``copies``, as a tuple: the generator called exactly as
    ``shuffle`` calls it (for ``n`` = len … 2, ``getrandbits(n.bit_length())`` until below ``n``:
    CPython's ``_randbelow``), without a Python frame per card (tested against ``shuffle``).  Written
    out, a seed's deal is also pinned to the generator's words: a record's ``Deal(seed=…)`` deals
    the same stack even on a Python whose ``shuffle`` changed (the test would then say so)."""
    stack = list(copies)
    getrandbits = random.Random(seed).getrandbits
    steps = _STEPS.get(len(stack))
    if steps is None:
        steps = _STEPS[len(stack)] = tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(stack) - 1, 0, -1))
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        stack[i], stack[j] = stack[j], stack[i]
    return tuple(stack)


_STEPS: dict = {}       # a stack's length -> shuffle's steps: (i, n = i + 1, n.bit_length()), i from the top


def next_draw(hand: Hand):
    """``(seat, copy)`` of the next draw when the stack is known; ``None`` when the draw is done."""
    if hand.drawn >= hand.deal_size or hand.phase != _DRAWING:
        return None
    seat = (hand.first_seat + hand.drawn) % hand.players
    return seat, (hand.stack[hand.drawn] if hand.stack is not None else None)


def draw(hand: Hand, e: ev.Draw) -> list:
    n = hand.drawn                       # next_draw, without the call: this is the phase's event
    c = e.copy
    if c is hand.next_copies[n]:
        # the commonest case in one test: the known stack's next copy (``next_copies`` ends in
        # NO_COPY, which no event carries, once every seat holds its hand, and is all NO_COPY
        # without a known stack), so it is new; its seat must still be the one on turn
        seat = e.seat
        if seat == hand.draw_seats[n]:
            hand.hands[seat].add_new(c)
            hand.drawn = n + 1               # hand.dealt reads the known stack's draws off it
            counts = hand.counts
            k = counts[seat] = counts[seat] + 1
            return [_DRAWN[k][seat] if k < 64 else ring(seat, "accepted", k)]
    return _draw(hand, e)


def draw_run(hand: Hand, events) -> int:
    """Draw ``events`` (draws) in turn while each is ``draw``'s first case — the known stack's
    next copy by the seat on turn, an ``int`` — without a frame or an effect each (a table's deal:
    ``Match.apply_draws``); the count drawn.  The first other event is left, with those after it,
    to ``draw``.  The hand must be drawing; its events are the caller's to keep."""
    n = start = hand.drawn
    nxt, seats = hand.next_copies, hand.draw_seats
    for e in events:
        seat = e.seat
        if e.copy is not nxt[n] or seat != seats[n] or type(seat) is not int:
            break
        n += 1
    # the run's copies by seat: every players-th from the seat's first draw in it
    players, hands, counts = hand.players, hand.hands, hand.counts
    for first in range(start, min(n, start + players)):
        copies = nxt[first:n:players]
        hands[seats[first]].add_drawn(copies)
        counts[seats[first]] += len(copies)
    hand.drawn = n
    return n - start


def _draw(hand: Hand, e: ev.Draw) -> list:
    """Every draw but a known stack's next copy by the seat on turn: the refusals, and an unknown
    stack's draws."""
    n = hand.drawn
    if n >= hand.deal_size:
        return hand.refuse(e.seat, e, "R-7.1", "every seat already holds its full hand; the rest is the kitty")
    seat, c = e.seat, e.copy
    if seat != (hand.first_seat + n) % hand.players:
        return hand.refuse(seat, e, "table.draw-order", f"it is seat {(hand.first_seat + n) % hand.players}'s turn "
                                                        f"to draw, not seat {seat}'s")
    stack = hand.stack
    if stack is None:
        if any(c in h for h in hand.hands):
            return hand.refuse(seat, e, "table.twice", f"{c} was already drawn")
        hand.hands[seat][c] = None
        hand.note_drawn(seat, c)
    else:
        expected = stack[n]
        if c is not expected and c != expected:
            return hand.refuse(seat, e, "table.draw-card", f"the next card on the stack is {expected}, not {c}")
        hand.hands[seat].add_new(c)     # a known stack holds each copy once and is drawn in order: it is new
    hand.drawn = n + 1
    counts = hand.counts
    k = counts[seat] = counts[seat] + 1
    return [_DRAWN[k][seat] if k < len(_DRAWN) else ring(seat, "accepted", k)]


def declare(hand: Hand, e: ev.Declare) -> list:
    if hand.ruleset.bidding:
        return hand.refuse(e.seat, e, "R-9 bidding", "with bidding the dealer names trump; nobody declares "
                                                     "(a counter-declaration comes after trump is named)")
    bad = refuse_shown(hand, e, "has not drawn")
    if bad:
        return bad
    faces = tuple(c.card for c in e.cards)
    decl = Declaration(e.seat, faces)
    if hand.ruleset.hidden_declarations:
        try:
            declaration_strength(hand.ruleset, hand.level, faces)
        except ValueError as exc:
            return hand.refuse(e.seat, e, "R-6.5", f"not a declaration: {exc}.")
        hand.declarations.append((decl, e.cards))
        return [Announce("declare", f"Seat {e.seat} makes a hidden declaration.", "R-6.5",
                         msg="declare.hidden", args={"seat": e.seat})]
    res = check_declaration(hand.ruleset, hand.level, hand.standing, decl)
    if not res.valid:
        return hand.refuse(e.seat, e, res.rule, res.reason)
    hand.declarations.append((decl, e.cards))
    hand.standing = res.standing
    return [Announce("declare", f"Seat {e.seat} shows {format_cards(faces)}: {res.reason}", res.rule,
                     msg=f"declare.{res.kind}",
                     args={"seat": e.seat, "cards": format_cards(faces), "reason": res.reason,
                           "trump": suit_word(res.standing.trump if res.standing else None)}),
            ring(e.seat, "declarer")]


def close_declarations(hand: Hand, e: ev.CloseDeclarations) -> list:
    hs = hand.ruleset.hand_size
    if hand.knowledge.draw_must_finish(hand) and hand.drawn < hs * hand.players:
        return hand.refuse(None, e, "R-7.1", f"the draw is not finished: {hs * hand.players - hand.drawn} cards to go")
    hand.knowledge.close_draw(hand)
    hand.dealt_kitty = tuple(hand.kitty)
    if hand.ruleset.bidding:
        return _start_bidding(hand)
    out = []
    if hand.ruleset.hidden_declarations and hand.declarations:
        _, standing = run_declarations(hand.ruleset, hand.level, [d for d, _ in hand.declarations])
        hand.standing = standing
        if standing is not None:
            out.append(Announce("declare", f"Hidden declarations revealed: seat {standing.seat} "
                                           f"with {format_cards(standing.cards)} stands.", "R-6.5",
                                msg="declare.revealed", args={"seat": standing.seat,
                                                              "cards": format_cards(standing.cards)}))
    if hand.standing is not None:
        hand.trump = hand.standing.trump
        if hand.dealer is None:
            hand.dealer = first_dealer(hand.standing)
            out.append(Announce("declare", f"Seat {hand.dealer}'s call stands: seat {hand.dealer} deals.", "R-6.6",
                                msg="declare.stands", args={"seat": hand.dealer}))
    else:
        hand.trump = default_trump(hand.ruleset, [c.card for c in hand.kitty], hand.level)
        if hand.dealer is None:
            hand.dealer = hand.first_seat
            out.append(Announce("declare", f"Nobody declared: seat {hand.dealer}, who drew first, deals.", "R-6.6",
                                msg="declare.nobody", args={"seat": hand.dealer}))
        out.append(Announce("trump", f"Nobody declared: {suit_word(hand.trump)} (R-6.4).", "R-6.4",
                            msg="trump.nobody", args={"trump": suit_word(hand.trump)}))
    hand.level = hand.levels[hand.dealer]
    return out + start_kitty(hand)


def _start_bidding(hand: Hand) -> list:
    """Three players (§9): the seats bid from the first drawer on; three kitty cards are shown."""
    hand.phase = Phase.BIDDING
    hand.bidders = [(hand.first_seat + i) % hand.players for i in range(hand.players)]
    hand.turn = hand.bidders[0]
    shown = hand.kitty[:3]
    hand.shown = tuple(shown)
    if not shown:
        return []
    return [Announce("bid", f"Kitty cards shown: {format_cards(c.card for c in shown)}. "
                            f"Seat {hand.turn} bids first.", "R-9 bidding",
                     msg="bid.shown", args={"cards": format_cards(c.card for c in shown), "seat": hand.turn})]


def _declaring_faces(level: int) -> tuple:
    """The faces that may declare at ``level``: its four level cards and the two jokers."""
    faces = _DECLARING.get(level)
    if faces is None:
        faces = _DECLARING[level] = tuple(Card(s, level) for s in SUITS) + (SMALL_JOKER, BIG_JOKER)
    return faces


_DECLARING: dict = {}


def _valid_now(hand: Hand, seat: int, cards: tuple) -> bool:
    """Whether ``seat`` may declare ``cards`` now: ``check_declaration``'s verdict, read from the
    cards' strength (remembered for the process: every hand offers the same few calls) and the
    standing call's strength, trump and seat (R-6.1 – R-6.3; the test compares it with
    ``check_declaration``)."""
    call, standing = _strength(hand.ruleset, hand.level, cards), hand.standing
    if call is None or standing is None:        # the first call stands if it is a call
        return call is not None
    trump, strength = call
    # stronger than the standing call, and one's own call only reinforced or, where the
    # ruleset allows 自反, overcalled
    return strength > standing.strength and (seat != standing.seat or trump == standing.trump
                                             or hand.ruleset.self_overcall)


def _strength(rs, level: int, cards: tuple):
    """``declaration_strength`` of ``cards``, ``(trump, strength)``, or None when they are no call
    (remembered for the process: every hand offers the same few calls)."""
    key = (id(rs), level, tuple(map(_INDEX, cards)))    # the entry keeps the ruleset alive: its id stays its own
    hit = _STRENGTHS.get(key)
    if hit is None or hit[0] is not rs:
        try:
            call = declaration_strength(rs, level, cards)
        except ValueError:                      # not a declaration at all
            call = None
        if len(_STRENGTHS) >= 10_000:
            _STRENGTHS.clear()
        hit = _STRENGTHS[key] = (rs, call)
    return hit[1]


_STRENGTHS: dict = {}       # (ruleset id, level, face indices) -> (ruleset, (trump, strength) or None)
_INDEX = attrgetter("index")


def _declaring_groups(hand: Hand, seat: int, held) -> list:
    """``[(face, copies held)]`` of the seat's level cards and jokers (``held``: its copies, when
    the engine does not know them); without two colours in face order."""
    if held is None and not hand.ruleset.two_colour:
        # the scanned hand's face counts, read for the few faces that declare, in face order (the
        # order matters for two colours' same-colour pairs, which take the path below)
        counts = hand.hands[seat].counts()
        return [(f, counts[f.index]) for f in _declaring_faces(hand.level) if counts[f.index]]
    groups: dict = {}
    for c in (hand.hands[seat] if held is None else held):
        f = c.card
        if f.rank == hand.level or f.suit == JOKER:
            groups.setdefault(f, 0)
            groups[f] += 1
    if hand.ruleset.two_colour:
        return list(groups.items())  # the order the hand holds them: the same-colour pairs read it
    return sorted(groups.items(), key=lambda kv: kv[0].index)


def declaration_options(hand: Hand, seat: int, held=None) -> tuple:
    """Every declaration (tuple of faces) seat ``seat`` could validly make now (for bots)."""
    ph, rs = hand.phase, hand.ruleset
    if ph is _DRAWING and not rs.bidding:
        if held is None and not rs.two_colour and not rs.hidden_declarations:
            return _offers(hand, seat)          # the commonest: a scanned draw's offer
    elif not may_counter(hand, seat) and ph != _STEAL:
        return ()
    return _options(hand, seat, held)


def _offers(hand: Hand, seat: int) -> tuple:
    """``_options`` while a scanned hand is drawn with calls shown and one colour: from the seat's
    counts of the six faces that declare, each face's calls of one, two … copies read from a table
    per ruleset and level with their strengths, those that beat the standing call (R-6.1 – R-6.3:
    ``_valid_now``'s verdicts; tested against ``_options``)."""
    rs, level = hand.ruleset, hand.level
    table = _LEVEL_CALLS.get((id(rs), level))
    if table is None or table[0] is not rs:      # the entry keeps the ruleset alive: its id stays its own
        table = _LEVEL_CALLS[(id(rs), level)] = _level_calls(rs, level)
    counts = table[1](hand.hands[seat].counts())
    calls = [call for face_calls, k in zip(table[2], counts) if k for call in face_calls[:k] if call is not None]
    if rs.mixed_joker_nt and counts[4] and counts[5]:     # both jokers declare no trump
        calls += table[3]
    standing = hand.standing
    if standing is None:                        # the first call stands if it is a call
        return tuple([cards for cards, _, _ in calls])
    beat = standing.strength
    if seat != standing.seat or rs.self_overcall:
        return tuple([cards for cards, _, strength in calls if strength > beat])
    trump = standing.trump                      # one's own call only reinforced
    return tuple([cards for cards, t, strength in calls if strength > beat and t == trump])


def _level_calls(rs, level: int) -> tuple:
    """``(ruleset, an item-getter of the counts of _declaring_faces, per face its calls of 1, 2 …
    copies as (cards, trump, strength) or None where they are no call, the two jokers' call)``."""
    faces = _declaring_faces(level)
    per_face = []
    for f in faces:
        calls = [_strength(rs, level, (f,) * n) for n in range(1, rs.decks + 1)]
        per_face.append(tuple(None if c is None else ((f,) * n, *c) for n, c in enumerate(calls, 1)))
    both = _strength(rs, level, faces[4:]) if rs.mixed_joker_nt else None
    return (rs, itemgetter(*(f.index for f in faces)), tuple(per_face),
            [(faces[4:], *both)] if both is not None else [])


_LEVEL_CALLS: dict = {}     # (ruleset id, level) -> _level_calls


def _options(hand: Hand, seat: int, held) -> tuple:
    """``declaration_options`` in every phase and mode, once the seat may declare at all."""
    rs = hand.ruleset
    out = _shown_sets(hand, rs, _declaring_groups(hand, seat, held))
    if hand.phase == _STEAL:        # 炒地皮: stronger than the standing call, not the holder's
        return tuple(cards for cards in out if check_steal(rs, hand.level, hand.standing,
                                                           holder(hand), Declaration(seat, cards)).valid)
    if not rs.hidden_declarations:
        return tuple(cards for cards in out if _valid_now(hand, seat, cards))
    mine = [d for d, _ in hand.declarations if d.seat == seat]
    shown = len(mine[-1].cards) if mine else 0      # hidden: a call, longer than the seat's last
    return tuple([cards for cards in out if is_call(rs, hand.level, cards) and len(cards) > shown])


def _shown_sets(hand: Hand, rs, groups) -> list:
    """Every set of cards the seat's declaring ``groups`` could show: one to all copies of a face,
    the two jokers (R-6.7), a same-colour pair of level cards (two colours)."""
    items = sorted(groups, key=lambda kv: kv[0].index) if rs.two_colour else groups
    out = [(f,) * n for f, k in items for n in range(1, k + 1)]
    if rs.mixed_joker_nt:  # a small and a big joker together declare no trump
        jokers = sorted((f for f, _ in groups if f.suit == JOKER), key=lambda f: f.index)
        if len(jokers) == 2:
            out.append(tuple(jokers))
    if rs.two_colour:  # a same-colour pair of level cards declares too
        for colour in (("H", "D"), ("S", "C")):
            same = [f for f, _ in groups if f.suit in colour and f.rank == hand.level]
            if len(same) >= 2:
                out.append(tuple(same[:2]))
    return out
