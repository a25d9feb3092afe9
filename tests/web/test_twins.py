"""Twin games: the same visible cards, different hidden ones, the same answers everywhere.

Two games are imported from records with explicit dealing orders that differ
only in two hidden cards (face-down cards in ``improved``, the last cards of
the stock elsewhere). Played the same way, every route must answer both
alike, apart from ids and times, for as long as those cards stay hidden: an
answer that differed would tell the player something about a hidden card.
The solution route is left out: it is full knowledge by design (and marks
the game assisted).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from milligan.game import Game
from milligan.variants import PRESETS, Variant

#: Keys that differ between two games whatever they hold.
OWN = {"id", "created", "updated", "seconds"}


def twin_orders(variant: str, number: int) -> tuple[list[str], list[str]]:
    """A deal's order, and the same with two different hidden cards swapped."""
    settings = Variant.named(variant)
    order = list(Game.new(variant, number).order)
    if settings.face_down_rows:
        # Columns 1 and 2's bottom cards: face down.
        first, second = 0, 1
    else:
        first, second = len(order) - 1, len(order) - 2  # the last cards of the stock
    while order[first] == order[second]:  # identical cards of two decks: try the next one
        second -= 1 if second > first else -1
    twin = list(order)
    twin[first], twin[second] = twin[second], twin[first]
    return [str(card) for card in order], [str(card) for card in twin]


def same(answer: Any) -> Any:
    """An answer without what belongs to one game."""
    body = answer.json()
    if isinstance(body, dict):
        if "games" in body:
            return {"games": [same_entry(entry) for entry in body["games"]], "status": 200}
        return {key: value for key, value in body.items() if key not in OWN} | {
            "status": answer.status_code
        }
    return body


def same_entry(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in entry.items() if key not in OWN}


@pytest.mark.parametrize("variant", list(PRESETS))
def test_twin_games_get_the_same_answers_from_every_route(new_client: Any, variant: str) -> None:
    order, twin_order = twin_orders(variant, 17)
    assert order != twin_order
    clients: list[TestClient] = [new_client(), new_client()]
    ids = []
    for client, cards in zip(clients, (order, twin_order), strict=True):
        record = {"format": "milligan-record/1", "variant": variant, "order": cards, "moves": []}
        answer = client.post("/api/games/import", json=record)
        assert answer.status_code == 201, answer.text
        ids.append(answer.json()["id"])
    rng = random.Random(variant)

    def both(method: str, path: str, body: Any = None) -> list[Any]:
        answers = []
        for client, game_id in zip(clients, ids, strict=True):
            url = path.format(id=game_id)
            answers.append(
                client.request(method, url, json=body) if method == "POST" else client.get(url)
            )
        return answers

    def hidden_still_hidden() -> bool:
        games = [client.app.state.games for client in clients]  # type: ignore[attr-defined]
        views = [
            store.read(store_player(client), game_id, lambda live: live.game.position.observe())
            for store, client, game_id in zip(games, clients, ids, strict=True)
        ]
        return bool(views[0] == views[1])

    compared = 0
    for step in range(60):
        if not hidden_still_hidden():
            break  # a swapped card came into view: the games may differ from here on
        current = both("GET", "/api/games/{id}")
        first, second = (same(answer) for answer in current)
        assert first == second, f"step {step}: the game differs"
        for path in ("/api/games/{id}/hint", "/api/games/{id}/record"):
            if step % 6 == 0 or path.endswith("record"):
                a, b = both("GET", path)
                assert same(a) == same(b), f"step {step}: {path} differs"
        lists = [client.get("/api/games") for client in clients]
        assert same(lists[0]) == same(lists[1])
        stats = [client.get("/api/stats").json() for client in clients]
        assert stats[0] == stats[1]
        game = current[0].json()
        roll = rng.random()
        if game["status"] != "playing":
            break
        if roll < 0.08 and game["can_undo"]:
            answers = both("POST", "/api/games/{id}/undo", {})
        elif roll < 0.12 and game["can_redo"]:
            answers = both("POST", "/api/games/{id}/redo", {})
        elif roll < 0.14:
            answers = both("POST", "/api/games/{id}/restart", {})
        elif roll < 0.20:
            junk = rng.choice(["1>2", "3:4>5", "8>F", "S", "D", "2:13>1", "4:2>6"])
            answers = both("POST", "/api/games/{id}/moves", {"move": junk})
        elif game["reprieve"] is not None and (game["hopeless"] or roll < 0.35):
            answers = both("POST", "/api/games/{id}/undo", {})
        else:
            legal = game["legal"]
            preferred = [m for m in legal if m in ("S", "D") or m.endswith(">F")]
            choice = rng.choice(preferred if preferred and rng.random() < 0.5 else legal)
            answers = both("POST", "/api/games/{id}/moves", {"move": choice})
        if not hidden_still_hidden():
            break  # this change brought a swapped card into view
        assert same(answers[0]) == same(answers[1]), f"step {step}: the change differs"
        compared += 1
    assert compared >= 10
    if hidden_still_hidden():
        a, b = both("POST", "/api/games/{id}/resign", {})
        assert same(a) == same(b)


def store_player(client: TestClient) -> str:
    from milligan.web.app import COOKIE, player_hash

    return player_hash(client.cookies[COOKIE])
