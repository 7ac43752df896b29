"""Duplicate scoring in the standings: a session of 2 tables playing the same 2 boards (software
tables reporting the board they play) → standings equal to ``club/duplicate.py``'s computation over
the hands as played; a table reporting another board, or dealing another stack, is refused."""
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from clubkit import club, feed, kept, relog, rows  # noqa: E402

from shengji_table.club.boards import make_boards  # noqa: E402
from shengji_table.club.duplicate import TableOutcome, score_board  # noqa: E402
from shengji_table.club.rounds import add_partnerships, plan_round, start_planned  # noqa: E402
from shengji_table.club.soft_table import SoftTable  # noqa: E402
from shengji_table.club.standings import duplicate_scoring, duplicate_totals, results, standings  # noqa: E402

PAIRS = (("Li", "Wang"), ("Zhao", "Chen"), ("Liu", "Yang"), ("Wu", "Xu"))
BOARDS = make_boards(4, "classic", 21)


def _evening(tmp_path):
    server = club(tmp_path / "club.sqlite", tables=("T1", "T2"))
    add_partnerships(server.db, "Tue", PAIRS)
    plan = plan_round(server.db, "Tue", 1, "round-robin", boards=("classic", BOARDS), boards_per_round=2)
    start_planned(server.db, plan, by="test")
    return server, plan


def _seats(plan, table: str) -> tuple:
    """Seat 0..3's players at ``table``: north–south at 0/2, east–west at 1/3."""
    t = plan.rnd.tables[plan.tables.index(table)]
    (ns,), (ew,) = t.ns, t.ew
    a, b = plan.pairs[ns - 1][2:], plan.pairs[ew - 1][2:]
    return (a[0], b[0], a[1], b[1]), plan.pairs[ns - 1][1], plan.pairs[ew - 1][1]


def _play(tmp_path, server, plan, table: str, board, seed: int, **kw) -> SoftTable:
    names, _, _ = _seats(plan, table)
    t = kept(SoftTable(tmp_path / f"{table}.db", table=table, seed=seed, names=names, board=board,
                       match=f"board-{board.number}", bots="random", **kw))
    t.play()
    return t


def test_two_tables_two_boards_standings_equal_duplicates_computation(tmp_path):
    server, plan = _evening(tmp_path)
    played = {}
    for i, table in enumerate(plan.tables):
        for board in BOARDS[:2]:
            t = _play(tmp_path, server, plan, table, board, seed=100 * i + board.number)
            played[(table, board.number)] = t.match.summaries[0]["result"]
            t.close()
        from shengji_table.store.log import EventLog
        log = EventLog(tmp_path / f"{table}.db")
        assert set(feed(server, table, log)) == {"stored"}
        log.close()
    assert server.db.one("SELECT COUNT(*) FROM hands") == 4
    assert server.db.one("SELECT COUNT(*) FROM refusals") == 0
    # the independent computation: duplicate.py over each board's two outcomes
    want: dict = {}
    for board in BOARDS[:2]:
        outcomes = [TableOutcome.from_result(t, board.dealer, played[(t, board.number)]) for t in plan.tables]
        scores = score_board(outcomes, decks=2)
        for t in plan.tables:
            _, ns, ew = _seats(plan, t)
            want[ns] = want.get(ns, Fraction(0)) + scores[t]
            want[ew] = want.get(ew, Fraction(0)) - scores[t]
    assert any(want.values())                        # the tables played the boards differently
    sid = server.db.one("SELECT id FROM sessions WHERE name='Tue'")
    assert duplicate_totals(results(server.db, sid), {b: 2 for b in range(1, 9)}) == want
    rows_ = standings(server.db, sid, duplicate_scoring(server.db))
    assert {r["label"]: r["score"] for r in rows_} == {k: round(float(v), 2) for k, v in want.items()}
    assert sum(r["score"] for r in rows_) == pytest.approx(0)            # a board's scores add up to zero
    assert all(r["hands"] == 2 for r in rows_)
    board_ids = {n for (n,) in server.db.q("SELECT DISTINCT b.number FROM results r "
                                           "JOIN boards b ON b.id = r.board_id")}
    assert board_ids == {1, 2}                       # the board each table reported, not the seating's first
    server.stop()
    r = subprocess.run([sys.executable, "-m", "shengji_table", "club", "standings",
                        "--db", str(tmp_path / "club.sqlite"),
                        "--session", "Tue", "--scoring", "duplicate", "--json"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["scoring"] == "duplicate" and got["standings"] == rows_


def test_a_board_played_at_one_table_is_not_scored_yet(tmp_path):
    server, plan = _evening(tmp_path)
    t = _play(tmp_path, server, plan, "T1", BOARDS[0], seed=5)
    assert set(feed(server, "T1", t.log)) == {"stored"}
    sid = server.db.one("SELECT id FROM sessions WHERE name='Tue'")
    assert {r["score"] for r in standings(server.db, sid, duplicate_scoring(server.db))} == {0}


def test_a_table_reporting_another_board_or_dealing_another_stack_is_refused(tmp_path):
    server, plan = _evening(tmp_path)
    # board 3 is the session's, but round 1 gives the tables boards 1 and 2
    t = _play(tmp_path, server, plan, "T1", BOARDS[2], seed=5)
    statuses = feed(server, "T1", t.log)
    assert "refused" in statuses and server.db.one("SELECT COUNT(*) FROM hands") == 0
    assert "its round gives it board(s) 1, 2" in server.db.one("SELECT reason FROM refusals")
    # a board of another file (another seed) under the same number
    stranger = make_boards(1, "classic", 99)[0]
    t2 = _play(tmp_path, server, plan, "T2", stranger, seed=6)
    feed(server, "T2", t2.log)
    assert "is not the club's board 1" in server.db.one("SELECT reason FROM refusals ORDER BY id DESC LIMIT 1")
    assert server.db.one("SELECT COUNT(*) FROM hands") == 0


def test_a_board_dealt_from_another_stack_does_not_replay(tmp_path):
    server, plan = _evening(tmp_path)
    t = _play(tmp_path, server, plan, "T1", BOARDS[0], seed=5)
    deal = next(r for r in rows(t.log) if r[2] == "game" and json.loads(r[3])["type"] == "deal")
    payload = json.loads(deal[3])
    payload["order"][0], payload["order"][1] = payload["order"][1], payload["order"][0]
    forged = relog(tmp_path / "forged.db", t.log, {deal[0]: payload})
    feed(server, "T1", forged)
    reason = server.db.one("SELECT reason FROM refusals")
    assert "does not deal board 1: card 1 of the stack" in reason, reason
    assert server.db.one("SELECT COUNT(*) FROM hands") == 0


def test_the_pages_show_duplicate_standings(tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from shengji_table.club.web import create_club_app
    server, plan = _evening(tmp_path)
    for i, table in enumerate(plan.tables):
        t = _play(tmp_path, server, plan, table, BOARDS[0], seed=40 + i)
        feed(server, table, t.log)
        t.close()
    sid = server.db.one("SELECT id FROM sessions WHERE name='Tue'")
    want = standings(server.db, sid, duplicate_scoring(server.db))
    with TestClient(create_club_app(server, scoring="duplicate")) as client:
        data = client.get("/api/standings").json()
        assert data["scoring"] == "duplicate" and data["sessions"][0]["standings"] == want
        levels = client.get("/api/standings?scoring=levels").json()
        assert levels["scoring"] == "levels" and levels["sessions"][0]["standings"] == standings(server.db, sid)
        bad = client.get("/api/standings?scoring=imps")
        assert bad.status_code == 400 and "levels or duplicate" in bad.json()["error"]


def test_a_board_hand_arriving_after_the_next_round_started_counts_in_its_own_round(tmp_path):
    """A table whose network was cut: its round-1 board reaches the club after round 2 started; it is
    recorded in round 1, for round 1's partnerships at that table."""
    server, plan = _evening(tmp_path)
    t = _play(tmp_path, server, plan, "T1", BOARDS[0], seed=5)
    _, ns, ew = _seats(plan, "T1")
    start_planned(server.db, plan_round(server.db, "Tue", 2, "round-robin", boards_per_round=2), by="test")
    assert set(feed(server, "T1", t.log)) == {"stored"}
    got = server.db.q("SELECT rd.number, b.number, r.label FROM results r JOIN rounds rd ON rd.id = r.round_id "
                      "JOIN boards b ON b.id = r.board_id ORDER BY r.side")
    assert got == [(1, 1, ns), (1, 1, ew)]
