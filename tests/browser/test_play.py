"""Playing in a real browser against a real server: mouse, touch and keyboard."""

from __future__ import annotations

import json
import math
import os
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from milligan.cards import Card
from milligan.game import Game
from milligan.moves import Move, MoveKind

RANKS = "A23456789TJQK"


# -- helpers -------------------------------------------------------------------------


def start(page: Page, server: str, variant: str, deal: int) -> str:
    """Open the share link of a numbered deal; the game's id once it is on the table."""
    page.goto(f"{server}/play/{variant}/{deal}")
    page.wait_for_url(re.compile(r"/game/[\w-]+$"))
    expect(page.locator(".tableau .column").first).to_be_visible()
    return page.url.rsplit("/", 1)[1]


def state(page: Page) -> dict[str, Any]:
    """The game on the table, as the server has it (through the page, with its cookie)."""
    game_id = page.url.rsplit("/", 1)[1]
    text = page.evaluate("async (id) => (await fetch(`/api/games/${id}`)).text()", game_id)
    result: dict[str, Any] = json.loads(text)  # exact deal numbers, unlike JavaScript's
    return result


def wait_moves(page: Page, moves: int) -> None:
    """Wait until the table says it shows this many moves."""
    word = "move" if moves == 1 else "moves"
    expect(page.locator(".game-info")).to_contain_text(f"{moves} {word}")


def card(page: Page, column: int, index: int) -> Any:
    return page.locator(f'.tableau .card[data-col="{column}"][data-idx="{index}"]')


def column(page: Page, number: int) -> Any:
    return page.locator(f'.tableau .column[data-col="{number}"]')


def save(page: Page, folder: Path, name: str) -> None:
    """A screenshot in the test folder, and a small copy in $MILLIGAN_SCREENSHOTS if set.

    The small copy (960 pixels wide, 192 colours) is what ``docs/screenshots`` holds.
    """
    path = folder / f"{name}.png"
    page.screenshot(path=str(path))
    target = os.environ.get("MILLIGAN_SCREENSHOTS")
    if target:
        from PIL import Image

        Path(target).mkdir(parents=True, exist_ok=True)
        image = Image.open(path).convert("RGB")
        width, height = image.size
        image = image.resize((960, round(height * 960 / width)), Image.Resampling.LANCZOS)
        small = image.quantize(
            colors=192, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
        )
        small.save(Path(target) / path.name, optimize=True)


def settle(page: Page) -> None:
    """Wait until no card is moving (a card in flight is not where it will land)."""
    # Polled from here: wait_for_function evaluates text in the page, which its
    # Content-Security-Policy (no eval) refuses.
    running = "document.getAnimations().filter(a => a.playState === 'running').length"
    deadline = time.monotonic() + 10
    while page.evaluate(running) and time.monotonic() < deadline:
        page.wait_for_timeout(25)


def drag(page: Page, source: Any, target: Any) -> None:
    """Drag with the mouse in small steps, as a person would (once the cards stand still)."""
    settle(page)
    a = source.bounding_box()
    b = target.bounding_box()
    assert a and b
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + 8)
    page.mouse.down()
    page.mouse.move(a["x"] + a["width"] / 2 + 10, a["y"] + 18, steps=3)
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


def greedy_record(deal: int, rows: int) -> list[str]:
    """A plausible game: foundation moves first, then fresh builds, else a deal (rows at most)."""
    game = Game.new("classic", deal)
    moves: list[str] = []
    dealt = 0
    while True:
        legal = [str(move) for move in game.legal_moves()]
        if game.position.reprieve is not None:
            if "S" not in legal:
                break
            move: str | None = "S"
        else:
            up = [m for m in legal if m.endswith(">F")]
            builds = [
                m
                for m in legal
                if m not in ("D", "S") and not m.endswith(">F") and m not in moves[-6:]
            ]
            move = up[0] if up else builds[0] if builds else None
            if move is None:
                if dealt >= rows or "D" not in legal:
                    break
                move = "D"
                dealt += 1
        game.play(move)
        moves.append(move)
    return moves


def touch_drag(page: Page, source: Any, target: Any) -> None:
    """Drag with one finger, through Chromium's touch input (pointerType "touch")."""
    settle(page)
    a = source.bounding_box()
    b = target.bounding_box()
    assert a and b
    cdp = page.context.new_cdp_session(page)
    x, y = a["x"] + a["width"] / 2, a["y"] + 6
    tx, ty = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 11):
        point = {"x": x + (tx - x) * step / 10, "y": y + (ty - y) * step / 10}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


# -- tests ---------------------------------------------------------------------------


def test_a_game_in_progress_shows_what_the_server_has(
    page: Page, server: str, screenshots: Path
) -> None:
    moves = greedy_record(29, 7)
    page.goto(f"{server}/about")
    record = {"format": "milligan-record/1", "variant": "classic", "deal": 29, "moves": moves}
    created = page.evaluate(
        """async (record) => (await fetch('/api/games/import', {method: 'POST',
            headers: {'content-type': 'application/json'},
            body: JSON.stringify(record)})).json()""",
        record,
    )
    page.goto(f"{server}/game/{created['id']}")
    wait_moves(page, len(moves))
    game = state(page)
    for number, cards in enumerate(game["columns"], 1):
        shown = (
            column(page, number)
            .locator(".card")
            .evaluate_all("els => els.map(e => e.dataset.card)")
        )
        assert shown == cards
    tops = page.locator(".foundation .card").evaluate_all("els => els.map(e => e.dataset.card)")
    heights = sorted(h for piles in game["foundations"].values() for h in piles if h)
    assert sorted(RANKS.index(text[0]) + 1 for text in tops) == heights
    rows = game["stock"] // 8
    expect(page.locator(".stock")).to_contain_text(f"{rows} rows")
    # Every card is inside the window: long columns are squeezed to fit.
    bottom = page.evaluate(
        "Math.max(...[...document.querySelectorAll('.tableau .card')]"
        ".map(e => e.getBoundingClientRect().bottom))"
    )
    assert bottom <= page.viewport_size["height"]
    save(page, screenshots, "table")


def test_numbered_deal_shows_its_cards(page: Page, server: str, screenshots: Path) -> None:
    start(page, server, "classic", 42)
    # docs/RULES.md §7.4: deal 42 opens QD 6C 9C 5H AD TD 8S 4H.
    names = page.locator(".tableau .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert names == ["QD", "6C", "9C", "5H", "AD", "TD", "8S", "4H"]
    expect(card(page, 1, 0)).to_have_attribute("aria-label", "queen of diamonds, column 1")
    expect(page.locator(".stock")).to_contain_text("12 rows")
    expect(page.locator(".foundation")).to_have_count(8)
    expect(page.locator(".game-info")).to_contain_text("Deal 42")
    save(page, screenshots, "table-start")


def test_deal_then_drag_a_run(page: Page, server: str, screenshots: Path) -> None:
    start(page, server, "classic", 17)
    page.locator(".stock").click()
    wait_moves(page, 1)
    expect(page.locator(".stock")).to_contain_text("11 rows")
    before = state(page)
    assert before["stock"] == 88 and "6:2>3" in before["legal"]
    moving = before["columns"][5][-2:]
    drag(page, card(page, 6, 0), column(page, 3))
    wait_moves(page, 2)
    after = state(page)
    assert after["columns"][2][-2:] == moving
    assert after["columns"][5] == []
    names = column(page, 3).locator(".card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert names == after["columns"][2]


def test_illegal_drop_snaps_back_with_the_reason(page: Page, server: str) -> None:
    start(page, server, "classic", 42)
    drag(page, card(page, 1, 0), column(page, 2))  # QD onto 6C: not a build
    expect(page.locator("#toast")).to_contain_text("queen of diamonds cannot go on six of clubs")
    expect(page.locator(".drag-ghost")).to_have_count(0)
    expect(card(page, 1, 0)).to_be_visible()
    assert state(page)["moves"] == 0


def test_tap_a_card_then_a_column(browser: Browser, server: str) -> None:
    context = browser.new_context(
        locale="en-US", has_touch=True, is_mobile=True, viewport={"width": 390, "height": 844}
    )
    try:
        page = context.new_page()
        start(page, server, "classic", 42)
        card(page, 4, 0).tap()  # 5H
        expect(card(page, 4, 0)).to_have_class(re.compile("selected"))
        column(page, 2).locator(".card").first.tap()  # onto 6C
        wait_moves(page, 1)
        assert state(page)["columns"][1] == ["6C", "5H"]
        # Click-move with the mouse too: 9C onto TD.
        page.locator('.tableau .card[data-card="9C"]').click()
        page.locator('.tableau .card[data-card="TD"]').click()
        wait_moves(page, 2)
        assert state(page)["columns"][5] == ["TD", "9C"]
        # The same move again with a finger drag (touch pointer events).
        undo = page.locator('[data-action="undo"]')
        undo.click()
        wait_moves(page, 1)
        touch_drag(page, page.locator('.tableau .card[data-card="9C"]'), column(page, 6))
        wait_moves(page, 2)
        assert state(page)["columns"][5] == ["TD", "9C"]
        right = page.evaluate("document.querySelector('.table').getBoundingClientRect().right")
        assert right <= 390  # the whole table fits a phone's width
        # A double tap sends the ace of diamonds up (and opens a reprieve).
        ace = page.locator('.tableau .card[data-card="AD"]')
        ace.tap()
        ace.tap()
        wait_moves(page, 3)
        assert state(page)["foundations"]["D"] == [0, 1]
        expect(page.locator(".reprieve-banner")).to_be_visible()
    finally:
        context.close()


def test_undo_and_redo_by_buttons_and_keys(page: Page, server: str) -> None:
    start(page, server, "classic", 42)
    page.locator(".stock").click()
    wait_moves(page, 1)
    page.get_by_role("button", name="Undo", exact=True).click()
    wait_moves(page, 0)
    assert state(page)["stock"] == 96
    page.get_by_role("button", name="Redo", exact=True).click()
    wait_moves(page, 1)
    assert state(page)["stock"] == 88
    page.keyboard.press("Control+z")
    wait_moves(page, 0)
    page.keyboard.press("Control+y")
    wait_moves(page, 1)
    assert state(page)["stock"] == 88


def test_reprieve_close_refused_then_accepted(page: Page, server: str, screenshots: Path) -> None:
    start(page, server, "classic", 42)
    page.locator('.tableau .card[data-card="AD"]').dblclick()
    wait_moves(page, 1)
    banner = page.locator(".reprieve-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("column 5 is empty")
    expect(column(page, 5)).to_have_class(re.compile("reprieve-column"))
    # A free move: QD onto 6C ignores rank and colour and leaves QD out of place.
    drag(page, card(page, 1, 0), column(page, 2))
    wait_moves(page, 2)
    expect(page.locator(".tableau .card.moved")).to_have_count(1)
    # No black king is left in view for the queen: the banner says the reprieve is stuck.
    expect(banner).to_contain_text("This reprieve can no longer be settled")
    page.get_by_role("button", name="End reprieve").click()
    expect(page.locator(".card.out-of-place")).to_have_count(1)
    expect(page.locator(".card.out-of-place")).to_have_attribute("data-card", "QD")
    expect(page.locator(".card.out-of-place")).to_have_attribute(
        "aria-label", "queen of diamonds, column 2 (moved during the reprieve, out of place)"
    )
    expect(page.locator("#toast")).to_contain_text("out of place: queen of diamonds in column 2")
    assert state(page)["reprieve"] == 5
    save(page, screenshots, "reprieve")
    page.get_by_role("button", name="Undo", exact=True).click()
    wait_moves(page, 1)
    page.get_by_role("button", name="End reprieve").click()
    wait_moves(page, 2)
    expect(banner).to_be_hidden()
    game = state(page)
    assert game["reprieve"] is None and game["columns"][4] == []


def test_language_switch_changes_the_texts(page: Page, server: str) -> None:
    start(page, server, "classic", 42)
    expect(page.locator('[data-action="undo"]')).to_have_text("Undo")
    page.get_by_role("button", name="Settings").click()
    page.locator("#setting-language").select_option("fr")
    expect(page.locator('[data-action="undo"]')).to_have_text("Annuler")
    expect(page.locator("nav")).to_contain_text("Règles")
    expect(card(page, 1, 0)).to_have_attribute("aria-label", re.compile("dame de carreau"))
    page.locator('.tableau .card[data-card="AD"]').dblclick()
    expect(page.locator(".reprieve-banner")).to_contain_text("Sursis")
    page.reload()
    expect(page.locator('[data-action="undo"]')).to_have_text("Annuler")
    for language, word in (("pt", "Indulto"), ("it", "Tregua"), ("nl", "Respijt")):
        page.locator("#settings-button").click()
        page.locator("#setting-language").select_option(language)
        expect(page.locator(".reprieve-banner")).to_contain_text(word)
    page.locator("#settings-button").click()
    page.locator("#setting-language").select_option("en")
    expect(page.locator('[data-action="undo"]')).to_have_text("Undo")


def test_keyboard_only(page: Page, server: str) -> None:
    start(page, server, "classic", 42)
    page.locator("body").focus()
    # Tab from the toolbar reaches the stock, the foundations, then column 1.
    page.locator('[data-action="resign"]').focus()
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.key") == "col-1":
            break
    assert page.evaluate("document.activeElement.dataset.key") == "col-1"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # pick up 9C from column 3
    expect(page.locator("#live")).to_contain_text("nine of clubs")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # drop on column 6 (TD)
    wait_moves(page, 1)
    assert state(page)["columns"][5] == ["TD", "9C"]
    expect(page.locator("#live")).to_contain_text("column 6")
    page.keyboard.press("ArrowLeft")  # column 5: AD
    page.keyboard.press("f")
    wait_moves(page, 2)
    expect(page.locator(".reprieve-banner")).to_be_visible()
    page.keyboard.press("e")  # end the reprieve
    wait_moves(page, 3)
    page.keyboard.press("d")
    wait_moves(page, 4)
    assert state(page)["stock"] == 88
    page.keyboard.press("u")
    wait_moves(page, 3)
    page.keyboard.press("h")
    expect(page.locator(".message")).to_be_visible()
    focused = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert focused != "none"
    # A run of two by keyboard: deal 17, then Up takes two cards of column 6 onto column 3.
    start(page, server, "classic", 17)
    page.locator(".stock").focus()
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    run = state(page)["columns"][5]
    column(page, 6).focus()
    page.keyboard.press("ArrowUp")
    expect(column(page, 6).locator(".card.pickup")).to_have_count(2)
    page.keyboard.press("Space")
    expect(column(page, 6).locator(".card.selected")).to_have_count(2)
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("Space")
    wait_moves(page, 2)
    game = state(page)
    assert game["columns"][5] == [] and game["columns"][2][-2:] == run


def foundation_order_game(page: Page, server: str, left: int) -> tuple[list[str], str]:
    """Import a one-deck game dealt in foundation order, with its last ``left`` moves unplayed.

    Every card can go up as soon as it is dealt, so the whole game is a known win.
    """
    order = [f"{rank}{suit}" for rank in RANKS for suit in "CDHS"]
    game = Game.from_order("one-deck", [Card.parse(text) for text in order])
    moves: list[str] = []
    for row in range(13):
        if row:
            game.play("D")
            moves.append("D")
        for number in range(1, 5):
            game.play(f"{number}>F")
            moves.append(f"{number}>F")
            if game.position.reprieve is not None and game.status == "playing":
                game.play("S")
                moves.append("S")
    assert game.status == "won"
    page.goto(f"{server}/about")
    record = {
        "format": "milligan-record/1",
        "variant": "one-deck",
        "order": order,
        "moves": moves[:-left],
    }
    created = page.evaluate(
        """async (record) => (await fetch('/api/games/import', {method: 'POST',
            headers: {'content-type': 'application/json'},
            body: JSON.stringify(record)})).json()""",
        record,
    )
    page.goto(f"{server}/game/{created['id']}")
    expect(page.locator(".tableau .column")).to_have_count(4)
    wait_moves(page, len(moves) - left)
    return moves, created["id"]


def test_won_game_finished_in_the_ui(page: Page, server: str, screenshots: Path) -> None:
    moves, _ = foundation_order_game(page, server, 8)
    assert moves[-8:] == ["D", "1>F", "S", "2>F", "S", "3>F", "S", "4>F"]
    expect(page.locator(".foundation")).to_have_count(4)
    done = len(moves) - 8
    page.locator(".stock").click()  # D
    done += 1
    wait_moves(page, done)
    for number in range(1, 5):
        card(page, number, 0).dblclick()  # the king goes up
        done += 1
        wait_moves(page, done)
        if number < 4:
            page.get_by_role("button", name="End reprieve").click()  # S
            done += 1
            wait_moves(page, done)
    expect(page.locator(".end-overlay.won")).to_be_visible()
    expect(page.locator(".end-overlay")).to_contain_text("You won!")
    assert state(page)["status"] == "won"
    save(page, screenshots, "won")


def test_reload_mid_game_and_resume(page: Page, server: str) -> None:
    game_id = start(page, server, "classic", 42)
    page.locator(".stock").click()
    wait_moves(page, 1)
    page.reload()
    wait_moves(page, 1)
    expect(page.locator(".stock")).to_contain_text("11 rows")
    page.goto(f"{server}/")
    link = page.locator(f'.resume-list a[href="/game/{game_id}"]')
    expect(link).to_be_visible()
    link.click()
    page.wait_for_url(f"**/game/{game_id}")
    wait_moves(page, 1)
    assert state(page)["stock"] == 88


# -- controls and pages --------------------------------------------------------------


def test_new_game_dialog_share_link_and_resign(page: Page, server: str) -> None:
    page.goto(f"{server}/")
    page.locator('[data-action="new"]').click()
    dialog = page.locator("dialog.new-game-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("#new-variant").select_option("one-deck")
    dialog.locator("#deal-number").fill("5")
    dialog.locator('[data-action="start"]').click()
    page.wait_for_url(re.compile(r"/game/[\w-]+$"))
    expect(page.locator(".tableau .column")).to_have_count(4)
    game = state(page)
    assert game["variant"] == "one-deck" and game["deal"] == 5
    page.locator('[data-action="share"]').click()
    expect(page.locator("input.share-link")).to_have_value(f"{server}/play/one-deck/5")
    page.keyboard.press("Escape")
    page.locator('[data-action="resign"]').click()
    page.locator('[data-action="confirm"]').click()
    expect(page.locator(".end-overlay.resigned")).to_be_visible()
    assert state(page)["status"] == "resigned"


def test_new_game_dialog_offers_a_deal_proven_winnable(page: Page, server: str) -> None:
    from milligan.game import Game
    from milligan.solver import solve
    from milligan.survey.results import known_winnable

    page.goto(f"{server}/")
    page.locator('[data-action="new"]').click()
    dialog = page.locator("dialog.new-game-dialog")
    dialog.locator("#new-variant").select_option("spanish")
    dialog.locator('label[for="deal-winnable"]').click()
    dialog.locator('[data-action="start"]').click()
    page.wait_for_url(re.compile(r"/game/[\w-]+$"))
    game = state(page)
    assert game["variant"] == "spanish" and game["deal"] is None  # secret until the end
    page.locator('[data-action="resign"]').click()
    page.locator('[data-action="confirm"]').click()
    expect(page.locator(".end-overlay.resigned")).to_be_visible()
    number = state(page)["deal"]  # a fresh random number, not one of a published list
    assert number not in known_winnable("spanish")
    assert solve(Game.new("spanish", number), max_positions=500_000).result == "won"


def test_hint_and_solution_playback(page: Page, server: str) -> None:
    moves, _ = foundation_order_game(page, server, 8)
    done = len(moves) - 8
    page.locator('[data-action="hint"]').click()
    message = page.locator(".message")
    expect(message).to_contain_text("Hint: Deal a row", timeout=60_000)
    # every sample won: said as a count, not as a certain 100%
    expect(message).to_contain_text("Hint: Deal a row (won in all 16 sampled deals)")
    expect(page.locator(".stock.hinted")).to_be_visible()
    expect(page.locator(".foundations.hint-target")).to_have_count(0)
    page.locator('[data-action="solve"]').click()
    bar = page.locator(".playback")
    expect(bar).to_be_visible(timeout=60_000)
    expect(bar).to_contain_text("full knowledge")
    expect(bar).to_contain_text(re.compile(r"Move 0 of \d+"))
    bar.locator('[data-action="step"]').click()
    wait_moves(page, done + 1)
    bar.locator('[data-action="play"]').click()
    expect(bar.locator('[data-action="play"]')).to_have_text("Pause")
    bar.locator('[data-action="play"]').click()
    expect(bar.locator('[data-action="play"]')).to_have_text("Play")
    assert state(page)["assisted"] is True
    bar.locator('[data-action="play"]').click()
    expect(page.locator(".end-overlay.won")).to_be_visible(timeout=20_000)


def test_rules_statistics_and_about(page: Page, server: str, screenshots: Path) -> None:
    page.goto(f"{server}/rules")
    expect(page.locator("h1")).to_contain_text("Rules")
    for title in (
        "Miss Milligan",
        "Spanish Patience",
        "Improved Miss Milligan",
        "One-deck Milligan",
        "Strict Milligan",
    ):
        expect(page.locator(".variant-rules dt", has_text=title).first).to_be_visible()
    figures = page.locator("figure.diagram")
    expect(figures).to_have_count(3)
    expect(figures.nth(1).locator(".card.out-of-place")).to_have_count(1)
    expect(figures.nth(1).locator(".reprieve-column")).to_have_count(1)
    page.locator("figure.diagram").first.scroll_into_view_if_needed()
    save(page, screenshots, "rules")
    page.emulate_media(media="print")
    expect(page.locator(".topbar")).to_be_hidden()
    page.emulate_media(media="screen")
    # One game played to the end makes a statistics row.
    start(page, server, "classic", 42)
    page.locator('[data-action="resign"]').click()
    page.locator('[data-action="confirm"]').click()
    expect(page.locator(".end-overlay")).to_be_visible()
    page.locator("nav a[href='/stats']").click()
    table = page.locator(".stats-table")
    expect(table).to_be_visible()
    expect(table).to_contain_text("Miss Milligan")
    expect(table.locator("tbody tr").first).to_contain_text("1")
    save(page, screenshots, "statistics")
    page.locator("nav a[href='/about']").click()
    expect(page.locator("h1")).to_have_text("About")


def test_settings_four_colours_and_auto_move_are_kept(page: Page, server: str) -> None:
    start(page, server, "spanish", 42)
    club = page.locator('.tableau .card[data-card="6C"] .suit-C').first
    black = club.evaluate("e => getComputedStyle(e).fill")
    page.locator("#settings-button").click()
    page.locator("#setting-four").check()
    page.locator("#setting-auto").check()
    page.keyboard.press("Escape")
    # Spanish Patience has no reprieve: the ace of diamonds is safe and goes up by itself.
    wait_moves(page, 1)
    assert state(page)["foundations"]["D"] == [0, 1]
    green = page.locator('.tableau .card[data-card="6C"] .suit-C').first.evaluate(
        "e => getComputedStyle(e).fill"
    )
    assert green != black
    page.reload()
    expect(page.locator("body.four-colour")).to_have_count(1)
    page.locator("#settings-button").click()
    expect(page.locator("#setting-auto")).to_be_checked()
    page.locator("#setting-auto").uncheck()
    page.locator("#setting-four").uncheck()


def test_play_link_returns_to_the_game_in_progress(page: Page, server: str) -> None:
    game_id = start(page, server, "classic", 42)
    page.locator(".stock").click()
    wait_moves(page, 1)
    page.locator("nav a[href='/rules']").click()
    expect(page.locator("h1")).to_contain_text("Rules")
    page.locator("nav a[href='/play']").click()
    page.wait_for_url(f"**/game/{game_id}")
    wait_moves(page, 1)
    page.locator('[data-action="resign"]').click()
    page.locator('[data-action="confirm"]').click()
    expect(page.locator(".end-overlay")).to_be_visible()
    page.locator("nav a[href='/play']").click()
    page.wait_for_url(re.compile(r"/game/[\w-]+$"))
    expect(page.locator(".game-info")).to_contain_text("0 moves")
    assert page.url.rsplit("/", 1)[1] != game_id
    assert state(page)["deal"] is None  # a random deal keeps its number secret


def test_animations_follow_the_setting_and_reduced_motion(page: Page, server: str) -> None:
    start(page, server, "classic", 42)
    page.locator(".stock").click()
    wait_moves(page, 1)
    assert page.evaluate("document.getAnimations().length") > 0  # the row flies in
    page.wait_for_timeout(600)
    page.emulate_media(reduced_motion="reduce")
    page.locator(".stock").click()
    wait_moves(page, 2)
    assert page.evaluate("document.getAnimations().length") == 0
    page.emulate_media(reduced_motion="no-preference")
    page.locator("#settings-button").click()
    page.locator("#setting-animations").uncheck()
    page.keyboard.press("Escape")
    # the click must reach the table, not a dialog still closing
    expect(page.locator("dialog.settings-dialog")).to_have_count(0)
    page.locator(".stock").click()
    wait_moves(page, 3)
    assert page.evaluate("document.getAnimations().length") == 0


def test_the_largest_deal_number_survives_the_trip(page: Page, server: str) -> None:
    largest = 2**64 - 1
    start(page, server, "classic", largest)
    expect(page.locator(".game-info")).to_contain_text(f"Deal {largest}")
    assert state(page)["deal"] == largest
    page.locator('[data-action="share"]').click()
    expect(page.locator("input.share-link")).to_have_value(f"{server}/play/classic/{largest}")


def test_the_banner_counts_cards_out_of_place(page: Page, server: str) -> None:
    start(page, server, "classic", 42)
    page.locator('.tableau .card[data-card="AD"]').dblclick()
    banner = page.locator(".reprieve-banner")
    expect(banner).to_be_visible()
    drag(page, card(page, 3, 0), column(page, 4))  # a free move: 9C onto 5H
    wait_moves(page, 2)
    expect(banner).to_contain_text("1 moved card is still out of place.")
    expect(page.locator(".end-reprieve.ready")).to_have_count(0)
    drag(page, card(page, 4, 1), column(page, 6))  # a build: 9C onto TD settles it
    wait_moves(page, 3)
    expect(banner).to_contain_text("Every moved card is in place: the reprieve can end.")
    expect(page.locator(".end-reprieve.ready")).to_have_count(1)


def test_a_foundation_hint_lights_the_card_and_the_foundations(page: Page, server: str) -> None:
    foundation_order_game(page, server, 14)  # a queen can go up next
    page.locator('[data-action="hint"]').click()
    message = page.locator(".message")
    expect(message).to_contain_text("to a foundation", timeout=60_000)
    expect(page.locator(".foundations.hint-target")).to_be_visible()
    expect(page.locator(".tableau .card.hinted")).to_have_count(1)
    expect(page.locator(".tableau .card.hinted")).to_have_attribute("data-card", re.compile("^Q"))


def plan_in_words(variant: str, deal: int, plan: list[str]) -> list[str]:
    """The English words the page should use for each move of a plan, found with the engine."""
    game = Game.new(variant, deal)
    words = []
    for text in plan:
        move = Move.parse(text)
        if move.kind is MoveKind.DEAL:
            words.append("Deal a row")
        elif move.kind is MoveKind.STOP:
            words.append("End the reprieve")
        else:
            column = game.position.columns[move.source - 1]
            base = column[len(column) - move.count]
            name = f"{base.rank.name.lower()} of {base.suit.name.lower()}"
            if move.kind is MoveKind.FOUNDATION:
                where = "to a foundation"
            else:
                where = f"to column {move.target}"
            above = " and the cards above it" if move.count > 1 else ""
            words.append(f"{name}{above} from column {move.source} {where}")
        game.play(move)
    return words


def test_a_hint_says_its_plan_in_words(page: Page, server: str) -> None:
    game_id = start(page, server, "classic", 1)
    page.locator('[data-action="hint"]').click()
    message = page.locator(".message")
    expect(message).to_contain_text("Then: ", timeout=60_000)
    # the player has not moved, so the server answers again with the same plan
    hint = json.loads(
        page.evaluate("async (id) => (await fetch(`/api/games/${id}/hint`)).text()", game_id)
    )
    words = plan_in_words("classic", 1, hint["plan"])
    later = "; ".join(text[0].lower() + text[1:] for text in words[1:4])
    if len(words) > 4:
        more = len(words) - 4
        later += f"; and {more} more move" + ("s" if more > 1 else "")
    expect(message).to_contain_text(f"Hint: {words[0]}")
    expect(message).to_contain_text(f"Then: {later}")
    assert not re.search(r"\d>\d|\d>F", message.inner_text())  # no raw notation
    # the chance shown is the corrected estimate, not the raw share of samples won
    percent = math.floor(100 * hint["win_estimate"] + 0.5)
    assert hint["win_estimate"] != hint["win_chance"]
    expect(message).to_contain_text(f"estimated chance of winning: {percent}%, from 16 sampled")
    # French lists the moves with a space before each semicolon
    page.get_by_role("button", name="Settings").click()
    page.locator("#setting-language").select_option("fr")
    page.keyboard.press("Escape")
    page.locator('[data-action="hint"]').click()
    expect(message).to_contain_text("Ensuite : ", timeout=60_000)
    assert message.inner_text().count(" ; ") == min(len(words) - 2, 3)


def test_a_hint_says_when_no_sampled_deal_or_every_one_was_won(page: Page, server: str) -> None:
    # 0 and 1 are counts of samples, not certainties: they are said as counts, in any language
    start(page, server, "classic", 1)
    script = """async () => {
        const { chanceText } = await import("/static/js/hints.js");
        const say = (win_chance, win_estimate, samples) =>
            chanceText({ win_chance, win_estimate, samples });
        return [say(0, 0, 16), say(1, 1, 16), say(0.5, 0.42, 16), say(0, 0, 1), say(0.5, null, 2)];
    }"""
    assert page.evaluate(script) == [
        "no win in any of 16 sampled deals",
        "won in all 16 sampled deals",
        "estimated chance of winning: 42%, from 16 sampled deals",
        "no win in 1 sampled deal",
        "",
    ]
    page.get_by_role("button", name="Settings").click()
    page.locator("#setting-language").select_option("fr")
    page.keyboard.press("Escape")
    expect(page.locator("html")).to_have_attribute("lang", "fr")  # the catalog has loaded
    assert page.evaluate(script)[:4] == [
        "aucune victoire dans les 16 donnes simulées",
        "victoire dans les 16 donnes simulées",
        "chance de gagner estimée : 42 %, d'après 16 donnes simulées",
        "aucune victoire dans 1 donne simulée",
    ]


def test_a_plan_is_described_from_the_table_its_moves_leave(page: Page, server: str) -> None:
    # deal 42: the ace up opens a reprieve, 9C moves freely onto 5H, then builds on to TD;
    # the third move's card is there only because of the second
    start(page, server, "classic", 42)
    plan = ["5>F", "3>4", "4>6", "S", "D"]
    said = page.evaluate(
        """async (plan) => {
            const { describePlan } = await import("/static/js/moves.js");
            const id = location.pathname.split("/").pop();
            const game = await (await fetch(`/api/games/${id}`)).json();
            return describePlan(plan, game);
        }""",
        plan,
    )
    assert said == plan_in_words("classic", 42, plan)
    assert said[2] == "nine of clubs from column 4 to column 6"
