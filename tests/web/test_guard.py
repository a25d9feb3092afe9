"""The outer guard: hosts, origins, content types, security headers, malformed bodies."""

from __future__ import annotations

import asyncio
import re
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from milligan.store.database import GameRow
from milligan.web.app import create_app
from milligan.web.guard import BodyLimitMiddleware
from milligan.web.settings import ServerSettings

JSON = {"content-type": "application/json"}


def run_alone(coroutine: Any) -> None:
    """Run a coroutine in a thread of its own: the browser tests' Playwright may still
    hold an event loop in this one."""
    failures: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(coroutine)
        except BaseException as error:
            failures.append(error)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failures:
        raise failures[0]


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body: dict[str, Any] = response.json()
    assert body["error"] == code and body["message"]
    return body


def new_game(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/games", json={"variant": "classic", "deal": 42})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def stored(client: TestClient, game_id: str) -> GameRow:
    row = client.app.state.games.database.game(game_id)  # type: ignore[attr-defined]
    assert row is not None
    return row


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.2", "[::1", "a:b"])
def test_an_unknown_host_is_refused(client: TestClient, host: str) -> None:
    for answer in (
        client.get("/api/games", headers={"host": host}),
        client.get("/", headers={"host": host}),
        client.post("/api/games", json={}, headers={"host": host}),
    ):
        body = assert_error(answer, 421, "unknown_host")
        assert "--allowed-host" in body["message"]
    assert client.get("/api/games").json() == {"games": []}


def test_loopback_hosts_must_carry_the_port(database: Any) -> None:
    settings = ServerSettings(
        port=8123, allowed_hosts=("games.example", "other.example:443"), fill_winnable=False
    )
    app = create_app(database, settings=settings)
    with TestClient(app, base_url="http://localhost:8123") as client:
        for host in (
            "localhost:8123",
            "127.0.0.1:8123",
            "[::1]:8123",
            "games.example",
            "games.example:8080",
            "other.example:443",
        ):
            assert client.get("/api/variants", headers={"host": host}).status_code == 200, host
        for host in ("localhost", "localhost:8000", "other.example", "games.example.evil"):
            assert_error(client.get("/api/variants", headers={"host": host}), 421, "unknown_host")


@pytest.mark.parametrize(
    "origin",
    ["http://evil.example", "null", "http://localhost:9999", "https://localhost.evil.example"],
)
def test_writes_from_another_origin_are_refused(client: TestClient, origin: str) -> None:
    game = new_game(client)
    headers = {"origin": origin}
    for answer in (
        client.post("/api/games", json={}, headers=headers),
        client.post(f"/api/games/{game['id']}/moves", json={"move": "5>F"}, headers=headers),
        client.post(f"/api/games/{game['id']}/resign", json={}, headers=headers),
        client.post("/api/games/import", json={}, headers=headers),
    ):
        assert_error(answer, 403, "cross_origin")
    assert stored(client, game["id"]).revision == 0
    assert len(client.get("/api/games", headers=headers).json()["games"]) == 1  # reads are fine
    same = client.post(
        f"/api/games/{game['id']}/moves",
        json={"move": "5>F"},
        headers={"origin": "http://localhost"},
    )
    assert same.status_code == 200


@pytest.mark.parametrize(
    "content_type",
    [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"],
)
def test_writes_must_be_json(client: TestClient, content_type: str | None) -> None:
    game = new_game(client)
    headers = {"content-type": content_type} if content_type else {}
    for path, body in (
        ("/api/games", b'{"variant": "classic"}'),
        (f"/api/games/{game['id']}/moves", b'{"move": "5>F"}'),
        (f"/api/games/{game['id']}/resign", b""),
        (f"/api/games/{game['id']}/undo", b""),
        ("/api/games/import", b'{"format": "milligan-record/1", "variant": "classic", "deal": 1}'),
    ):
        body_out = assert_error(client.post(path, content=body, headers=headers), 415, "not_json")
        assert "application/json" in body_out["message"]
    assert stored(client, game["id"]).revision == 0
    assert len(client.get("/api/games").json()["games"]) == 1
    resigned = client.post(f"/api/games/{game['id']}/resign", headers=JSON)  # no body: fine
    assert resigned.json()["status"] == "resigned"


@pytest.mark.parametrize(
    "path",
    ["/", "/play/classic", "/api/variants", "/api/nothing", "/static/js/main.js", "/openapi.json"],
)
def test_every_answer_has_the_security_headers(client: TestClient, path: str) -> None:
    headers = client.get(path).headers
    policy = headers["content-security-policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "same-origin"
    refused = client.get(path, headers={"host": "evil.example"}).headers
    assert refused["x-frame-options"] == "DENY"


def test_the_page_needs_no_inline_script_or_style(client: TestClient) -> None:
    page = client.get("/").text.lower()
    assert "style=" not in page and "<style" not in page
    assert not re.search(r"\son[a-z]+=", page)  # no inline event handlers
    for tag in page.split("<script")[1:]:
        assert 'src="/static/' in tag.split(">")[0]  # never an inline script


@pytest.mark.parametrize(
    "body",
    [
        b'{"variant": "classic", "deal": 4\xff2}',
        b'{"variant": "\xc3\x28"}',
        b'{"variant": "classic", "deal": ' + b"9" * 5000 + b"}",
        b'{"variant": ' + b"[" * 1000 + b"]" * 1000 + b"}",
        b"[" * 5000 + b"]" * 5000,
    ],
)
def test_malformed_bodies_are_422_as_documented(client: TestClient, body: bytes) -> None:
    assert_error(client.post("/api/games", content=body, headers=JSON), 422, "invalid")
    game = new_game(client)
    answer = client.post(f"/api/games/{game['id']}/moves", content=body, headers=JSON)
    assert_error(answer, 422, "invalid")
    assert len(client.get("/api/games").json()["games"]) == 1


def test_a_trickled_body_times_out_with_408() -> None:
    """A client that sends its headers and withholds its body gets 408, and the app never runs."""
    reached: list[bool] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(True)

    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if not sent and not reached:
            await asyncio.sleep(0.01)
        await asyncio.sleep(3600)  # the rest of the body never comes
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    guard = BodyLimitMiddleware(app, timeout=0.2)
    scope = {"type": "http", "method": "POST", "headers": [(b"content-length", b"100")]}
    run_alone(guard(scope, receive, send))
    assert sent[0]["status"] == 408 and not reached
    assert b'"timeout"' in sent[1]["body"]
