"""Test helper (not a test): a real browser — Debian's chromium driven by chromedriver through
selenium — headless, as root too, with a new empty profile; and a check that a screenshot is not
blank.  Without the browser the tests skip with the one command that installs it (``make test``
installs it as root)."""
from __future__ import annotations

import os
import shutil
import tempfile

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
INSTALL = "sudo apt-get update && sudo apt-get install -y chromium chromium-driver fonts-wqy-microhei"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,900")


def browser():
    """A started chromium (``driver.quit()`` ends it and its profile) or a pytest skip."""
    webdriver = pytest.importorskip("selenium.webdriver")
    if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)):
        pytest.skip(f"no chromium/chromedriver at {CHROMIUM}, {CHROMEDRIVER}: run {INSTALL}")
    from selenium.webdriver.chrome.service import Service
    profile = tempfile.mkdtemp(prefix="shengji-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    quit_ = driver.quit

    def quit_and_clean():
        try:
            quit_()
        finally:
            shutil.rmtree(profile, ignore_errors=True)
    driver.quit = quit_and_clean
    return driver


def assert_not_blank(png_path) -> float:
    """The screenshot's pixel variance (a blank page has none); PIL decodes the PNG."""
    from PIL import Image, ImageStat
    with Image.open(png_path) as img:
        stat = ImageStat.Stat(img.convert("L"))
        colours = len(img.convert("RGB").getcolors(1 << 20) or ())
    variance = stat.var[0]
    assert variance > 100 and colours > 50, f"{png_path} looks blank: variance {variance:.1f}, {colours} colours"
    return variance


# A MutationObserver the tests put into the public page: every change of the trick, the points and
# the turn is noted in window.__seen, so no change is missed between two polls.
OBSERVE = """
window.__seen = [];
const note = () => window.__seen.push({
  trick: document.querySelectorAll('#trick .card').length,
  points: document.getElementById('points-attackers').textContent + '/' +
          document.getElementById('points-declarers').textContent,
  turn: document.getElementById('turn').textContent,
  said: Array.from(document.querySelectorAll('#announcements li')).map(li => li.textContent).join('\\n')});
new MutationObserver(note).observe(document.body, {subtree: true, childList: true, characterData: true});
note();
"""
