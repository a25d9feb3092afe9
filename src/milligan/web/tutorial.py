"""The tutorial's lessons over HTTP: their positions, and each move checked by the engine.

- ``GET /api/tutorial``: every lesson of :mod:`milligan.tutorial` with its
  position in the docs/RULES.md §8 shape (never its dealing order).
- ``POST /api/tutorial/{n}/moves`` ``{"moves": [...], "move": "3>5"}``: the
  server keeps nothing; the client sends the lesson's moves so far. A move
  the rules refuse is the engine's refusal (409 ``illegal`` with its reason,
  worded by the page); a legal move that the lesson does not ask for is
  ``{"accepted": false}``; an accepted one gives the next position, and
  ``done`` once the lesson's last step is made.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field

from milligan import tutorial
from milligan.game import Game
from milligan.record import position_to_json
from milligan.web.deps import ApiError, json_writes
from milligan.web.schemas import ErrorPublic

router = APIRouter(
    prefix="/api/tutorial",
    responses={status: {"model": ErrorPublic} for status in (404, 409, 422)},
    dependencies=[Depends(json_writes)],
)


class TutorialMove(BaseModel):
    """The lesson's moves so far and the move the player is trying."""

    moves: list[str] = Field(default_factory=list, max_length=16)
    move: str = Field(max_length=32)


def _position(game: Game) -> dict[str, Any]:
    out = position_to_json(game.position, status=game.status, moves=len(game.moves))
    out["unsettled"] = [list(place) for place in game.position.unsettled()]
    return out


def _lesson(number: int) -> tutorial.Lesson:
    if not 1 <= number <= len(tutorial.LESSONS):
        raise ApiError(404, "not_found", f"there is no lesson {number}")
    return tutorial.LESSONS[number - 1]


@router.get("")
def lessons() -> dict[str, Any]:
    """Every lesson: its number, text id, number of steps and starting position."""
    return {
        "lessons": [
            {
                "number": number,
                "key": lesson.key,
                "steps": len(lesson.steps),
                "position": _position(lesson.start()),
            }
            for number, lesson in enumerate(tutorial.LESSONS, start=1)
        ]
    }


@router.post("/{number}/moves")
def move(number: int, body: TutorialMove) -> dict[str, Any]:
    """Try a move in a lesson: the engine's refusal, or whether the lesson accepts it."""
    lesson = _lesson(number)
    try:
        game = tutorial.replay(lesson, body.moves)
    except tutorial.LessonError as error:
        raise ApiError(422, "invalid", str(error)) from None
    if len(body.moves) >= len(lesson.steps):
        raise ApiError(422, "invalid", "the lesson is already done")
    tried = tutorial.normalized(body.move)  # InvalidMoveError: 422
    if tried == tutorial.UNDO:
        game.undo()  # with nothing to take back: IllegalMoveError no_undo, 409
    else:
        game.play(tried)  # IllegalMoveError: 409 with the reason
    accepted = tutorial.accepts(lesson.steps[len(body.moves)], tried)
    moves = [*body.moves, tried] if accepted else list(body.moves)
    shown = game if accepted else tutorial.replay(lesson, body.moves)
    return {
        "accepted": accepted,
        "moves": moves,
        "done": accepted and len(moves) == len(lesson.steps),
        "position": _position(shown),
    }
