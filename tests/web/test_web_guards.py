"""The console's guards (``face/web/guard.py``, ``docs/security.md``) with Starlette's TestClient over
the real app, controller, service and SQLite log: the anti-forgery token and the Origin check on
every state-changing request, only the expected content type parsed, the security headers on every
answer, logins and hand reads noted once per session, and a wrong-PIN flood written as one
summary row, not a row per attempt.  No refusal changes anything."""
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from webtable import PIN, Clock, feed_until, make_table, tricks  # noqa: E402

from shengji_table.face.web.app import COOKIE, create_app  # noqa: E402
from shengji_table.face.web.auth import RefereeGate, hash_pin  # noqa: E402
from shengji_table.face.web.hub import Hub  # noqa: E402

BASIC = ("referee", PIN)
PENALTY = {"at_fault": 0, "points": 100, "reason": "forged"}


@pytest.fixture
def table(tmp_path):
    svc, events = make_table(tmp_path / "log.db", referee_undo=True)
    feed_until(svc, events, 0, tricks(2))
    clock = Clock()
    with TestClient(create_app(Hub(svc), RefereeGate(hash_pin(PIN), clock=clock))) as client:
        yield svc, client, clock


def state(svc, client) -> tuple:
    return len(svc.log.game_events(svc.match)), client.get("/api/table").json()


def referee_rows(svc, action: str | None = None) -> list:
    rows = [e.payload["referee"] for e in svc.log.entries(kind="meta") if "referee" in e.payload]
    return [r for r in rows if action is None or r["action"] == action]


def log_in(client) -> str:
    r = client.post("/referee/login", data={"pin": PIN}, follow_redirects=False)
    assert r.status_code == 303
    client.cookies.clear()
    client.cookies.set(COOKIE, r.cookies[COOKIE])
    return client.get("/api/referee").json()["csrf"]


def test_a_session_changes_nothing_without_its_anti_forgery_token(table):
    """R-10.1: a penalty through the referee's session needs the session's token (X-CSRF-Token);
    without it, or with another, 403 and nothing changes."""
    svc, client, _ = table
    csrf = log_in(client)
    before = state(svc, client)
    for headers in ({}, {"X-CSRF-Token": "x" + csrf}, {"X-CSRF-Token": ""}):
        r = client.post("/api/referee/penalty", json=PENALTY, headers=headers)
        assert r.status_code == 403 and "anti-forgery" in r.json()["error"]
    assert state(svc, client) == before
    r = client.post("/api/referee/penalty", json=PENALTY, headers={"X-CSRF-Token": csrf, "Origin": "http://testserver",
                                                                   "Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 200 and state(svc, client)[0] == before[0] + 1


@pytest.mark.parametrize("headers", [
    {"Origin": "http://127.0.0.1:9999"},                    # another port of the same host: same site
    {"Origin": "null"},
    {"Referer": "http://evil.example/attack.html"},
    {"Sec-Fetch-Site": "same-site"},
    {"Sec-Fetch-Site": "cross-site"},
])
def test_a_request_from_another_origin_changes_nothing_even_with_the_pin(table, headers):
    """R-10.1: a state-changing request from another origin is refused (403), HTTP Basic or not."""
    svc, client, _ = table
    before = state(svc, client)
    r = client.post("/api/referee/penalty", json=PENALTY, auth=BASIC, headers=headers)
    assert r.status_code == 403 and "error" in r.json()
    r = client.post("/referee/login", data={"pin": PIN}, headers=headers, follow_redirects=False)
    assert r.status_code == 403 and COOKIE not in r.headers.get("set-cookie", "")
    assert state(svc, client) == before


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                          None])
def test_only_json_is_parsed_for_an_action(table, content_type):
    """A form or text/plain body (what another site's form can send without asking) is 415."""
    svc, client, _ = table
    before = state(svc, client)
    headers = {"Content-Type": content_type} if content_type else {}
    r = client.post("/api/referee/penalty", content=b'{"at_fault": 0, "points": 100, "reason": "x"}',
                    headers=headers, auth=BASIC)
    assert r.status_code == 415 and "application/json" in r.json()["error"]
    assert state(svc, client) == before


def test_the_login_takes_only_a_form(table):
    svc, client, _ = table
    r = client.post("/referee/login", json={"pin": PIN}, follow_redirects=False)
    assert r.status_code == 415 and COOKIE not in r.headers.get("set-cookie", "")


def test_a_json_body_nested_too_deeply_is_a_clear_400(table):
    svc, client, _ = table
    before = state(svc, client)
    r = client.post("/api/referee/penalty", content=b"[" * 5000 + b"]" * 5000, auth=BASIC,
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    assert state(svc, client) == before


def test_every_answer_has_the_security_headers_and_the_console_is_not_cached(table):
    svc, client, _ = table
    client.post("/referee/login", data={"pin": PIN})
    for path in ("/", "/api/table", "/referee", "/api/referee", "/static/table.js", "/nowhere"):
        h = client.get(path, auth=BASIC).headers
        csp = h["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp, path
        assert h["x-frame-options"] == "DENY" and h["x-content-type-options"] == "nosniff", path
    for path in ("/referee", "/api/referee"):
        assert client.get(path, auth=BASIC).headers["cache-control"] == "no-store", path
    r = client.post("/referee/login", data={"pin": "0"})
    assert r.headers["cache-control"] == "no-store"


def test_a_login_and_the_first_read_of_the_hands_are_noted_once_per_session(table):
    """docs/referee.md section 2: every login is logged; a session's reads of the hands once."""
    svc, client, _ = table
    log_in(client)
    for _ in range(3):
        assert client.get("/api/referee").status_code == 200
    client.cookies.clear()
    for _ in range(3):
        assert client.get("/api/referee", auth=BASIC).status_code == 200
    logins = [(r["by"], r["accepted"]) for r in referee_rows(svc, "login")]
    reads = [r["by"] for r in referee_rows(svc, "read")]
    assert logins == [("form@testclient", True), ("basic@testclient", True)]
    assert reads == ["session@testclient", "basic@testclient"]
    assert all(r["time"].endswith("Z") for r in referee_rows(svc))


def test_a_wrong_pin_flood_is_one_summary_row_and_the_open_session_keeps_working(table):
    """300 wrong PINs (and the locked ones after them) write nothing while they come; the summary
    after the window is one row for the address; the referee's open session works throughout."""
    svc, client, clock = table
    csrf = log_in(client)
    session = client.cookies[COOKIE]
    rows = len(list(svc.log.entries()))
    statuses = set()
    for _ in range(300):
        client.cookies.clear()
        statuses.add(client.get("/api/referee", auth=("referee", "wrong-pin")).status_code)
        client.cookies.set(COOKIE, session)
        assert client.get("/api/referee").status_code == 200
    assert statuses == {401, 429}
    r = client.post("/api/referee/pause", json={"reason": "tea"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200
    written = list(svc.log.entries())[rows:]
    assert not [e for e in written if e.kind == "meta" and e.payload.get("referee", {}).get("action") == "login"]
    clock.now += 61
    client.cookies.clear()
    client.get("/api/referee", auth=("referee", "wrong-pin"))       # the next attempt writes the summary
    summary = [r for r in referee_rows(svc, "login") if not r["accepted"]]
    assert len(summary) == 1 and summary[0]["wrong"] + summary[0]["refused_locked"] == 300
    assert summary[0]["wrong"] == 5                       # the rest were refused unchecked while locked
    print(f"\nPIN flood: 300 wrong PINs -> {len(summary)} summary row, "
          f"{summary[0]['wrong']} compared, {summary[0]['refused_locked']} refused while locked")
