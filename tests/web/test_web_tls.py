"""``--web-tls CERT KEY``: the table's pages over HTTPS, so the referee's PIN does not cross the LAN
in clear — with a certificate made by ``club certs make`` (the real openssl) and the real uvicorn;
the session cookie is then ``Secure``; bad certificate files are refused before anything starts."""
import http.client
import shutil
import ssl
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
sys.path.insert(0, str(Path(__file__).parent))
from test_web_attacks import Target  # noqa: E402
from webtable import PIN  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]


def _cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "shengji_table", *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, cwd=str(REPO_ROOT), timeout=60, **kw)


@pytest.fixture
def certs(tmp_path):
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed (the Debian package openssl)")
    out = _cli("club", "certs", "make", str(tmp_path / "tls"), "--host", "127.0.0.1")
    assert out.returncode == 0, out.stderr
    return tmp_path / "tls" / "ca.pem", tmp_path / "tls" / "broker.pem", tmp_path / "tls" / "broker.key"


def test_the_pages_and_the_pin_go_over_https(certs, tmp_path):
    ca, cert, key = certs
    t = Target(tmp_path, "--tls", str(cert), str(key))
    try:
        assert t.url.startswith("https://127.0.0.1:")
        trusted = ssl.create_default_context(cafile=str(ca))
        conn = http.client.HTTPSConnection(t.host, t.port, context=trusted, timeout=20)
        conn.request("POST", "/referee/login", body=f"pin={PIN}",
                     headers={"Content-Type": "application/x-www-form-urlencoded"})
        r = conn.getresponse()
        r.read()
        assert r.status == 303
        cookie = r.getheader("set-cookie").lower()
        assert "secure" in cookie and "httponly" in cookie and "samesite=strict" in cookie
        conn.request("GET", "/api/table")
        assert conn.getresponse().status == 200
        conn.close()
        plain = http.client.HTTPConnection(t.host, t.port, timeout=20)       # the PIN in clear: no answer
        with pytest.raises((http.client.HTTPException, ConnectionError, OSError)):
            plain.request("POST", "/referee/login", body=f"pin={PIN}",
                          headers={"Content-Type": "application/x-www-form-urlencoded"})
            plain.getresponse().read()
        untrusted = http.client.HTTPSConnection(t.host, t.port, context=ssl.create_default_context(), timeout=20)
        with pytest.raises(ssl.SSLCertVerificationError):
            untrusted.request("GET", "/api/table")
    finally:
        t.stop()


def test_bad_tls_files_are_refused_before_anything_starts(certs, tmp_path):
    ca, cert, key = certs
    log = tmp_path / "demo.db"
    base = ["demo", "--hands", "1", "--log", str(log), "--web", "127.0.0.1:0"]
    for tls, words in (([str(tmp_path / "none.pem"), str(key)], "no such file"),
                       ([str(ca), str(key)], "not a PEM certificate and its key"),
                       ([str(key), str(cert)], "not a PEM certificate and its key")):
        p = _cli(*base, "--web-tls", *tls)
        assert p.returncode == 2 and "--web-tls" in p.stderr and words in p.stderr, p.stderr
        assert "Traceback" not in p.stderr and not log.exists()
    p = _cli("demo", "--hands", "1", "--web-tls", str(cert), str(key))
    assert p.returncode == 2 and "need --web" in p.stderr
    club = tmp_path / "club.sqlite"
    p = _cli("club", "serve", "--db", str(club), "--broker", "mqtt://127.0.0.1:1", "--web", "127.0.0.1:0",
             "--web-tls", str(tmp_path / "none.pem"), str(key))
    assert p.returncode == 2 and f"no such file {tmp_path / 'none.pem'}" in p.stderr and not club.exists()
