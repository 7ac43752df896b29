"""Duplicate scoring (club/duplicate.py): the worked example of docs/club-duplicate.md, reproduced
exactly from the doc's own table; the conversion rewards the same cards played better."""
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shengji_table.club import boards as bd
from shengji_table.club import duplicate as dup
from shengji_table.game.bots import make_bot
from shengji_table.rules.ruleset import Ruleset
from shengji_table.rules.settle import settle

DOC = Path(__file__).resolve().parents[2] / "docs" / "club-duplicate.md"
CLASSIC = Ruleset.from_preset("classic")


def _doc_example():
    """The example's rows as the doc prints them: table, P, levels, R, IMPs against each, score."""
    text = DOC.read_text(encoding="utf-8").split("### Worked example", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (T\d) \| (\d+) \| ([^|]+) \| (-?\d+) \| ([^|]+) \| ([^|]+) \|$", text, re.M)
    assert len(rows) == 3, text
    return rows


def _outcome(table, points, ns_declared=True):
    s = settle(CLASSIC, points)
    return dup.TableOutcome(table, ns_declared, points, s.declarers_levels, s.attackers_levels)


def test_duplicate_worked_example_in_the_doc_is_what_the_code_computes():
    """R-8.1 settles each table's points; the doc's R, cross-IMPs and scores follow exactly."""
    rows = _doc_example()
    outcomes = [_outcome(t, int(p)) for t, p, *_ in rows]
    scores = dup.score_board(outcomes, decks=2)
    for (t, p, levels, r, against, score), o in zip(rows, outcomes):
        s = settle(CLASSIC, int(p))
        assert levels.strip() == (f"declarers +{s.declarers_levels}" if s.declarers_levels else
                                  f"attackers +{s.attackers_levels}" if s.attackers_levels else "none")
        assert dup.table_result(o, 2) == int(r)
        want = [int(x) for x in re.findall(r"[-+]\d+", against)]
        assert want == [dup.imps(int(r) - dup.table_result(u, 2)) for u in outcomes if u.table != t]
        assert scores[t] == Fraction(score.strip())
    assert sum(scores.values()) == 0


@given(st.integers(-40, 300).map(lambda x: 5 * (x // 5)), st.integers(0, 60).map(lambda x: 5 * x))
def test_duplicate_better_play_of_the_same_cards_never_scores_less(p, gain):
    """Declarers who concede fewer points on the same board score at least as many IMPs (R-8.1 is
    monotone; so is the conversion)."""
    worse, better = _outcome("A", p + gain), _outcome("B", p)
    others = [_outcome("C", 80), _outcome("D", 40)]
    s_worse = dup.score_board([worse] + others)["A"]
    s_better = dup.score_board([better] + others)["B"]
    assert s_better >= s_worse
    if gain >= 10:
        assert dup.score_board([worse, better])["B"] > 0


def test_duplicate_east_west_declaring_turns_the_sign():
    a, b = _outcome("A", 35, ns_declared=False), _outcome("B", 75, ns_declared=False)
    scores = dup.score_board([a, b])
    assert scores["A"] < 0 < scores["B"]                  # north–south attacked: more points is better


def test_duplicate_imp_table():
    assert [dup.imps(d) for d in (0, 5, 10, 35, 40, 95, 100, 250, 400)] == [0, 0, 1, 2, 3, 5, 6, 10, 10]
    assert dup.imps(-45) == -3


def test_duplicate_scores_a_board_played_by_bots_at_three_tables():
    """End to end in software: the board's hand played at three tables by different bots; scores sum to 0."""
    rs = bd.duplicate_ruleset("classic")
    board = bd.make_boards(1, "classic", 21)[0]
    outcomes = []
    for t, kinds in enumerate((("heuristic",) * 4, ("random",) * 4, ("heuristic", "random") * 2)):
        match = bd.play_board(board, rs, [make_bot(k, 10 * t + s) for s, k in enumerate(kinds)])
        outcomes.append(dup.TableOutcome.from_result(f"T{t + 1}", board.dealer, match.summaries[0]["result"]))
    scores = dup.score_board(outcomes)
    assert sum(scores.values()) == 0 and set(scores) == {"T1", "T2", "T3"}


@pytest.mark.parametrize("outcomes, words", [
    ([], "needs 2 or more"),
    ([_outcome("A", 5)], "needs 2 or more"),
    ([_outcome("A", 5), _outcome("A", 10)], "named twice: A"),
    ([_outcome("A", 5), _outcome("B", 10, ns_declared=False)], "not play the same board"),
    ([_outcome("A", 5), dup.TableOutcome("B", True, 5, -1, 0)], "declarers_levels is a whole number ≥ 0"),
])
def test_duplicate_bad_input_is_refused(outcomes, words):
    with pytest.raises(dup.DuplicateError) as exc:
        dup.score_board(outcomes)
    assert words in str(exc.value)


def test_duplicate_outcome_from_a_result_that_is_not_one():
    with pytest.raises(dup.DuplicateError, match="table T9: not a hand result"):
        dup.TableOutcome.from_result("T9", 0, {"attackers_points": 5})


def test_session_scores_credit_each_partnership_with_its_tables():
    """A round robin of 4 partnerships, one board a round, played by bots: every partnership is
    credited at the table it sat, north–south the table's score, east–west its negative."""
    from shengji_table.club.movement import round_robin
    rs = bd.duplicate_ruleset("classic")
    rounds = round_robin(4, 2, boards_per_round=1)
    boards = bd.make_boards(2, "classic", 3)
    results, by_table = {}, {}
    for rnd in rounds:
        for t in rnd.tables:
            (board_no,) = t.boards
            board = boards[board_no - 1]
            kind = "heuristic" if (rnd.number + t.number) % 2 else "random"
            match = bd.play_board(board, rs, [make_bot(kind, 7 * t.number + s) for s in range(4)])
            results[(rnd.number, t.number, board_no)] = match.summaries[0]["result"]
            by_table.setdefault(board_no, []).append(
                (t, dup.TableOutcome.from_result(str(t.number), board.dealer, match.summaries[0]["result"])))
    totals = dup.session_scores(rounds, results, {b.number: b.dealer for b in boards})
    want = {(i,): Fraction(0) for i in range(1, 5)}
    for pairs in by_table.values():
        scores = dup.score_board([o for _, o in pairs])
        for t, o in pairs:
            want[t.ns] += scores[o.table]
            want[t.ew] -= scores[o.table]
    assert totals == want and sum(totals.values()) == 0
    del results[(1, 1, 1)]                                  # one table of board 1 not reported yet
    partial = dup.session_scores(rounds, results, {b.number: b.dealer for b in boards})
    t1, t2 = rounds[0].tables
    assert partial[t2.ns] == want[t2.ns] - scores_of(by_table[1], "2")


def scores_of(pairs, table):
    return dup.score_board([o for _, o in pairs])[table]
