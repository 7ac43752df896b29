"""The club's intake without a broker: every row of a table once, the rules re-run on every hand,
refusals with their reason that change nothing else."""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from clubkit import club, counted, feed, message, relog, rows, soft  # noqa: E402

from shengji_table.club.standings import level_score, standings  # noqa: E402
from shengji_table.club.wire import events_topic  # noqa: E402
from shengji_table.game.bots import make_bot  # noqa: E402
from shengji_table.game.driver import run_match  # noqa: E402
from shengji_table.game.match import Match  # noqa: E402
from shengji_table.rules.ruleset import Ruleset  # noqa: E402


def _state(db):
    return {name: db.q(f"SELECT * FROM {name} ORDER BY 1") for name in ("events", "hands", "results")}


def test_club_records_each_hand_as_the_rules_settle_it(tmp_path):
    """R-8: the club's own replay settles every hand; its results are the game layer's levels."""
    server = club(tmp_path / "club.sqlite")
    t = soft(tmp_path, "T1", seed=11, hands=3)
    t.play()
    assert set(feed(server, "T1", t.log)) == {"stored"}
    hands = server.db.q("SELECT number, summary FROM hands ORDER BY number")
    assert [h[0] for h in hands] == [1, 2, 3]
    # an independent replay of the same seeds by the game layer gives the same settlements
    ref = Match(Ruleset.from_preset("classic"))
    seeds = t.seeds
    run_match(ref, [make_bot("random", 11 * 100 + i) for i in range(4)], seeds)
    assert [json.loads(s)["levels_after"] for _, s in hands] == [s["levels_after"] for s in ref.summaries]
    gained = {"Li & Zhao": 0, "Wang & Chen": 0}
    for s in ref.summaries:
        gained["Li & Zhao"] += s["levels_after"][0] - s["levels_before"][0]
        gained["Wang & Chen"] += s["levels_after"][1] - s["levels_before"][1]
    got = {r["label"]: r["score"] for r in standings(server.db)}
    assert got == {k: v for k, v in gained.items()}


def test_club_takes_each_row_once_resends_and_rows_ahead_change_nothing(tmp_path):
    server = club(tmp_path / "club.sqlite")
    t = soft(tmp_path, "T1", seed=3, hands=1)
    t.play()
    all_rows = rows(t.log)
    first = [server.handle(events_topic("T1"), message("T1", r)) for r in all_rows[:50]]
    assert {x.status for x in first} == {"stored"} and first[-1].ack == 50
    before = _state(server.db)
    ahead = server.handle(events_topic("T1"), message("T1", all_rows[60]))
    again = server.handle(events_topic("T1"), message("T1", all_rows[10]))
    assert (ahead.status, ahead.ack) == ("ahead", 50) and (again.status, again.ack) == ("duplicate", 50)
    assert _state(server.db) == before
    feed(server, "T1", t.log)                        # the whole log again, from the start
    assert [r[2] for r in counted(server.db)] == list(range(1, len(all_rows) + 1))
    assert server.db.one("SELECT COUNT(*) FROM hands") == 1


def test_club_refuses_an_unknown_table_and_stores_nothing(tmp_path):
    server = club(tmp_path / "club.sqlite")
    t = soft(tmp_path, "T9", seed=3, hands=1)
    t.play()
    taken = server.handle(events_topic("T9"), message("T9", rows(t.log)[0]))
    assert taken.status == "refused" and "not one of the club's tables" in taken.reason and taken.ack is None
    assert server.db.q("SELECT table_id, reason FROM refusals")[0][0] == "T9"
    assert counted(server.db) == []


def test_club_refuses_malformed_messages_with_the_reason(tmp_path):
    server = club(tmp_path / "club.sqlite")
    t = soft(tmp_path, "T1", seed=3, hands=1)
    good = json.loads(message("T1", rows(t.log)[0]))
    bad = [b"not json", b"[1, 2]", json.dumps({**good, "v": 9}).encode(), json.dumps({**good, "seq": 0}).encode(),
           json.dumps({**good, "kind": "gossip"}).encode(), json.dumps({**good, "table": "T2"}).encode()]
    reasons = [server.handle(events_topic("T1"), raw) for raw in bad]
    assert all(r.status == "refused" and r.reason.startswith("a malformed message") for r in reasons)
    assert "version 9" in reasons[2].reason and "seq starts at 1" in reasons[3].reason
    assert "table 'T2'" in reasons[5].reason
    other = server.handle("somebody/else", b"{}")
    assert other.status == "refused" and "not a table's events topic" in other.reason
    assert counted(server.db) == [] and server.db.one("SELECT COUNT(*) FROM refusals") == len(bad) + 1


def test_club_refuses_a_hand_that_does_not_replay(tmp_path):
    """A table's log whose play the rules refuse (a card played out of turn: R-5) is not counted:
    the hand is refused with the rule's reason; the rows are kept as the table's record."""
    server = club(tmp_path / "club.sqlite")
    t = soft(tmp_path, "T1", seed=5, hands=1)
    t.play()
    all_rows = rows(t.log)
    # the first play (a tap in the playing phase): the seat changed to one whose turn it is not
    i = next(k for k, r in enumerate(all_rows) if r[2] == "game" and json.loads(r[3])["type"] == "confirm")
    tampered = json.loads(all_rows[i][3])
    tampered["seat"] = (tampered["seat"] + 1) % 4
    feed(server, "T1", relog(tmp_path / "bad.db", t.log, {all_rows[i][0]: tampered}))
    reasons = [r[0] for r in server.db.q("SELECT reason FROM refusals")]
    assert len(reasons) == 1 and reasons[0].startswith("hand 1 does not replay: confirm by seat")
    assert server.db.one("SELECT COUNT(*) FROM hands") == 0 and standings(server.db) == []
    assert len(counted(server.db)) == len(all_rows)


def test_club_refuses_an_unknown_player(tmp_path):
    server = club(tmp_path / "club.sqlite")
    t = soft(tmp_path, "T1", seed=5, hands=1)
    t.names = ()
    start = json.loads(rows(t.log)[1][3])             # row 1 is the log's format row, row 2 the start
    start["start"]["seats"] = ["Li", "Wang", "Zhao", "Nobody"]
    t.play()
    feed(server, "T1", relog(tmp_path / "bad.db", t.log, {2: start}))
    assert [r[0] for r in server.db.q("SELECT reason FROM refusals")] == [
        "unknown player(s) Nobody: not the club's players (add them to the session's partnerships)"]
    assert server.db.one("SELECT COUNT(*) FROM hands") == 0


def test_club_restarted_rebuilds_its_replays_and_records_no_hand_twice(tmp_path):
    server = club(tmp_path / "club.sqlite")
    t = soft(tmp_path, "T1", seed=8, hands=2)
    t.play()
    half = rows(t.log)[: len(rows(t.log)) // 2]
    for r in half:
        server.handle(events_topic("T1"), message("T1", r))
    server.stop()
    again = club(tmp_path / "club.sqlite")
    assert set(feed(again, "T1", t.log)) == {"stored", "duplicate"}
    fresh = club(tmp_path / "fresh.sqlite")
    feed(fresh, "T1", t.log)
    assert standings(again.db) == standings(fresh.db) and again.db.one("SELECT COUNT(*) FROM hands") == 2


def test_standings_take_the_scoring_function(tmp_path):
    server = club(tmp_path / "club.sqlite")
    t = soft(tmp_path, "T1", seed=9, hands=2)
    t.play()
    feed(server, "T1", t.log)

    def attackers_points(results):
        out = {}
        for r in results:
            out[r.label] = out.get(r.label, 0) + (0 if r.declarer else r.attackers_points)
        return out
    by_points = standings(server.db, score=attackers_points)
    assert sum(r["score"] for r in by_points) == sum(
        json.loads(s)["result"]["attackers_points"] for (s,) in server.db.q("SELECT summary FROM hands"))
    assert [r["label"] for r in standings(server.db, score=level_score)] == [r["label"] for r in standings(server.db)]


def test_club_refuses_a_row_that_does_not_follow_the_logs_hash_chain(tmp_path):
    """A row altered on its way (or in the table's log): its hash no longer chains; the match stops
    counting from there, the rows after it (which chain from the table's own) are stored."""
    server = club(tmp_path / "club.sqlite")
    t = soft(tmp_path, "T1", seed=5, hands=1)
    t.play()
    all_rows = rows(t.log)
    i = next(k for k, r in enumerate(all_rows) if r[2] == "game" and json.loads(r[3])["type"] == "confirm")
    altered = json.loads(all_rows[i][3])
    altered["seat"] = (altered["seat"] + 1) % 4
    for k, r in enumerate(all_rows):
        raw = message("T1", r) if k != i else message("T1", (*r[:3], json.dumps(altered), *r[4:]))
        server.handle(events_topic("T1"), raw)
    reasons = [r[0] for r in server.db.q("SELECT reason FROM refusals")]
    assert reasons == [f"row {all_rows[i][0]} of table T1's log does not follow the row before it in the log's hash "
                       f"chain: it was altered (shengji-table log verify at the table)"]
    assert server.db.one("SELECT COUNT(*) FROM hands") == 0 and len(counted(server.db)) == len(all_rows)
