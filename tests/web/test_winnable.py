"""Winnable deals: a fresh random number proven won, secret until the game ends."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from milligan.game import Game
from milligan.solver import solve
from milligan.survey.results import known_winnable
from milligan.variants import PRESETS, Variant
from milligan.web.winnable import WinnableFiller


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["error"] == code and body["message"]
    return body


def test_a_winnable_deal_is_a_fresh_number_proven_won(client: TestClient) -> None:
    answer = client.post("/api/games", json={"variant": "classic", "winnable": True})
    assert answer.status_code == 201, answer.text
    game = answer.json()
    assert game["deal"] is None and game["status"] == "playing"
    listed = client.get("/api/games").json()["games"]
    assert listed[0]["deal"] is None
    finished = client.post(f"/api/games/{game['id']}/resign", json={}).json()
    number = finished["deal"]
    assert isinstance(number, int) and 0 <= number < 2**64
    # Not from the published list (whose layouts give the number away), and really won.
    assert number not in known_winnable("classic")
    assert solve(Game.new("classic", number), max_positions=200_000).result == "won"
    assert finished["columns"] == [
        [str(card) for card in column] for column in Game.new("classic", number).position.columns
    ]


def test_the_pool_is_filled_in_the_background_worker_and_each_deal_dealt_once(
    client: TestClient,
) -> None:
    app: Any = client.app
    database = app.state.database
    filler: WinnableFiller = app.state.winnable
    assert all(database.count_winnable(name) == 0 for name in PRESETS)
    # One-deck deals are proven won about once in a hundred random numbers, so
    # its search takes a time with a long tail: its pool starts with a deal
    # (any number will do here), and the other four are searched for.
    database.add_winnable("one-deck", 2**64 - 7)
    assert filler.fill_once() == len(PRESETS) - 1
    assert all(database.count_winnable(name) == 1 for name in PRESETS)
    waiting = database._read("SELECT deal FROM winnable WHERE variant = 'classic'")[0][0]
    game = client.post("/api/games", json={"variant": "classic", "winnable": True}).json()
    assert game["deal"] is None
    assert database.count_winnable("classic") == 0  # taken: no one else gets it
    shown = client.post(f"/api/games/{game['id']}/resign", json={}).json()["deal"]
    assert shown == int(waiting)
    assert filler.fill_once() == 1  # only the classic pool was short


def test_an_unwinnable_variant_gets_503_after_a_bounded_effort(client: TestClient) -> None:
    hopeless = {
        "decks": 1,
        "columns": 2,
        "opening_rows": 1,
        "face_down_rows": 0,
        "reprieve": "none",
    }
    body = assert_error(
        client.post("/api/games", json={"variant": hopeless, "winnable": True}),
        503,
        "not_available",
    )
    assert "proven winnable" in body["message"]
    assert client.get("/api/games").json() == {"games": []}
    assert_error(
        client.post("/api/games", json={"variant": "classic", "winnable": "yes"}), 422, "invalid"
    )


@pytest.mark.parametrize("variant", ["spanish", "strict"])
def test_winnable_deals_of_other_variants(client: TestClient, variant: str) -> None:
    game = client.post("/api/games", json={"variant": variant, "winnable": True}).json()
    number = client.post(f"/api/games/{game['id']}/resign", json={}).json()["deal"]
    assert solve(Game.new(variant, number), max_positions=200_000).result == "won"


def test_a_custom_variant_takes_its_deals_from_the_pool_by_its_key(client: TestClient) -> None:
    app: Any = client.app
    settings = {
        "decks": 1,
        "columns": 6,
        "opening_rows": 2,
        "face_down_rows": 1,
        "reprieve": "strict",
    }
    key = Variant.from_json(settings).key
    assert key == (
        '{"columns":6,"decks":1,"face_down_rows":1,"opening_rows":2,"reprieve":"strict"}'
    )
    app.state.database.add_winnable(key, 2**64 - 5)
    game = client.post("/api/games", json={"variant": settings, "winnable": True}).json()
    assert game["deal"] is None and game["title"] == "Custom Milligan"
    assert app.state.database.count_winnable(key) == 0
    assert app.state.games.database.game(game["id"]).variant == key
    shown = client.post(f"/api/games/{game['id']}/resign", json={}).json()["deal"]
    assert shown == 2**64 - 5
