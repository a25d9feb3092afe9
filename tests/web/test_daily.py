"""The daily deal over HTTP (docs/RULES.md §10, docs/API.md): number, games, streak, share."""

from __future__ import annotations

import datetime

import pytest
from fastapi.testclient import TestClient

from milligan import daily
from milligan.store import Database, GameRow

TODAY = datetime.date(2026, 12, 3)


@pytest.fixture(autouse=True)
def fixed_today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(daily, "today", lambda: TODAY)


def test_today_by_default(client: TestClient) -> None:
    answer = client.get("/api/daily?variant=spanish")
    assert answer.status_code == 200
    assert answer.json() == {
        "date": "2026-12-03",
        "variant": "spanish",
        "deal": daily.shipped()["spanish"]["2026-12-03"],
        "game": None,
        "share": None,
    }
    assert client.get("/api/daily").json()["variant"] == "classic"


def test_past_dates_and_every_player_gets_the_same(new_client) -> None:  # type: ignore[no-untyped-def]
    one, two = new_client(), new_client()
    url = "/api/daily?variant=classic&date=2026-12-01"
    assert one.get(url).json() == two.get(url).json()
    assert one.get(url).json()["deal"] == daily.shipped()["classic"]["2026-12-01"]


def test_future_dates_are_not_out_yet(client: TestClient) -> None:
    answer = client.get("/api/daily?variant=classic&date=2026-12-04")
    assert answer.status_code == 404
    assert answer.json()["error"] == "not_yet"
    assert "2026-12-04" in answer.json()["message"]
    posted = client.post("/api/daily/games", json={"variant": "classic", "date": "2026-12-04"})
    assert posted.status_code == 404


def test_dates_not_shipped(client: TestClient) -> None:
    answer = client.get("/api/daily?variant=classic&date=2020-01-01")
    assert answer.status_code == 404
    assert answer.json()["error"] == "not_shipped"


@pytest.mark.parametrize(
    "query",
    [
        "variant=freecell",
        "date=2026-02-30",
        "date=yesterday",
        "date=2026-1-1",
        "variant=" + "x" * 50,
        "date=" + "9" * 50,
    ],
)
def test_bad_input_is_422(client: TestClient, query: str) -> None:
    answer = client.get(f"/api/daily?{query}")
    assert answer.status_code == 422
    assert answer.json()["error"] == "invalid" and answer.json()["message"]


@pytest.mark.parametrize(
    "body",
    [
        {"variant": "classic", "date": 20261201},
        {"variant": "classic", "extra": 1},
        {"variant": {"decks": 1}},
        {"date": "01/12/2026"},
    ],
)
def test_bad_bodies_are_422(client: TestClient, body: object) -> None:
    assert client.post("/api/daily/games", json=body).status_code == 422


def test_a_daily_game_shows_its_number_and_is_remembered(client: TestClient) -> None:
    answer = client.post("/api/daily/games", json={"variant": "strict", "date": "2026-12-02"})
    assert answer.status_code == 201
    game = answer.json()
    assert game["deal"] == daily.shipped()["strict"]["2026-12-02"]
    assert game["variant"] == "strict" and game["status"] == "playing"
    seen = client.get("/api/daily?variant=strict&date=2026-12-02").json()
    assert seen["game"]["id"] == game["id"] and seen["share"] is None
    resigned = client.post(f"/api/games/{game['id']}/resign", json={})
    assert resigned.status_code == 200
    seen = client.get("/api/daily?variant=strict&date=2026-12-02").json()
    assert seen["game"]["status"] == "resigned"
    share = seen["share"]
    assert share.startswith("Milligan daily 2026-12-02 (strict): lost in 0 moves")
    assert share.endswith("/daily?variant=strict&date=2026-12-02")
    # Only this player sees the game.
    assert client.get("/api/daily?variant=strict&date=2026-12-01").json()["game"] is None


def test_the_game_says_it_is_the_players_daily_game(new_client) -> None:  # type: ignore[no-untyped-def]
    one, two = new_client(), new_client()
    started = one.post("/api/daily/games", json={"variant": "spanish", "date": "2026-12-01"})
    game = started.json()
    assert started.status_code == 201 and game["daily"] == "2026-12-01"
    url = f"/api/games/{game['id']}"
    assert one.get(url).json()["daily"] == "2026-12-01"
    # Every answer that carries the game says so.
    played = one.post(f"{url}/moves", json={"move": game["legal"][0]}).json()
    assert played["moves"] == 1 and played["daily"] == "2026-12-01"
    for action in ("undo", "redo", "restart", "resign"):
        answer = one.post(f"{url}/{action}", json={})
        assert answer.status_code == 200 and answer.json()["daily"] == "2026-12-01", action
    assert one.get(url).json()["status"] == "resigned"
    # Another player cannot read it at all, let alone as a daily game.
    assert two.get(url).status_code == 404
    assert two.post(f"{url}/moves", json={"move": "D"}).status_code == 404
    # The same deal as an ordinary game is no daily game, for either player; nor is a
    # random game, or the daily game's record imported again.
    for client in (one, two):
        plain = client.post("/api/games", json={"variant": "spanish", "deal": game["deal"]})
        assert plain.status_code == 201 and plain.json()["daily"] is None
        assert client.get(f"/api/games/{plain.json()['id']}").json()["daily"] is None
    assert one.post("/api/games", json={"variant": "spanish"}).json()["daily"] is None
    record = one.get(f"{url}/record").json()
    imported = one.post("/api/games/import", json=record)
    assert imported.status_code == 201 and imported.json()["daily"] is None
    assert one.get(f"/api/games/{imported.json()['id']}").json()["daily"] is None
    # The other player's own daily game of that deal is theirs.
    theirs = two.post("/api/daily/games", json={"variant": "spanish", "date": "2026-12-01"})
    assert theirs.json()["deal"] == game["deal"]
    assert two.get(f"/api/games/{theirs.json()['id']}").json()["daily"] == "2026-12-01"


def _won(database: Database, game_id: str, day: str, finished: str, **changes: object) -> None:
    row = GameRow(
        id=game_id,
        player="p",
        variant="classic",
        deal="1",
        order=None,
        secret=False,
        random=False,
        moves=("5>F",),
        redo=(),
        revision=1,
        status="won",
        assisted=False,
        hints=0,
        solutions=0,
        imported=False,
        seconds=60.0,
        created=finished,
        updated=finished,
        finished=finished,
    ).replace(**changes)
    database.insert_game(row)
    database.add_daily_game(game_id, row.player, day, row.variant)


def test_the_daily_streak(client: TestClient, app) -> None:  # type: ignore[no-untyped-def]
    client.get("/api/daily")  # the player gets a cookie: find its hash
    from milligan.web.app import player_hash

    player = player_hash(client.cookies["milligan_player"])
    database: Database = app.state.database
    assert client.get("/api/daily/stats").json() == {
        "current_streak": 0,
        "best_streak": 0,
        "days_won": 0,
    }
    _won(database, "a", "2026-11-28", "2026-11-28T10:00:00.000000+00:00", player=player)
    _won(database, "b", "2026-11-29", "2026-11-29T23:59:00.000000+00:00", player=player)
    _won(database, "c", "2026-11-30", "2026-12-01T00:01:00.000000+00:00", player=player)
    _won(
        database,
        "d",
        "2026-12-01",
        "2026-12-01T09:00:00.000000+00:00",
        player=player,
        variant="spanish",
    )
    _won(
        database,
        "e",
        "2026-12-02",
        "2026-12-02T09:00:00.000000+00:00",
        player=player,
        assisted=True,
    )
    _won(
        database,
        "f",
        "2026-12-02",
        "2026-12-02T10:00:00.000000+00:00",
        player=player,
        status="lost",
    )
    _won(database, "g", "2026-12-03", "2026-12-03T08:00:00.000000+00:00", player=player)
    _won(database, "h", "2026-12-02", "2026-12-02T08:00:00.000000+00:00", player="other")
    # 11-28, 11-29 in a row; 11-30 won only the day after; 12-01 (spanish counts too);
    # 12-02 only assisted or lost; 12-03 today.
    assert client.get("/api/daily/stats").json() == {
        "current_streak": 1,
        "best_streak": 2,
        "days_won": 4,
    }


def test_the_routes_are_in_the_schema(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/daily", "/api/daily/games", "/api/daily/stats"} <= set(paths)
    assert client.get("/daily").status_code == 200  # the browser game's page
