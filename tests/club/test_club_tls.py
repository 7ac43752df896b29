"""The club over TLS (``mqtts://``): certificates made by ``club certs make`` with the real openssl,
a real mosquitto with a TLS listener, the club's password file and ACL.  A table's rows carry every
card dealt, so on a club network they travel encrypted and only to a broker the club's CA vouches for."""
import logging
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from clubkit import counted, need_mosquitto, reporting, soft  # noqa: E402

from shengji_table.club.wire import BrokerURL, WireError, parse_broker_url  # noqa: E402


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "shengji_table", "club", *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)


def _certs(directory, *hosts):
    out = _cli("certs", "make", str(directory), *[a for h in hosts for a in ("--host", h)])
    assert out.returncode == 0, out.stderr
    return directory / "ca.pem", directory / "broker.pem", directory / "broker.key"


@pytest.fixture
def tls_broker(tmp_path):
    """A TLS-only mosquitto on 127.0.0.1 with the club's users T1 and club; its CA certificate."""
    need_mosquitto()
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed (the Debian package openssl)")
    from shengji_table.club.broker import Mosquitto
    ca, cert, key = _certs(tmp_path / "tls", "127.0.0.1", "localhost")
    passwd = tmp_path / "passwd"
    out = _cli("tables", "add", "--db", str(tmp_path / "club.sqlite"), "--passwd", str(passwd), "T1")
    assert out.returncode == 0, out.stderr
    words = {line.split()[2].rstrip(":"): line.split("password ")[1].split()[0]
             for line in out.stdout.splitlines() if "password " in line}
    broker = Mosquitto(passwd_file=passwd, tls=(cert, key)).start()
    yield broker, words, ca, tmp_path
    broker.stop()


def _url(broker, user, password, ca) -> BrokerURL:
    return parse_broker_url(f"mqtts://{user}:{password}@127.0.0.1:{broker.port}?ca={ca}")


def test_a_table_reports_to_the_club_over_tls(tls_broker):
    """Every row of a played match reaches the club through the TLS listener, acknowledged."""
    broker, pw, ca, tmp = tls_broker
    assert broker.url.startswith("mqtts://")
    with reporting(tmp, _url(broker, "club", pw["club"], ca), _url(broker, "T1", pw["T1"], ca),
                   seed=3, hands=1) as (server, t):
        with server.lock:
            assert [r[2] for r in counted(server.db, "T1")] == list(range(1, t.log.last_id() + 1))


def test_plain_mqtt_is_not_spoken_on_the_tls_port(tls_broker):
    """A client that does not speak TLS gets no MQTT answer: the rows never travel in the clear."""
    broker, _pw, _ca, _tmp = tls_broker
    connect = bytes([0x10, 12, 0, 4]) + b"MQTT" + bytes([4, 2, 0, 60, 0, 0])   # MQTT 3.1.1 CONNECT, no id
    with socket.create_connection(("127.0.0.1", broker.port), 5) as s:
        s.settimeout(3)
        s.sendall(connect)
        try:
            answer = s.recv(16)
        except (TimeoutError, ConnectionResetError):
            answer = b""
    assert not answer.startswith(b"\x20"), answer          # 0x20: a CONNACK


def test_a_broker_the_clubs_ca_does_not_vouch_for_is_refused(tls_broker, tmp_path, caplog):
    """A table holding another CA (a broker posing as the club's) never connects and says why
    once; nothing it holds is sent."""
    from shengji_table.club.publisher import TablePublisher
    broker, pw, _ca, tmp = tls_broker
    other_ca, _, _ = _certs(tmp_path / "other", "127.0.0.1")
    t = soft(tmp, "T1", seed=4, hands=1)
    t.play()
    caplog.set_level(logging.WARNING, logger="shengji_table.club")
    pub = TablePublisher(t.log.path, "T1", _url(broker, "T1", pw["T1"], other_ca)).start()
    try:
        time.sleep(3)
        assert not pub.connected and pub.published == 0
        said = [r.getMessage() for r in caplog.records if "cannot connect" in r.getMessage()]
        assert len(said) == 1 and "?ca=" in said[0], said
    finally:
        pub.stop()


def test_broker_urls_with_and_without_tls():
    assert parse_broker_url("mqtts://club.local") == BrokerURL("club.local", 8883, tls=True)
    u = parse_broker_url("mqtts://T1:p%40ss@10.0.0.2:9000?ca=/etc/club/ca.pem")
    assert (u.port, u.username, u.password, u.tls, u.ca_file) == (9000, "T1", "p@ss", True, "/etc/club/ca.pem")
    assert str(u) == "mqtts://10.0.0.2:9000"                       # printed: never the password
    assert parse_broker_url("mqtt://h") == BrokerURL("h", 1883)
    for bad, words in (("mqtt://h?ca=x.pem", "no options"), ("mqtts://h?cert=x", "only ?ca=FILE"),
                       ("mqtts://h?ca=", "names the club's CA"), ("https://h", "mqtts://HOST:PORT?ca=FILE")):
        with pytest.raises(WireError) as err:
            parse_broker_url(bad)
        assert words in str(err.value), (bad, err.value)


def test_a_missing_or_bad_ca_file_is_a_clear_error_and_changes_nothing(tmp_path):
    """``club serve`` and a table's ``--club`` refuse a CA file that is missing or not PEM: exit 2,
    the reason, and no club database made."""
    not_pem = tmp_path / "ca.pem"
    not_pem.write_text("this is not a certificate\n")
    for ca, words in ((tmp_path / "missing.pem", "does not exist"), (not_pem, "not a CA certificate")):
        db = tmp_path / "club.sqlite"
        out = _cli("serve", "--db", str(db), "--broker", f"mqtts://club:pw@127.0.0.1:8883?ca={ca}", "--for", "1")
        assert out.returncode == 2 and words in out.stderr, out.stderr
        assert not db.exists()
        table = subprocess.run([sys.executable, "-m", "shengji_table", "demo", "--hands", "1", "--club",
                                f"mqtts://T1:pw@127.0.0.1:8883?ca={ca}", "--table-id", "T1",
                                "--log", str(tmp_path / "t.db")], capture_output=True, text=True,
                               stdin=subprocess.DEVNULL, timeout=60)
        assert table.returncode == 2 and words in table.stderr, table.stderr
        assert not (tmp_path / "t.db").exists()


def test_certs_make_refuses_bad_hosts_and_a_used_directory(tmp_path):
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed (the Debian package openssl)")
    out = _cli("certs", "make", str(tmp_path / "a"), "--host", "bad host")
    assert out.returncode == 2 and "a name or an IP address" in out.stderr
    assert not (tmp_path / "a").exists()
    _certs(tmp_path / "b", "192.168.1.10")
    before = (tmp_path / "b" / "ca.pem").read_bytes()
    out = _cli("certs", "make", str(tmp_path / "b"), "--host", "192.168.1.10")
    assert out.returncode == 2 and "nothing was changed" in out.stderr
    assert (tmp_path / "b" / "ca.pem").read_bytes() == before
    text = subprocess.run(["openssl", "x509", "-in", str(tmp_path / "b" / "broker.pem"), "-noout", "-ext",
                           "subjectAltName"], capture_output=True, text=True).stdout
    assert "192.168.1.10" in text
    assert (tmp_path / "b" / "ca.key").stat().st_mode & 0o077 == 0
