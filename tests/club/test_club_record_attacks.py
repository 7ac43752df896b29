"""The club's record under attack, bounded: a row altered on its way with its hash blanked, a forged
row, a table restarting on a new log, a table's credentials taking the club's client id, two club
servers on one database.  Each case prints its figures (``[figures] …``: rows stored, refused)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from clubkit import club, counted, feed, kept, message, need_mosquitto, rows, soft, wait_for  # noqa: E402

from shengji_table.club.wire import events_topic  # noqa: E402


def _figures(case: str, taken: list, server) -> dict:
    out = {s: sum(1 for t in taken if t.status == s) for s in ("stored", "refused", "ahead", "duplicate")}
    out["hands"] = server.db.one("SELECT COUNT(*) FROM hands")
    print(f"[figures] {case}: {json.dumps(out)}")
    return out


def test_a_row_with_its_hash_blanked_on_its_way_is_refused_and_nothing_after_it_counts(tmp_path):
    """A row altered in transit and its hash set to null, so the chain check has nothing to go by:
    refused as malformed (not stored, not acknowledged); the rows after it wait for it (ahead, not
    stored).  The genuine row resent, everything is taken and the hand counts."""
    server = club(tmp_path / "club.sqlite")
    t = soft(tmp_path, "T1", seed=5, hands=1)
    t.play()
    all_rows = rows(t.log)
    i = next(k for k, r in enumerate(all_rows) if r[2] == "game" and json.loads(r[3])["type"] == "confirm")
    altered = json.loads(all_rows[i][3])
    altered["seat"] = (altered["seat"] + 1) % 4
    forged = json.loads(message("T1", all_rows[i]))
    forged.update(payload=altered, hash=None)
    taken = [server.handle(events_topic("T1"), message("T1", r)) for r in all_rows[:i]]
    blank = server.handle(events_topic("T1"), json.dumps(forged).encode())
    after = [server.handle(events_topic("T1"), message("T1", r)) for r in all_rows[i + 1:]]
    assert blank.status == "refused" and blank.ack is None and "no 'hash'" in blank.reason
    assert {a.status for a in after} == {"ahead"}
    assert len(counted(server.db)) == i and server.db.one("SELECT COUNT(*) FROM hands") == 0
    figures = _figures("blank hash", taken + [blank] + after, server)
    assert figures["refused"] == 1 and figures["stored"] == i
    resent = [server.handle(events_topic("T1"), message("T1", r)) for r in all_rows[i:]]
    assert {r.status for r in resent} == {"stored"} and server.db.one("SELECT COUNT(*) FROM hands") == 1
    assert len(counted(server.db)) == len(all_rows)


def test_a_forged_first_row_naming_another_log_is_refused(tmp_path):
    """Row 1 carries the log's identity: a message that names another log for it is not stored."""
    server = club(tmp_path / "club.sqlite")
    t = soft(tmp_path, "T1", seed=5, hands=1)
    first = rows(t.log)[0]
    taken = server.handle(events_topic("T1"), message("T1", (*first[:6], "ab" * 16)))
    assert taken.status == "refused" and "names log" in taken.reason and counted(server.db) == []


def test_a_table_restarting_on_a_new_log_sends_the_new_log_whole(tmp_path):
    """Table T1 reports a log, then starts a new one under the same table id: the club's retained ack
    is for the old log and is not taken as a position in the new one; every row of both logs is
    stored once, each log a stream of its own, and every hand counts."""
    need_mosquitto()
    from shengji_table.club.broker import Mosquitto
    from shengji_table.club.publisher import TablePublisher
    from shengji_table.club.wire import BrokerURL
    with Mosquitto() as broker:
        url = BrokerURL("127.0.0.1", broker.port)
        server = club(tmp_path / "club.sqlite", broker=url).start()
        first = soft(tmp_path, "T1", seed=3, hands=2)
        pub = TablePublisher(first.log.path, "T1", url).start()
        first.listeners.append(pub.notify)
        first.play()
        wait_for(pub.caught_up, 30)
        pub.stop()
        old_id, old_rows = first.log.identity()[1], first.log.last_id()
        first.close()
        second = soft(tmp_path, "T1", seed=4, hands=1)           # a new log file, the same table
        assert second.log.last_id() < old_rows            # the old log's ack is beyond the new log's end
        pub = TablePublisher(second.log.path, "T1", url).start()
        second.listeners.append(pub.notify)
        second.play()
        new_id, new_rows = second.log.identity()[1], second.log.last_id()
        try:
            wait_for(lambda: server.db.q("SELECT 1 FROM hands") and pub.caught_up()
                     and len(counted(server.db, "T1")) == old_rows + new_rows, 30)
        finally:
            pub.stop()
            server.stop()
    from shengji_table.club.db import ClubDB
    db = ClubDB(tmp_path / "club.sqlite")
    try:
        stored = {n: [r[0] for r in db.q("SELECT seq FROM events WHERE log=? ORDER BY seq", (lid,))]
                  for n, lid in (("old", old_id), ("new", new_id))}
        hands, refused = db.one("SELECT COUNT(*) FROM hands"), db.one("SELECT COUNT(*) FROM refusals")
        from shengji_table.club.standings import score_sheet
        sheet = [(r["match"], r["hand"]) for r in score_sheet(db, "T1")]      # hand 1 of each log: both shown
    finally:
        db.close()
    figures = {"old log rows": len(stored["old"]), "new log rows": len(stored["new"]), "hands": hands,
               "refused": refused}
    print(f"[figures] new log: {json.dumps(figures)}")
    assert stored == {"old": list(range(1, old_rows + 1)), "new": list(range(1, new_rows + 1))}
    assert hands == 3 and refused == 0 and sheet == [("table", 1), ("table", 2), ("table", 1)]


def test_a_second_club_server_on_the_same_database_fails_at_once_naming_the_first(tmp_path):
    """One writer a club database: a second server (in this process, or ``club serve``) is refused
    with the first one's process id; the first goes on storing every row."""
    import os

    from shengji_table.club.db import ClubDBError
    from shengji_table.club.server import ClubServer
    path = tmp_path / "club.sqlite"
    server = club(path)
    with pytest.raises(ClubDBError, match=f"in use by process {os.getpid()}.*one club server"):
        ClubServer(path, None)
    out = subprocess.run([sys.executable, "-m", "shengji_table", "club", "serve", "--db", str(path), "--broker",
                          "mqtt://127.0.0.1:1", "--web", "127.0.0.1:0", "--for", "5"], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 2 and f"is in use by process {os.getpid()}" in out.stderr
    assert "Traceback" not in out.stderr
    t = soft(tmp_path, "T1", seed=3, hands=1)
    t.play()
    taken = [server.handle(events_topic("T1"), message("T1", r)) for r in rows(t.log)]
    figures = _figures("two club servers", taken, server)
    assert figures["stored"] == len(taken) and figures["hands"] == 1


@pytest.fixture
def secure(tmp_path):
    """A mosquitto with the club's password file and ACL (as tests/club/test_club_broker.py): tables
    T1, T2 added by the command; the passwords."""
    need_mosquitto()
    from shengji_table.club.broker import Mosquitto
    passwd = tmp_path / "passwd"
    out = subprocess.run([sys.executable, "-m", "shengji_table", "club", "tables", "add", "--db",
                          str(tmp_path / "club.sqlite"), "--passwd", str(passwd), "T1", "T2"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    words = {line.split()[2].rstrip(":"): line.split("password ")[1].split()[0]
             for line in out.stdout.splitlines() if "password " in line}
    broker = Mosquitto(passwd_file=passwd).start()
    yield broker, words, tmp_path
    broker.stop()


def test_a_tables_credentials_cannot_take_over_the_clubs_connection(secure):
    """MQTT drops the older of two connections with one client id.  A table's user connecting with
    the club server's own client id (and with the club's old fixed one) does not cut the club off:
    the broker ties client ids to user names; the club goes on taking the table's rows."""
    import paho.mqtt.client as mqtt

    from shengji_table.club.publisher import TablePublisher
    from shengji_table.club.wire import BrokerURL
    broker, pw, tmp = secure
    server = club(tmp / "club.sqlite", tables=("T1", "T2"),
                  broker=BrokerURL("127.0.0.1", broker.port, "club", pw["club"])).start()
    drops: list = []
    keep = server.client.on_disconnect
    server.client.on_disconnect = lambda *a: (drops.append(a[3]), keep(*a))
    wait_for(server.connected.is_set, 10)
    attackers = []
    try:
        for client_id in (server.client._client_id.decode(), "shengji-club"):
            c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id)
            c.username_pw_set("T2", pw["T2"])
            got: dict = {}
            c.on_connect = lambda cl, u, f, reason, p, got=got: got.setdefault("reason", reason)
            c.connect("127.0.0.1", broker.port)
            c.loop_start()
            attackers.append(c)
            wait_for(lambda got=got: "reason" in got, 5)
            assert not got["reason"].is_failure
        t = soft(tmp, "T1", seed=3, hands=1)
        pub = TablePublisher(t.log.path, "T1", BrokerURL("127.0.0.1", broker.port, "T1", pw["T1"])).start()
        t.listeners.append(pub.notify)
        t.play()
        try:
            wait_for(pub.caught_up, 30)
        finally:
            pub.stop()
        with server.lock:
            assert len(counted(server.db, "T1")) == t.log.last_id()
        assert drops == [] and server.connected.is_set()
    finally:
        for c in attackers:
            c.loop_stop()
            c.disconnect()
        server.stop()


def _mid_trick(t) -> int:
    """How many rows of ``t``'s log to feed so that a trick is on the table: up to the second play of
    the second trick."""
    plays = 0
    for k, r in enumerate(rows(t.log)):
        if r[2] == "game" and json.loads(r[3])["type"] == "confirm":
            plays += 1
            if plays == 4 + 2:
                return k + 1
    raise AssertionError("no second trick")


def test_the_clubs_open_overview_never_shows_a_hand_being_played(tmp_path):
    """Anyone on the club's network reads ``/api/overview``: while a hand goes on it shows no trick,
    no last trick, no points taken and no turn (a table's spectator delay cannot be got round
    through the club); once the hand is over, its result."""
    from starlette.testclient import TestClient

    from shengji_table.club.web import create_club_app
    server = club(tmp_path / "club.sqlite")
    t = soft(tmp_path, "T1", seed=5, hands=1)
    t.play()
    all_rows = rows(t.log)
    cut = _mid_trick(t)
    for r in all_rows[:cut]:
        server.handle(events_topic("T1"), message("T1", r))
    with TestClient(create_club_app(server)) as client:
        live = client.get("/api/overview").json()["tables"][0]["public"]
        assert live["phase"] == "playing" and live["hand"] == 1
        assert live["trick"] == [] and live["last_trick"] is None and live["turn"] is None
        assert live["points"]["attackers"] == 0 and live["tricks_played"] == 0
        assert not any(s["turn"] or s["points"] for s in live["seats"])
        for r in all_rows[cut:]:
            server.handle(events_topic("T1"), message("T1", r))
        over = client.get("/api/overview").json()["tables"][0]["public"]
        assert over["result"] and over["tricks_played"] > 0 and "live" not in over


def test_the_publisher_takes_only_its_own_logs_ack(tmp_path):
    """An ack names its log: the retained ack of another log (the table's previous one) leaves the
    publisher's position alone; its own log's ack is taken; an ack without a log (an older club)
    names no log and is not taken either."""
    import types

    from shengji_table.club.publisher import TablePublisher
    from shengji_table.club.wire import BrokerURL, encode_ack
    pytest.importorskip("paho.mqtt.client")
    t = soft(tmp_path, "T1", seed=3, hands=1)
    pub = TablePublisher(t.log.path, "T1", BrokerURL("127.0.0.1", 1))
    try:
        assert pub._open() is not None and pub.log_id == t.log.identity()[1]
        for raw in (encode_ack(400, "ab" * 16), b'{"seq": 400}'):
            pub._on_message(None, None, types.SimpleNamespace(payload=raw, retain=True))
            assert (pub.acked, pub.sent) == (0, 0)
        pub._on_message(None, None, types.SimpleNamespace(payload=encode_ack(7, pub.log_id), retain=True))
        assert (pub.acked, pub.sent) == (7, 7)
    finally:
        pub._reader.close()


def _without_format_row(src, dest):
    """A copy of the log at ``src`` as a build before the format row wrote it: row 1 the match's
    start, chained from there (its identity: the first 32 hex digits of row 1's hash)."""
    import shutil
    import sqlite3

    from shengji_table.store.log import GENESIS, EventLog, row_hash
    shutil.copy(src, dest)
    db = sqlite3.connect(dest)
    db.executescript("DROP TRIGGER entries_no_update; DROP TRIGGER entries_no_delete; DELETE FROM entries WHERE id=1;"
                     "UPDATE entries SET id = -id; UPDATE entries SET id = -id - 1;")
    previous = GENESIS
    for rid, match, kind, boot, seq, text, at in db.execute(
            "SELECT id, match, kind, boot, seq, payload, at FROM entries ORDER BY id").fetchall():
        previous = row_hash(previous, rid, match, kind, boot, seq, text, at)
        db.execute("UPDATE entries SET hash=? WHERE id=?", (previous, rid))
    db.commit()
    db.close()
    log = kept(EventLog(dest, read_only=True))
    assert log.verify().ok and log.identity()[0] == 1
    return log


def test_a_club_database_of_the_previous_schema_keeps_its_rows_and_counts_no_hand_twice(tmp_path):
    """Migration 4 rebuilds ``events`` and ``hands`` keyed by log: a database written before it keeps
    every row, hand and result, each under the identity its table's log has (row 1's hash), so a
    table that carries on with the same log after the club's upgrade is not counted twice."""
    import sqlite3

    from shengji_table.club.db import MIGRATIONS, ClubDB
    t = soft(tmp_path, "T1", seed=11, hands=2)
    t.play()
    t.close()                                  # every row in the .db (a clean close checkpoints)
    log = _without_format_row(t.log.path, tmp_path / "old-table.db")
    lid = log.identity()[1]
    server = club(tmp_path / "club.sqlite")
    assert set(feed(server, "T1", log)) == {"stored"}
    events = server.db.q("SELECT table_id, match, seq, kind, payload, at, hash, received FROM events ORDER BY seq")
    hands = server.db.q("SELECT id, table_id, match, number, round_id, seq, summary, seats, recorded FROM hands")
    results = server.db.q("SELECT * FROM results ORDER BY id")
    players = server.db.q("SELECT id, name, created FROM players")
    server.stop()
    old = tmp_path / "old.sqlite"
    con = sqlite3.connect(old)
    for n in range(3):
        con.executescript(MIGRATIONS[n] + f";PRAGMA user_version={n + 1};")
    con.execute("INSERT INTO tables (id, broker_user, created) VALUES ('T1', 'T1', 1)")
    con.executemany("INSERT INTO players VALUES (?,?,?)", players)
    con.executemany("INSERT INTO events VALUES (?,?,?,?,?,?,?,?)", events)
    con.executemany("INSERT INTO hands VALUES (?,?,?,?,?,?,?,?,?)", hands)
    con.executemany(f"INSERT INTO results VALUES ({','.join('?' * len(results[0]))})", results)
    con.commit()
    con.close()
    db = ClubDB(old)
    try:
        assert db.version == len(MIGRATIONS) == 4 and db.q("PRAGMA foreign_key_check") == []
        assert db.q("SELECT COUNT(*), MIN(log), MAX(log) FROM events") == [(len(events), lid, lid)]
        assert db.q("SELECT DISTINCT log FROM hands") == [(lid,)]
        assert db.one("SELECT COUNT(*) FROM results r JOIN hands h ON h.id = r.hand_id") == 4
    finally:
        db.close()
    again = club(old)
    (key, replay), = again.ingest.replays.items()
    assert key == ("T1", lid, "table") and replay.broken is None and len(replay.match.summaries) == 2
    assert set(feed(again, "T1", log)) == {"duplicate"}               # the same log, resent: nothing twice
    assert again.db.one("SELECT COUNT(*) FROM hands") == 2
