"""Standings: the results rows summed per partnership, per session or over every session.

:func:`standings` takes the scoring as a function, so a session scored by duplicate (the same board
compared across tables, ``club/duplicate.py``) and one scored by levels use the same tables, pages
and command.  A scoring function gets every counted result (:class:`Result`, corrections applied,
withdrawn tables left out) and returns ``{label: score}``; :func:`level_score` is the default — the
levels each partnership went up, hand by hand (a takeover's levels count for the side that took
them).  :func:`duplicate_scoring` scores by duplicate: each board compared across the tables that
played it (``club/duplicate.py``'s cross-IMPs), north–south taking a table's score and east–west
its negative.  :func:`scoring` names them (``levels``, ``duplicate``) for the command and the pages.
Ties keep the order of the labels.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from fractions import Fraction

from ..rules.ruleset import PRESETS, Ruleset
from .db import ClubDB
from .duplicate import DuplicateError, TableOutcome, score_board

__all__ = ["Result", "results", "standings", "level_score", "score_sheet", "Score", "SCORINGS", "scoring",
           "duplicate_totals", "duplicate_scoring"]

SCORINGS = ("levels", "duplicate")


@dataclass(frozen=True)
class Result:
    """One partnership's result of one hand."""
    hand_id: int
    table: str
    match: str
    number: int
    round_id: int | None
    session_id: int | None
    board_id: int | None
    side: str                 # "02" or "13": the seats it held
    label: str                # the partnership (or the players, or the seats)
    declarer: bool
    attackers_points: int
    levels: int               # levels it went up on this hand


Score = Callable[[list], dict]


def results(db: ClubDB, session: int | None = None) -> list[Result]:
    """Every counted result (a correction replaces the original; withdrawn tables are left out)."""
    sql = ("SELECT h.id, r.table_id, h.match, h.number, r.round_id, rd.session_id, r.board_id, r.side, r.label, "
           "r.declarer, r.attackers_points, r.levels, r.corrected FROM results r JOIN hands h ON h.id = r.hand_id "
           "JOIN tables t ON t.id = r.table_id LEFT JOIN rounds rd ON rd.id = r.round_id WHERE t.withdrawn = 0")
    args: list = []
    if session is not None:
        sql += " AND rd.session_id = ?"
        args.append(session)
    out = []
    for row in db.q(sql + " ORDER BY r.table_id, h.match, h.number, r.side", args):
        (hand_id, table, match, number, round_id, session_id, board_id, side, label, declarer, points, levels,
         corrected) = row
        res = Result(hand_id=hand_id, table=table, match=match, number=number, round_id=round_id,
                     session_id=session_id, board_id=board_id, side=side, label=label, declarer=bool(declarer),
                     attackers_points=points, levels=levels)
        if corrected:
            fix = json.loads(corrected)
            res = Result(**{**asdict(res), **{k: fix[k] for k in ("attackers_points", "levels") if k in fix}})
        out.append(res)
    return out


def level_score(rows: Iterable[Result]) -> dict:
    """Levels gained per partnership."""
    out: dict = {}
    for r in rows:
        out[r.label] = out.get(r.label, 0) + r.levels
    return out


def duplicate_totals(rows: Iterable[Result], decks: Mapping[int, int]) -> dict:
    """``{label: Fraction}``: each partnership's cross-IMPs over the boards (``decks``: a board id's
    decks).  A board is scored once two or more of its hands have been recorded, every hand one
    table's outcome; a result without a board counts nothing (the label is there, with 0)."""
    totals: dict = {}
    hands: dict = {}
    for r in rows:
        totals.setdefault(r.label, Fraction(0))
        if r.board_id is not None:
            hands.setdefault(r.board_id, {}).setdefault(r.hand_id, {})[r.side] = r
    for board_id, played in sorted(hands.items()):
        both = {h: sides for h, sides in played.items() if set(sides) == {"02", "13"}}
        outcomes = []
        for h, sides in both.items():
            dec, att = (sides["02"], sides["13"]) if sides["02"].declarer else (sides["13"], sides["02"])
            outcomes.append(TableOutcome(str(h), sides["02"].declarer, att.attackers_points, dec.levels, att.levels))
        if len(outcomes) < 2:
            continue
        try:
            scores = score_board(outcomes, decks.get(board_id, 2))
        except DuplicateError:
            continue                # not comparable (the declarers sat on different sides): not scored
        for h, sides in both.items():
            totals[sides["02"].label] += scores[str(h)]
            totals[sides["13"].label] -= scores[str(h)]
    return totals


def board_decks(db: ClubDB) -> dict:
    """``{board id: decks}`` from the boards stored (their preset)."""
    out = {}
    for board_id, spec in db.q("SELECT id, spec FROM boards"):
        preset = json.loads(spec).get("preset")
        out[board_id] = Ruleset.from_preset(preset).decks if preset in PRESETS else 2
    return out


def duplicate_scoring(db: ClubDB) -> Score:
    """Duplicate scoring over ``db``'s boards: cross-IMPs, shown to two decimals."""
    def score(rows: Iterable[Result]) -> dict:
        return {label: round(float(v), 2) for label, v in duplicate_totals(rows, board_decks(db)).items()}
    return score


def scoring(db: ClubDB, name: str) -> Score:
    """The scoring called ``name`` (:data:`SCORINGS`); ValueError for another name."""
    if name == "levels":
        return level_score
    if name == "duplicate":
        return duplicate_scoring(db)
    raise ValueError(f"the scoring is {' or '.join(SCORINGS)}, not {name!r}")


def standings(db: ClubDB, session: int | None = None, score: Score = level_score) -> list[dict]:
    """``[{"rank", "label", "score", "hands"}]``, best first (``session`` None: across sessions)."""
    rows = results(db, session)
    scores = score(rows)
    hands: dict = {}
    for r in rows:
        hands[r.label] = hands.get(r.label, 0) + 1
    order = sorted(scores, key=lambda label: -scores[label])
    out, last, rank = [], None, 0
    for i, label in enumerate(order, 1):
        if scores[label] != last:
            rank, last = i, scores[label]
        out.append({"rank": rank, "label": label, "score": scores[label], "hands": hands.get(label, 0)})
    return out


def score_sheet(db: ClubDB, table: str) -> list[dict]:
    """A table's hands in the order recorded: number, dealer, trump, attackers' points, each side's
    levels, and ``head``: the hash of the row of the table's log that settled the hand, as the club
    received it (the log's head at that hand: ``log verify --head`` at the table finds it)."""
    sheet: dict = {}
    for r in [r for r in results(db) if r.table == table]:
        row = sheet.setdefault(r.hand_id, {"match": r.match, "hand": r.number, "board": r.board_id,
                                           "attackers_points": r.attackers_points, "sides": {}})
        row["sides"][r.side] = {"label": r.label, "declarer": r.declarer, "levels": r.levels}
    for hand_id, row in sheet.items():
        found = db.q("SELECT h.summary, e.hash FROM hands h LEFT JOIN events e ON e.table_id = h.table_id "
                     "AND e.log = h.log AND e.seq = h.seq WHERE h.id=?", (hand_id,))
        s = json.loads(found[0][0]) if found else {}
        row["dealer"], row["level"], row["trump"] = s.get("dealer"), s.get("level"), s.get("trump")
        row["head"] = found[0][1] if found else None
    return [sheet[k] for k in sorted(sheet)]
