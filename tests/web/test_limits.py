"""Bounded memory and work: the game cache, new games per minute, statistics without
reading every game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from milligan.store import Database
from milligan.web.app import create_app
from milligan.web.settings import ServerSettings

DATA = Path(__file__).parent / "data"


def test_new_games_per_minute_are_capped(database: Database) -> None:
    settings = ServerSettings(games_per_minute=3, fill_winnable=False)
    app = create_app(database, settings=settings)
    record = {"format": "milligan-record/1", "variant": "classic", "deal": 1, "moves": []}
    with (
        TestClient(app, base_url="http://localhost") as alice,
        TestClient(app, base_url="http://localhost") as bob,
    ):
        assert alice.post("/api/games/import", json=record).status_code == 201
        for _ in range(2):
            assert alice.post("/api/games", json={"variant": "spanish"}).status_code == 201
        for answer in (
            alice.post("/api/games", json={}),
            alice.post("/api/games/import", json=record),
        ):
            assert answer.status_code == 429, answer.text
            body = answer.json()
            assert body["error"] == "too_many" and "3 new games a minute" in body["message"]
            assert 1 <= body["retry_after"] <= 60
        assert len(alice.get("/api/games").json()["games"]) == 3
        assert bob.post("/api/games", json={}).status_code == 201  # per player
        bad = alice.post("/api/games/import", json={**record, "moves": ["1>2"]})
        assert bad.status_code == 429  # still refused, and nothing was stored


def test_statistics_do_not_read_every_game(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = client.post("/api/games", json={"variant": "strict", "deal": 3}).json()
    client.post(f"/api/games/{game['id']}/resign", json={})

    def every_game(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the statistics read every game")

    monkeypatch.setattr(client.app.state.games.database, "games", every_game)  # type: ignore[attr-defined]
    stats = client.get("/api/stats").json()["variants"]
    assert stats["strict"]["played"] == 1 and stats["classic"]["played"] == 0


def test_long_imported_games_do_not_fill_the_memory(database: Database) -> None:
    """Importing many long records keeps the cache within its byte budget."""
    import tracemalloc

    from milligan.record import Record
    from milligan.store.games import Games, weight

    record = Record.from_json((DATA / "won-13-columns.json").read_text())
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    game = record.replay()
    measured = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert weight(game) >= measured  # the estimate errs on the heavy side
    games = Games(database, cache_bytes=3 * weight(game) + 1000)
    for _ in range(10):
        games.import_record("p", record)
    assert games.cache_weight() <= games.cache_bytes
    assert len(games._cache) == 3
    assert games.read("p", games.list("p", limit=100)[-1].id, lambda live: live.game.status) == (
        "won"  # the oldest, no longer cached, is replayed
    )
