"""The daily deal page in a real browser (docs/RULES.md §10): keyboard, game, share text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from milligan import daily


def shipped_today(variant: str = "classic") -> int:
    number = daily.shipped()[variant].get(daily.today().isoformat())
    if number is None:
        pytest.skip("today is outside the shipped daily deals")
    return number


def test_daily_page_by_keyboard_then_share(page: Page, server: str, screenshots: Path) -> None:
    number = shipped_today()
    today = daily.today().isoformat()
    page.goto(f"{server}/")
    link = page.get_by_role("link", name="Daily deal")
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/daily$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Daily deal")
    expect(page.locator(".daily-body")).to_contain_text(f"Deal {number}")
    expect(page.locator(".daily-streak")).to_contain_text("Daily streak: 0 days")
    # The form is labelled: variant and date can be chosen by name.
    expect(page.get_by_label("Variant")).to_have_value("classic")
    expect(page.get_by_label("Date (UTC)")).to_have_value(today)
    play = page.get_by_role("button", name="Play the daily deal")
    play.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/game/[\w-]+$"))
    expect(page.locator(".tableau .column").first).to_be_visible()
    game_id = page.url.rsplit("/", 1)[1]
    text = page.evaluate("async (id) => (await fetch(`/api/games/${id}`)).text()", game_id)
    assert json.loads(text)["deal"] == number  # a daily game shows its number
    page.locator('[data-action="resign"]').click()
    page.locator('[data-action="confirm"]').click()
    expect(page.locator(".end-overlay.resigned")).to_be_visible()

    page.goto(f"{server}/daily?variant=classic&date={today}")
    share = page.get_by_label("Share your result (no spoilers)")
    expect(share).to_be_visible()
    value = share.input_value()
    assert value.startswith(f"Milligan daily {today} (Miss Milligan): lost · 0 moves · ")
    assert value.endswith(f"/daily?variant=classic&date={today}")
    assert not re.search(r"\b[A2-9TJQK][CDHS]\b|\d>|>F", value)  # no card, no move
    page.get_by_role("button", name="Copy").click()
    expect(page.locator("#live")).to_have_text("Copied to the clipboard")
    page.screenshot(path=str(screenshots / "daily-share.png"))
    # the statistics page shows the daily streak beside the table
    page.goto(f"{server}/stats")
    expect(page.locator(".stats .daily-streak")).to_contain_text("Daily streak: 0 days")


def test_a_daily_game_leads_back_to_the_daily_page(
    page: Page, server: str, screenshots: Path
) -> None:
    number = shipped_today("spanish")
    today = daily.today().isoformat()
    page.goto(f"{server}/daily?variant=spanish")
    page.get_by_role("button", name="Play the daily deal").click()
    page.wait_for_url(re.compile(r"/game/[\w-]+$"))
    # While it is played, the game page says it is the daily deal.
    expect(page.locator(".game-daily")).to_have_text(f"Daily deal · {today}")
    expect(page.locator(".game-info")).to_contain_text(f"Deal {number}")
    page.locator('[data-action="resign"]').click()
    page.locator('[data-action="confirm"]').click()
    expect(page.locator(".end-overlay.resigned")).to_be_visible()
    back = page.get_by_role("link", name="Back to the daily deal")
    expect(back).to_be_focused()  # the first way on from a finished daily game
    expect(back).to_have_attribute("href", f"/daily?variant=spanish&date={today}")
    page.screenshot(path=str(screenshots / "daily-game-over.png"))
    back.click()
    page.wait_for_url(re.compile(rf"/daily\?variant=spanish&date={today}$"))
    expect(page.get_by_label("Variant")).to_have_value("spanish")
    share = page.get_by_label("Share your result (no spoilers)")
    expect(share).to_have_value(re.compile(rf"^Milligan daily {today} .*: lost · 0 moves · "))
    expect(page.locator(".daily-streak")).to_contain_text("Daily streak: 0 days")
    # An ordinary game of the same deal is no daily game.
    page.goto(f"{server}/play/spanish/{number}")
    expect(page.locator(".tableau .column").first).to_be_visible()
    expect(page.locator(".game-daily")).to_be_hidden()
    page.locator('[data-action="resign"]').click()
    page.locator('[data-action="confirm"]').click()
    expect(page.locator(".end-overlay.resigned")).to_be_visible()
    expect(page.get_by_role("link", name="Back to the daily deal")).to_have_count(0)


def test_the_daily_page_in_french_and_a_future_date(page: Page, server: str) -> None:
    shipped_today()
    page.goto(f"{server}/daily?variant=spanish&date=2999-01-01")
    expect(page.get_by_role("alert")).to_contain_text("2999-01-01 is not out yet")
    page.evaluate("localStorage.setItem('milligan.settings', JSON.stringify({language: 'fr'}))")
    page.goto(f"{server}/daily?variant=spanish")
    expect(page.get_by_role("heading", level=1)).to_have_text("Donne du jour")
    expect(page.get_by_role("button", name="Jouer la donne du jour")).to_be_visible()


def test_no_serious_accessibility_findings(page: Page, server: str) -> None:
    axe_package = pytest.importorskip("axe_playwright_python")
    shipped_today()
    page.goto(f"{server}/daily")
    page.get_by_role("button", name="Play the daily deal").wait_for()
    page.evaluate((Path(axe_package.__file__).parent / "axe.min.js").read_text())
    found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']}))
      .violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id)""")
    assert found == []
