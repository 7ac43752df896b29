"""The web API and the referee's PIN, with Starlette's TestClient against a real controller,
service and SQLite log: 401 without the PIN, HTTP Basic and the login form, five wrong PINs lock
the console for 60 s (an injected clock), 400 for a malformed body or an unknown action, 409 with
the game's reason for an action that does not apply — no change on any refusal — and an accepted
action is a game event in the log, with its reason, that the public state announces."""
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from webtable import PIN, Clock, feed_until, make_table, tricks  # noqa: E402

from shengji_table.face.web.app import COOKIE, create_app  # noqa: E402
from shengji_table.face.web.auth import RefereeGate, hash_pin, load_pin_file, verify_pin  # noqa: E402
from shengji_table.face.web.hub import Hub  # noqa: E402

BASIC = ("referee", PIN)


@pytest.fixture
def table(tmp_path):
    svc, events = make_table(tmp_path / "log.db", referee_undo=True)
    feed_until(svc, events, 0, tricks(2))
    clock = Clock()
    app = create_app(Hub(svc), RefereeGate(hash_pin(PIN), clock=clock))
    with TestClient(app) as client:
        yield svc, client, clock


def game_rows(svc) -> int:
    return len(svc.log.game_events(svc.match))


def test_public_api_is_open_and_the_referee_api_needs_the_pin(table):
    svc, client, _ = table
    r = client.get("/api/table")
    assert r.status_code == 200 and r.json()["tricks_played"] == 2
    assert client.get("/api/referee").status_code == 401
    assert "Basic" in client.get("/api/referee").headers["www-authenticate"]
    assert client.post("/api/referee/undo", json={"reason": "x"}).status_code == 401
    assert client.get("/api/referee", auth=("someone", PIN)).status_code == 401
    page = client.get("/referee")
    assert page.status_code == 401 and 'name="pin"' in page.text
    r = client.get("/api/referee", auth=BASIC)
    assert r.status_code == 200
    body = r.json()
    assert set(body["hands"]) == {"0", "1", "2", "3"} and body["buried"]
    assert client.get("/referee/events").status_code == 401


def test_five_wrong_pins_lock_that_address_for_60_seconds(table):
    """Five wrong PINs from one address lock that address for 60 s, the right PIN from it too (by
    Basic and by the form); the wrong PINs are counted in memory, not one log row each: after the
    window one summary row for the address."""
    svc, client, clock = table
    before = game_rows(svc)
    for _ in range(4):
        assert client.get("/api/referee", auth=("referee", "0000")).status_code == 401
    r = client.get("/api/referee", auth=("referee", "0000"))
    assert r.status_code == 429 and "60" in r.json()["error"]
    # locked: even the right PIN is refused, by the form too
    r = client.get("/api/referee", auth=BASIC)
    assert r.status_code == 429 and int(r.headers["retry-after"]) == 60
    assert client.post("/referee/login", data={"pin": PIN}, follow_redirects=False).status_code == 429
    clock.now += 59.0
    assert client.get("/api/referee", auth=BASIC).status_code == 429
    assert logins(svc) == []                                # nothing written per attempt
    clock.now += 1.5
    assert client.get("/api/referee", auth=BASIC).status_code == 200
    assert game_rows(svc) == before
    summary = [a for a in logins(svc) if not a["accepted"]]
    assert len(summary) == 1 and summary[0]["by"] == "testclient" and summary[0]["why"] == "wrong PINs"
    assert summary[0]["wrong"] == 5 and summary[0]["refused_locked"] == 3 and "time" in summary[0]
    assert [a["by"] for a in logins(svc) if a["accepted"]] == ["basic@testclient"]


def logins(svc) -> list:
    return [e.payload["referee"] for e in svc.log.entries(kind="meta")
            if "referee" in e.payload and e.payload["referee"]["action"] == "login"]


def test_the_login_form_gives_a_strict_httponly_session_cookie(table):
    svc, client, _ = table
    r = client.post("/referee/login", data={"pin": "1111"}, follow_redirects=False)
    assert r.status_code == 401 and "wrong PIN" in r.text
    r = client.post("/referee/login", data={"pin": PIN}, follow_redirects=False)
    assert r.status_code == 303
    cookie = r.headers["set-cookie"]
    assert COOKIE in cookie and "httponly" in cookie.lower() and "samesite=strict" in cookie.lower()
    client.cookies.set(COOKIE, r.cookies[COOKIE])
    assert client.get("/referee").status_code == 200
    csrf = client.get("/api/referee").json()["csrf"]
    assert csrf and f'content="{csrf}"' in client.get("/referee").text
    assert client.post("/referee/logout", data={"csrf": "forged"}).status_code == 403    # still in
    assert client.get("/api/referee").status_code == 200
    assert client.post("/referee/logout", data={"csrf": csrf}, follow_redirects=False).status_code == 303
    client.cookies.clear()
    client.cookies.set(COOKIE, r.cookies[COOKIE])
    assert client.get("/api/referee").status_code == 401


@pytest.mark.parametrize("action, body, words", [
    ("undo", [1, 2], "JSON object"),
    ("undo", {}, "needs 'reason'"),
    ("undo", {"reason": ""}, "may not be empty"),
    ("penalty", {"at_fault": "1", "points": 10, "reason": "x"}, "integer"),
    ("penalty", {"at_fault": True, "points": 10, "reason": "x"}, "integer"),
    ("penalty", {"at_fault": 1, "points": 10, "reason": "x", "extra": 1}, "not extra"),
    ("end-hand", {"at_fault": 1, "rule": "R-9", "reason": "x"}, "R-10.2"),
    ("explode", {}, "unknown action"),
])
def test_malformed_actions_are_400_and_change_nothing(table, action, body, words):
    svc, client, _ = table
    before = (game_rows(svc), client.get("/api/table").json())
    r = client.post(f"/api/referee/{action}", json=body, auth=BASIC)
    assert r.status_code == 400 and words in r.json()["error"]
    assert (game_rows(svc), client.get("/api/table").json()) == before


def test_a_body_that_is_not_json_is_400(table):
    svc, client, _ = table
    r = client.post("/api/referee/undo", content=b"{not json", auth=BASIC,
                    headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not JSON" in r.json()["error"]


def test_actions_the_game_refuses_are_409_with_the_reason(tmp_path):
    svc, events = make_table(tmp_path / "log.db")          # referee_undo off (the default)
    feed_until(svc, events, 0, tricks(1))
    with TestClient(create_app(Hub(svc), RefereeGate(hash_pin(PIN)))) as client:
        before = (game_rows(svc), svc.controller.match.hand.snapshot())
        r = client.post("/api/referee/undo", json={"reason": "misplay"}, auth=BASIC)
        assert r.status_code == 409 and r.json()["rule"] == "R-10.4"
        r = client.post("/api/referee/penalty", json={"at_fault": 9, "points": 10, "reason": "x"}, auth=BASIC)
        assert r.status_code == 409 and "no seat 9" in r.json()["error"]
        r = client.post("/api/referee/resume", json={}, auth=BASIC)
        assert r.status_code == 409 and "not paused" in r.json()["error"]
        assert (game_rows(svc), svc.controller.match.hand.snapshot()) == before
        rulings = [e.payload for e in svc.log.entries(kind="ruling")]
        assert [x["rule"] for x in rulings[-3:]] == ["R-10.4", "table.seat", "table.referee"]
        # refused referee actions are not said at the table
        assert not any("refused" in t for t in client.get("/api/table").json()["announcements"])


def test_undo_and_penalty_are_logged_game_events_the_public_page_announces(table):
    svc, client, _ = table
    hand = svc.controller.match.hand
    plays = sum(len(t.plays) for t in hand.tricks) + len(hand.trick)
    r = client.post("/api/referee/undo", json={"reason": "a card fell over"}, auth=BASIC)
    assert r.status_code == 200, r.text
    hand = svc.controller.match.hand
    assert sum(len(t.plays) for t in hand.tricks) + len(hand.trick) == plays - 1
    last = svc.log.game_events(svc.match)[-1]
    assert last == {"type": "referee_undo", "reason": "a card fell over"}
    r = client.post("/api/referee/penalty", json={"at_fault": 0, "points": 10, "reason": "talking"}, auth=BASIC)
    assert r.status_code == 200
    assert svc.log.game_events(svc.match)[-1]["type"] == "referee_penalty"
    said = client.get("/api/table").json()["announcements"]
    assert any(t.lower().startswith("referee undid") and "a card fell over" in t for t in said)
    assert any(t.lower().startswith("referee:") and "talking" in t for t in said)
    acts = [e.payload["referee"] for e in svc.log.entries(kind="meta") if "referee" in e.payload]
    assert [a["action"] for a in acts if a["accepted"]][-2:] == ["referee_undo", "referee_penalty"]
    assert all(a["time"].endswith("Z") and a["by"].startswith("basic@") for a in acts)
    state = client.get("/api/referee", auth=BASIC).json()
    assert any(e["kind"] == "game" and e["payload"]["type"] == "referee_penalty" for e in state["log"])


def test_end_hand_by_ruling(table):
    svc, client, _ = table
    r = client.post("/api/referee/end-hand", json={"at_fault": 1, "rule": "R-10.2", "reason": "revoke seen"},
                    auth=BASIC)
    assert r.status_code == 200, r.text
    hand = svc.controller.match.hand
    assert hand.result is not None and hand.result.to_json()["rule"] == "R-10.2"
    pub = client.get("/api/table").json()
    assert pub["kitty"] is not None and pub["result"]
    r = client.post("/api/referee/end-hand", json={"at_fault": 1, "rule": "R-10.2", "reason": "again"}, auth=BASIC)
    assert r.status_code == 409


def test_pause_refuses_taps_until_resumed(table):
    from shengji_table.table import protocol as P
    from shengji_table.table.session import Button
    svc, client, _ = table
    assert client.post("/api/referee/pause", json={"reason": "a player left"}, auth=BASIC).status_code == 200
    assert client.get("/api/table").json()["paused"] == "a player left"
    before = game_rows(svc)
    turn = svc.controller.match.hand.turn
    out = svc.handle(Button(1, 1, turn, P.PRESS))
    assert out.refusals and out.refusals[0].rule == "table.paused" and "a player left" in out.refusals[0].reason
    svc.handle(Button(1, 2, turn, P.RELEASE))
    assert game_rows(svc) == before
    assert client.post("/api/referee/pause", json={"reason": "again"}, auth=BASIC).status_code == 409
    assert client.post("/api/referee/resume", json={}, auth=BASIC).status_code == 200
    assert client.get("/api/table").json()["paused"] is None
    said = client.get("/api/table").json()["announcements"]
    assert any("paused" in t for t in said) and said[-1] == "Referee: play resumes."


def test_no_console_without_a_pin_file(tmp_path):
    svc, _ = make_table(tmp_path / "log.db")
    with TestClient(create_app(Hub(svc), None)) as client:
        assert client.get("/api/table").status_code == 200
        assert client.get("/api/referee", auth=BASIC).status_code == 403
        assert client.post("/api/referee/undo", json={"reason": "x"}, auth=BASIC).status_code == 403


def test_pin_file_in_clear_or_hashed(tmp_path):
    clear = tmp_path / "clear.pin"
    clear.write_text("97531-8642\n")
    stored = load_pin_file(clear)
    assert stored.startswith("scrypt$") and "97531" not in stored and verify_pin("97531-8642", stored)
    hashed = tmp_path / "hashed.pin"
    hashed.write_text(hash_pin("8642") + "\n")
    assert verify_pin("8642", load_pin_file(hashed)) and not verify_pin("8643", load_pin_file(hashed))
    from shengji_table.face.web.auth import PinError
    for bad in ("", "12", "2468", "scrypt$1$2$3$zz$00", "two\nlines"):
        (tmp_path / "bad.pin").write_text(bad)
        with pytest.raises(PinError):
            load_pin_file(tmp_path / "bad.pin")


def test_set_pin_command_writes_a_hash_and_never_the_pin(tmp_path, capsys, monkeypatch):
    import io
    from shengji_table.cli import main
    target = tmp_path / "referee.pin"
    monkeypatch.setattr("sys.stdin", io.StringIO("5319 red lanterns\n"))
    assert main(["referee", "set-pin", str(target)]) == 0
    out = capsys.readouterr()
    assert "5319" not in out.out + out.err
    text = target.read_text()
    assert text.startswith("scrypt$") and verify_pin("5319 red lanterns", text.strip())
    assert target.stat().st_mode & 0o077 == 0
    for weak in ("12", "2468", "1234567", "12345678", "00000000"):
        assert main(["referee", "set-pin", str(target), "--pin", weak]) == 2
        assert "nothing written" in capsys.readouterr().err
    assert verify_pin("5319 red lanterns", target.read_text().strip())


def test_a_pause_survives_a_restart(tmp_path):
    from shengji_table.store.log import EventLog
    from shengji_table.table.service import paused_reason
    svc, events = make_table(tmp_path / "log.db")
    feed_until(svc, events, 0, tricks(1))
    assert not svc.pause("the lights went out").refusals
    with EventLog(tmp_path / "log.db", read_only=True) as log:
        assert paused_reason(log, svc.match) == "the lights went out"
    assert not svc.resume().refusals
    with EventLog(tmp_path / "log.db", read_only=True) as log:
        assert paused_reason(log, svc.match) is None


def test_adjusted_result_r10_5(table):
    """The console's adjusted result: 400 for a malformed body (nothing changes), 200 and the hand
    settled from the assigned points (R-10.5), the public page says "Referee: adjusted result"."""
    svc, client, _ = table
    before = (game_rows(svc), client.get("/api/table").json())
    r = client.post("/api/referee/adjust", json={"attackers_points": "60", "reason": "x"}, auth=BASIC)
    assert r.status_code == 400 and "integer" in r.json()["error"]
    assert (game_rows(svc), client.get("/api/table").json()) == before
    r = client.post("/api/referee/adjust", json={"attackers_points": 60, "reason": "a seat left"}, auth=BASIC)
    assert r.status_code == 200, r.text
    assert svc.log.game_events(svc.match)[-1] == {"type": "referee_adjust", "attackers_points": 60,
                                                   "reason": "a seat left"}
    summary = svc.controller.match.summaries[-1]["result"]
    assert summary["ruling"] == "R-10.5" and summary["rule"].startswith("R-8")   # settled by the R-8 table
    said = client.get("/api/table").json()["announcements"]
    assert any(t.startswith("Referee: adjusted result") and "a seat left" in t for t in said)
