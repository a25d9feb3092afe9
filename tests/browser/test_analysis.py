"""The end-of-game box's "Where did it go wrong?": a lost game, its turning point, a new start."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from milligan.game import Game
from milligan.record import Record
from milligan.solver.baseline import play_greedy


def test_a_lost_game_shows_where_the_win_was_thrown_away(page: Page, server: str) -> None:
    game = Game.new("one-deck", 54)
    play_greedy(game)
    assert game.status == "lost" and len(game.moves) == 35 and str(game.moves[-1]) == "1>F"
    record = Record.of(game).to_dict()
    record["moves"] = record["moves"][:-1]
    del record["result"]
    page.goto(f"{server}/about")
    created = page.evaluate(
        """async (record) => (await fetch('/api/games/import', {method: 'POST',
            headers: {'content-type': 'application/json'},
            body: JSON.stringify(record)})).json()""",
        record,
    )
    page.goto(f"{server}/game/{created['id']}")
    expect(page.locator(".game-info")).to_contain_text("34 moves")
    # the last move loses: the top card of column 1 goes up, and the game is a dead end
    page.locator('.tableau .column[data-col="1"] .card').last.dblclick()
    expect(page.locator(".end-overlay.lost")).to_be_visible()
    button = page.get_by_role("button", name="Where did it go wrong?")
    button.focus()
    page.keyboard.press("Enter")
    summary = page.locator(".analysis .analysis-summary")
    expect(summary).to_have_text("Move 15 of 35 (4>3) threw the win away.", timeout=90_000)
    expect(page.locator("#live")).to_contain_text("Move 15 of 35 (4>3) threw the win away.")
    expect(page.locator(".analysis .timeline")).to_have_attribute(
        "aria-label", "Timeline: moves 15 to 15 of 35 marked"
    )
    expect(page.locator(".analysis .analysis-better")).to_contain_text("A winning line from there")
    again = page.get_by_role("button", name="Play from before move 15")
    expect(again).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/game/(?!" + created["id"] + r")[\w-]+$"))
    expect(page.locator(".game-info")).to_contain_text("14 moves")
