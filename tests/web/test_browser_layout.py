"""The pages as people see them, in a real browser (chromium, headless, through selenium), at a TV
(1920×1080, read from 3 m), a laptop (1400×900) and a phone (390×844), with the players' names in
English letters and in Chinese:

* the public page and the referee's console: no two visible elements overlap (from their boxes),
  nothing wider than the window, the names on the seats, the turn and the trick, trump as its suit
  symbol with the level; on the TV text ≥ 24 px and cards ≥ 90 px tall; axe-core finds no serious
  or critical accessibility violation (when ``npm install axe-core`` has been run);
* the end of a hand: the result by source (R-7.3 kitty, R-10.1 penalties, R-8 levels, R-8.5 the
  next dealer) stays up for the page's minimum time and until the next hand's first draw;
* the end of the match; the page says at the top when the table has stopped;
* the console asks before it ends (R-10.2) or settles (R-10.5) a hand.

Screenshots of each are saved in the test's tmp folder and checked not to be blank."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from browser import assert_not_blank, browser  # noqa: E402
from layout import SIZES, axe_script, axe_violations, card_heights, in_view, overlaps, size, smallest_text, viewport  # noqa: E402
from test_browser_pages import wait_for  # noqa: E402
from webtable import PIN, Feeder, feed_until, make_table, tricks  # noqa: E402

pytest.importorskip("uvicorn")

NAMES = {"en": ("Li", "Wang", "Zhao", "Chen"), "zh": ("李明", "王芳", "赵强", "陈静")}
SUIT_SYMBOLS = "♠♥♣♦"
CASES = [(lang, where) for lang in NAMES for where in ("tv", "laptop", "phone")]


@pytest.fixture
def chromium():
    driver = browser()
    yield driver
    driver.quit()


def hand_over(svc) -> bool:
    hand = svc.controller.match.hand
    return hand is not None and hand.result is not None


def served(tmp_path, names, preset="one-deck", **options):
    """A table in trick 4 (a play laid) with its web face: ``(svc, events, i, web)``."""
    from shengji_table.face.web.auth import hash_pin
    from shengji_table.face.web.server import start_web_server
    svc, events = make_table(tmp_path / "log.db", preset=preset, hands=2, **options)
    web = start_web_server(svc, pin_hash=hash_pin(PIN), names=names)
    i = feed_until(svc, events, 0, tricks(3))
    i = feed_until(svc, events, i, lambda s: s.controller.match.hand.trick)
    return svc, events, i, web


def check_shown(driver, where: str, shot: Path, root: str = "body", least: int = 10) -> None:
    """What every page must hold at every size: nothing overlaps, nothing wider than the window,
    a screenshot that is not blank, and (with axe-core) no serious or critical violation."""
    assert viewport(driver) == SIZES[where]
    found = overlaps(driver, root)
    assert found["count"] >= least and found["overlaps"] == [], found
    assert not found["wide"], f"wider than the window at {where}"
    driver.save_screenshot(str(shot))
    assert_not_blank(shot)
    axe = axe_script()
    if axe is not None:
        assert axe_violations(driver, axe) == []


@pytest.mark.parametrize("lang,where", CASES)
def test_the_public_page_reads_at_every_distance(chromium, tmp_path, lang, where):
    from selenium.webdriver.common.by import By
    names = NAMES[lang]
    svc, _, _, web = served(tmp_path, ",".join(names).split(","))
    try:
        size(chromium, where)
        chromium.get(web.url)
        wait_for(lambda: chromium.find_elements(By.CSS_SELECTOR, "#trick .card"), 10)
        seats = [e.text for e in chromium.find_elements(By.CSS_SELECTOR, ".seat .name")]
        assert sorted(seats) == sorted(names) and all(e.is_displayed() for e in
                                                     chromium.find_elements(By.CSS_SELECTOR, ".seat .name"))
        hand = svc.controller.match.hand
        assert chromium.find_element(By.ID, "turn").text == names[hand.turn]
        assert chromium.find_element(By.ID, "dealer").text == names[hand.dealer]
        whos = [e.text for e in chromium.find_elements(By.CSS_SELECTOR, "#trick .who, #last-trick .who")]
        assert whos and set(whos) <= set(names)
        trump = chromium.find_element(By.ID, "trump").text
        assert trump[0] in SUIT_SYMBOLS + "N" and trump.endswith(" 2") and in_view(chromium, "#trump")
        assert chromium.find_elements(By.CSS_SELECTOR, "#bar .tick")
        assert "40" in chromium.find_element(By.ID, "bar-marks").text
        assert not chromium.find_element(By.ID, "legend").is_displayed()      # the rings' help is folded away
        if where == "tv":
            px, what = smallest_text(chromium)
            assert px >= 24, f"{what!r} is {px} px"
            heights = card_heights(chromium)
            assert heights and min(heights) >= 90, heights
        check_shown(chromium, where, tmp_path / f"public-{lang}-{where}.png")
    finally:
        web.stop()


def log_in(driver, url: str) -> None:
    from selenium.webdriver.common.by import By
    driver.get(url + "referee")
    driver.find_element(By.ID, "pin").send_keys(PIN)
    driver.find_element(By.ID, "login").click()
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#hands .card"), 10)


@pytest.mark.parametrize("lang,where", CASES)
def test_the_console_reads_at_every_distance(chromium, tmp_path, lang, where):
    from selenium.webdriver.common.by import By
    names = NAMES[lang]
    _, _, _, web = served(tmp_path, list(names))
    try:
        size(chromium, where)
        log_in(chromium, web.url)
        assert chromium.execute_script("return document.querySelector('meta[name=viewport]') !== null")
        options = [o.text for o in chromium.find_elements(By.CSS_SELECTOR, "select[name=at_fault] option")]
        assert options[:4] == list(names)
        assert all(any(n in e.text for n in names) for e in chromium.find_elements(By.CSS_SELECTOR, "#hands .who"))
        assert chromium.find_element(By.ID, "trump").text[0] in SUIT_SYMBOLS + "N"
        check_shown(chromium, where, tmp_path / f"console-{lang}-{where}.png")
    finally:
        web.stop()


@pytest.mark.parametrize("action,button,rule", [("end-hand", "end-hand", "R-10.2"), ("adjust", "adjust", "R-10.5")])
def test_the_console_asks_before_it_ends_or_settles_a_hand(chromium, tmp_path, action, button, rule):
    """R-10.2 / R-10.5: one click does not end the hand; cancelled, nothing is sent; confirmed, it is."""
    from selenium.webdriver.common.by import By
    svc, _, _, web = served(tmp_path, list(NAMES["en"]))
    try:
        log_in(chromium, web.url)
        form = chromium.find_element(By.CSS_SELECTOR, f"form[data-action={action}]")
        form.find_element(By.NAME, "reason").send_keys("a ruling in the test")
        before = len(svc.log.game_events(svc.match))
        chromium.find_element(By.ID, button).click()
        alert = wait_for(lambda: _alert(chromium), 5)
        assert "Reason: a ruling in the test" in alert.text
        alert.dismiss()
        wait_for(lambda: "not sent" in chromium.find_element(By.ID, "message").text, 5)
        assert len(svc.log.game_events(svc.match)) == before and svc.controller.match.hand.result is None
        chromium.find_element(By.ID, button).click()
        wait_for(lambda: _alert(chromium), 5).accept()
        wait_for(lambda: "done" in chromium.find_element(By.ID, "message").text, 10)
        assert svc.controller.match.hand.result.settlement.rule == rule or \
            svc.controller.match.hand.result.ruling == rule
    finally:
        web.stop()


def _alert(driver):
    from selenium.common.exceptions import NoAlertPresentException
    try:
        alert = driver.switch_to.alert
        alert.text                               # noqa: B018 — raises while there is none
        return alert
    except NoAlertPresentException:
        return None


# Notes when the result panel shows and hides, in the page's own clock.
WATCH_RESULT = """
window.__result = [];
const panel = document.getElementById('result-panel');
const note = () => window.__result.push([panel.hidden ? 'hidden' : 'shown', performance.now(),
                                         Number(document.getElementById('hand').textContent) || 0]);
new MutationObserver(note).observe(panel, {attributes: true, attributeFilter: ['hidden']});
note();
"""


@pytest.mark.parametrize("where", ["tv", "phone"])
def test_the_result_stays_up_its_minimum_time_and_until_the_next_draw(chromium, tmp_path, where):
    """The result of hand 1 by source — tricks, kitty × multiplier (R-7.3), penalties (R-10.1), the
    levels (R-8) and the next dealer (R-8.5) — stays up 3 s (?result=3) though hand 2 is dealt at
    once, and goes when hand 2's cards are being drawn."""
    from selenium.webdriver.common.by import By
    names = NAMES["zh"] if where == "phone" else NAMES["en"]
    svc, events, i, web = served(tmp_path, list(names))
    feeder = None
    try:
        size(chromium, where)
        chromium.get(web.url + "?result=3")
        wait_for(lambda: chromium.find_elements(By.CSS_SELECTOR, "#trick .card"), 10)
        chromium.execute_script(WATCH_RESULT)
        i = feed_until(svc, events, i, hand_over)
        wait_for(lambda: chromium.find_element(By.ID, "result-panel").is_displayed(), 10)
        result = svc.controller.match.hand.result
        panel = chromium.find_element(By.ID, "result-panel").text
        assert f"{result.captured}" in chromium.find_element(By.ID, "r-captured").text
        assert f"{result.settlement.attackers_points} of 100" in panel and "Next dealer: " in panel
        assert any(n in chromium.find_element(By.ID, "r-next").text for n in names)
        assert in_view(chromium, "#result-panel .panel")
        check_shown(chromium, where, tmp_path / f"result-{where}.png", root="#result-panel")
        feeder = Feeder(svc, events, i, pace=0.02)     # hand 2: dealt at once, drawn card by card
        feeder.start()
        seen = wait_for(lambda: [x for x in chromium.execute_script("return window.__result")
                                 if x[0] == "hidden"][1:] and chromium.execute_script("return window.__result"), 20)
        shown_at = next(t for what, t, _ in seen if what == "shown")
        hidden_at = next(t for what, t, _ in seen if what == "hidden" and t > shown_at)
        assert hidden_at - shown_at >= 3000, seen
        assert svc.controller.match.hand.number == 2
    finally:
        if feeder is not None:
            feeder.stop()
        web.stop()


@pytest.mark.parametrize("where", ["tv", "phone"])
def test_the_end_of_the_match_is_shown(chromium, tmp_path, where):
    """A match begun at A ends with its first hand (R-8): the page says the match is over, who
    won and every seat's level."""
    from selenium.webdriver.common.by import By
    svc, events, i, web = served(tmp_path, list(NAMES["zh"]), start_level=14, seed=3)
    try:
        size(chromium, where)
        chromium.get(web.url)
        feed_until(svc, events, i, lambda s: s.controller.match.over)
        assert svc.controller.match.over
        wait_for(lambda: chromium.find_element(By.ID, "match-over").is_displayed(), 10)
        text = chromium.find_element(By.ID, "match-over").text
        assert "The match is over" in text and "Won by" in text and all(n in text for n in NAMES["zh"])
        check_shown(chromium, where, tmp_path / f"match-over-{where}.png", root="#match-over", least=5)
    finally:
        web.stop()


def test_the_page_says_at_the_top_when_the_table_has_stopped(chromium, tmp_path):
    from selenium.webdriver.common.by import By
    _, _, _, web = served(tmp_path, list(NAMES["en"]))
    size(chromium, "phone")
    chromium.get(web.url)
    wait_for(lambda: chromium.find_elements(By.CSS_SELECTOR, "#trick .card"), 10)
    assert not chromium.find_element(By.ID, "stopped").is_displayed()
    chromium.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    web.stop()
    wait_for(lambda: chromium.find_element(By.ID, "stopped").is_displayed(), 15)
    assert "The table has stopped" in chromium.find_element(By.ID, "stopped").text
    assert in_view(chromium, "#stopped")
    shot = tmp_path / "stopped.png"
    chromium.save_screenshot(str(shot))
    assert_not_blank(shot)
