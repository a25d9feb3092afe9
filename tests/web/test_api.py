"""Every route and every error of the JSON API, over SQLite and over PostgreSQL."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from milligan.game import Game
from milligan.record import Record
from milligan.store.database import GameRow
from milligan.store.games import Games, replay, timestamp
from milligan.variants import Variant
from milligan.web.app import COOKIE, player_hash

DATA = Path(__file__).parent / "data"
DEAL_42 = ["QD", "6C", "9C", "5H", "AD", "TD", "8S", "4H"]
GAME_KEYS = {
    "variant",
    "deal",
    "columns",
    "foundations",
    "stock",
    "reprieve",
    "moved",
    "status",
    "moves",
    "revision",
    "id",
    "legal",
    "can_undo",
    "can_redo",
    "unsettled",
    "hopeless",
    "safe",
    "assisted",
    "hints",
    "created",
    "updated",
    "seconds",
    "title",
    "last",
    "daily",
}


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body or {"variant": "classic", "deal": 42})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def move(client: TestClient, game: dict[str, Any], text: str, **extra: Any) -> Any:
    return client.post(f"/api/games/{game['id']}/moves", json={"move": text, **extra})


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body: dict[str, Any] = response.json()
    assert body["error"] == code
    assert isinstance(body["message"], str) and body["message"]
    return body


def stored(client: TestClient, game_id: str) -> GameRow:
    """The game as the database holds it (not the cache)."""
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    row = games.database.game(game_id)
    assert row is not None
    return row


# -- creating and reading ---------------------------------------------------------------


def test_create_a_numbered_game(client: TestClient) -> None:
    response = client.post("/api/games", json={"variant": "classic", "deal": 42})
    assert response.status_code == 201
    game = response.json()
    assert set(game) == GAME_KEYS
    assert game["deal"] == 42
    assert game["variant"] == "classic"
    assert game["title"] == "Miss Milligan"
    assert [column[-1] for column in game["columns"]] == DEAL_42
    assert game["stock"] == 96 and game["revision"] == 0 and game["moves"] == 0
    assert game["legal"] == ["5>F", "3>6", "4>2", "D"]
    assert game["status"] == "playing" and game["last"] is None
    assert not game["can_undo"] and not game["can_redo"]
    assert len(game["id"]) >= 22
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert client.get(f"/api/games/{game['id']}").json() == game


def test_the_player_token_is_stored_hashed(client: TestClient) -> None:
    game = new_game(client)
    token = client.cookies[COOKIE]
    assert len(token) == 32 and int(token, 16) >= 0  # 128 bits in hex
    row = stored(client, game["id"])
    assert row.player == player_hash(token) != token


def test_a_bad_cookie_gets_a_new_player(client: TestClient) -> None:
    new_game(client)
    response = client.get("/api/games", headers={"cookie": f"{COOKIE}=not-a-token"})
    assert response.json() == {"games": []}
    assert response.headers["set-cookie"].startswith(f"{COOKIE}=")
    assert "not-a-token" not in response.headers["set-cookie"]


def test_a_random_game_keeps_its_number_secret_until_the_end(client: TestClient) -> None:
    game = new_game(client, variant="spanish")
    assert game["deal"] is None
    assert client.get(f"/api/games/{game['id']}").json()["deal"] is None
    listed = client.get("/api/games?status=playing").json()["games"]
    assert listed[0]["deal"] is None
    assert_error(client.get(f"/api/games/{game['id']}/record"), 409, "illegal")
    resigned = client.post(f"/api/games/{game['id']}/resign", json={"expect": 0}).json()
    assert resigned["status"] == "resigned"
    number = resigned["deal"]
    assert isinstance(number, int) and 0 <= number < 2**64
    start = Game.new("spanish", number).position
    assert resigned["columns"] == [[str(card) for card in column] for column in start.columns]
    record = client.get(f"/api/games/{game['id']}/record").json()
    assert record["deal"] == number and record["result"] == "resigned"


def test_create_without_a_body_is_a_random_classic_game(client: TestClient) -> None:
    response = client.post("/api/games", headers={"content-type": "application/json"})
    assert response.status_code == 201
    assert response.json()["variant"] == "classic" and response.json()["deal"] is None


def test_create_with_custom_settings(client: TestClient) -> None:
    settings = {
        "decks": 1,
        "columns": 6,
        "opening_rows": 2,
        "face_down_rows": 1,
        "reprieve": "strict",
    }
    game = new_game(client, variant=settings, deal=7)
    assert game["variant"] == settings
    assert game["title"] == "Custom Milligan"
    assert all(column[0] == "??" for column in game["columns"])
    assert game["stock"] == 52 - 12


@pytest.mark.parametrize(
    "body",
    [
        {"variant": "nonsense"},
        {"variant": {"decks": 3}},
        {"variant": {"colour": "red"}},
        {"variant": "classic", "deal": 2**64},
        {"variant": "classic", "deal": -1},
        {"variant": "classic", "deal": "42"},
        {"variant": "classic", "deal": 4.5},
        {"variant": "classic", "deal": True},
        {"variant": 7},
        {"variant": "classic", "colour": "red"},
        ["classic"],
    ],
)
def test_create_refuses_bad_input(client: TestClient, body: Any) -> None:
    assert_error(client.post("/api/games", json=body), 422, "invalid")
    assert client.get("/api/games").json() == {"games": []}


def test_malformed_json_is_invalid(client: TestClient) -> None:
    response = client.post(
        "/api/games", content=b'{"variant": ', headers={"content-type": "application/json"}
    )
    assert_error(response, 422, "invalid")


def test_missing_and_foreign_games_look_the_same(new_client: Callable[[], TestClient]) -> None:
    alice, bob = new_client(), new_client()
    game = new_game(alice)
    missing = bob.get("/api/games/AAAAAAAAAAAAAAAAAAAAAA")
    foreign = bob.get(f"/api/games/{game['id']}")
    assert_error(missing, 404, "not_found")
    assert foreign.status_code == 404 and foreign.json() == missing.json()
    for action in ("undo", "redo", "restart", "resign"):
        answer = bob.post(f"/api/games/{game['id']}/{action}", json={})
        assert answer.status_code == 404 and answer.json() == missing.json()
    for path in ("hint", "solution", "record"):
        answer = bob.get(f"/api/games/{game['id']}/{path}")
        assert answer.status_code in (404, 501)
        if answer.status_code == 404:
            assert answer.json() == missing.json()
    assert move(bob, game, "5>F").json() == missing.json()
    assert bob.get("/api/games").json() == {"games": []}
    assert bob.get("/api/stats").json() == alice.get("/api/stats").json()  # both empty
    assert alice.get(f"/api/games/{game['id']}").json() == game  # unchanged by Bob
    assert_error(bob.get("/api/games/" + "x" * 300), 404, "not_found")


# -- moves ------------------------------------------------------------------------------


def test_play_undo_redo_restart(client: TestClient) -> None:
    game = new_game(client)
    after = move(client, game, "5>F", expect=0).json()
    assert after["revision"] == 1 and after["moves"] == 1 and after["last"] == "5>F"
    assert after["reprieve"] == 5 and after["foundations"]["D"] == [0, 1]
    assert "S" in after["legal"] and after["can_undo"]
    undone = client.post(f"/api/games/{game['id']}/undo", json={"expect": 1}).json()
    assert undone["revision"] == 2 and undone["moves"] == 0 and undone["can_redo"]
    assert undone["columns"] == game["columns"]
    redone = client.post(f"/api/games/{game['id']}/redo", json={"expect": 2}).json()
    assert redone["revision"] == 3 and redone["columns"] == after["columns"]
    stop = move(client, game, "S", expect=3).json()
    deal = move(client, game, "D").json()  # expect is optional
    assert stop["reprieve"] is None and deal["stock"] == 88 and deal["revision"] == 5
    restarted = client.post(f"/api/games/{game['id']}/restart", json={"expect": 5}).json()
    assert restarted["moves"] == 0 and restarted["revision"] == 6 and restarted["can_redo"]
    assert restarted["columns"] == game["columns"]
    assert client.post(f"/api/games/{game['id']}/redo", json={}).json()["last"] == "5>F"
    row = stored(client, game["id"])
    assert row.moves == ("5>F",) and row.redo == ("S", "D") and row.revision == 7


def test_stale_revisions_change_nothing(client: TestClient) -> None:
    game = new_game(client)
    move(client, game, "5>F", expect=0)
    before = client.get(f"/api/games/{game['id']}").json()
    for answer in (
        move(client, game, "S", expect=0),
        client.post(f"/api/games/{game['id']}/undo", json={"expect": 0}),
        client.post(f"/api/games/{game['id']}/redo", json={"expect": 7}),
        client.post(f"/api/games/{game['id']}/restart", json={"expect": 0}),
        client.post(f"/api/games/{game['id']}/resign", json={"expect": 0}),
    ):
        body = assert_error(answer, 409, "stale")
        assert body["revision"] == 1
    assert client.get(f"/api/games/{game['id']}").json() == before
    assert stored(client, game["id"]).revision == 1


def test_illegal_moves_are_refused_with_the_reason(client: TestClient) -> None:
    game = new_game(client)
    body = assert_error(move(client, game, "1>2", expect=0), 409, "illegal")
    assert "1>2" in body["message"]
    assert "cards" not in body
    for text in ("", "9>F", "1>1", "banana", "3:0>5"):
        answer = move(client, game, text, expect=0)
        assert answer.status_code in (409, 422), text
    assert_error(move(client, game, "banana"), 422, "invalid")
    assert_error(client.post(f"/api/games/{game['id']}/undo", json={}), 409, "illegal")
    assert_error(client.post(f"/api/games/{game['id']}/redo", json={}), 409, "illegal")
    assert client.get(f"/api/games/{game['id']}").json() == game
    assert stored(client, game["id"]).revision == 0


def test_a_refused_reprieve_close_names_the_cards(client: TestClient) -> None:
    game = new_game(client)
    move(client, game, "5>F")
    free = move(client, game, "1>2").json()  # QD onto 6C: a free move
    assert free["moved"] == [[2, 1]] and free["unsettled"] == [[2, 1]]
    assert "S" not in free["legal"]
    body = assert_error(move(client, game, "S", expect=2), 409, "illegal")
    assert body["cards"] == [[2, 1]]
    assert "QD in column 2" in body["message"]
    assert client.get(f"/api/games/{game['id']}").json() == free


@pytest.mark.parametrize(
    "body",
    [
        {"move": "5>F", "expect": 0, "extra": 1},
        {"move": 5, "expect": 0},
        {"move": "5>F", "expect": "0"},
        {"move": "5>F", "expect": 0.0},
        {"expect": 0},
        {"move": "5>F" * 100},
    ],
)
def test_move_bodies_are_checked(client: TestClient, body: Any) -> None:
    game = new_game(client)
    assert_error(client.post(f"/api/games/{game['id']}/moves", json=body), 422, "invalid")
    assert_error(
        client.post(f"/api/games/{game['id']}/undo", json={"expect": 0, "x": 1}), 422, "invalid"
    )
    assert stored(client, game["id"]).revision == 0


def test_resign_ends_the_game(client: TestClient) -> None:
    game = new_game(client)
    move(client, game, "5>F")
    resigned = client.post(f"/api/games/{game['id']}/resign", json={"expect": 1}).json()
    assert resigned["status"] == "resigned" and resigned["legal"] == []
    assert not resigned["can_undo"] and not resigned["can_redo"]
    assert_error(move(client, game, "S"), 409, "illegal")
    assert_error(client.post(f"/api/games/{game['id']}/resign", json={}), 409, "illegal")
    assert_error(client.post(f"/api/games/{game['id']}/undo", json={}), 409, "illegal")
    assert_error(client.post(f"/api/games/{game['id']}/restart", json={}), 409, "illegal")
    record = client.get(f"/api/games/{game['id']}/record").json()
    assert record == {
        "format": "milligan-record/1",
        "variant": "classic",
        "deal": 42,
        "moves": ["5>F"],
        "result": "resigned",
    }
    assert client.get("/api/games?status=resigned").json()["games"][0]["id"] == game["id"]
    assert client.get("/api/games?status=playing").json() == {"games": []}


# -- import, export, winning -----------------------------------------------------------


def test_import_a_record(client: TestClient) -> None:
    record = {
        "format": "milligan-record/1",
        "variant": "classic",
        "deal": 42,
        "moves": ["5>F", "S", "D"],
    }
    response = client.post("/api/games/import", json=record)
    assert response.status_code == 201
    game = response.json()
    assert game["moves"] == 3 and game["deal"] == 42 and game["stock"] == 88
    assert game["last"] == "D"
    order = [str(card) for card in Game.new("one-deck", 3).order]
    game = client.post(
        "/api/games/import",
        json={"format": "milligan-record/1", "variant": "one-deck", "order": order, "moves": []},
    ).json()
    assert game["deal"] is None and game["variant"] == "one-deck"
    resigned = client.post("/api/games/import", json=record | {"result": "resigned"}).json()
    assert resigned["status"] == "resigned"
    exported = client.get(f"/api/games/{resigned['id']}/record").json()
    assert exported == record | {"result": "resigned"}


def test_a_reprieve_with_no_move_left_is_hopeless(client: TestClient) -> None:
    # One-deck deal 67: after these moves the only cards left on the table
    # are 6S KD 5H in column 2, with KD and 5H moved and column 1 open.
    # Nothing can move and the reprieve cannot be stopped: the game says so,
    # stays in play, and undo leads out.
    moves = ["1>F", "3>4", "4>2", "2>3", "3>2", "4>2"]
    record = {"format": "milligan-record/1", "variant": "one-deck", "deal": 67, "moves": moves}
    game = client.post("/api/games/import", json=record).json()
    assert game["reprieve"] == 1 and game["legal"] == []
    assert game["hopeless"] is True and game["status"] == "playing"
    back = client.post(f"/api/games/{game['id']}/undo", json={}).json()
    assert back["legal"] and back["hopeless"] is False


@pytest.mark.parametrize(
    ("record", "status", "code"),
    [
        ({"format": "other/1", "variant": "classic", "deal": 1}, 422, "invalid"),
        ({"format": "milligan-record/1", "variant": "classic"}, 422, "invalid"),
        (
            {"format": "milligan-record/1", "variant": "classic", "deal": 1, "order": ["AS"]},
            422,
            "invalid",
        ),
        (
            {"format": "milligan-record/1", "variant": "classic", "order": ["AS", "XX"]},
            422,
            "invalid",
        ),
        (
            {"format": "milligan-record/1", "variant": "classic", "deal": 42, "moves": ["D", "Q"]},
            422,
            "invalid",
        ),
        (
            {"format": "milligan-record/1", "variant": "classic", "deal": 42, "moves": ["1>2"]},
            409,
            "illegal",
        ),
        (
            {"format": "milligan-record/1", "variant": "classic", "deal": 42, "result": "won"},
            422,
            "invalid",
        ),
        (
            {"format": "milligan-record/1", "variant": "classic", "deal": 42, "comment": "hi"},
            422,
            "invalid",
        ),
    ],
)
def test_import_refuses_bad_records(
    client: TestClient, record: Any, status: int, code: str
) -> None:
    assert_error(client.post("/api/games/import", json=record), status, code)
    assert client.get("/api/games").json() == {"games": []}


def test_win_a_game(client: TestClient) -> None:
    """A won line (found by the solver) stored up to its last moves, finished over HTTP."""
    record = Record.from_json((DATA / "won-13-columns.json").read_text())
    assert record.replay().status == "won"
    client.get("/api/variants")  # get a player cookie
    player = player_hash(client.cookies[COOKIE])
    games: Games = client.app.state.games  # type: ignore[attr-defined]
    head, tail = record.moves[:-6], record.moves[-6:]
    moment = timestamp(games.clock())
    row = GameRow(
        id="won-game-0123456789abc",
        player=player,
        variant=record.variant.key,
        deal=str(record.deal),
        order=None,
        secret=True,
        random=True,
        moves=tuple(map(str, head)),
        redo=(),
        revision=len(head),
        status="playing",
        assisted=False,
        hints=0,
        solutions=0,
        imported=False,
        seconds=100.0,
        created=moment,
        updated=moment,
        finished=None,
    )
    games.database.insert_game(row)
    assert replay(row).status == "playing"
    game = client.get(f"/api/games/{row.id}").json()
    assert game["deal"] is None
    for text in map(str, tail):
        assert text in game["legal"]
        game = move(client, game, text, expect=game["revision"]).json()
    assert game["status"] == "won" and game["legal"] == [] and game["deal"] == 5
    assert all(heights == [13] for heights in game["foundations"].values())
    exported = client.get(f"/api/games/{row.id}/record").json()
    assert exported["result"] == "won" and len(exported["moves"]) == len(record.moves)
    stats = client.get("/api/stats").json()["variants"]["custom"]
    assert stats["played"] == 1 and stats["won"] == 1 and stats["win_percent"] == 100.0
    assert stats["current_streak"] == 1 and stats["best_streak"] == 1
    assert stats["fewest_moves"] == len(record.moves) and stats["best_time"] >= 100.0
    # Undoing a won random game after its number was shown: playing with full knowledge.
    back = client.post(f"/api/games/{row.id}/undo", json={}).json()
    assert back["status"] == "playing" and back["assisted"] and back["deal"] == 5


# -- help ------------------------------------------------------------------------------


def test_hint_and_solution_are_501_without_the_solver(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(client)
    monkeypatch.setitem(sys.modules, "milligan.solver", None)
    assert_error(client.get(f"/api/games/{game['id']}/hint"), 501, "not_available")
    assert_error(client.get(f"/api/games/{game['id']}/solution"), 501, "not_available")
    assert client.get(f"/api/games/{game['id']}").json()["safe"] == []
    assert client.get("/api/stats").json()["variants"]["classic"]["hints"] == 0


def test_hint_from_the_solver(client: TestClient) -> None:
    game = new_game(client, variant="one-deck", deal=3)
    hint = client.get(f"/api/games/{game['id']}/hint").json()
    assert set(hint) == {"move", "win_chance", "win_estimate", "samples", "plan", "repeats"}
    assert hint["move"] in game["legal"] and hint["plan"][0] == hint["move"]
    assert hint["repeats"] is False
    assert 0.0 <= hint["win_chance"] <= 1.0 and hint["samples"] == 2
    assert 0.0 <= hint["win_estimate"] <= 1.0
    assert client.get(f"/api/games/{game['id']}").json()["hints"] == 1
    assert client.get(f"/api/games/{game['id']}").json()["revision"] == 0
    client.get(f"/api/games/{game['id']}/hint")
    assert client.get("/api/stats").json()["variants"]["one-deck"]["hints"] == 2
    client.post(f"/api/games/{game['id']}/resign", json={})
    assert_error(client.get(f"/api/games/{game['id']}/hint"), 409, "illegal")


def test_solution_marks_the_game_assisted(client: TestClient) -> None:
    game = new_game(client, variant="one-deck", deal=1)
    answer = client.get(f"/api/games/{game['id']}/solution")
    assert answer.status_code == 200
    solution = answer.json()
    assert solution["assisted"] is True
    assert solution["result"] in ("won", "lost", "unknown")
    if solution["result"] == "won":
        assert solution["moves"][0] in game["legal"]
    assert client.get(f"/api/games/{game['id']}").json()["assisted"] is True
    assert client.get("/api/stats").json()["variants"]["one-deck"]["solutions"] == 1


def test_safe_moves_come_from_the_solver(client: TestClient) -> None:
    game = new_game(client, variant="spanish", deal=42)
    assert game["safe"] == ["5>F"]


# -- lists, stats, variants --------------------------------------------------------


def test_list_and_stats_are_per_player(new_client: Callable[[], TestClient]) -> None:
    alice, bob = new_client(), new_client()
    first = new_game(alice)
    second = new_game(alice, variant="strict", deal=9)
    move(alice, first, "5>F")
    theirs = new_game(bob, variant="spanish")
    listed = alice.get("/api/games?status=playing").json()["games"]
    assert [game["id"] for game in listed] == [first["id"], second["id"]]
    assert set(listed[0]) == {"id", "variant", "deal", "moves", "status", "updated", "title"}
    assert listed[0]["moves"] == 1 and listed[1]["title"] == "Strict Milligan"
    assert [game["id"] for game in bob.get("/api/games").json()["games"]] == [theirs["id"]]
    alice.post(f"/api/games/{second['id']}/resign", json={})
    stats = alice.get("/api/stats").json()["variants"]
    assert set(stats) >= {"classic", "spanish", "improved", "one-deck", "strict"}
    assert stats["strict"] == {
        "played": 1,
        "won": 0,
        "win_percent": 0.0,
        "current_streak": 0,
        "best_streak": 0,
        "best_time": None,
        "fewest_moves": None,
        "hints": 0,
        "solutions": 0,
    }
    assert bob.get("/api/stats").json()["variants"]["strict"]["played"] == 0
    assert_error(alice.get("/api/games?status=nonsense"), 422, "invalid")
    assert_error(alice.get("/api/games?limit=0"), 422, "invalid")
    assert len(alice.get("/api/games?limit=1").json()["games"]) == 1


def test_variants(client: TestClient) -> None:
    variants = client.get("/api/variants").json()
    assert [v["id"] for v in variants] == ["classic", "spanish", "improved", "one-deck", "strict"]
    improved = variants[2]
    assert improved == {
        "id": "improved",
        "title": "Improved Miss Milligan",
        "decks": 2,
        "columns": 8,
        "opening_rows": 3,
        "face_down_rows": 2,
        "reprieve": "free",
    }
    assert Variant.named("improved").opening_rows == improved["opening_rows"]


# -- the edges: sizes, routes, pages ---------------------------------------------------


def test_oversized_bodies_are_refused(client: TestClient) -> None:
    game = new_game(client)
    big = json.dumps({"move": "5>F", "expect": 0, "pad": "x" * 20_000}).encode()
    assert_error(
        client.post(
            f"/api/games/{game['id']}/moves",
            content=big,
            headers={"content-type": "application/json"},
        ),
        413,
        "too_large",
    )

    def chunks() -> Any:  # no Content-Length: the server has to count
        for _ in range(20):
            yield b" " * 1024

    assert_error(client.post("/api/games", content=chunks()), 413, "too_large")
    whole = (DATA / "won-13-columns.json").read_bytes()
    assert len(whole) > 16 * 1024
    assert_error(client.post("/api/games/import", content=whole), 413, "too_large")
    assert stored(client, game["id"]).revision == 0
    assert len(client.get("/api/games").json()["games"]) == 1


def test_unknown_routes_are_json_404(client: TestClient) -> None:
    for path in ("/nothing", "/api/nothing", "/api/games/x/y/z", "/static/no-such-file.js"):
        assert_error(client.get(path), 404, "not_found")


def test_a_method_a_route_does_not_take_is_405_with_the_methods_it_does(
    client: TestClient,
) -> None:
    for method, path, allowed in [
        ("DELETE", "/api/games", "GET, POST"),  # two routes at one path: both are named
        ("PUT", "/api/stats", "GET"),
        ("GET", "/api/games/abc/moves", "POST"),
        ("TRACE", "/api/variants", "GET"),
        ("POST", "/", "GET"),
        ("POST", "/static/js/hints.js", "GET, HEAD"),
    ]:
        response = client.request(method, path, headers={"content-type": "application/json"})
        body = assert_error(response, 405, "not_allowed")
        assert response.headers["allow"] == allowed
        assert body["message"] == f"{path} does not take {method}; it takes {allowed}"


@pytest.mark.parametrize(
    "path",
    ["/", "/play", "/play/classic", "/play/classic/42", "/game/abc", "/rules", "/stats", "/about"],
)
def test_pages_are_the_single_page_app(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "<html" in response.text.lower()
    assert COOKIE in response.headers.get("set-cookie", "")


def test_the_openapi_page(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path in (
        "/api/games",
        "/api/games/{game_id}/moves",
        "/api/games/import",
        "/api/stats",
        "/api/games/{game_id}/hint",
        "/api/games/{game_id}/solution",
    ):
        assert path in schema["paths"], path
    assert_error(client.get("/docs"), 404, "not_found")  # it would load code from a CDN


def test_a_server_failure_is_still_json(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(game_id: str) -> None:
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(app.state.games.database, "game", broken)
    with TestClient(app, base_url="http://localhost", raise_server_exceptions=False) as client:
        assert_error(client.get("/api/games/abc"), 500, "internal")
