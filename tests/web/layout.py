"""Test helper (not a test): what a person sees of a page in the browser, measured from the
rendered boxes — the visible elements that overlap, the smallest text, the cards' heights, whether
an element is inside the window — and axe-core's accessibility check when its script is at hand."""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIZES = {"tv": (1920, 1080), "laptop": (1400, 900), "phone": (390, 844)}

# The visible elements that draw something: each with its own text, each card, each form control.
# Two of them overlap when their boxes intersect by more than a pixel each way and neither holds
# the other.  Only the elements inside ``root`` count (an overlay covers the page on purpose).
OVERLAPS = """
const root = document.querySelector(arguments[0]) || document.body;
const visible = el => { const st = getComputedStyle(el); const r = el.getBoundingClientRect();
  return st.visibility !== 'hidden' && st.display !== 'none' && Number(st.opacity) > 0 && r.width > 0 && r.height > 0
    && el.checkVisibility(); };
const ownText = el => Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
const drawn = Array.from(root.querySelectorAll('*')).filter(el => !el.parentElement.closest('.card'))
  .filter(el => (ownText(el) || el.matches('.card, input, select, button, #bar')) && visible(el));
const out = [];
for (let i = 0; i < drawn.length; i++) for (let j = i + 1; j < drawn.length; j++) {
  const a = drawn[i], b = drawn[j];
  if (a.contains(b) || b.contains(a)) continue;
  const p = seen(a), q = seen(b);
  if (!p || !q) continue;
  const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
  const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
  if (w > 1 && h > 1) out.push(describe(a) + ' / ' + describe(b));
}
// the part of an element's box its scrolling or clipping ancestors let through (null: none)
function seen(el) {
  const r = el.getBoundingClientRect();
  let box = {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
  for (let up = el.parentElement; up; up = up.parentElement) {
    if (getComputedStyle(up).overflow === 'visible') continue;
    const c = up.getBoundingClientRect();
    box = {left: Math.max(box.left, c.left), top: Math.max(box.top, c.top),
           right: Math.min(box.right, c.right), bottom: Math.min(box.bottom, c.bottom)};
  }
  return box.right - box.left > 1 && box.bottom - box.top > 1 ? box : null;
}
function describe(el) { return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
  (el.className && typeof el.className === 'string' ? '.' + el.className.trim().replace(/\\s+/g, '.') : '') +
  ' "' + el.textContent.trim().slice(0, 30) + '"'; }
return {count: drawn.length, overlaps: out.slice(0, 20), wide: document.documentElement.scrollWidth > innerWidth + 1};
"""

# The font size of every visible element with its own text: ``[[px, "tag text"], …]``.
TEXT_SIZES = """
return Array.from(document.body.querySelectorAll('*')).filter(el =>
  Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim()) && el.checkVisibility()
  && el.getBoundingClientRect().width > 0)
  .map(el => [parseFloat(getComputedStyle(el).fontSize),
              el.tagName.toLowerCase() + ' ' + el.textContent.trim().slice(0, 30)]);
"""

IN_VIEW = """
const r = document.querySelector(arguments[0]).getBoundingClientRect();
return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
"""


def size(driver, name: str) -> None:
    """The page's viewport set to one of SIZES, as the device would give it (headless chromium's
    window cannot be narrower than 500 px, so the viewport is emulated; the phone as a phone)."""
    w, h = SIZES[name]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": name == "phone"})


def viewport(driver) -> tuple:
    """The page's viewport (a page without a viewport meta tag is 980 px wide on a phone)."""
    return tuple(driver.execute_script("return [innerWidth, innerHeight]"))


def overlaps(driver, root: str = "body") -> dict:
    return driver.execute_script(OVERLAPS, root)


def smallest_text(driver) -> tuple:
    return min(tuple(x) for x in driver.execute_script(TEXT_SIZES))


def card_heights(driver, selector: str = ".card") -> list:
    return driver.execute_script("return Array.from(document.querySelectorAll(arguments[0]))"
                                 ".filter(el => el.checkVisibility()).map(el => el.getBoundingClientRect().height)",
                                 selector)


def in_view(driver, selector: str) -> bool:
    return driver.execute_script(IN_VIEW, selector)


def axe_script() -> str | None:
    """axe-core's script (``npm install axe-core`` in the repository, or ``AXE_JS``); None: not at hand."""
    for path in (os.environ.get("AXE_JS"), ROOT / "node_modules" / "axe-core" / "axe.min.js"):
        if path and Path(path).is_file():
            return Path(path).read_text(encoding="utf-8")
    return None


def axe_violations(driver, script: str) -> list:
    """The serious and critical violations axe-core finds in the page: ``["id: help (n nodes)", …]``."""
    driver.execute_script(script)
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map(v => "
        "({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}))));")
    return [f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}" for v in result
            if v["impact"] in ("serious", "critical")]
