"""axe-core finds no serious or critical problem on any page, at phone and desktop widths.

axe-core comes from PyPI (``axe-playwright-python`` ships ``axe.min.js``; the
``test`` extra installs it). It is evaluated through the DevTools protocol,
which the page's Content-Security-Policy does not govern, so the policy stays
as it is served.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

axe_package = pytest.importorskip("axe_playwright_python")
AXE = (Path(axe_package.__file__).parent / "axe.min.js").read_text()

RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}"""


def audit(page: Page) -> list[str]:
    page.evaluate(AXE)
    found: list[str] = page.evaluate(RUN)
    return found


def visit(page: Page, server: str, path: str) -> None:
    page.goto(f"{server}{path}")
    if path.startswith("/play/"):
        page.locator(".tableau .card").first.wait_for()
    else:
        page.locator("main h1").first.wait_for()


@pytest.mark.parametrize("width", [390, 1280])
def test_no_serious_findings_on_any_page(browser: Browser, server: str, width: int) -> None:
    context = browser.new_context(locale="en-US", viewport={"width": width, "height": 800})
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[Any] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    findings: list[str] = []
    try:
        for path in (
            "/",
            "/play",
            "/rules",
            "/stats",
            "/about",
            "/play/classic/42",
            "/play/improved/7",
            "/tutorial",
        ):
            visit(page, server, path)
            findings += [f"{path} at {width} px: {item}" for item in audit(page)]
        # The table with a reprieve open, and the new-game dialog.
        visit(page, server, "/play/classic/42")
        page.locator('.tableau .card[data-card="AD"]').dblclick()
        page.locator(".reprieve-banner").wait_for()
        findings += [f"reprieve at {width} px: {item}" for item in audit(page)]
        page.locator('[data-action="new"]').click()
        page.locator("dialog.new-game-dialog").wait_for()
        findings += [f"new game at {width} px: {item}" for item in audit(page)]
        visit(page, server, "/")  # now with games in progress to resume
        page.locator(".resume-list").wait_for()
        findings += [f"/ with games at {width} px: {item}" for item in audit(page)]
    finally:
        context.close()
    assert not errors, errors
    assert findings == [], "\n".join(findings)
