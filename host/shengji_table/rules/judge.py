"""The judge: one JSON situation in, one JSON ruling out — the referee's tool and a stable contract.

Pure (no I/O): :func:`judge` takes the decoded JSON object and returns the ruling as a dict, or
raises :class:`SituationError` when the situation itself is malformed (a structure that is not the
documented one, an unknown card, a card more often than the decks hold, a seat that does not exist,
an unknown preset or option).  A play that breaks a rule is not malformed: that is a ruling.

Queries, chosen by ``"query"`` (default ``"trick"``):

* ``trick``   — ``preset, options, level, trump, hands?, trick`` → the ruling on every play and,
  at the top level, on the last (``rules.trick_ruling.rule_trick``: legal, rule, reason, units,
  throw, plays, winner, points).
* ``declare`` — ``preset, options, level, declarations, kitty?, hand?, dealer?, first_seat?`` → one
  result per declaration (in time order) and the call standing at the end (R-6); nobody declared →
  the R-6.4 default; with ``hand`` who deals (R-6.6 first hand, R-8.5 later); with ``steals`` the
  炒地皮 counters after the burial (R-7.4, :mod:`.judge_steal`).
* ``settle``  — ``preset, options, dealer, attackers_points, kitty, last_trick, level?, trump?,
  penalty?, bid?, declarers?, split?`` → kitty multiplier and bonus (R-7.3), the attackers' total,
  levels, take-over and next dealer (R-8).
* ``match``, ``deal``, ``bidding``, ``friend`` — :mod:`.judge_match`: level changes and the next
  dealer; hand and kitty sizes; three players' bids and 反牌; find a friend in play.

The full contract, with examples, is in ``docs/judge.md``.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from .cards import CardError, faces_of, level_text, trump_text
from .declare import Declaration, default_trump, run_declarations
from .kitty import rule_kitty
from .order import TrumpOrder
from .follow import face_counts, missing_in_counts
from .judge_match import KEYS as _MORE_KEYS, QUERIES as _MORE_QUERIES
from .judge_steal import judge_steals
from .judge_lead import LEAD_KEYS, LEVEL_KEYS, check_lead, judge_lead, judge_level, level_card
from .judge_transfer import settle_levels
from .judge_read import (MAX_CARDS, SituationError, check_copies, read_cards, read_int, read_level, read_object,
                         read_ruleset, read_seat, read_seat_cards, read_trump)
from .trick import Play
from .trick_ruling import rule_counted_trick
from .ruleset import Ruleset, RulesetError
from .penalties import throw_penalty
from .settle import dig_drop, next_dealer, settle, share_levels
from .units import decompose

__all__ = ["judge", "SituationError", "QUERIES"]

QUERIES = ("trick", "declare", "settle", "lead", "level") + tuple(_MORE_QUERIES)

_COMMON = ("query", "preset", "options")
_KEYS = {
    "trick": _COMMON + ("level", "trump", "hands", "trick", "dealer", "first_trick", "previous", "levels"),
    "declare": _COMMON + ("level", "declarations", "kitty", "hand", "dealer", "first_seat", "steals", "levels"),
    "settle": _COMMON + ("dealer", "attackers_points", "kitty", "last_trick", "level", "trump",
                         "penalty", "bid", "declarers", "split", "levels", "drop_to"),
    "lead": _COMMON + ("dealer", "previous", "level", "trump", "hands", "levels"),
    "level": _COMMON + LEVEL_KEYS,
    **{q: _COMMON + keys for q, keys in _MORE_KEYS.items()},
}


# The usual keys of each query; a trick's lead and level keys (LEAD_KEYS) are left out, so the one
# C test of _check_keys also tells whether the situation asks about the lead.
_KEY_SETS = {q: frozenset(k for k in keys if q != "trick" or k not in LEAD_KEYS) for q, keys in _KEYS.items()}


def _check_keys(sit: Mapping, query: str) -> bool:
    """Refuse an unknown key; True when the situation has a key beyond the usual ones."""
    if _KEY_SETS[query].issuperset(sit):
        return False                 # the usual case, checked in C
    unknown = [k for k in sit if k not in _KEYS[query]]
    if unknown:
        raise SituationError(f"unknown key {unknown[0]!r} in a {query} situation; valid keys: "
                             f"{', '.join(_KEYS[query])}")
    return True


# ---- the queries --------------------------------------------------------------------------------

def judge(situation: Any) -> dict:
    """Rule on one situation (a decoded JSON object).  Raises :class:`SituationError` if malformed."""
    sit = read_object(situation, "a situation")
    query = sit.get("query", "trick")
    if query not in QUERIES:
        raise SituationError(f"unknown query {query!r}; valid queries: {', '.join(QUERIES)}")
    more = _check_keys(sit, query)
    ruleset = read_ruleset(sit)
    if query == "trick":                      # the usual query first: a referee's batch is tricks
        return _judge_trick(sit, ruleset, more)
    if query == "declare":
        return _judge_declare(sit, ruleset)
    if query == "settle":
        return _judge_settle(sit, ruleset)
    if query == "lead":
        return judge_lead(sit, ruleset, lambda s: _rule_previous(s, ruleset, level_card(s, ruleset), hands=True))
    if query == "level":
        return judge_level(sit, ruleset)
    return _MORE_QUERIES[query](sit, ruleset)


def _judge_trick(sit: Mapping, ruleset: Ruleset, asks_lead: bool = False) -> dict:
    """``asks_lead``: the situation has a lead or level key (LEAD_KEYS), found by ``_check_keys``."""
    level = level_card(sit, ruleset) if asks_lead else read_level(sit)
    trump = read_trump(sit, ruleset)
    if "trick" not in sit:
        raise SituationError("'trick' is missing: the plays so far, lead first, e.g. "
                             "[{\"seat\": 0, \"cards\": [\"HA\"]}]")
    raw_trick = sit["trick"]
    if not isinstance(raw_trick, list) or not raw_trick:
        raise SituationError("'trick' is a non-empty list of plays {\"seat\": …, \"cards\": […]}, lead first")
    if len(raw_trick) > ruleset.players:
        raise SituationError(f"a trick has at most {ruleset.players} plays, not {len(raw_trick)}")
    plays = _read_plays(raw_trick, ruleset)
    hands = _read_hands(sit, ruleset)
    # Each seat's physical cards: its hand before the trick, which should contain its play; a card
    # played but missing from the hand is a ruling ('hand'), yet it still exists on the table.
    counts = {}
    for seat, cards in hands.items():
        counts[seat] = face_counts(cards)
    missing = {}
    per_seat = []
    for p in plays:
        held = counts.get(p.seat)
        if held is None:
            per_seat.append(p.cards)
        else:
            per_seat.append(missing_in_counts(p.cards, held))
            missing[p.seat] = per_seat[-1]
    if not _copies_fit(ruleset, counts, per_seat):
        check_copies(ruleset, list(hands.values()) + per_seat, "the hands and the trick")
    try:
        order = TrumpOrder.of(ruleset, level, trump)
        ruling = rule_counted_trick(ruleset, order, plays, hands, counts, missing)
    except (RulesetError, CardError) as exc:
        raise SituationError(str(exc)) from None
    if asks_lead:
        lead = check_lead(sit, ruleset, plays[0].seat, lambda: _rule_previous(sit, ruleset, level, plays)["winner"])
        if lead is not None:
            ruling["lead"] = lead
    throw = ruling.get("throw")
    if len(plays) == 1 and throw and throw.get("ok") is False and ruleset.throw_penalty != "none":
        # the trick situation does not say which side led, so the penalty is given
        # as its size; it goes to the other side (penalties.throw_penalty signs it).
        withdrawn = len(plays[0].cards) - len(throw.get("forced", ()))
        pen = throw_penalty(ruleset, withdrawn, by_declarers=True)
        ruling["penalty"] = {"points": pen.points, "withdrawn": withdrawn, "rule": pen.rule,
                             "reason": f"{pen.points} points go to the other side of the leader "
                                       f"({ruleset.throw_penalty} penalty)."}
    return ruling


def _rule_previous(sit: Mapping, ruleset: Ruleset, level: int, plays=(), *, hands: bool = False) -> dict:
    """The ruling on the ``previous`` trick (a whole trick, lead first), as the trick query gives it,
    at ``level`` with the situation's trump (and with ``hands``, the lead query's, the hands before
    it); its cards and those of this trick's ``plays`` are distinct cards."""
    raw = sit["previous"]
    if not isinstance(raw, list) or len(raw) != ruleset.players:
        raise SituationError(f"'previous' is the whole previous trick, lead first: {ruleset.players} plays "
                             "{\"seat\": …, \"cards\": […]}")
    sub = {k: sit[k] for k in ("preset", "options", "trump") + (("hands",) if hands else ()) if k in sit}
    sub.update(level=level_text(level), trick=raw)
    try:
        ruling = _judge_trick(sub, ruleset)
        check_copies(ruleset, [read_cards(p["cards"], "previous") for p in raw] + [p.cards for p in plays],
                      "the previous trick and this one")
    except SituationError as exc:
        raise SituationError(f"previous: {exc}") from None
    return ruling


def _read_plays(raw_trick: list, ruleset: Ruleset) -> list:
    """The trick's plays, lead first, each checked (the usual spellings by table look-ups; the
    readers of judge_read give the messages)."""
    players = ruleset.players
    plays: list = []
    prev = -1
    for i, p in enumerate(raw_trick):
        if type(p) is not dict or len(p) != 2 or "seat" not in p or "cards" not in p:
            p = read_seat_cards(p, f"trick[{i}]")
        seat = p["seat"]
        if type(seat) is not int or not 0 <= seat < players:
            seat = read_seat(seat, f"trick[{i}].seat", ruleset)
        # Seats play in turn, at most one play each (the trick is no longer than the table), so a
        # seat can only play twice where the turn is broken.
        if prev >= 0 and seat != (prev + 1) % players:
            if any(q.seat == seat for q in plays):
                raise SituationError(f"trick[{i}]: seat {seat} plays twice in one trick")
            raise SituationError(f"trick[{i}]: seat {seat} plays out of turn — seats are numbered in playing "
                                 f"order, so seat {(prev + 1) % players} plays after seat {prev}")
        prev = seat
        raw = p["cards"]
        cards = faces_of(raw) if type(raw) is list and len(raw) <= MAX_CARDS else None
        if cards is None:
            cards = read_cards(raw, f"trick[{i}].cards")
        if not cards:
            raise SituationError(f"trick[{i}]: a play has at least one card")
        plays.append(Play(seat, cards))
    return plays


def _read_hands(sit: Mapping, ruleset: Ruleset) -> dict:
    """``{seat: cards}`` of the hands given, each a tuple of faces (none: an empty dict)."""
    hands: dict = {}
    if sit.get("hands") is None:
        return hands
    players = ruleset.players
    for key, value in read_object(sit["hands"], "'hands'").items():
        seat = _SEAT_KEYS.get(key) if type(key) is str else None
        if seat is None or seat >= players:
            seat = read_seat(key, f"hands key {key!r}", ruleset)
        if seat in hands:
            raise SituationError(f"hands: seat {seat} is given twice")
        cards = faces_of(value) if type(value) is list and len(value) <= MAX_CARDS else None
        hands[seat] = cards if cards is not None else read_cards(value, f"hands[{key!r}]")
    return hands


# The usual keys of 'hands' (seat numbers as JSON object keys): a table look-up.
_SEAT_KEYS = {str(n): n for n in range(16)}


_ALLOWED_COUNTS = {d: bytes(range(d + 1)) for d in range(1, 5)}


def _any_over(counts: list, decks: int) -> bool:
    """Whether a face count exceeds ``decks``: the counts as bytes, the allowed values deleted,
    leave something (in C, without a Python comparison per face as ``max`` makes)."""
    try:
        return bool(bytes(counts).translate(None, _ALLOWED_COUNTS[decks]))
    except ValueError:               # a count of 256 or more is not a byte: over in any case
        return True


def _copies_fit(ruleset: Ruleset, counts: dict, extra: list) -> bool:
    """Whether the hands (their face counts) and the cards in ``extra`` hold no face more often
    than the decks do (R-1.1); when not, ``check_copies`` names the face."""
    decks = ruleset.decks
    lists = list(counts.values())
    held = lists[0] if len(lists) == 1 else list(map(sum, zip(*lists))) if lists else None
    if held is not None and _any_over(held, decks):
        return False
    extra_counts: dict = {}          # only the few faces on the table can push a count over
    for cards in extra:
        for c in cards:
            i = c.index
            k = extra_counts[i] = extra_counts.get(i, 0) + 1
            if k + (held[i] if held is not None else 0) > decks:
                return False
    return True


def _judge_declare(sit: Mapping, ruleset: Ruleset) -> dict:
    level = level_card(sit, ruleset)
    raw = sit.get("declarations")
    if not isinstance(raw, list):
        raise SituationError("'declarations' is a list of {\"seat\": n, \"cards\": [...]}, in time order")
    decls = []
    for i, d in enumerate(raw):
        where = f"declarations[{i}]"
        d = read_seat_cards(d, where)
        seat = read_seat(d["seat"], f"{where}.seat", ruleset)
        cards = read_cards(d["cards"], f"{where}.cards")
        check_copies(ruleset, [cards], where)
        decls.append(Declaration(seat, cards))
    kitty = read_cards(sit["kitty"], "'kitty'") if "kitty" in sit else None
    if kitty is not None:
        check_copies(ruleset, [kitty], "the kitty")
    results, standing = run_declarations(ruleset, level, decls)
    out = {
        "results": [{"valid": r.valid, "rule": r.rule, "kind": r.kind, "reason": r.reason} for r in results],
        "standing": None if standing is None else {
            "seat": standing.seat, "trump": trump_text(standing.trump),
            "cards": [str(c) for c in standing.cards]},
    }
    if ruleset.hidden_declarations:
        out["hidden"] = {"rule": "R-6.5",
                         "reason": "calls stay hidden until the deal ends; then the standing call is shown."}
    if "hand" in sit or "dealer" in sit or "first_seat" in sit:
        out["deal"] = _declare_dealer(sit, ruleset, standing)
    if "steals" in sit:                     # 炒地皮 after the burial
        out["steals"] = judge_steals(sit, ruleset, level, standing)
    if standing is None:
        if ruleset.no_declaration == "kitty-card" and kitty is None:
            out["no_declaration"] = {"trump": None, "rule": "R-6.4",
                                     "reason": "nobody declared; give the kitty to turn its 4th card."}
        else:
            t = default_trump(ruleset, kitty or (), level)
            how = {"nt": "the hand is played without trump", "spades": "spades are trump",
                   "kitty-card": "the card turned from the kitty names trump"}[ruleset.no_declaration]
            out["no_declaration"] = {"trump": trump_text(t), "rule": "R-6.4", "reason": f"nobody declared: {how}."}
    return out


def _declare_dealer(sit: Mapping, ruleset: Ruleset, standing) -> dict:
    """Who deals this hand: in the first hand the seat whose call stands (R-6.6; nobody declared:
    the seat that drew first), later the dealer the match gives (R-8.5) — a call only sets trump."""
    number = read_int(sit, "hand", required=False) or 1
    if number < 1:
        raise SituationError(f"'hand' is the hand's number in the match, from 1, not {number}")
    first = read_seat(sit["first_seat"], "'first_seat'", ruleset) if "first_seat" in sit else 0
    if number > 1:
        if "dealer" not in sit:
            raise SituationError("after the first hand the match names the dealer (R-8.5): give 'dealer'")
        dealer = read_seat(sit["dealer"], "'dealer'", ruleset)
        out = {"hand": number, "first_hand": False, "dealer": dealer, "rule": "R-8.5",
               "reason": f"hand {number}: the match names the dealer, seat {dealer}; the call only sets trump."}
    elif "dealer" in sit:
        raise SituationError("the first hand's dealer comes from the calls (R-6.6): 'dealer' is for later hands")
    elif standing is None:
        out = {"hand": 1, "first_hand": True, "dealer": first, "rule": "R-6.6",
               "reason": f"first hand, nobody declared: seat {first}, who drew first, deals."}
    else:
        out = {"hand": 1, "first_hand": True, "dealer": standing.seat, "rule": "R-6.6",
               "reason": f"first hand: seat {standing.seat}, whose call stands, deals (翻主方)."}
    if ruleset.hidden_declarations:
        out["overturn"] = {"rule": "R-6.5", "reason": "第一盤反底反樁: one more card overturns a call; the table "
                                                      "reads it for every hand, not the first only."}
    return out


def _check_captured(ruleset: Ruleset, points: int, kitty) -> None:
    """``attackers_points`` are the card points the attackers captured in tricks (R-1.4, R-5.4):
    every point card is worth 5 or 10, so the total is a multiple of 5, between 0 and the decks'
    100 points each less the points lying in the kitty (those cards were never played).  The kitty
    bonus (R-7.3) and penalties (R-10.1, which may take the total below 0) have their own fields."""
    most = 100 * ruleset.decks - sum(c.points for c in kitty)
    if points % 5:
        raise SituationError(f"'attackers_points' is {points}: point cards are worth 5 or 10 (R-1.4), so the "
                             "points captured in tricks are a multiple of 5; give penalties in 'penalty'")
    if not 0 <= points <= most:
        raise SituationError(f"'attackers_points' is {points}: the attackers capture between 0 and {most} points "
                             f"in tricks ({100 * ruleset.decks} card points with {ruleset.decks} decks, less the "
                             f"kitty's {100 * ruleset.decks - most}); the kitty bonus comes from 'kitty' and "
                             "'last_trick', penalties (R-10.1, may be negative) go in 'penalty'")


def _judge_settle(sit: Mapping, ruleset: Ruleset) -> dict:
    dealer = read_seat(sit.get("dealer"), "'dealer'", ruleset) if "dealer" in sit else None
    if dealer is None:
        raise SituationError("'dealer' is missing: the dealer's seat")
    points = read_int(sit, "attackers_points")
    penalty = read_int(sit, "penalty", required=False) or 0
    bid = _settle_bid(sit, ruleset)
    level = level_card(sit, ruleset, required=False, default=ruleset.start_level)
    trump = read_trump(sit, ruleset, required=False)
    notes = []
    if ("level" not in sit and "levels" not in sit) or "trump" not in sit:
        notes.append(f"level {level_text(level)} and trump {trump_text(trump)} were used to find the units of "
                     "the last trick; give 'level' and 'trump' if they were otherwise")
    kitty = read_cards(sit.get("kitty", []), "'kitty'")
    last = _settle_last_trick(sit, ruleset)
    check_copies(ruleset, [kitty, last[1] if last else ()], "the kitty and the last trick")
    _check_captured(ruleset, points, kitty)

    declarers = _settle_declarers(sit, ruleset, dealer)
    attackers = [s for s in range(ruleset.players) if s not in declarers]

    bonus, mult = 0, 0
    order = TrumpOrder.of(ruleset, level, trump)
    if len(kitty) != ruleset.kitty_size:
        notes.append(f"R-10.3: the kitty has {len(kitty)} cards but must have {ruleset.kitty_size}")
    if last is None:
        kitty_reason = "no last trick given: no kitty bonus counted."
    elif last[0] in declarers:
        kitty_reason = f"seat {last[0]} (declarers) won the last trick: the kitty is not dug."
    else:
        if len({order.suit_of(c) for c in last[1]}) > 1:
            raise SituationError("last_trick.cards: a play that wins a trick is all of one suit (or all "
                                 "trumps); check 'level' and 'trump'")
        k = rule_kitty(ruleset, kitty, last[1], order)
        mult, bonus = k.multiplier, k.bonus
        kitty_reason = k.reason
    total = points + bonus + penalty
    s = settle(ruleset, total, bid=bid)
    out = {
        "kitty_multiplier": mult, "kitty_points": sum(c.points for c in kitty), "kitty_bonus": bonus,
        "attackers_total": total, "declarers_levels": s.declarers_levels,
        "attackers_levels": s.attackers_levels, "takeover": s.takeover,
        "next_dealer": next_dealer(ruleset, dealer, s.takeover),
        "rule": s.rule, "reason": s.reason,
        "kitty_reason": kitty_reason, "declarers": declarers, "attackers": attackers,
    }
    if ruleset.teams == "find-friend":
        out.update(_friend_shares(sit, ruleset, s, declarers, attackers, last, level, total, order))
    if "levels" in sit or "drop_to" in sit:      # each seat's level afterwards (R-8.4, 陪降)
        out.update(settle_levels(sit, ruleset, s, declarers, attackers, last, level, total, order))
    if notes:
        out["notes"] = notes
    return out


def _settle_bid(sit: Mapping, ruleset: Ruleset):
    bid = read_int(sit, "bid", required=False)
    if ruleset.bidding and bid is None:
        raise SituationError("a bidding hand (three players) is settled against the winning bid: give 'bid'")
    if not ruleset.bidding and bid is not None:
        raise SituationError(f"preset {ruleset.preset!r} has no bidding: 'bid' does not apply")
    if bid is not None and bid <= 0:
        raise SituationError(f"'bid' is a positive number of points, not {bid}")
    return bid


def _settle_last_trick(sit: Mapping, ruleset: Ruleset):
    """``(seat, cards)`` of the last trick's winning play, or None when not given."""
    if sit.get("last_trick") is None:
        return None
    lt = read_seat_cards(sit["last_trick"], "'last_trick'",
                     wrong="'last_trick' is {\"seat\": n, \"cards\": [...]}: the winning play of "
                           "the last trick and its seat")
    last = (read_seat(lt["seat"], "last_trick.seat", ruleset), read_cards(lt["cards"], "last_trick.cards"))
    if not last[1]:
        raise SituationError("last_trick.cards: the winning play has at least one card")
    return last


def _settle_declarers(sit: Mapping, ruleset: Ruleset, dealer: int) -> list:
    """Who declares: fixed sides alternate seats; find a friend names them; bidding: the dealer alone."""
    if ruleset.teams == "fixed":
        if "declarers" in sit:
            raise SituationError("'declarers' is only for find-a-friend; fixed sides follow from the dealer")
        return [s for s in range(ruleset.players) if (s - dealer) % 2 == 0]
    if ruleset.teams == "solo":
        return [dealer]
    raw = sit.get("declarers")
    if not isinstance(raw, list) or not raw:
        raise SituationError("find a friend: give 'declarers', the dealer first, then the friends found")
    declarers = [read_seat(s, "'declarers'", ruleset) for s in raw]
    if declarers[0] != dealer or len(set(declarers)) != len(declarers):
        raise SituationError("'declarers' lists the dealer first and each seat once")
    return declarers


def _friend_shares(sit, ruleset, s, declarers, attackers, last, level, total, order) -> dict:
    """Find a friend: each seat's levels, the booty, and the dealer's drop when the kitty is dug."""
    out: dict = {}
    shares = share_levels(s, declarers, attackers, last_trick_seat=last[0] if last else None, split=_split(sit))
    out["levels"] = {str(seat): n for seat, n in sorted(shares.levels.items())}
    if shares.booty:
        out["booty"] = {"levels": shares.booty, "seat": shares.booty_owner}
    if last is not None and last[0] in attackers:
        drop = dig_drop(ruleset, level, total, decompose(last[1], order), has_friend=len(declarers) > 1)
        if drop is not None:
            out["dig_drop"] = {"dealer": drop.dealer, "friend": drop.friend, "rule": drop.rule,
                               "reason": drop.reason}
    return out


def _split(sit: Mapping) -> str:
    split = sit.get("split", "hard")
    if split not in ("hard", "elastic"):
        raise SituationError(f"'split' is \"hard\" or \"elastic\", not {split!r}")
    return split
