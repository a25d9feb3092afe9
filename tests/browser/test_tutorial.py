"""The tutorial (/tutorial) in a real browser: every lesson by keyboard alone, in every language.

Each run also makes mistakes and checks that the engine's reason is shown in
the page's language (docs/API.md, "Refusal reasons").
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from milligan.tutorial import LESSONS, UNDO

I18N = Path(__file__).parents[2] / "src/milligan/web/static/i18n"
LOCALES = {"en": "en-GB", "pt": "pt-PT", "it": "it-IT", "nl": "nl-NL", "fr": "fr-FR"}


def messages(language: str) -> dict[str, str]:
    data: dict[str, dict[str, str]] = json.loads((I18N / f"{language}.json").read_text())
    return data["messages"]


def play(page: Page, move: str) -> None:
    """Type a move into the focused move field and press Enter: the keyboard only."""
    expect(page.locator("#tutorial-move")).to_be_focused()
    page.keyboard.type(move)
    page.keyboard.press("Enter")


def lesson(page: Page, number: int, moves: int) -> None:
    expect(page.locator(".tutorial-lesson")).to_have_attribute("data-step", f"{number}.{moves}")


@pytest.mark.parametrize("language", list(LOCALES))
def test_the_whole_tutorial_by_keyboard(
    browser: Browser, server: str, language: str, screenshots: Path
) -> None:
    context = browser.new_context(locale=LOCALES[language], viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    words = messages(language)
    not_allowed = words.get("Not allowed: {reason}", "Not allowed: {reason}").split("{")[0]
    try:
        page.goto(f"{server}/")
        link = page.locator('main a[href="/tutorial"]')
        link.focus()
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r"/tutorial$"))
        expect(page.locator("main h1")).to_have_text(words.get("Tutorial", "Tutorial"))
        lesson(page, 1, 0)
        answer = page.locator(".tutorial-answer")

        # A mistake: 9C cannot go on 8S, in the page's language.
        play(page, "1>4")
        expect(answer).to_contain_text(not_allowed)
        if language == "en":
            expect(answer).to_contain_text("cannot go on")
        else:
            expect(answer).not_to_contain_text("cannot")
            expect(answer).not_to_contain_text("Not allowed")
        # Malformed notation is explained, and a legal move the lesson does not want is refused.
        play(page, "1>")
        expect(answer).to_have_text(
            words.get(
                "Write a move as 3>5, 3:2>5, 4>F, D or S.",
                "Write a move as 3>5, 3:2>5, 4>F, D or S.",
            )
        )
        play(page, "D")
        expect(answer).to_have_text(
            words.get(
                "That move is allowed, but this lesson asks for another one.",
                "That move is allowed, but this lesson asks for another one.",
            )
        )
        lesson(page, 1, 0)

        for number, taught in enumerate(LESSONS, start=1):
            lesson(page, number, 0)
            for step, accepted in enumerate(taught.steps):
                move = accepted[0]
                if taught.key == "free" and step == 1:
                    # Ending the reprieve with 5S out of place: the engine's reason, translated.
                    play(page, "S")
                    expect(answer).to_contain_text(not_allowed)
                    if language != "en":
                        expect(answer).not_to_contain_text("out of place")
                    page.screenshot(path=str(screenshots / f"tutorial-free-{language}.png"))
                play(page, "u" if move == UNDO else move)
                lesson(page, number, step + 1)
            expect(page.locator(".tutorial-lesson")).to_have_attribute("data-done", "yes")
            expect(page.locator(".tutorial-next")).to_be_focused()
            if number < len(LESSONS):
                page.keyboard.press("Enter")
        expect(page.locator('.tutorial-next[href="/play/one-deck"]')).to_be_visible()

        # Progress is remembered: every lesson is marked done after a reload.
        page.reload()
        lesson(page, 1, 0)
        expect(page.locator(".tutorial-lessons .tutorial-done")).to_have_count(len(LESSONS))
    finally:
        context.close()
    assert not errors, errors


def test_the_rules_page_links_to_the_tutorial(page: Page, server: str) -> None:
    page.goto(f"{server}/rules")
    page.get_by_role("link", name="Learn by playing: the tutorial").click()
    page.wait_for_url(re.compile(r"/tutorial$"))
    expect(page.locator(".tutorial-lesson")).to_have_attribute("data-step", "1.0")
    expect(page.get_by_label("Your move")).to_be_focused()
    # The move keys type into the field: 1>4 is refused with the engine's reason.
    keys = page.get_by_role("group", name="Move keys")
    for key in ("1", ">", "4", "3"):
        keys.get_by_role("button", name=key, exact=True).click()
    keys.get_by_role("button", name="Erase").click()
    expect(page.get_by_label("Your move")).to_have_value("1>4")
    expect(page.get_by_label("Your move")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".tutorial-answer")).to_contain_text("Not allowed: nine of clubs")
