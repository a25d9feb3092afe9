"""WCAG AA contrast of every visible text on the main pages, and of the card inks."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page

# Contrast of each visible HTML text with the colour behind it (translucent layers blended).
AUDIT = """() => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(',').map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  };
  const lum = ({r, g, b}) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const behind = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
    }
    let base = {r: 255, g: 255, b: 255};
    for (const l of layers.reverse()) {
      base = {r: l.r * l.a + base.r * (1 - l.a), g: l.g * l.a + base.g * (1 - l.a),
              b: l.b * l.a + base.b * (1 - l.a)};
    }
    return base;
  };
  const low = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el instanceof SVGElement || el.closest('.visually-hidden, button:disabled')) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || !el.getBoundingClientRect().width) continue;
    const a = lum(parse(cs.color)), b = lum(behind(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(cs.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) {
      low.push(`${el.className || el.tagName} "${el.textContent.trim().slice(0, 30)}": `
               + ratio.toFixed(2));
    }
  }
  return low;
}"""


def luminance(colour: str) -> float:
    r, g, b = (int(v) for v in re.findall(r"\d+", colour)[:3])

    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def ratio(a: str, b: str) -> float:
    x, y = luminance(a), luminance(b)
    return (max(x, y) + 0.05) / (min(x, y) + 0.05)


def test_every_text_meets_wcag_aa(page: Page, server: str) -> None:
    low: list[Any] = []
    for path in ("/", "/rules", "/stats", "/about"):
        page.goto(f"{server}{path}")
        page.locator("main h1").first.wait_for()
        low += [f"{path}: {item}" for item in page.evaluate(AUDIT)]
    page.goto(f"{server}/play/classic/42")
    page.locator('.tableau .card[data-card="AD"]').dblclick()
    page.locator(".reprieve-banner").wait_for()
    low += [f"reprieve: {item}" for item in page.evaluate(AUDIT)]
    page.locator('[data-action="new"]').click()
    low += [f"new game: {item}" for item in page.evaluate(AUDIT)]
    assert low == []


def test_card_inks_meet_wcag_aa(page: Page, server: str) -> None:
    page.goto(f"{server}/play/classic/42")
    page.locator(".tableau .card").first.wait_for()
    face = page.locator(".card-edge.face").first.evaluate("e => getComputedStyle(e).fill")
    for four in (False, True):
        page.evaluate("(on) => document.body.classList.toggle('four-colour', on)", four)
        for suit in "CDHS":
            ink = page.locator(f".tableau .card .suit-{suit}").first
            fill = ink.evaluate("e => getComputedStyle(e).fill")
            assert ratio(fill, face) >= 4.5, (suit, four, fill)
