"""The web pages in a real browser (chromium, headless, through selenium):

* the public page follows a demo — the real ``shengji-table demo --web`` (the firmware under
  MicroPython, bots tapping virtual cards): a trick appears, the points change, the turn moves;
* the referee's page refuses without the PIN; with it, the referee undoes a play: the log holds the
  ``referee_undo`` event and the public page says so.

A screenshot of each page is saved in the test's tmp folder and checked not to be blank."""
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from browser import OBSERVE, assert_not_blank, browser  # noqa: E402
from webtable import PIN, feed, feed_until, make_table, tricks  # noqa: E402

pytest.importorskip("uvicorn")


def wait_for(what, timeout: float, poll: float = 0.05):
    """``what()``'s first true answer within ``timeout`` s.  An element not there yet, or gone
    with the page it was on, is not an answer yet: after a form is sent the browser is between
    two pages for a moment, longer on a loaded machine."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            got = what()
        except (NoSuchElementException, StaleElementReferenceException):
            got = None
        if got:
            return got
        time.sleep(poll)
    raise AssertionError(f"timed out after {timeout} s")


@pytest.fixture
def chromium():
    driver = browser()
    yield driver
    driver.quit()


@pytest.mark.micropython
def test_public_page_follows_a_demo_hand(chromium, tmp_path):
    from shengji_table.micropython import MicroPythonMissing, micropython_binary
    try:
        micropython_binary()
    except MicroPythonMissing as exc:
        pytest.skip(str(exc))
    demo = subprocess.Popen([sys.executable, "-m", "shengji_table", "demo", "--preset", "classic", "--hands", "2",
                             "--plain", "--no-voice", "--web", "127.0.0.1:0", "--log", str(tmp_path / "demo.db")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert demo.stdout is not None
        first = demo.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", first)
        assert url, first
        chromium.get(url.group(0))
        chromium.execute_script(OBSERVE)

        def seen():
            return chromium.execute_script("return window.__seen")

        def followed():
            s = seen()
            return (any(x["trick"] > 0 for x in s) and len({x["points"] for x in s}) >= 2
                    and len({x["turn"] for x in s if x["turn"] != "–"}) >= 2)
        wait_for(followed, 40)
        shot = tmp_path / "public.png"
        chromium.save_screenshot(str(shot))
        assert_not_blank(shot)
        assert chromium.find_elements("css selector", ".seat") and "Trick" in seen()[-1]["said"]
    finally:
        demo.terminate()
        try:
            demo.wait(10)
        except subprocess.TimeoutExpired:
            demo.kill()
            demo.wait()


def test_referee_page_needs_the_pin_and_undoes_a_play(chromium, tmp_path):
    from selenium.webdriver.common.by import By
    from shengji_table.face.web.auth import hash_pin
    from shengji_table.face.web.server import start_web_server
    svc, events = make_table(tmp_path / "log.db", referee_undo=True)
    i = feed_until(svc, events, 0, tricks(2))
    feed(svc, events[i])                     # the lead of trick 3 (one play to undo)
    web = start_web_server(svc, pin_hash=hash_pin(PIN))
    try:
        chromium.get(web.url + "referee")
        assert chromium.find_elements(By.ID, "pin") and not chromium.find_elements(By.ID, "hands")
        chromium.find_element(By.ID, "pin").send_keys("0000")
        chromium.find_element(By.ID, "login").click()
        wait_for(lambda: "wrong PIN" in chromium.find_element(By.ID, "login-error").text, 10)
        assert not chromium.find_elements(By.ID, "hands")
        chromium.find_element(By.ID, "pin").send_keys(PIN)
        chromium.find_element(By.ID, "login").click()
        wait_for(lambda: chromium.find_elements(By.CSS_SELECTOR, "#hands .card"), 10)
        before = len(svc.log.game_events(svc.match))
        chromium.find_element(By.ID, "undo-reason").send_keys("the card was laid by mistake")
        chromium.find_element(By.ID, "undo").click()
        wait_for(lambda: "undo: done" in chromium.find_element(By.ID, "message").text, 10)
        games = svc.log.game_events(svc.match)
        assert len(games) == before + 1
        assert games[-1] == {"type": "referee_undo", "reason": "the card was laid by mistake"}
        wait_for(lambda: "referee_undo" in chromium.find_element(By.ID, "log").text, 10)
        shot = tmp_path / "referee.png"
        chromium.save_screenshot(str(shot))
        assert_not_blank(shot)
        chromium.get(web.url)
        said = chromium.find_element(By.ID, "announcements")        # its items are redrawn on every change
        wait_for(lambda: "Referee undid" in said.text and "the card was laid by mistake" in said.text, 10)
        assert chromium.execute_script("return document.querySelectorAll('#announcements li.referee').length") >= 1
        shot = tmp_path / "public-referee.png"
        chromium.save_screenshot(str(shot))
        assert_not_blank(shot)
    finally:
        web.stop()


def test_public_page_counts_the_play_clock_down(chromium, tmp_path):
    """The tournament preset's play clock (15 s a play) on the public page: the seat on turn and the
    seconds left, counted down by the page between pushes."""
    from selenium.webdriver.common.by import By
    from shengji_table.face.web.server import start_web_server
    svc, events = make_table(tmp_path / "log.db", preset="tournament")
    feed_until(svc, events, 0, tricks(1))
    svc.tick(time.monotonic())               # the serve loop's tick starts the turn's time
    web = start_web_server(svc)
    try:
        chromium.get(web.url)
        clock = chromium.find_element(By.ID, "clock")
        first = wait_for(lambda: re.search(r"(\d+) s", clock.text), 10)
        name = svc.controller.match.hand.turn
        assert f"Seat {name}" in clock.text and int(first.group(1)) <= 15
        later = wait_for(lambda: (m := re.search(r"(\d+) s", clock.text)) and int(m.group(1)) < int(first.group(1))
                         and m, 5)
        assert int(later.group(1)) >= int(first.group(1)) - 3
    finally:
        web.stop()


def test_the_pages_draw_the_jokers_and_chinese_not_boxes(chromium, tmp_path):
    """大王 and 小王 are the jokers' faces: the page's fonts must draw them.  Without a CJK font every
    such character is the same empty box, so 大 and 王 drawn on a canvas in the page's font give
    the same pixels; with one they differ.  (``make test`` installs fonts-wqy-microhei as root.)"""
    if subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True).stdout.strip() == "":
        pytest.skip("no CJK font: sudo apt-get install -y fonts-wqy-microhei")
    from shengji_table.face.web.server import start_web_server
    svc, _ = make_table(tmp_path / "log.db")
    web = start_web_server(svc)
    try:
        chromium.get(web.url)
        same = chromium.execute_script("""
            const font = getComputedStyle(document.body).font;
            const draw = ch => { const c = document.createElement("canvas"); c.width = c.height = 40;
              const g = c.getContext("2d"); g.font = font.replace(/\\d+px/, "32px"); g.fillText(ch, 2, 34);
              return Array.from(g.getImageData(0, 0, 40, 40).data).join(","); };
            return [draw("大") === draw("王"), draw("小") === draw("王"), draw("大") === draw("\\u0378")];""")
        assert same[:2] == [False, False], "the page's font draws 大, 小 and 王 as the same box"
        assert same[2] is False, "大 is drawn as the box of a character no font has"
    finally:
        web.stop()
