"""Every API answer the page handles in a scripted game matches the server's declared model.

The page is recorded with Playwright (``page.on("response")``) while it plays: a
share link, a build, a reprieve with a refused close, undo and redo, a hint, a
refused deal, a resignation, the statistics and the start page. Each JSON answer
is then validated against its route's pydantic ``response_model`` (errors against
``ErrorPublic``), taken from the server's own route table, so the page and the
contract in docs/API.md cannot drift apart unseen.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from fastapi.routing import APIRoute
from playwright.sync_api import Page, Response, expect
from pydantic import TypeAdapter

from milligan.errors import REASONS
from milligan.web.app import ROUTERS
from milligan.web.schemas import ErrorPublic


def settle(page: Page) -> None:
    """Wait until no card is moving."""
    running = "document.getAnimations().filter(a => a.playState === 'running').length"
    deadline = time.monotonic() + 10
    while page.evaluate(running) and time.monotonic() < deadline:
        page.wait_for_timeout(25)


def drag(page: Page, source: Any, target: Any) -> None:
    settle(page)
    a = source.bounding_box()
    b = target.bounding_box()
    assert a and b
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + 8)
    page.mouse.down()
    page.mouse.move(a["x"] + a["width"] / 2 + 10, a["y"] + 18, steps=3)
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


def moves_shown(page: Page, moves: int) -> None:
    word = "move" if moves == 1 else "moves"
    expect(page.locator(".game-info")).to_contain_text(f"{moves} {word}")


def route_for(method: str, path: str) -> APIRoute:
    """The API route that answers ``method path``."""
    for route in (route for api_router in ROUTERS for route in api_router.routes):
        if isinstance(route, APIRoute) and method in route.methods:
            pattern = re.sub(r"\{\w+\}", r"[^/]+", route.path)
            if re.fullmatch(pattern, path):
                return route
    raise AssertionError(f"no route for {method} {path}")


def test_every_answer_the_page_handles_matches_its_model(page: Page, server: str) -> None:
    pending: list[Response] = []
    answers: list[tuple[str, str, int, str]] = []
    page.on("response", lambda answer: pending.append(answer) if "/api/" in answer.url else None)

    def read() -> None:
        """Read the answers so far: a navigation drops their bodies."""
        page.wait_for_load_state("networkidle")
        for answer in pending:
            answers.append((answer.request.method, answer.url, answer.status, answer.text()))
        pending.clear()

    page.goto(f"{server}/play/classic/42")
    page.wait_for_url(re.compile(r"/game/[\w-]+$"))
    expect(page.locator(".tableau .column").first).to_be_visible()
    card = page.locator('.tableau .card[data-card="AD"]')
    card.dblclick()  # 5>F opens a reprieve in column 5
    moves_shown(page, 1)
    drag(
        page,
        page.locator('.tableau .card[data-col="1"][data-idx="0"]'),
        page.locator('.tableau .column[data-col="2"]'),
    )  # QD freely onto 6C
    moves_shown(page, 2)
    page.get_by_role("button", name="End reprieve").click()  # refused: QD is out of place
    expect(page.locator(".card.out-of-place")).to_have_count(1)
    page.keyboard.press("d")  # refused: no dealing while a reprieve is open
    expect(page.locator("#toast")).to_contain_text("no dealing while a reprieve is open")
    page.get_by_role("button", name="Undo", exact=True).click()
    moves_shown(page, 1)
    page.get_by_role("button", name="Redo", exact=True).click()
    moves_shown(page, 2)
    page.get_by_role("button", name="Undo", exact=True).click()
    moves_shown(page, 1)
    page.locator('[data-action="hint"]').click()
    expect(page.locator(".message")).to_contain_text("Hint:", timeout=60_000)
    page.locator('[data-action="resign"]').click()
    page.locator('[data-action="confirm"]').click()
    expect(page.locator(".end-overlay.resigned")).to_be_visible()
    read()
    page.goto(f"{server}/stats")
    expect(page.locator("main")).to_contain_text("Statistics")
    read()
    page.goto(f"{server}/")
    read()

    assert len(answers) >= 12, answers
    seen: set[tuple[str, str, int]] = set()
    reasons = []
    for method, url, status, text in answers:
        path = re.sub(r"^https?://[^/]+", "", url).split("?")[0]
        route = route_for(method, path)
        body = json.loads(text)
        if status < 400:
            TypeAdapter(route.response_model).validate_python(body)
        else:
            error = ErrorPublic.model_validate(body)
            if error.reason is not None:
                assert error.reason.code in REASONS, body
                reasons.append(error.reason.code)
        seen.add((method, route.path, status))
    expected = {
        ("GET", "/api/games/{game_id}", 200),
        ("POST", "/api/games/{game_id}/moves", 200),
        ("POST", "/api/games/{game_id}/moves", 409),
        ("POST", "/api/games/{game_id}/undo", 200),
        ("POST", "/api/games/{game_id}/redo", 200),
        ("POST", "/api/games/{game_id}/resign", 200),
        ("GET", "/api/games/{game_id}/hint", 200),
        ("GET", "/api/stats", 200),
    }
    assert expected <= seen, sorted(seen)
    assert reasons == ["reprieve_unsettled", "no_deal_in_reprieve"]
