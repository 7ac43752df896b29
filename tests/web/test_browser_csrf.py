"""Cross-site request forgery in a real browser (chromium, headless, through selenium): the referee
logs in to the console; a page served from another port of the same host (the same site, so the
SameSite=Strict cookie goes with it) tries to award a 100-point penalty (R-10.1) through the
referee's browser, by a ``fetch`` and by a self-submitting ``text/plain`` form.  Both are refused;
nothing changes; the referee's own penalty from the console still goes through."""
import http.server
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from browser import browser  # noqa: E402
from test_browser_pages import wait_for  # noqa: E402
from webtable import PIN, feed_until, make_table, tricks  # noqa: E402

pytest.importorskip("uvicorn")

ATTACK = """<!doctype html><html><body><p id="state">sending</p>
<form id="f" method="post" enctype="text/plain" action="{target}api/referee/penalty">
<input name='{{"at_fault": 0, "points": 100, "reason": "forged", "x": "' value='"}}'></form>
<script>
fetch("{target}api/referee/penalty", {{method: "POST", mode: "no-cors", credentials: "include",
  headers: {{"Content-Type": "text/plain"}},
  body: JSON.stringify({{at_fault: 0, points: 100, reason: "forged"}})}})
  .catch(() => null)
  .finally(() => {{ document.getElementById("state").textContent = "fetched";
                    document.getElementById("f").submit(); }});
</script></body></html>"""


def serve_attack(page: str):
    """The attacker's page on another port of 127.0.0.1; ``(server, url)``."""
    body = page.encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/attack.html"


def penalties(svc) -> list:
    return [e for e in svc.log.game_events(svc.match) if e["type"] == "referee_penalty"]


def test_a_page_on_another_port_cannot_award_a_penalty_through_the_referees_browser(tmp_path):
    """R-10.1: the forged penalty is refused (Origin / Sec-Fetch-Site, the anti-forgery token, the
    content type); the game and the log's game events are unchanged."""
    from selenium.webdriver.common.by import By
    from shengji_table.face.web.auth import hash_pin
    from shengji_table.face.web.server import start_web_server
    chromium = browser()
    svc, events = make_table(tmp_path / "log.db")
    feed_until(svc, events, 0, tricks(2))
    web = start_web_server(svc, pin_hash=hash_pin(PIN))
    attacker, attack_url = serve_attack(ATTACK.format(target=web.url))
    try:
        chromium.get(web.url + "referee")
        chromium.find_element(By.ID, "pin").send_keys(PIN)
        chromium.find_element(By.ID, "login").click()
        wait_for(lambda: chromium.find_elements(By.CSS_SELECTOR, "#hands .card"), 10)
        before = (len(svc.log.game_events(svc.match)), svc.controller.match.hand.snapshot())
        chromium.get(attack_url)
        wait_for(lambda: chromium.current_url.startswith(web.url), 15)         # the form was sent
        answer = wait_for(lambda: chromium.find_element(By.TAG_NAME, "body").text, 10)
        assert "error" in answer and "penalty" not in svc.log.game_events(svc.match)[-1]["type"], answer
        assert (len(svc.log.game_events(svc.match)), svc.controller.match.hand.snapshot()) == before
        assert penalties(svc) == []
        # the referee's session was there all along: the console's own penalty goes through
        chromium.get(web.url + "referee")
        form = wait_for(lambda: chromium.find_element(By.CSS_SELECTOR, 'form[data-action="penalty"]'), 10)
        form.find_element(By.NAME, "reason").send_keys("talking")
        chromium.find_element(By.ID, "penalty").click()
        wait_for(lambda: "penalty: done" in chromium.find_element(By.ID, "message").text, 10)
        assert [p["reason"] for p in penalties(svc)] == ["talking"]
    finally:
        attacker.shutdown()
        web.stop()
        chromium.quit()
