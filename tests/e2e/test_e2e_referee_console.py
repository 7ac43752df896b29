"""The referee at a running virtual table, through the console in a real browser (R-10): the demo
(the real firmware under MicroPython, bots laying virtual cards) plays a hand; the referee pauses
it, undoes the last play (R-10.4), resumes, undoes again two tricks later, awards a penalty
(R-10.1) and reverses it.  The bots play the undone cards again, the demo ends rc 0, ``log
verify`` passes and the record replays to the same match."""
import json
import pathlib
import socket
import subprocess
import sys
import urllib.request

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "web"))
from browser import assert_not_blank, browser  # noqa: E402
from test_browser_pages import wait_for  # noqa: E402

from shengji_table.game.record import replay  # noqa: E402

pytestmark = pytest.mark.micropython
pytest.importorskip("uvicorn")

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
PIN = "4826-1937-river"
CLI = (sys.executable, "-c", "import sys; from shengji_table.cli import main; sys.exit(main())")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def table(url: str) -> dict:
    with urllib.request.urlopen(url + "api/table", timeout=5) as r:
        return json.load(r)


def act(chromium, action: str, **fields) -> str:
    """Fill the console's form for ``action`` and send it; the console's message after it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    form = chromium.find_element(By.CSS_SELECTOR, f'form[data-action="{action}"]')
    chromium.execute_script("document.getElementById('message').textContent = ''")
    for name, value in fields.items():
        box = form.find_element(By.NAME, name)
        if box.tag_name == "select":
            Select(box).select_by_value(str(value))
        else:
            box.clear()
            box.send_keys(str(value))
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    return wait_for(lambda: chromium.find_element(By.ID, "message").text, 15)


def test_e2e_referee_undoes_twice_and_reverses_a_penalty_from_the_console(tmp_path):
    from selenium.webdriver.common.by import By
    chromium = browser()
    pin_file, log, record = tmp_path / "pin", tmp_path / "log.db", tmp_path / "record.json"
    pin_file.write_text(PIN + "\n")
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    demo = subprocess.Popen(
        [*CLI, "demo", "--hands", "1", "--preset", "one-deck",
         "--option", "referee_undo=true", "--seed", "7", "--no-voice", "--plain", "--web", f"127.0.0.1:{port}",
         "--referee-pin-file", str(pin_file), "--log", str(log), "--record", str(record)],
        cwd=str(REPO_ROOT), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: _up(url), 60)
        chromium.get(url + "referee")
        chromium.find_element(By.ID, "pin").send_keys(PIN)
        chromium.find_element(By.ID, "login").click()
        wait_for(lambda: chromium.find_elements(By.CSS_SELECTOR, "#hands .card"), 30)
        wait_for(lambda: table(url)["tricks_played"] >= 1 and table(url)["trick"], 120)

        assert "pause: done" in act(chromium, "pause", reason="a card on the floor")
        paused = table(url)
        assert "undo: done" in act(chromium, "undo", reason="seat tapped the wrong card")
        undone = table(url)
        assert undone["tricks_played"] >= paused["tricks_played"] - 1
        assert "resume: done" in act(chromium, "resume")

        wait_for(lambda: table(url)["tricks_played"] >= undone["tricks_played"] + 2 and table(url)["trick"], 120)
        assert "pause: done" in act(chromium, "pause", reason="checking a play")
        before = table(url)
        assert "undo: done" in act(chromium, "undo", reason="again the wrong card")
        after = table(url)
        # the second undo takes back one play: the tricks since the first undo stay
        assert after["tricks_played"] >= before["tricks_played"] - 1 > undone["tricks_played"]
        assert "penalty: done" in act(chromium, "penalty", points=20, at_fault=1, reason="talking")
        rulings = wait_for(lambda: chromium.find_elements(By.CSS_SELECTOR, "#hand-rulings li")[2:], 15)
        assert "20 points against seat 1" in rulings[0].text
        assert "reverse: done" in act(chromium, "reverse", ruling=3, reason="it was seat 3")
        wait_for(lambda: "(reversed)" in chromium.find_elements(By.CSS_SELECTOR, "#hand-rulings li")[2].text, 15)
        chromium.save_screenshot(str(tmp_path / "console.png"))
        refused = act(chromium, "reverse", ruling=1, reason="put the play back")
        assert "refused (409)" in refused and "cannot be reversed" in refused    # played again since
        assert "resume: done" in act(chromium, "resume")

        out, err = demo.communicate(timeout=300)
    finally:
        chromium.quit()
        if demo.poll() is None:
            demo.kill()
            demo.communicate()
    assert demo.returncode == 0, err[-3000:]
    assert out.count("Referee undid seat") == 2 and "Referee reversed ruling 3 (20 points against seat 1's side)" in out
    assert_not_blank(tmp_path / "console.png")
    verify = subprocess.run([*CLI, "log", "verify", str(log)],
                            capture_output=True, text=True, timeout=120, cwd=str(REPO_ROOT))
    assert verify.returncode == 0, verify.stdout + verify.stderr
    rec = json.loads(record.read_text())
    types = [e["type"] for e in rec["events"]]
    assert types.count("referee_undo") == 2 and types.count("referee_penalty") == 1
    assert types.count("referee_reverse") == 1
    m = replay(rec)
    assert len(m.summaries) == 1 and m.summaries[0]["result"]["penalty"] == 0
    assert [r.event.type for r in m.hand.rulings] == ["referee_undo", "referee_undo", "referee_penalty",
                                                      "referee_reverse"]
    assert len(m.hand.undone) == 2 and m.hand.voided == {3}


def _up(url: str) -> bool:
    try:
        return bool(table(url))
    except OSError:
        return False
