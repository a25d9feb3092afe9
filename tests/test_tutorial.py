"""The tutorial's lessons (milligan.tutorial) and their routes (/api/tutorial)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from milligan.errors import IllegalMoveError
from milligan.moves import Move
from milligan.store import open_database
from milligan.tutorial import LESSONS, UNDO, LessonError, accepts, replay
from milligan.web.app import create_app
from milligan.web.settings import ServerSettings

TUTORIAL_JS = Path(__file__).parents[1] / "src/milligan/web/static/js/tutorial.js"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_every_step_is_reachable_and_legal(lesson):
    game = lesson.start()
    assert game.status == "playing"
    moves: list[str] = []
    for step in lesson.steps:
        for move in step:
            if move == UNDO:
                assert game.can_undo()
            else:
                assert game.position.is_legal(Move.parse(move))
        moves.append(step[0])
        game = replay(lesson, moves)


def test_the_lessons_teach_what_they_say():
    by_key = {lesson.key: lesson for lesson in LESSONS}
    assert len(LESSONS) == 9
    assert replay(by_key["open"], ["1>2"]).position.reprieve == 1
    free = by_key["free"]
    assert free.start().position.reprieve is not None
    assert replay(free, ["1:2>2"]).position.unsettled()
    assert replay(free, ["1:2>2", "2>3"]).position.is_settled()
    assert replay(free, ["1:2>2", "2>3", "S"]).position.reprieve is None
    assert replay(by_key["close"], ["1:2>4"]).position.reprieve is None
    assert replay(by_key["dead"], ["D"]).status == "lost"
    assert replay(by_key["dead"], ["D", UNDO]).status == "playing"


def test_replay_refuses_moves_the_lesson_does_not_ask_for():
    lesson = LESSONS[0]
    with pytest.raises(LessonError):
        replay(lesson, ["D"])
    with pytest.raises(LessonError):
        replay(lesson, ["1>2", "D"])
    assert accepts(lesson.steps[0], " 1 : 1 > 2 ")
    assert not accepts(lesson.steps[0], "nonsense")


def test_every_lesson_has_its_texts_in_the_page():
    page = TUTORIAL_JS.read_text()
    for lesson in LESSONS:
        assert f"\n  {lesson.key}: [N_(" in page, lesson.key


@pytest.fixture
def client(tmp_path):
    database = open_database(tmp_path / "games.sqlite3")
    app = create_app(database, settings=ServerSettings(fill_winnable=False), owns_database=True)
    with TestClient(app, base_url="http://localhost") as test_client:
        yield test_client


def test_api_lists_the_lessons(client):
    answer = client.get("/api/tutorial")
    assert answer.status_code == 200
    lessons = answer.json()["lessons"]
    assert [lesson["key"] for lesson in lessons] == [lesson.key for lesson in LESSONS]
    first = lessons[0]
    assert first["number"] == 1 and first["steps"] == 1
    assert first["position"]["columns"][0] == ["4S", "9C"]
    assert first["position"]["stock"] == 44
    assert "order" not in first


def _post(client, number, moves, move):
    return client.post(f"/api/tutorial/{number}/moves", json={"moves": moves, "move": move})


def test_api_answers_a_mistake_with_the_engines_reason(client):
    answer = _post(client, 1, [], "1>4")
    assert answer.status_code == 409
    assert answer.json()["reason"]["code"] in ("wrong_colour", "not_one_lower")
    assert _post(client, 1, [], "1>9").json()["reason"]["code"] == "no_such_column"
    assert _post(client, 1, [], "1>").status_code == 422


def test_api_answers_a_legal_move_the_lesson_does_not_ask_for(client):
    answer = _post(client, 1, [], "D")
    assert answer.status_code == 200
    assert answer.json()["accepted"] is False
    assert answer.json()["done"] is False


def test_api_leads_through_a_lesson(client):
    answer = _post(client, 7, [], "1:2>2").json()
    assert answer["accepted"] and not answer["done"]
    assert answer["moves"] == ["1:2>2"] and answer["position"]["unsettled"] == [[2, 3]]
    refused = _post(client, 7, ["1:2>2"], "S")
    assert refused.json()["reason"]["code"] == "reprieve_unsettled"
    answer = _post(client, 7, ["1:2>2"], "2>3").json()
    answer = _post(client, 7, answer["moves"], "s").json()
    assert answer["done"] and answer["moves"] == ["1:2>2", "2>3", "S"]


def test_api_undo_in_the_last_lesson(client):
    answer = _post(client, 9, [], "D").json()
    assert answer["position"]["status"] == "lost"
    answer = _post(client, 9, ["D"], "undo").json()
    assert answer["done"] and answer["position"]["status"] == "playing"


def test_api_refuses_a_wrong_line_or_lesson(client):
    assert _post(client, 0, [], "D").status_code == 404
    assert _post(client, 10, [], "D").status_code == 404
    assert _post(client, 1, ["D"], "1>2").status_code == 422
    assert _post(client, 1, ["1>2"], "D").status_code == 422


def test_illegal_move_error_is_the_engines():
    with pytest.raises(IllegalMoveError):
        LESSONS[0].start().play("1>4")
