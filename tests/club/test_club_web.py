"""The club pages (Starlette's TestClient over the real app): public and read-only; the organiser's
actions behind the referee's PIN mechanism (scrypt PIN, lockout); refusals change nothing."""
import base64
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from clubkit import club, feed, soft  # noqa: E402

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from shengji_table.club.web import create_club_app  # noqa: E402
from shengji_table.face.web.auth import RefereeGate, hash_pin  # noqa: E402

PIN = "4711-0815"


def _basic(pin: str) -> dict:
    return {"Authorization": "Basic " + base64.b64encode(f"organiser:{pin}".encode()).decode(),
            "Content-Type": "application/json"}


@pytest.fixture
def site(tmp_path):
    server = club(tmp_path / "club.sqlite", tables=("T1", "T2"))
    clock = [0.0]
    gate = RefereeGate(hash_pin(PIN), clock=lambda: clock[0])
    with TestClient(create_club_app(server, gate)) as client:
        yield server, client, clock, tmp_path


def _round(client, **kw):
    body = {"session": "Tuesday", "round": 1, "tables": {"T1": {"02": ["Li", "Zhao"], "13": ["Wang", "Chen"]}}}
    body.update(kw)
    return client.post("/api/organiser/start-round", content=json.dumps(body), headers=_basic(PIN))


def test_pages_are_public_and_the_overview_shows_no_hand_or_kitty(site):
    server, client, _, tmp = site
    assert _round(client).status_code == 200
    t = soft(tmp, "T1", seed=4, hands=1)
    t.play_hand()
    feed(server, "T1", t.log)
    for path in ("/", "/standings", "/round", "/tables/T1/sheet", "/api/overview", "/api/standings"):
        assert client.get(path).status_code == 200, path
    over = client.get("/api/overview").json()["tables"][0]["public"]
    text = json.dumps(over)
    assert over["hand"] == 1 and "hands" not in over and "stack" not in text and "buried" not in text
    sheet = client.get("/tables/T1/sheet").text
    assert "Li &amp; Zhao" in sheet and "Wang &amp; Chen" in sheet
    assert "@media print" in client.get("/static/club.css").text
    cards = client.get("/round").text
    assert "Table T1" in cards and "Seats 0 and 2: <b>Li &amp; Zhao</b>" in cards
    st = client.get("/api/standings").json()
    assert st["hands"] == 1 and {r["label"] for r in st["sessions"][0]["standings"]} == {"Li & Zhao", "Wang & Chen"}
    assert client.get("/tables/T9/sheet").status_code == 404


def test_organiser_actions_need_the_pin_and_five_wrong_pins_lock_them(site):
    server, client, clock, _ = site
    assert client.post("/api/organiser/withdraw", content='{"table": "T2", "reason": "x"}').status_code == 401
    for _ in range(4):
        assert client.post("/api/organiser/withdraw", content='{"table": "T2", "reason": "x"}',
                           headers=_basic("0000")).status_code == 401
    locked = client.post("/api/organiser/withdraw", content='{"table": "T2", "reason": "x"}', headers=_basic("0000"))
    assert locked.status_code == 429
    assert client.post("/api/organiser/withdraw", content='{"table": "T2", "reason": "x"}',
                       headers=_basic(PIN)).status_code == 429          # locked: the right PIN too
    assert server.db.one("SELECT withdrawn FROM tables WHERE id='T2'") == 0
    clock[0] += 61
    ok = client.post("/api/organiser/withdraw", content='{"table": "T2", "reason": "left early"}',
                     headers=_basic(PIN))
    assert ok.status_code == 200 and server.db.one("SELECT withdrawn FROM tables WHERE id='T2'") == 1
    logged = server.db.q("SELECT action, accepted FROM organiser ORDER BY id")
    assert logged[-1] == ("withdraw", 1) and ("login", 0) in logged


def test_malformed_organiser_actions_are_refused_with_the_reason_and_change_nothing(site):
    server, client, _, _ = site
    before = server.db.q("SELECT * FROM rounds"), server.db.q("SELECT * FROM seatings")
    cases = [("start-round", '{"session": "S", "round": 1, "tables": {"T7": {"02": ["a","b"], "13": ["c","d"]}}}',
              "table 'T7' is not one of the club's tables"),
             ("start-round", '{"session": "S", "round": 0, "tables": {}}', "'round' is a whole number"),
             ("start-round", '{"session": "S", "round": 1, "tables": {"T1": {"02": ["a"], "13": ["c","d"]}}}',
              "two players' names"),
             ("correct", '{"hand": 1, "side": "02", "levels": 1, "reason": "x"}', "no result of hand 1"),
             ("withdraw", '{"table": "T2"}', "'reason' is a non-empty text"),
             ("rename", "{}", "unknown action 'rename'"),
             ("withdraw", "{not json", "the body is not JSON")]
    for action, body, why in cases:
        r = client.post(f"/api/organiser/{action}", content=body, headers=_basic(PIN))
        assert r.status_code == 400 and why in r.json()["error"], (action, r.json())
    assert (server.db.q("SELECT * FROM rounds"), server.db.q("SELECT * FROM seatings")) == before
    assert server.db.one("SELECT COUNT(*) FROM players") == 8      # the clubkit's players only


def test_organiser_corrects_a_result_and_withdraws_a_table(site):
    server, client, _, tmp = site
    assert _round(client).status_code == 200
    t = soft(tmp, "T1", seed=4, hands=2)
    t.play()
    feed(server, "T1", t.log)
    base = {r["label"]: r["score"] for r in client.get("/api/standings").json()["overall"]}
    hand = server.db.one("SELECT id FROM hands WHERE number=1")
    old = server.db.one("SELECT levels FROM results WHERE hand_id=? AND side='02'", (hand,))
    r = client.post("/api/organiser/correct", headers=_basic(PIN),
                    content=json.dumps({"hand": hand, "side": "02", "levels": old + 2, "reason": "miscount"}))
    assert r.status_code == 200
    after = {r["label"]: r["score"] for r in client.get("/api/standings").json()["overall"]}
    assert after["Li & Zhao"] == base["Li & Zhao"] + 2 and after["Wang & Chen"] == base["Wang & Chen"]
    assert _round(client).json()["error"].startswith("round 1 of 'Tuesday' has started already")
    client.post("/api/organiser/withdraw", headers=_basic(PIN), content='{"table": "T1", "reason": "fouled"}')
    assert client.get("/api/standings").json()["overall"] == []


def test_organiser_page_logs_in_with_the_pin_form(site):
    _, client, _, _ = site
    assert client.get("/organiser").status_code == 401
    wrong = client.post("/organiser/login", data={"pin": "9999"})
    assert wrong.status_code == 401 and "wrong PIN" in wrong.text
    ok = client.post("/organiser/login", data={"pin": PIN}, follow_redirects=False)
    assert ok.status_code == 303 and "httponly" in ok.headers["set-cookie"].lower()
    assert client.get("/organiser").status_code == 200


def test_the_organisers_actions_have_the_consoles_guards(site):
    """The club's pages share the table's guards (docs/security.md): a body over 256 KiB is 413
    before it is read, another origin 403, a body not sent as JSON 415, a session's action without
    its anti-forgery token 403 — none changes anything — and wrong PINs write no row each, one
    summary row per address once the minute is over; the pages carry the security headers."""
    server, client, clock, _ = site
    withdraw = '{"table": "T2", "reason": "x"}'
    rows = server.db.q("SELECT count(*) FROM organiser")
    assert client.post("/api/organiser/withdraw", content=b" " * (300 * 1024), headers=_basic(PIN)).status_code == 413
    r = client.post("/api/organiser/withdraw", content=withdraw, headers={**_basic(PIN), "Origin": "http://evil:1"})
    assert r.status_code == 403
    r = client.post("/api/organiser/withdraw", content=withdraw, headers={**_basic(PIN), "Content-Type": "text/plain"})
    assert r.status_code == 415
    client.post("/organiser/login", data={"pin": PIN})
    page = client.get("/organiser")
    assert page.headers["cache-control"] == "no-store" and "frame-ancestors 'none'" in page.headers[
        "content-security-policy"] and "<script>" not in page.text
    assert client.post("/api/organiser/withdraw", content=withdraw,
                       headers={"Content-Type": "application/json"}).status_code == 403
    assert server.db.one("SELECT withdrawn FROM tables WHERE id='T2'") == 0
    client.cookies.clear()
    for _ in range(50):
        assert client.post("/api/organiser/withdraw", content=withdraw, headers=_basic("wrong-pin")).status_code in (
            401, 429)
    logged = server.db.q("SELECT action, accepted, by FROM organiser ORDER BY id")[rows[0][0]:]
    assert [a for a in logged if a[1] == 0 and a[0] == "login"] == []
    clock[0] += 61
    client.post("/api/organiser/withdraw", content=withdraw, headers=_basic("wrong-pin"))
    summary = server.db.q("SELECT by, detail FROM organiser WHERE action='login' AND accepted=0")
    assert len(summary) == 1 and summary[0][0] == "testclient"
    assert json.loads(summary[0][1])["wrong"] + json.loads(summary[0][1])["refused_locked"] == 50
