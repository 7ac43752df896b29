"""``shengji-table club round start``: round K of a session's movement, computed from the partnerships
registered (Swiss: and the standings so far), seated at the club's tables with the round's boards,
written as the organiser's start-round writes it, the table cards printed; every bad input exit 2
with nothing written."""
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from clubkit import club, feed, kept  # noqa: E402

from shengji_table.club.boards import boards_file_text, make_boards  # noqa: E402
from shengji_table.club.db import ClubDB  # noqa: E402
from shengji_table.club.movement import Round, Table, round_robin, swiss_round  # noqa: E402
from shengji_table.club.soft_table import SoftTable  # noqa: E402
from shengji_table.club.standings import standings  # noqa: E402
from shengji_table.face.web.auth import hash_pin  # noqa: E402

PAIRS = ("Li,Wang", "Zhao,Chen", "Liu,Yang", "Wu,Xu")


def _run(*args, stdin: str = ""):
    return subprocess.run([sys.executable, "-m", "shengji_table", "club", *args], capture_output=True, text=True,
                          timeout=120, input=stdin)


def _dump(path) -> list:
    con = sqlite3.connect(path)
    try:
        return list(con.iterdump())
    finally:
        con.close()


@pytest.fixture
def evening(tmp_path):
    """A club with tables T1..T3, the session 'Tue' of four partnerships and a board file."""
    db = tmp_path / "club.sqlite"
    assert _run("tables", "add", "--db", str(db), "--passwd", str(tmp_path / "pw"), "T1", "T2", "T3").returncode == 0
    r = _run("partnerships", "add", "--db", str(db), "--session", "Tue", *PAIRS)
    assert r.returncode == 0 and "4. Wu & Xu" in r.stdout, r.stderr
    boards = tmp_path / "boards.json"
    boards.write_text(boards_file_text(make_boards(6, "classic", 3), "classic", 3))
    return db, boards


def _seatings(db, number: int) -> dict:
    d = ClubDB(db)
    try:
        rows = d.q("SELECT s.table_id, p2.name, p3.name, s.boards FROM seatings s JOIN rounds r ON r.id = s.round_id "
                   "JOIN partnerships p2 ON p2.id = s.pair_02 JOIN partnerships p3 ON p3.id = s.pair_13 "
                   "WHERE r.number = ? ORDER BY s.table_id", (number,))
    finally:
        d.close()
    return {t: (a, b, json.loads(boards or "[]")) for t, a, b, boards in rows}


def _names():
    return {i: " & ".join(p.split(",")) for i, p in enumerate(PAIRS, 1)}


def test_round_robin_round_is_the_berger_round_seated_at_the_clubs_tables_with_its_boards(evening):
    db, boards = evening
    r = _run("round", "start", "--db", str(db), "--session", "Tue", "--round", "2", "--movement", "round-robin",
             "--boards", str(boards))
    assert r.returncode == 0, r.stderr
    want = round_robin(4, boards_per_round=2)[1]
    names = _names()
    expected = {f"T{t.number}": (names[t.ns[0]], names[t.ew[0]], list(t.boards)) for t in want.tables}
    assert _seatings(db, 2) == expected and expected["T1"][2] == [3, 4]
    for table, (ns, ew, _) in expected.items():          # a card per table: who sits where, which boards
        card = r.stdout.split(f"[{table}]")[1].split("[T")[0]
        assert "north–south): partnership" in card and ns in card.split("east–west")[0] and ew in card
        assert "boards: 3, 4" in card
    d = ClubDB(db)
    assert d.one("SELECT COUNT(*) FROM boards") == 6        # the whole file stored with the session
    assert json.loads(d.one("SELECT movement FROM rounds WHERE number=2"))["kind"] == "round-robin"
    d.close()


def _bad(db, *args, stdin=""):
    before = _dump(db)
    r = _run("round", "start", "--db", str(db), *args, stdin=stdin)
    assert r.returncode == 2, (args, r.stdout, r.stderr)
    assert _dump(db) == before, args
    return r.stderr


def test_bad_input_exits_2_and_writes_nothing(evening, tmp_path):
    db, boards = evening
    rr = ("--movement", "round-robin")
    assert "no session 'Wed'" in _bad(db, "--session", "Wed", "--round", "1", *rr)
    assert _run("round", "start", "--db", str(db), "--session", "Tue", "--round", "1", *rr,
                "--boards", str(boards)).returncode == 0
    assert "round 1 of 'Tue' has started already" in _bad(db, "--session", "Tue", "--round", "1", *rr)
    other = tmp_path / "other.json"
    other.write_text(boards_file_text(make_boards(6, "classic", 4), "classic", 4))
    assert "not the session's board" in _bad(db, "--session", "Tue", "--round", "2", *rr, "--boards", str(other))
    assert "boards are 1..6: board(s) 7, 8, 9 missing" in _bad(db, "--session", "Tue", "--round", "3", *rr,
                                                                "--boards-per-round", "3")
    assert "rounds 1..3, not 4" in _bad(db, "--session", "Tue", "--round", "4", *rr)
    broken = tmp_path / "broken.json"
    broken.write_text(boards.read_text().replace('"level": 2', '"level": 3', 1))
    assert "bad checksum" in _bad(db, "--session", "Tue", "--round", "2", *rr, "--boards", str(broken))
    pin = tmp_path / "organiser.pin"
    pin.write_text(hash_pin("2468") + "\n")
    assert "wrong PIN" in _bad(db, "--session", "Tue", "--round", "2", *rr, "--pin-file", str(pin), stdin="1111\n")
    r = _run("round", "start", "--db", str(db), "--session", "Tue", "--round", "2", *rr, "--pin-file", str(pin),
             stdin="2468\n")
    assert r.returncode == 0, r.stderr


def test_odd_field_needs_a_sit_out_rule_and_too_few_tables_are_refused(tmp_path):
    db = tmp_path / "club.sqlite"
    assert _run("tables", "add", "--db", str(db), "--passwd", str(tmp_path / "pw"), "T1").returncode == 0
    assert _run("partnerships", "add", "--db", str(db), "--session", "Odd", *PAIRS[:3]).returncode == 0
    assert "odd field (3 partnerships)" in _bad(db, "--session", "Odd", "--round", "1", "--movement", "round-robin")
    r = _run("round", "start", "--db", str(db), "--session", "Odd", "--round", "1", "--movement", "round-robin",
             "--sit-out")
    assert r.returncode == 0, r.stderr
    out = round_robin(3)[0].sitting_out
    assert len(out) == 1 and f"sitting out this round: partnership {out[0]} ({_names()[out[0]]})" in r.stdout
    seated = _seatings(db, 1)["T1"]
    assert _names()[out[0]] not in seated[:2]
    assert _run("partnerships", "add", "--db", str(db), "--session", "Even", *PAIRS).returncode == 0
    assert "needs 2 tables; the club has 1" in _bad(db, "--session", "Even", "--round", "1",
                                                     "--movement", "round-robin")
    r = _run("partnerships", "add", "--db", str(db), "--session", "Even", "Li,Ma")
    assert r.returncode == 2 and "Li already play" in r.stderr


def test_swiss_round_is_paired_by_the_standings_so_far(tmp_path):
    db_path = tmp_path / "club.sqlite"
    assert _run("tables", "add", "--db", str(db_path), "--passwd", str(tmp_path / "pw"), "T1", "T2").returncode == 0
    six = PAIRS + ("Huang,Zhou", "Sun,Ma")
    assert _run("partnerships", "add", "--db", str(db_path), "--session", "Sw", *six).returncode == 0
    assert _run("tables", "add", "--db", str(db_path), "--passwd", str(tmp_path / "pw"), "T3").returncode == 0
    r = _run("round", "start", "--db", str(db_path), "--session", "Sw", "--round", "1", "--movement", "swiss",
             "--rounds", "3")
    assert r.returncode == 0, r.stderr
    first = _seatings(db_path, 1)
    # play round 1 at software tables (levels), fed straight to the club
    server = club(db_path, tables=())
    names = {" & ".join(p.split(",")): p.split(",") for p in six}
    for i, (table, (ns, ew, _)) in enumerate(sorted(first.items())):
        seats = (names[ns][0], names[ew][0], names[ns][1], names[ew][1])
        t = kept(SoftTable(tmp_path / f"{table}.db", table=table, seed=11 + i, hands=2, names=seats))
        t.play()
        feed(server, table, t.log)
        t.close()
    sid = server.db.one("SELECT id FROM sessions WHERE name='Sw'")
    scores_by_label = {row["label"]: row["score"] for row in standings(server.db, sid)}
    server.stop()
    label = {i: " & ".join(p.split(",")) for i, p in enumerate(six, 1)}
    number = {v: k for k, v in label.items()}
    played = [Round(1, tuple(Table(k, (number[ns],), (number[ew],), ())
                             for k, (_, (ns, ew, _b)) in enumerate(sorted(first.items()), 1)))]
    want = swiss_round(6, played, {i: float(scores_by_label.get(label[i], 0)) for i in label}, total_rounds=3,
                       boards_per_round=0)
    r = _run("round", "start", "--db", str(db_path), "--session", "Sw", "--round", "2", "--movement", "swiss",
             "--rounds", "3")
    assert r.returncode == 0, r.stderr
    second = _seatings(db_path, 2)
    assert {(ns, ew) for ns, ew, _ in second.values()} == {(label[t.ns[0]], label[t.ew[0]]) for t in want.tables}
    met = {frozenset(x[:2]) for x in first.values()}
    assert not met & {frozenset(x[:2]) for x in second.values()}        # nobody meets again
    assert "round 3 has not started" in _bad(db_path, "--session", "Sw", "--round", "4", "--movement", "swiss",
                                             "--rounds", "3")


def test_organiser_start_round_takes_a_list_of_boards_and_refuses_a_bad_one(tmp_path):
    from shengji_table.club.organiser import OrganiserError, apply_action
    from shengji_table.club.rounds import store_boards
    server = club(tmp_path / "club.sqlite", tables=("T1",))
    db = server.db
    with db.tx():
        store_boards(db, db.session("Tue"), "classic", make_boards(3, "classic", 1))
    seat = {"02": ["Li", "Zhao"], "13": ["Wang", "Chen"]}
    for boards, why in (([], "different board numbers"), ([1, 1], "different board numbers"), ([2, 7], "no board 7"),
                        (["1"], "different board numbers")):
        before = _dump(tmp_path / "club.sqlite")
        with pytest.raises(OrganiserError, match=why):
            body = {"session": "Tue", "round": 1, "tables": {"T1": {**seat, "boards": boards}}}
            apply_action(db, "start-round", body, "test")
        after = _dump(tmp_path / "club.sqlite")
        assert [r for r in after if "organiser" not in r] == [r for r in before if "organiser" not in r]
    with pytest.raises(OrganiserError, match="or"):
        apply_action(db, "start-round", {"session": "Tue", "round": 1,
                                         "tables": {"T1": {**seat, "board": 1, "boards": [2]}}}, "test")
    apply_action(db, "start-round", {"session": "Tue", "round": 1, "tables": {"T1": {**seat, "boards": [2, 3]}}}, "t")
    assert json.loads(db.one("SELECT boards FROM seatings")) == [2, 3]
    assert db.one("SELECT b.number FROM seatings s JOIN boards b ON b.id = s.board_id") == 2


def test_the_round_page_shows_the_movement_and_each_tables_boards(evening):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from shengji_table.club.web import create_club_app
    db, boards = evening
    assert _run("round", "start", "--db", str(db), "--session", "Tue", "--round", "1", "--movement", "round-robin",
                "--boards", str(boards)).returncode == 0
    server = club(db, tables=())
    with TestClient(create_club_app(server)) as client:
        page = client.get("/round").text
    assert "Tue, round 1 of 3 (round-robin)" in page and page.count("Boards: 1, 2") == 2
    server.stop()
