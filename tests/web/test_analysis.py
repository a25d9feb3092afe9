"""``GET /api/games/{id}/analysis``: the turning point of a finished game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from milligan.game import Game
from milligan.moves import Move
from milligan.record import Record
from milligan.solver import solve
from milligan.solver.baseline import play_greedy
from milligan.store import Database
from milligan.web.app import create_app
from milligan.web.deps import HelpBudget
from milligan.web.settings import ServerSettings

#: Enough for one-deck solves to decide (positions, not seconds: reproducible).
BUDGET = HelpBudget(solution_seconds=60.0, solution_positions=2_000_000)
SETTINGS = ServerSettings(fill_winnable=False, winnable_pool=1, winnable_positions=200_000)


@pytest.fixture
def client(database: Database) -> Iterator[TestClient]:
    app = create_app(database, budget=BUDGET, settings=SETTINGS)
    with TestClient(app, base_url="http://localhost") as client:
        yield client


def imported(client: TestClient, game: Game) -> dict[str, Any]:
    response = client.post("/api/games/import", json=Record.of(game).to_dict())
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"] == code and response.json()["message"]


def test_a_lost_game_has_a_turning_point(client: TestClient) -> None:
    game = Game.new("one-deck", 54)
    play_greedy(game)
    assert game.status == "lost"
    created = imported(client, game)
    answer = client.get(f"/api/games/{created['id']}/analysis")
    assert answer.status_code == 200, answer.text
    found = answer.json()
    assert found["moves"] == len(game.moves) == 35
    assert found["turning_point"] == 15 and found["move"] == "4>3"
    assert found["range"] is None and found["never_winnable"] is False
    assert found["better_from"] == 14 and found["better"]
    position = game.positions[14]
    for move in found["better"]:
        position = position.apply(Move.parse(move))
    assert position.is_won()
    assert {"index": 0, "verdict": "won"}.items() <= found["verdicts"][0].items()
    assert "threw the win away" in found["note"]


def test_a_deal_never_winnable(client: TestClient) -> None:
    game = Game.new("one-deck", 1)
    play_greedy(game)
    created = imported(client, game)
    found = client.get(f"/api/games/{created['id']}/analysis").json()
    assert found["never_winnable"] is True and found["turning_point"] is None


def test_only_finished_games_that_were_not_won(client: TestClient) -> None:
    created = client.post("/api/games", json={"variant": "one-deck", "deal": 54}).json()
    error(client.get(f"/api/games/{created['id']}/analysis"), 409, "not_over")
    won = Game.new("one-deck", 54)
    for move in solve(won, max_positions=2_000_000).moves:
        won.play(move)
    error(client.get(f"/api/games/{imported(client, won)['id']}/analysis"), 409, "won")
    error(client.get("/api/games/nosuchgame/analysis"), 404, "not_found")
    error(client.get("/api/games/" + "x" * 100 + "/analysis"), 404, "not_found")
    resigned = client.post(f"/api/games/{created['id']}/resign", json={}).json()
    assert resigned["status"] == "resigned"
    found = client.get(f"/api/games/{created['id']}/analysis").json()
    # resigned at the start of a winnable deal: nothing was thrown away but the game
    assert found["still_winnable"] is True and found["turning_point"] is None
