"""What the public table page, ``GET /api/table`` and the public event stream show: one function,
:func:`public_state`, built only from public information.

Public: the seats in playing order (counter-clockwise; seat numbers rise counter-clockwise), the
players' names, the sides as far as they are known (find a friend: "unknown" until the friend is
revealed by a play), the dealer, the levels, trump once it is public, whose turn it is, the trick
being laid (the committed plays: cards on the table), the last trick, the points per seat and per
side, the recent announcements (the game's announcements and the public sentences of refusals,
``game/disclosure.py``), the rings as everybody sees them and a legend for their colours.  Never a
hand, the cards being entered, the stack or the kitty — the kitty only once the hand is over
(scanned: the buried cards; open play: the cards revealed).  The referee's view
(:func:`referee_state`) adds those.
"""
from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from ...game.phase import Phase
from ...game.views import PublicView
from ...rules.cards import JOKER, SMALL_JOKER_RANK, rank_text, trump_text
from ...rules.settle import marks, next_dealer
from ...table.controller import R

__all__ = ["public_state", "card_json", "RING_LEGEND", "referee_state", "seat_names"]

# What each ring pattern means, in words (docs/table.md, "What the rings mean").
RING_LEGEND = [
    {"pattern": "OFF", "looks": "dark", "means": "nothing for this seat now"},
    {"pattern": "TURN", "looks": "a white light circling", "means": "this seat's turn"},
    {"pattern": "PENDING", "looks": "one blue pixel per card tapped (green: accepted)",
     "means": "cards entered, the play not committed yet"},
    {"pattern": "REFUSED", "looks": "red, blinking, then steady dim red", "means": "refused: see the announcements"},
    {"pattern": "TRICK_WON", "looks": "amber, filling around, then breathing", "means": "this seat won the trick"},
    {"pattern": "POINTS", "looks": "orange pixels (5 points a pixel)",
     "means": "points taken; on a bidder's ring the bid"},
    {"pattern": "TRUMP", "looks": "the whole ring in a suit colour, breathing (♠ blue, ♥ red, ♣ green, ♦ orange, "
                                  "no trump purple)", "means": "the trump suit (a declarer's ring)"},
    {"pattern": "LEVEL", "looks": "a spinning rainbow, then purple pixels", "means": "a level change (the new level)"},
    {"pattern": "SOLID", "looks": "one steady colour", "means": "self-test or diagnostics"},
]


def card_json(card) -> dict:
    """A face as the pages draw it: ``{"rank": "A", "suit": "S", "text": "♠A"}`` (jokers: suit
    ``"J"``, rank ``"small"``/``"big"``)."""
    if card.suit == JOKER:
        rank = "small" if card.rank == SMALL_JOKER_RANK else "big"
        return {"rank": rank, "suit": JOKER, "text": card.unicode()}
    return {"rank": rank_text(card.rank), "suit": card.suit, "text": card.unicode()}


def _cards(copies) -> list:
    return [card_json(c.card if hasattr(c, "card") else c) for c in copies]


def _plays(plays) -> list:
    return [{"seat": p.seat, "cards": _cards(p.cards)} for p in plays]


def _teams(view: PublicView | None, ruleset) -> dict:
    """``{"kind": fixed|find-friend|solo, "declarers": [...], "attackers": [...] | "unknown"}``."""
    if view is None or view.dealer is None:
        return {"kind": ruleset.teams, "declarers": [], "attackers": []}
    return {"kind": ruleset.teams, "declarers": list(view.declarers),
            "attackers": "unknown" if view.attackers is None else list(view.attackers)}


def _trump(view: PublicView | None) -> str | None:
    """The trump suit once it is public (``NT``: no trump); None before."""
    if view is None:
        return None
    if view.trump_fixed:
        return trump_text(view.trump)
    return trump_text(view.call[1]) if view.call is not None else None


def _rings(controller) -> list:
    out = []
    for i, rc in sorted(controller.rings.items()):
        name = R.NAMES[rc.pattern] if rc.pattern < len(R.NAMES) else str(rc.pattern)
        where = "centre" if i == controller.centre else i
        out.append({"ring": where, "pattern": name, "rgb": [rc.r, rc.g, rc.b], "count": rc.count})
    return out


def seat_names(names, players: int) -> dict:
    """``{seat: name}`` from the players' names as the CLI holds them (a sequence in seat order) or
    as a mapping (seat or its digits → name); a seat without a name is left out."""
    if not names:
        return {}
    items = names.items() if hasattr(names, "items") else enumerate(names)
    out = {}
    for k, v in items:
        seat = int(k) if isinstance(k, (int, str)) and str(k).isdigit() else None
        if seat is not None and 0 <= seat < players and isinstance(v, str) and v.strip():
            out[seat] = v.strip()
    return out


def _marks(ruleset, bid: int | None) -> list:
    """The settlement's marks for the page's points bar (``rules.settle.marks``)."""
    return [{"points": p, "declarers": d, "attackers": a, "takeover": t} for p, d, a, t in marks(ruleset, bid)]


def _settlement(view: PublicView, ruleset) -> dict | None:
    """The hand's result by source once it is over: tricks, kitty × multiplier, penalties, the
    levels each side goes up and the next dealer (None: the next draw decides)."""
    r = view.result
    if r is None:
        return None
    s = r.settlement
    dealer = view.dealer if view.dealer is not None else 0
    return {"captured": r.captured, "kitty_points": r.kitty_points, "multiplier": r.multiplier, "bonus": r.bonus,
            "penalty": r.penalty, "attackers_points": s.attackers_points, "declarers_levels": s.declarers_levels,
            "attackers_levels": s.attackers_levels, "takeover": s.takeover, "rule": s.rule, "reason": s.reason,
            "ruling": r.ruling, "declarers": list(r.declarers), "attackers": list(r.attackers),
            "next_dealer": next_dealer(ruleset, dealer, s.takeover, view.players)}


def _seat(s: int, view: PublicView | None, levels, names: dict) -> dict:
    playing = view is not None and view.phase is Phase.PLAYING and view.turn == s
    return {"seat": s, "name": names.get(s) or f"Seat {s}",
            "level": rank_text(levels[s]) if levels[s] <= 14 else "won",
            "dealer": view is not None and view.dealer == s,
            "turn": playing,
            "points": view.points[s] if view is not None else 0,
            "entering": view.entering if playing else 0}  # type: ignore[union-attr]


def _no_hand(total: int) -> dict:
    """public_state's hand fields before the first deal."""
    return {"hand": 0, "phase": "deal", "dealer": None, "level": None, "turn": None, "trick": [], "last_trick": None,
            "tricks_played": 0, "points": {"declarers": 0, "attackers": 0, "penalty": 0, "total": total},
            "friend_calls": [], "kitty": None, "result": None, "settlement": None}


def _hand_fields(view: PublicView, ruleset) -> dict:
    """public_state's fields of the hand in play: the attackers' points count the penalties, and
    once the hand is settled they are the settlement's (the kitty included)."""
    last = view.last_trick
    won = view.attackers_points
    att = view.result.settlement.attackers_points if view.result is not None else won + view.penalty
    return {
        "hand": view.number, "phase": str(view.phase), "dealer": view.dealer,
        "level": rank_text(view.level) if view.level <= 14 else None,
        "turn": view.turn if view.phase is Phase.PLAYING else None,
        "trick": _plays(view.trick),
        "last_trick": None if last is None else {"plays": _plays(last.plays), "winner": last.winner,
                                                 "points": last.points},
        "tricks_played": len(view.tricks),
        "points": {"declarers": sum(view.points) - won, "attackers": att, "penalty": view.penalty,
                   "total": ruleset.total_points},
        "friend_calls": [{"card": card_json(c), "nth": n} for c, n in view.friend_calls],
        "kitty": _cards(view.kitty) if view.kitty is not None else None,
        "result": view.result.settlement.reason if view.result is not None else None,
        "settlement": _settlement(view, ruleset),
    }


def public_state(controller, names: Mapping | Sequence[str] | None = None, announcements=(),
                 paused: str | None = None, now: float | None = None) -> dict:
    """The public table (see the module docstring); ``announcements``: the recent public sentences,
    oldest first; ``paused``: the referee's reason while the table is paused; ``now``: the
    ``time.monotonic()`` the play clock's ``left`` is counted at (default: now)."""
    match = controller.match
    view = match.public_view()
    ruleset = controller.ruleset
    players = ruleset.players
    levels = list(view.levels) if view is not None else list(match.levels)
    names = seat_names(names or getattr(controller, "names", None), players)
    bid = view.result.bid if view is not None and view.result is not None else None
    return {
        "preset": ruleset.preset, "mode": controller.mode, "players": players,
        "order": list(range(players)),      # playing order: counter-clockwise, seat numbers rising
        "seats": [_seat(s, view, levels, names) for s in range(players)],
        "teams": _teams(view, ruleset),
        "trump": _trump(view),
        **(_hand_fields(view, ruleset) if view is not None else _no_hand(ruleset.total_points)),
        "marks": _marks(ruleset, bid),
        "match_over": match.over,
        "announcements": list(announcements),
        "paused": paused,
        "clock": controller.clock_state(time.monotonic() if now is None else now),
        "rings": _rings(controller),
        "legend": RING_LEGEND,
    }


def referee_state(service, names: Mapping | Sequence[str] | None = None, announcements=(),
                  log_rows: int = 200) -> dict:
    """The referee's console: the public state plus every hand, the kitty, the rulings (rule id
    and full reason) and the latest rows of the event log.  Call it holding ``service.lock``."""
    c = service.controller
    view = c.match.referee_view()
    state = {"public": public_state(c, names, announcements, service.paused), "paused": service.paused,
             "referee_undo": bool(c.ruleset.referee_undo)}
    state["hands"] = {str(s): _cards(cards) for s, cards in enumerate(view.hands)} if view is not None else {}
    state["pending"] = _cards(view.pending) if view is not None else []
    state["kitty"] = _cards(view.kitty) if view is not None else []
    state["buried"] = _cards(view.buried) if view is not None else []
    # the hand's rulings, numbered, each with whether a later one reversed it (the console reverses by number)
    state["hand_rulings"] = list(view.rulings) if view is not None else []
    rows = list(service.log.entries(match=service.match, after=max(0, service.log.last_id() - 20 * log_rows)))
    state["rulings"] = [{"id": e.id, "at": e.at, **e.payload} for e in rows if e.kind == "ruling"][-log_rows:]
    state["log"] = [{"id": e.id, "at": e.at, "kind": e.kind, "payload": e.payload}
                    for e in rows if not (e.kind == "meta" and "controller" in e.payload)][-log_rows:]
    return state
