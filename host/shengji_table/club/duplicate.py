"""Duplicate scoring: one board's outcomes compared across the tables that played it
(docs/club-duplicate.md, "Duplicate scoring", with the worked example the tests reproduce).

1. Each table's *result* for the side that sat at seats 0/2 (north–south), in card points::

       R = half_step × L − P        when north–south declared (the board's dealer is seat 0 or 2)
       R = P − half_step × L        when east–west declared

   where P is the attackers' points as settled (captured + kitty bonus ± penalties, R-8), L the
   declarers' net levels (``declarers_levels − attackers_levels``, R-8.1…R-8.3) and half_step half
   the settlement step (10 × decks: 20 with two decks).  So every 5 card points count, and a level
   won or lost counts as much again as half a band of them.
2. Each pair of tables is compared by the difference of their R, turned into IMPs by
   :data:`IMP_TABLE` (a 5-point difference is noise: 0 IMPs).
3. A table's score for north–south is its IMPs against each other table, averaged (cross-IMPs);
   east–west score the negative.  The same cards played better give a better R, so more IMPs.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["TableOutcome", "IMP_TABLE", "imps", "table_result", "score_board", "session_scores", "DuplicateError"]

# (lowest |difference| in card points, IMPs): 0–5 → 0, 10–15 → 1, …, 250 or more → 10
IMP_TABLE = ((0, 0), (10, 1), (20, 2), (40, 3), (60, 4), (80, 5), (100, 6), (130, 7), (160, 8), (200, 9),
             (250, 10))


class DuplicateError(ValueError):
    """Outcomes that cannot be compared (one table, different boards, a bad figure)."""


@dataclass(frozen=True)
class TableOutcome:
    """How one table played a board: ``ns_declared`` (the dealer sat at 0 or 2), the settled
    attackers' points and the levels each side went up."""

    table: str
    ns_declared: bool
    attackers_points: int
    declarers_levels: int
    attackers_levels: int

    @classmethod
    def from_result(cls, table: str, dealer: int, result: Mapping) -> TableOutcome:
        """From a hand's ``HandResult.to_json()`` and the board's dealer seat."""
        try:
            return cls(table, dealer % 2 == 0, int(result["attackers_points"]), int(result["declarers_levels"]),
                       int(result["attackers_levels"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise DuplicateError(f"table {table}: not a hand result ({exc})") from None


def imps(difference: int) -> int:
    """IMPs for a difference of results in card points (signed: the sign is kept)."""
    size = abs(difference)
    won = max(v for low, v in IMP_TABLE if size >= low)
    return won if difference >= 0 else -won


def table_result(o: TableOutcome, decks: int) -> int:
    """R for north–south (module doc, step 1)."""
    for name in ("attackers_points", "declarers_levels", "attackers_levels"):
        v = getattr(o, name)
        if isinstance(v, bool) or not isinstance(v, int) or (name != "attackers_points" and v < 0):
            least = "" if name == "attackers_points" else " ≥ 0"
            raise DuplicateError(f"table {o.table}: {name} is a whole number{least}, not {v!r}")
    half_step = 10 * decks
    declarers = half_step * (o.declarers_levels - o.attackers_levels) - o.attackers_points
    return declarers if o.ns_declared else -declarers


def score_board(outcomes: Sequence[TableOutcome], decks: int = 2) -> dict:
    """``{table: Fraction}`` — north–south's cross-IMPs at each table (east–west: the negative)."""
    if len(outcomes) < 2:
        raise DuplicateError(f"a board is scored against other tables: it needs 2 or more, not {len(outcomes)}")
    names = [o.table for o in outcomes]
    if len(set(names)) != len(names):
        twice = sorted(n for n in set(names) if names.count(n) > 1)
        raise DuplicateError(f"a table is named twice: {', '.join(twice)}")
    if len({o.ns_declared for o in outcomes}) != 1:
        raise DuplicateError("the tables did not play the same board: the declarers sat on different sides")
    results = {o.table: table_result(o, decks) for o in outcomes}
    return {t: Fraction(sum(imps(r - results[u]) for u in results if u != t), len(results) - 1)
            for t, r in results.items()}


def session_scores(rounds: Sequence, results: Mapping, dealers: Mapping[int, int], decks: int = 2) -> dict:
    """Each side's total over a session: ``{side: Fraction}``.

    ``rounds`` is the movement (``club.movement.Round``s); ``results`` maps ``(round, table, board)``
    to the hand's ``HandResult.to_json()``; ``dealers`` maps a board to its dealer seat.  Each board of
    a round is scored across the tables of that round that reported it (a board only one table
    reported is not scored yet); north–south take the table's score, east–west its negative."""
    totals: dict = {}
    for rnd in rounds:
        for t in rnd.tables:
            for side in (t.ns, t.ew):
                totals.setdefault(side, Fraction(0))
        boards = sorted({b for t in rnd.tables for b in t.boards})
        for board in boards:
            played = [(t, results[(rnd.number, t.number, board)]) for t in rnd.tables
                      if (rnd.number, t.number, board) in results]
            if len(played) < 2:
                continue
            if board not in dealers:
                raise DuplicateError(f"board {board}: its dealer is not known")
            outcomes = [TableOutcome.from_result(str(t.number), dealers[board], res) for t, res in played]
            scores = score_board(outcomes, decks)
            for t, _ in played:
                totals[t.ns] += scores[str(t.number)]
                totals[t.ew] -= scores[str(t.number)]
    return totals
