"""The shapes of the JSON API: request bodies (strict), responses, and the game object.

Request bodies refuse unknown fields and wrong types (422 ``invalid``).
Responses are described here for the OpenAPI page; the game object is built
by :func:`game_json` from a saved game, and never carries a stock card or a
face-down card.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from milligan.position import Position
from milligan.record import game_to_json
from milligan.store.games import Live
from milligan.variants import Variant

Settings = dict[str, int | str]


class Body(BaseModel):
    """Every request body: unknown fields and loose types are refused."""

    model_config = ConfigDict(extra="forbid", strict=True)


class GameCreate(Body):
    """``POST /api/games``: a variant (preset id or settings) and maybe a deal number."""

    variant: str | Settings = Field(default="classic", examples=["classic"])
    deal: int | None = Field(
        default=None,
        description="0 to 2**64-1; without it the server picks a secret random number",
        examples=[42],
    )
    winnable: bool = Field(
        default=False,
        description="without deal: pick the secret number among deals proven winnable",
    )


class MoveIn(Body):
    """``POST /api/games/{id}/moves``."""

    move: str = Field(max_length=40, examples=["3:2>5"])
    expect: int | None = Field(
        default=None, description="the revision the client last saw (409 stale if not current)"
    )


class Expect(Body):
    """Undo, redo, restart and resign: the revision the client last saw."""

    expect: int | None = None


class RecordIn(Body):
    """``POST /api/games/import``: a ``milligan-record/1`` record (docs/RULES.md §7.4)."""

    format: str = Field(examples=["milligan-record/1"])
    variant: str | Settings
    deal: int | None = None
    order: list[str] | None = Field(default=None, max_length=104)
    moves: list[str] = Field(default_factory=list, max_length=5000)
    result: str | None = None


# -- responses (for the OpenAPI page) ------------------------------------------------


class GamePublic(BaseModel):
    """A game: the docs/RULES.md §8 position plus what the client needs to play it."""

    id: str
    variant: str | Settings
    title: str
    deal: int | None = Field(description="null while a random game's number is secret")
    columns: list[list[str]] = Field(description='bottom first; "??" for a face-down card')
    foundations: dict[str, list[int]]
    stock: int
    reprieve: int | None
    moved: list[list[int]]
    status: Literal["playing", "won", "lost", "resigned"]
    moves: int
    revision: int
    legal: list[str] = Field(description="legal moves ([] unless playing)")
    can_undo: bool
    can_redo: bool
    unsettled: list[list[int]] = Field(description="moved cards out of place in a reprieve")
    hopeless: bool = Field(description="the open reprieve can certainly never settle")
    safe: list[str] = Field(description="foundation moves that can never hurt")
    assisted: bool
    hints: int
    created: str
    updated: str
    seconds: float = Field(description="playing time (pauses over 5 minutes count 5 minutes)")
    last: str | None = Field(description="the last move of the line, or null")


class GameSummary(BaseModel):
    """One line of the resume list."""

    id: str
    variant: str | Settings
    title: str
    deal: int | None
    moves: int
    status: str
    updated: str


class GameList(BaseModel):
    games: list[GameSummary]


class HintPublic(BaseModel):
    move: str | None
    win_chance: float = Field(description="an estimate: the share of sampled deals won")
    samples: int
    plan: list[str] = Field(description="the next moves of the chosen line, move first")
    repeats: bool = Field(description="the move leads back to a position already reached")


class SolutionPublic(BaseModel):
    result: Literal["won", "lost", "unknown"]
    moves: list[str] = Field(description="from the current position")
    assisted: bool


class VariantPublic(BaseModel):
    id: str
    title: str
    decks: int
    columns: int
    opening_rows: int
    face_down_rows: int
    reprieve: str


class VariantStats(BaseModel):
    played: int
    won: int
    win_percent: float
    current_streak: int
    best_streak: int
    best_time: float | None
    fewest_moves: int | None
    hints: int
    solutions: int


class StatsPublic(BaseModel):
    variants: dict[str, VariantStats]


class ReasonPublic(BaseModel):
    code: str = Field(description="a refusal code from docs/API.md, Refusal reasons")
    params: dict[str, Any] = Field(description="the cards and columns involved")


class ErrorPublic(BaseModel):
    error: Literal[
        "invalid", "illegal", "stale", "not_found", "too_large", "not_available", "too_many",
        "busy", "not_json", "cross_origin", "unknown_host", "timeout",
    ]
    message: str
    cards: list[list[int]] | None = Field(
        default=None, description="cards out of place when a reprieve cannot close"
    )
    reason: ReasonPublic | None = Field(
        default=None, description="why the rules refuse a move, as a code and its params"
    )


# -- building the game object ---------------------------------------------------------


def safe_moves(position: Position) -> list[str]:
    """The solver's safe foundation moves, or [] when the solver is not installed."""
    try:
        from milligan.solver import safe_auto_moves
    except ImportError:
        return []
    return [str(move) for move in safe_auto_moves(position)]


def game_json(live: Live) -> dict[str, Any]:
    """The game object of docs/RULES.md §8 plus the extra keys of :class:`GamePublic`."""
    game, row = live.game, live.row
    out = game_to_json(game, hide_deal=row.secret)
    position = game.position
    playing = out["status"] == "playing"
    out["id"] = row.id
    out["title"] = game.variant.title
    out["legal"] = [str(move) for move in game.legal_moves()] if playing else []
    out["can_undo"] = game.can_undo()
    out["can_redo"] = game.can_redo()
    out["unsettled"] = [list(place) for place in position.unsettled()]
    out["hopeless"] = position.reprieve_hopeless()
    out["safe"] = safe_moves(position) if playing else []
    out["assisted"] = row.assisted
    out["hints"] = row.hints
    out["created"] = row.created
    out["updated"] = row.updated
    out["seconds"] = round(row.seconds, 3)
    out["last"] = str(game.moves[-1]) if game.moves else None
    return out


def summary_json(row: Any) -> dict[str, Any]:
    """One line of the resume list, from a stored row."""
    variant = Variant.from_key(row.variant)
    return {
        "id": row.id,
        "variant": variant.to_json(),
        "title": variant.title,
        "deal": None if row.secret or row.deal is None else int(row.deal),
        "moves": len(row.moves),
        "status": row.status,
        "updated": row.updated,
    }
