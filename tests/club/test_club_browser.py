"""The standings page in a real browser (chromium, headless, through selenium — the table face's
setup, ``tests/web/browser.py``): it updates as hands finish, with no reload."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "web"))
from browser import assert_not_blank, browser  # noqa: E402
from clubkit import club, feed, kept, soft, wait_for  # noqa: E402

pytest.importorskip("uvicorn")


@pytest.fixture
def chromium():
    driver = browser()
    yield driver
    driver.quit()


def test_standings_page_updates_as_hands_finish(chromium, tmp_path):
    from shengji_table.club.web import start_club_web
    server = club(tmp_path / "club.sqlite", tables=("T1", "T2"))
    web = start_club_web(server)
    try:
        chromium.get(web.url + "standings")
        # read in one script: the page redraws its tables on every event (no stale elements)
        hands = lambda: chromium.execute_script(  # noqa: E731
            "const e = document.getElementById('hands'); return e ? e.textContent : '';")
        cells = lambda sel: chromium.execute_script(  # noqa: E731
            "return Array.from(document.querySelectorAll(arguments[0])).map(e => e.textContent);", sel)
        wait_for(lambda: hands() == "0 hand(s) recorded", 10)
        t1, t2 = soft(tmp_path, "T1", seed=1, hands=2), soft(tmp_path, "T2", seed=2, hands=1)
        t1.play_hand()
        with server.lock:
            feed(server, "T1", t1.log)
        wait_for(lambda: hands() == "1 hand(s) recorded", 10)
        labels = set(cells("#standings td:nth-child(2)"))
        assert labels == {"Li & Zhao", "Wang & Chen"}
        t1.play_hand()
        t2.play_hand()
        with server.lock:
            feed(server, "T1", t1.log)
            feed(server, "T2", t2.log)
        wait_for(lambda: hands() == "3 hand(s) recorded", 10)
        labels = set(cells("#standings td:nth-child(2)"))
        assert {"Liu & Huang", "Yang & Zhou"} <= labels
        scores = [int(x) for x in cells("#standings td.score")]
        from shengji_table.club.standings import standings
        with server.lock:
            assert scores[:4] == [r["score"] for r in standings(server.db)]
        png = tmp_path / "standings.png"
        chromium.save_screenshot(str(png))
        assert_not_blank(png)
    finally:
        web.stop()
        server.stop()


def test_duplicate_standings_page_updates_as_boards_are_played(chromium, tmp_path):
    """``club serve --scoring duplicate``'s page: the cross-IMPs per partnership, live, as the second
    table's board arrives (a board is scored once two tables have played it)."""
    from shengji_table.club.boards import make_boards
    from shengji_table.club.rounds import add_partnerships, plan_round, start_planned
    from shengji_table.club.soft_table import SoftTable
    from shengji_table.club.standings import duplicate_scoring, standings
    from shengji_table.club.web import start_club_web
    server = club(tmp_path / "club.sqlite", tables=("T1", "T2"))
    boards = make_boards(2, "classic", 21)
    add_partnerships(server.db, "Tue", (("Li", "Wang"), ("Zhao", "Chen"), ("Liu", "Yang"), ("Wu", "Xu")))
    plan = plan_round(server.db, "Tue", 1, "round-robin", boards=("classic", boards), boards_per_round=1)
    start_planned(server.db, plan, by="test")
    web = start_club_web(server, scoring="duplicate")
    try:
        chromium.get(web.url + "standings")
        text = lambda sel: chromium.execute_script(  # noqa: E731
            "return Array.from(document.querySelectorAll(arguments[0])).map(e => e.textContent);", sel)
        wait_for(lambda: text("#scoring") == ["scored by duplicate: cross-IMPs per board"], 10)
        for i, table in enumerate(plan.tables):
            t = plan.rnd.tables[i]
            a, b = plan.pairs[t.ns[0] - 1][2:], plan.pairs[t.ew[0] - 1][2:]
            soft_table = kept(SoftTable(tmp_path / f"{table}.db", table=table, seed=40 + i, bots="random",
                                        names=(a[0], b[0], a[1], b[1]), board=boards[0], match="board-1"))
            soft_table.play()
            with server.lock:
                feed(server, table, soft_table.log)
        with server.lock:
            want = standings(server.db, 1, duplicate_scoring(server.db))
        assert any(r["score"] for r in want)
        wait_for(lambda: [float(x) for x in text("#standings td.score")][:4] == [r["score"] for r in want], 10)
    finally:
        web.stop()
        server.stop()


def test_organiser_page_sends_an_action_with_its_token_under_the_csp(chromium, tmp_path):
    """The organiser's page in a browser under the Content-Security-Policy (no inline script): log
    in with the PIN, withdraw a table from the page — the script sends the session's anti-forgery
    token and JSON — and the club's database says so."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    from shengji_table.club.web import start_club_web
    from shengji_table.face.web.auth import hash_pin
    server = club(tmp_path / "club.sqlite", tables=("T1", "T2"))
    web = start_club_web(server, pin_hash=hash_pin("4711-0815"))
    try:
        chromium.get(web.url + "organiser")
        chromium.find_element(By.NAME, "pin").send_keys("4711-0815")
        chromium.find_element(By.TAG_NAME, "button").click()
        wait_for(lambda: chromium.find_elements(By.ID, "act"), 10)
        token = chromium.execute_script("return document.querySelector('meta[name=\"csrf-token\"]').content")
        assert len(token) > 20                                  # the session's anti-forgery token
        Select(chromium.find_element(By.ID, "action")).select_by_visible_text("withdraw")
        body = chromium.find_element(By.ID, "body")
        body.clear()
        body.send_keys('{"table": "T2", "reason": "left early"}')
        chromium.find_element(By.CSS_SELECTOR, "#act button").click()
        wait_for(lambda: chromium.find_element(By.ID, "answer").text.startswith("200"), 10)
        with server.lock:
            assert server.db.one("SELECT withdrawn FROM tables WHERE id='T2'") == 1
    finally:
        web.stop()
        server.stop()
