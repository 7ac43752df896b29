"""Movements for a club session: who plays whom, at which table, in which seats, on which boards.

Pure: no I/O, no clock.  The pairings come from ``caissify-pairings`` (Apache-2.0; FIDE Berger
tables for the round robin, the FIDE Dutch system for Swiss; docs/club-duplicate.md says why this
library).  A chess colour maps onto a Shengji table's orientation: "white" sits at seats 0 and 2
(north–south), "black" at seats 1 and 3 (east–west), so the library's colour balancing is our
seat balance.

* :func:`round_robin` — 2k partnerships, every pair of partnerships meets at most once (exactly
  once over the full 2k − 1 rounds); an odd count sits one partnership out per round.
* :func:`swiss_round` — the next round paired by score (the scores so far), no partnership meeting
  one it has met where the field allows it.
* :func:`individual_round_robin` — 4k individuals: each round the Berger pairs are the
  partnerships, and consecutive partnerships share a table; over 4k − 1 rounds everybody partners
  everybody once.
* :func:`table_card` — the text a table prints for a round.

Every table of a round plays the same boards (``boards_per_round`` of them, numbered on from
round to round); each table stacks its own deck from the board file, so no boards travel.
"""
from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from caissify_pairings import generate_pairings

__all__ = ["MovementError", "Table", "Round", "round_robin", "swiss_round", "individual_round_robin",
           "table_card", "meetings", "seat_counts"]


class MovementError(ValueError):
    """A movement that cannot be made (too few entrants, too many rounds, bad scores)."""


@dataclass(frozen=True)
class Table:
    """One table in one round.  ``ns`` sits at seats 0 and 2, ``ew`` at seats 1 and 3.

    For partnerships each side is ``(partnership,)``; for individuals ``(player at 0 or 1, player at
    2 or 3)``."""

    number: int
    ns: tuple
    ew: tuple
    boards: tuple

    def seats(self) -> tuple:
        """Seat 0..3 → entrant: partnerships repeat at their two seats; individuals are their own."""
        a, c = (self.ns * 2)[:2]
        b, d = (self.ew * 2)[:2]
        return (a, b, c, d)


@dataclass(frozen=True)
class Round:
    """A round: its tables (numbered 1..) and who sits out (an odd field)."""

    number: int
    tables: tuple
    sitting_out: tuple = ()

    def to_json(self) -> dict:
        return {"number": self.number, "sitting_out": list(self.sitting_out),
                "tables": [{"table": t.number, "ns": list(t.ns), "ew": list(t.ew), "boards": list(t.boards)}
                           for t in self.tables]}


def _boards(round_number: int, per_round: int, first_board: int) -> tuple:
    start = first_board + (round_number - 1) * per_round
    return tuple(range(start, start + per_round))


def _check(count: int, least: int, what: str) -> None:
    if not isinstance(count, int) or isinstance(count, bool) or count < least:
        raise MovementError(f"a movement needs at least {least} {what}, not {count!r}")


def _player(i: int, score: float = 0.0, colours=(), floats=(), byes: int = 0) -> dict:
    return {"id": i, "name": str(i), "score": score, "rating": 0, "starting_number": i,
            "color_hist": list(colours), "float_history": list(floats), "bye_count": byes}


def _round_from(pairs: list, number: int, per_round: int, first_board: int) -> Round:
    boards = _boards(number, per_round, first_board)
    tables: list[Table] = []
    out: list[int] = []
    for p in sorted(pairs, key=lambda p: p["table"]):
        if p.get("black_id") is None:
            out.append(p["white_id"])
        else:
            tables.append(Table(len(tables) + 1, (p["white_id"],), (p["black_id"],), boards))
    return Round(number, tuple(tables), tuple(sorted(out)))


def round_robin(partnerships: int, rounds: int | None = None, *, boards_per_round: int = 3,
                first_board: int = 1) -> tuple:
    """The rounds of a round robin of partnerships 1..``partnerships`` (Berger tables).  ``rounds``
    defaults to the full cycle (n − 1, or n for an odd n); fewer play its first rounds."""
    _check(partnerships, 2, "partnerships")
    full = partnerships - 1 if partnerships % 2 == 0 else partnerships
    rounds = full if rounds is None else rounds
    if not isinstance(rounds, int) or not 1 <= rounds <= full:
        raise MovementError(f"a round robin of {partnerships} partnerships has 1 to {full} rounds, not {rounds!r}")
    players = [_player(i) for i in range(1, partnerships + 1)]
    return tuple(_round_from(generate_pairings("round_robin", players, set(), r, full), r, boards_per_round,
                             first_board) for r in range(1, rounds + 1))


def _history(partnerships: int, played: Sequence[Round]):
    """Colour (seat) history, float history and pairs met, from the rounds played so far."""
    colours: dict[int, list] = {i: [] for i in range(1, partnerships + 1)}
    floats: dict[int, list] = {i: [] for i in range(1, partnerships + 1)}
    met = set()
    for rnd in played:
        for t in rnd.tables:
            (a,), (b,) = t.ns, t.ew
            if a not in colours or b not in colours:
                raise MovementError(f"round {rnd.number} names partnership {a if a not in colours else b}, "
                                    f"not one of 1..{partnerships}")
            colours[a].append("white")
            colours[b].append("black")
            met.add((min(a, b), max(a, b)))
            for x in (a, b):
                floats[x].append("none")
        for x in rnd.sitting_out:
            floats[x].append("down")
    return colours, floats, met


def swiss_round(partnerships: int, played: Sequence[Round], scores: Mapping[int, float], *,
                total_rounds: int, boards_per_round: int = 3, first_board: int = 1) -> Round:
    """The next round of a Swiss (FIDE Dutch pairing by ``scores``, the total so far of each
    partnership 1..n).  No two partnerships meet again while a pairing without a repeat exists."""
    _check(partnerships, 2, "partnerships")
    number = len(played) + 1
    if not isinstance(total_rounds, int) or not number <= total_rounds < partnerships:
        raise MovementError(f"a Swiss of {partnerships} partnerships has at most {partnerships - 1} rounds; "
                            f"round {number} of {total_rounds!r} cannot be paired")
    missing = [i for i in range(1, partnerships + 1) if i not in scores]
    if missing:
        raise MovementError(f"no score for partnership(s) {', '.join(map(str, missing))}")
    colours, floats, met = _history(partnerships, played)
    byes = {i: sum(i in rnd.sitting_out for rnd in played) for i in range(1, partnerships + 1)}
    players = [_player(i, float(scores[i]), colours[i], floats[i], byes[i]) for i in range(1, partnerships + 1)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")            # its float-history warning: we pass the history
        pairs = generate_pairings("dutch", players, met, number, total_rounds)
    return _round_from(_repair(pairs, partnerships, scores, colours, byes, met), number, boards_per_round,
                       first_board)


def _repair(pairs: list, partnerships: int, scores: Mapping[int, float], colours: Mapping[int, list],
            byes_had: Mapping[int, int], met: set) -> list:
    """Complete a round the library left with byes in it.  Its rules also keep the seats in
    balance, so it can leave partnerships over where a pairing without a repeat still exists: the
    round is then paired anew without a repeat (:func:`_repeat_free`, the library's pairs tried
    first); only where none exists are the byes paired with each other by score — a repeat is
    better than partnerships sitting out of an even field.  An odd field keeps one out: the lowest
    scored that has sat out least.  Of a pair made here, the one that sat north–south less often
    takes seats 0/2."""
    byes = sorted((p["white_id"] for p in pairs if p.get("black_id") is None), key=lambda i: (-scores[i], i))
    keep = 1 if partnerships % 2 else 0
    if len(byes) <= keep:
        return pairs
    rest = sorted(byes, key=lambda i: (byes_had[i], scores[i], -i))[:keep]
    byes = [i for i in byes if i not in rest]
    field = sorted((i for i in range(1, partnerships + 1) if i not in rest), key=lambda i: (-scores[i], i))
    kept, made = _regroup(pairs, field, byes, colours, met)
    out = [dict(p, table=k + 1) for k, p in enumerate(kept)]
    for a, b in made:
        a, b = (a, b) if _lean(colours, a) <= _lean(colours, b) else (b, a)
        out.append({"white_id": a, "black_id": b, "table": len(out) + 1})
    return out + [{"white_id": a, "black_id": None, "table": len(out) + 1} for a in rest]


def _lean(colours: Mapping[int, list], i: int) -> int:
    """How many more times partnership ``i`` sat north–south (white) than east–west."""
    return colours[i].count("white") - colours[i].count("black")


def _regroup(pairs: list, field: list, byes: list, colours: Mapping[int, list], met: set) -> tuple:
    """``(library pairs kept, pairs made)`` for :func:`_repair`: a repeat-free pairing of ``field``
    (seat-balanced if one exists), else the library's pairs and the byes paired by score."""
    partner = {p["white_id"]: p["black_id"] for p in pairs if p.get("black_id") is not None}
    partner.update({b: a for a, b in partner.items()})

    def seatable(a: int, b: int) -> bool:       # one way round keeps both within two of balance
        la, lb = _lean(colours, a), _lean(colours, b)
        return max(abs(la + 1), abs(lb - 1)) <= 2 or max(abs(la - 1), abs(lb + 1)) <= 2
    fresh = _repeat_free(field, met, partner, seatable)
    if fresh is None:
        fresh = _repeat_free(field, met, partner, lambda a, b: True)
    if fresh is None:
        return [p for p in pairs if p.get("black_id") is not None], list(zip(byes[::2], byes[1::2]))
    kept = [p for p in pairs if p.get("black_id") is not None and _partner_of(fresh, p["white_id"]) == p["black_id"]]
    return kept, [(a, b) for a, b in fresh if partner.get(a) != b]


def _partner_of(pairs: list, i: int) -> int | None:
    return next((b if a == i else a for a, b in pairs if i in (a, b)), None)


def _repeat_free(field: list, met: set, prefer: Mapping[int, int], allowed, budget: int = 100_000) -> list | None:
    """A pairing of ``field`` (best score first) in which no two have met and every pair is
    ``allowed``, or None: a depth-first search that pairs the best placed left first with, in turn,
    its ``prefer``red opponent and then the nearest in the order; None also when ``budget`` steps
    did not settle it."""
    steps = [0]

    def search(left: list) -> list | None:
        if not left:
            return []
        steps[0] += 1
        if steps[0] > budget:
            return None
        a, others = left[0], left[1:]
        order = sorted(others, key=lambda b: (b != prefer.get(a), others.index(b)))
        for b in order:
            if (min(a, b), max(a, b)) in met or not allowed(a, b):
                continue
            rest = search([x for x in others if x != b])
            if rest is not None:
                return [(a, b)] + rest
        return None
    return search(list(field))


def individual_round_robin(players: int, rounds: int | None = None, *, boards_per_round: int = 3,
                           first_board: int = 1) -> tuple:
    """4k individuals: each round's Berger pairs are its partnerships (white's player at seat 0 or
    1, the partner opposite); Berger pairs 2t−1 and 2t share table t."""
    if not isinstance(players, int) or players < 4 or players % 4:
        raise MovementError(f"an individual movement needs a multiple of 4 players, not {players!r}")
    full = players - 1
    rounds = full if rounds is None else rounds
    if not isinstance(rounds, int) or not 1 <= rounds <= full:
        raise MovementError(f"an individual movement of {players} players has 1 to {full} rounds, not {rounds!r}")
    field = [_player(i) for i in range(1, players + 1)]
    out = []
    for r in range(1, rounds + 1):
        pairs = sorted(generate_pairings("round_robin", field, set(), r, full), key=lambda p: p["table"])
        boards = _boards(r, boards_per_round, first_board)
        tables = tuple(Table(t + 1, (pairs[2 * t]["white_id"], pairs[2 * t]["black_id"]),
                             (pairs[2 * t + 1]["white_id"], pairs[2 * t + 1]["black_id"]), boards)
                       for t in range(len(pairs) // 2))
        out.append(Round(r, tables))
    return tuple(out)


def meetings(rounds: Sequence[Round]) -> dict:
    """``{(a, b): times}`` for every pair of opposing sides (partnerships or partnerships of two)."""
    out: dict = {}
    for rnd in rounds:
        for t in rnd.tables:
            key = tuple(sorted((t.ns, t.ew)))
            out[key] = out.get(key, 0) + 1
    return out


def seat_counts(rounds: Sequence[Round]) -> dict:
    """``{side: [rounds at seats 0/2, rounds at seats 1/3]}``."""
    out: dict = {}
    for rnd in rounds:
        for t in rnd.tables:
            out.setdefault(t.ns, [0, 0])[0] += 1
            out.setdefault(t.ew, [0, 0])[1] += 1
    return out


def _side_text(side: tuple, names: Mapping) -> str:
    who = names.get(side[0])
    return f"partnership {side[0]}" + (f" ({who})" if who else "")


def _person(p: int, names: Mapping) -> str:
    return f"{names[p]} (player {p})" if names.get(p) else f"player {p}"


def table_card(rnd: Round, table: int, *, rounds: int, names: Mapping | None = None, event: str = "") -> str:
    """The card a table prints for ``table`` in round ``rnd``: who sits where, which boards."""
    names = names or {}
    t = next((x for x in rnd.tables if x.number == table), None)
    if t is None:
        raise MovementError(f"round {rnd.number} has tables 1..{len(rnd.tables)}, not {table}")
    boards = ", ".join(map(str, t.boards)) if t.boards else "none"
    lines = [f"{event + ' — ' if event else ''}round {rnd.number} of {rounds}, table {t.number}",
             f"  seats 0 and 2 (north–south): {_side_text(t.ns, names)}",
             f"  seats 1 and 3 (east–west):   {_side_text(t.ew, names)}",
             f"  boards: {boards}"]
    if len(t.ns) == 2:
        seats = [_person(p, names) for p in t.seats()]
        lines[1] = f"  seat 0: {seats[0]}; seat 2: {seats[2]} (partners)"
        lines[2] = f"  seat 1: {seats[1]}; seat 3: {seats[3]} (partners)"
    if rnd.sitting_out:
        lines.append(f"  sitting out this round: {', '.join(_side_text((x,), names) for x in rnd.sitting_out)}")
    return "\n".join(lines) + "\n"
