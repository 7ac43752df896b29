"""Tables and the club over a real mosquitto: per-table users in mosquitto's password file (written
by mosquitto_passwd through ``club tables add``), the ACL that keeps a table on its own topics."""
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from clubkit import club, counted, need_mosquitto, reporting, wait_for  # noqa: E402


@pytest.fixture
def secure(tmp_path):
    """A mosquitto with the club's password file and ACL; tables T1, T2 added by the command."""
    need_mosquitto()
    from shengji_table.club.broker import Mosquitto
    passwd = tmp_path / "passwd"
    out = subprocess.run([sys.executable, "-m", "shengji_table", "club", "tables", "add", "--db",
                          str(tmp_path / "club.sqlite"), "--passwd", str(passwd), "T1", "T2"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    words = {line.split()[2].rstrip(":"): line.split("password ")[1].split()[0]
             for line in out.stdout.splitlines() if "password " in line}
    assert set(words) == {"club", "T1", "T2"} and passwd.stat().st_mode & 0o077 == 0
    broker = Mosquitto(passwd_file=passwd).start()
    yield broker, words, tmp_path
    broker.stop()


def _client(port, user, password, name):
    import paho.mqtt.client as mqtt
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=name)
    c.username_pw_set(user, password)
    result = {}
    c.on_connect = lambda cl, u, f, reason, p: result.setdefault("reason", reason)
    c.connect("127.0.0.1", port)
    c.loop_start()
    wait_for(lambda: "reason" in result, 5)
    return c, result["reason"]


def test_a_table_publishes_only_on_its_own_topic(secure):
    """T1's credentials cannot publish on T2's topic: the club never sees it; on its own topic it does."""
    from shengji_table.club.wire import BrokerURL, EventMessage, encode_event, events_topic
    from shengji_table.store.log import GENESIS, row_hash
    broker, pw, tmp = secure
    server = club(tmp / "club.sqlite", tables=("T1", "T2"),
                  broker=BrokerURL("127.0.0.1", broker.port, "club", pw["club"])).start()
    try:
        wait_for(server.connected.is_set, 5)
        t1, reason = _client(broker.port, "T1", pw["T1"], "t1-raw")
        assert not reason.is_failure
        start = {"start": {}, "ruleset": {"preset": "classic"}, "mode": "scanned"}
        at = time.time()
        digest = row_hash(GENESIS, 1, "table", "meta", None, None, json.dumps(start, sort_keys=True,
                                                                              separators=(",", ":")), at)
        as_t2 = EventMessage("T2", "table", 1, "meta", start, at, digest, log=digest[:32])
        t1.publish(events_topic("T2"), encode_event(as_t2), qos=1).wait_for_publish(5)
        as_t1 = EventMessage("T1", "table", 1, "meta", start, at, digest, log=digest[:32])
        t1.publish(events_topic("T1"), encode_event(as_t1), qos=1).wait_for_publish(5)
        wait_for(lambda: counted(server.db, "T1"), 5)
        time.sleep(0.5)
        assert counted(server.db) == [("T1", "table", 1)]
        t1.loop_stop()
        t1.disconnect()
    finally:
        server.stop()


def test_a_wrong_password_or_an_unknown_user_is_refused(secure):
    broker, pw, _ = secure
    for user, password in (("T1", "wrong"), ("T3", pw["T1"]), ("T1", pw["T2"])):
        c, reason = _client(broker.port, user, password, f"x-{user}")
        assert reason.is_failure, (user, reason)
        c.loop_stop()


def test_a_table_reads_only_its_own_ack(secure):
    from shengji_table.club.wire import BrokerURL, ack_topic
    broker, pw, tmp = secure
    server = club(tmp / "club.sqlite", tables=("T1", "T2"),
                  broker=BrokerURL("127.0.0.1", broker.port, "club", pw["club"])).start()
    try:
        wait_for(server.connected.is_set, 5)
        got = []
        t1, _ = _client(broker.port, "T1", pw["T1"], "t1-acks")
        t1.on_message = lambda c, u, msg: got.append(msg.topic)
        t1.subscribe(ack_topic("T1"), qos=1)
        t1.subscribe(ack_topic("T2"), qos=1)
        wait_for(lambda: got, 5)
        time.sleep(0.5)
        assert got == [ack_topic("T1")]        # both retained; T2's is not delivered to T1
        t1.loop_stop()
    finally:
        server.stop()


def test_a_table_reports_through_the_broker_with_its_own_password(secure):
    from shengji_table.club.standings import standings
    from shengji_table.club.wire import BrokerURL
    broker, pw, tmp = secure
    with reporting(tmp, BrokerURL("127.0.0.1", broker.port, "club", pw["club"]),
                   BrokerURL("127.0.0.1", broker.port, "T1", pw["T1"]), tables=("T1", "T2")) as (server, t):
        with server.lock:
            assert [r[2] for r in counted(server.db, "T1")] == list(range(1, t.log.last_id() + 1))
            assert server.db.one("SELECT COUNT(*) FROM hands") == 2 and len(standings(server.db)) == 2
        assert json.loads(server.db.q("SELECT payload FROM events WHERE seq=2")[0][0])["mode"] == "scanned"
