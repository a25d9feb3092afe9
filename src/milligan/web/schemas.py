"""The shapes of the JSON API: request bodies (strict) and answers, one family per resource.

Request bodies refuse unknown fields and wrong types (422 ``invalid``).
Answers refuse unknown fields too: they are built by :mod:`milligan.web.views`
and checked against these models by FastAPI on the way out (``response_model``),
so an answer that strays from its model fails loudly instead of reaching a client.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Settings = dict[str, int | str]


#: Deal numbers in the schema (the engine refuses any other, 422 ``invalid``).  The
#: schema's numbers are floats, and 2**64 is one, where 2**64 - 1 is not.
DEAL_RANGE: dict[str, Any] = {"minimum": 0, "exclusiveMaximum": 2**64}


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
        json_schema_extra=DEAL_RANGE,
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
    deal: int | None = Field(default=None, json_schema_extra=DEAL_RANGE)
    order: list[str] | None = Field(default=None, max_length=104)
    moves: list[str] = Field(default_factory=list, max_length=5000)
    result: str | None = None


# -- answers -------------------------------------------------------------------------


class Public(BaseModel):
    """Every answer but errors: no field beyond the model's."""

    model_config = ConfigDict(extra="forbid")


class GamePublic(Public):
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
    daily: str | None = Field(
        default=None,
        description='the UTC date "YYYY-MM-DD" of the daily deal this game of the player '
        "was started as (POST /api/daily/games), or null",
    )


class GameSummary(Public):
    """One line of the resume list."""

    id: str
    variant: str | Settings
    title: str
    deal: int | None
    moves: int
    status: str
    updated: str


class GameList(Public):
    games: list[GameSummary]


class HintPublic(Public):
    move: str | None
    win_chance: float = Field(description="the share of sampled deals the plan won")
    win_estimate: float = Field(
        description="an estimate of the chance of winning by following the hints: "
        "win_chance corrected by what the fair player's own games did (docs/SOLVER.md)"
    )
    samples: int
    plan: list[str] = Field(description="the next moves of the chosen line, move first")
    repeats: bool = Field(description="the move leads back to a position already reached")


class SolutionPublic(Public):
    result: Literal["won", "lost", "unknown"]
    moves: list[str] = Field(description="from the current position")
    assisted: bool


class VariantPublic(Public):
    id: str
    title: str
    decks: int
    columns: int
    opening_rows: int
    face_down_rows: int
    reprieve: str


class VariantStats(Public):
    played: int
    won: int
    win_percent: float
    current_streak: int
    best_streak: int
    best_time: float | None
    fewest_moves: int | None
    hints: int
    solutions: int


class StatsPublic(Public):
    variants: dict[str, VariantStats]


class ReasonPublic(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(description="a refusal code from docs/API.md, Refusal reasons")
    params: dict[str, Any] = Field(description="the cards and columns involved")


class ErrorPublic(BaseModel):
    error: Literal[
        "invalid",
        "illegal",
        "stale",
        "not_over",
        "won",
        "not_found",
        "not_yet",
        "not_shipped",
        "not_allowed",
        "too_large",
        "not_available",
        "too_many",
        "busy",
        "not_json",
        "cross_origin",
        "unknown_host",
        "timeout",
        "internal",
    ]
    message: str
    cards: list[list[int]] | None = Field(
        default=None, description="cards out of place when a reprieve cannot close"
    )
    reason: ReasonPublic | None = Field(
        default=None, description="why the rules refuse a move, as a code and its params"
    )


# -- the daily deal (docs/RULES.md §10) ----------------------------------------------


class DailyCreate(Body):
    """``POST /api/daily/games``: start the daily deal of a date (today by default)."""

    variant: str = Field(default="classic", max_length=40, examples=["classic"])
    date: str | None = Field(default=None, max_length=40, examples=["2026-12-01"])


class DailyGamePublic(Public):
    """The player's latest game of a daily deal."""

    id: str
    status: Literal["playing", "won", "lost", "resigned"]
    moves: int
    seconds: float
    hints: int
    assisted: bool


class DailyPublic(Public):
    """``GET /api/daily``: a date's daily deal, and the player's game of it if any."""

    date: str
    variant: str
    deal: int
    game: DailyGamePublic | None = Field(description="the player's latest game of this deal")
    share: str | None = Field(description="the spoiler-free result, once that game is over")


class DailyStatsPublic(Public):
    """``GET /api/daily/stats``: the daily streak, over every variant."""

    current_streak: int
    best_streak: int
    days_won: int


# -- post-game analysis (docs/SOLVER.md, "Post-game analysis") ---------------------------


class VerdictPublic(Public):
    """One solve of an analysis: the position after ``index`` moves."""

    index: int
    verdict: Literal["won", "lost", "unknown"]
    positions: int
    seconds: float


class FairDropPublic(Public):
    """The fair player's win chance before move ``first`` and after move ``index``."""

    first: int
    index: int
    move: str
    before: float
    after: float


class AnalysisPublic(Public):
    """``GET /api/games/{id}/analysis``: where a finished game threw the win away.

    Moves count from 1, as in records. ``turning_point`` is None when it was
    not pinned (then ``range`` holds the moves it may be, and ``note`` says
    why), when the deal was never winnable, or when the end can still be won.
    """

    moves: int = Field(description="moves in the game's line")
    turning_point: int | None
    move: str | None = Field(description="the move at the turning point")
    range: list[int] | None = Field(description="first and last move it may be, if not pinned")
    better_from: int | None = Field(description="moves played before the better line")
    better: list[str] = Field(description="a winning line, replayed through the engine")
    never_winnable: bool
    still_winnable: bool
    note: str
    verdicts: list[VerdictPublic]
    fair_drops: list[FairDropPublic]
    seconds: float
