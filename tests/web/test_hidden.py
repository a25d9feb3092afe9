"""The hidden-card rule: no answer ever shows a stock card or a face-down card.

Games are played over the API with random legal moves, undos, redos,
restarts and refused moves; every answer is checked against the true
position, replayed from the database: each card named anywhere in the
answer must be face up on the table (or be the card a foundation would
need below a face-up one, as in "no heart foundation has 3H on top"), the
columns must be the true ones with ``??`` for the face-down cards, and a
random game's number must not appear while it is in play.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from milligan.position import Position
from milligan.store.games import Games, replay

CARD = re.compile(r"(?<![A-Za-z0-9])(?:[A2-9TJQK]|10)[CDHS](?![A-Za-z0-9])")


def strings(value: Any, key: str = "") -> list[str]:
    """Every text in a JSON value (keys included), except game ids."""
    if isinstance(value, dict):
        return [text for k, v in value.items() for text in [k, *strings(v, k)]]
    if isinstance(value, list):
        return [text for item in value for text in strings(item, key)]
    if isinstance(value, str) and key != "id":
        return [value]
    return []


def face_up(position: Position) -> set[str]:
    return {
        str(card)
        for column, down in zip(position.columns, position.face_down, strict=True)
        for card in column[down:]
    }


def named_by_rules(visible: set[str]) -> set[str]:
    """Cards a message may name from visible ones, by the rules alone.

    The card a foundation needs below one, and the cards a run's base needs
    under it (one rank higher, the other colour: a refusal's ``needs``).
    """
    ranks = "A23456789TJQK"
    other = {"C": "DH", "S": "DH", "D": "CS", "H": "CS"}
    below = {ranks[ranks.index(card[0]) - 1] + card[1] for card in visible if card[0] != "A"}
    parents = {
        ranks[ranks.index(card[0]) + 1] + suit
        for card in visible
        if card[0] != "K"
        for suit in other[card[1]]
    }
    return below | parents


def masked(position: Position) -> list[list[str]]:
    return [
        ["??" if i < down else str(card) for i, card in enumerate(column)]
        for column, down in zip(position.columns, position.face_down, strict=True)
    ]


class Watcher:
    """Checks each answer against the stored game."""

    def __init__(self, client: TestClient, game_id: str) -> None:
        self.client = client
        self.game_id = game_id
        self.games: Games = client.app.state.games  # type: ignore[attr-defined]
        self.checked = 0

    def check(self, response: Any) -> Any:
        row = self.games.database.game(self.game_id)
        assert row is not None
        game = replay(row)
        position = game.position
        body = response.json()
        visible = face_up(position)
        allowed = visible | named_by_rules(visible)
        for text in strings(body):
            for card in CARD.findall(text):
                assert card in allowed, f"{card} is not face up, yet answered in {text!r}"
        if row.secret:
            assert row.deal is not None and row.deal not in response.text
        if isinstance(body, dict) and "columns" in body:
            assert body["columns"] == masked(position)
            assert body["stock"] == len(position.stock)
            assert body["deal"] is None if row.secret else body["deal"] == int(row.deal or -1)
        self.checked += 1
        return body


@pytest.mark.parametrize(
    ("variant", "deal"), [("improved", None), ("classic", None), ("improved", 42)]
)
def test_no_answer_shows_a_hidden_card(client: TestClient, variant: str, deal: int | None) -> None:
    rng = random.Random(f"{variant}{deal}")
    created = client.post("/api/games", json={"variant": variant, "deal": deal})
    game = created.json()
    watcher = Watcher(client, game["id"])
    row = watcher.games.database.game(game["id"])
    print(f"{variant} deal {row and row.deal}")  # a random deal: shown if the test fails
    game = watcher.check(created)
    base = f"/api/games/{game['id']}"
    junk = ["1>2", "3:4>5", "8>F", "S", "D", "2:13>1", "7>7", "4:2>6"]
    for step in range(160):
        roll = rng.random()
        if game["status"] != "playing" or roll < 0.06:
            answer = client.post(f"{base}/undo", json={})
        elif roll < 0.10:
            answer = client.post(f"{base}/redo", json={})
        elif roll < 0.20:
            answer = client.post(f"{base}/moves", json={"move": rng.choice(junk)})
        elif roll < 0.22:
            answer = client.post(f"{base}/moves", json={"move": "D", "expect": -1})
        elif roll < 0.23:
            answer = client.post(f"{base}/restart", json={})
        elif game["reprieve"] is not None and (game["hopeless"] or roll < 0.35):
            answer = client.post(f"{base}/undo", json={})  # free moves go on forever: step back
        else:
            legal = game["legal"]
            preferred = [m for m in legal if m in ("S", "D") or m.endswith(">F")]
            choice = rng.choice(preferred if preferred and rng.random() < 0.5 else legal)
            answer = client.post(f"{base}/moves", json={"move": choice, "expect": game["revision"]})
        body = watcher.check(answer)
        if answer.status_code == 200:
            game = body
        if step % 40 == 0:
            for path in (base, "/api/games", "/api/stats", f"{base}/record"):
                watcher.check(client.get(path))
    assert watcher.checked > 160
    assert game["revision"] > 60  # most actions were accepted
    if deal is None:
        playing = game["status"] == "playing"
        answer = client.post(f"{base}/resign", json={}) if playing else client.get(base)
        over = watcher.check(answer)
        assert over["status"] != "playing" and over["deal"] is not None  # shown at the end
