"""The JSON API under ``/api``: thin handlers over :class:`~milligan.store.games.Games`.

Handlers are plain functions (FastAPI runs them in its thread pool); the
engine's errors become HTTP errors in one place, :mod:`milligan.web.app`.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Body, Depends, Query, Request
from fastapi.responses import JSONResponse

from milligan.errors import IllegalMoveError
from milligan.game import Game
from milligan.position import Position
from milligan.record import Record
from milligan.store.games import GameNotFoundError, Games, Live
from milligan.store.stats import statistics
from milligan.variants import PRESETS, TITLES, Variant
from milligan.web.schemas import (
    ErrorPublic,
    Expect,
    GameCreate,
    GameList,
    GamePublic,
    HintPublic,
    MoveIn,
    RecordIn,
    SolutionPublic,
    StatsPublic,
    VariantPublic,
    game_json,
    summary_json,
)

T = TypeVar("T")

#: Game ids are 22 characters; anything much longer is not one.
ID_LENGTH_LIMIT = 64


@dataclass(frozen=True, slots=True)
class HelpBudget:
    """How much work a hint or a solution may take.

    The fair hint solves ``hint_samples`` deals consistent with what the
    player sees, ``hint_positions`` positions each (budgets in positions,
    not seconds, so a hint is the same on every machine).
    """

    hint_samples: int = 16
    hint_positions: int = 20_000
    solution_seconds: float = 10.0
    solution_positions: int = 1_000_000
    solution_memory_mb: int = 512


class SolverPool:
    """Runs the solver in one worker process, so that the server stays responsive.

    The solver is pure computation; in a thread it would hold the
    interpreter lock and slow every other request down.
    """

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def run(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_exit_with_parent,
                    initargs=(os.getpid(),),
                )
            pool = self._pool
        try:
            return pool.submit(function, *args, **kwargs).result()
        except BrokenProcessPool:
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            raise ApiError(503, "not_available", "the solver stopped; try again") from None

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None


def _exit_with_parent(parent: int) -> None:
    """In the solver worker: end when the server is gone (even after a kill -9)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class ApiError(Exception):
    """An error answer: HTTP status, code, message and optional extra keys."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra


async def current_player(request: Request) -> str:
    """The hash of the player's token (set by the player middleware)."""
    player: str = request.state.player
    return player


async def current_budget(request: Request) -> HelpBudget:
    """How much work the solver may do for a request."""
    budget: HelpBudget = request.app.state.budget
    return budget


async def current_solver_pool(request: Request) -> SolverPool:
    """The solver's worker process."""
    pool: SolverPool = request.app.state.solver_pool
    return pool


async def current_games(request: Request) -> Games:
    """The server's games."""
    games: Games = request.app.state.games
    return games


Player = Annotated[str, Depends(current_player)]
GamesDep = Annotated[Games, Depends(current_games)]
BudgetDep = Annotated[HelpBudget, Depends(current_budget)]
PoolDep = Annotated[SolverPool, Depends(current_solver_pool)]

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorPublic} for status in (404, 409, 413, 422)
}

router = APIRouter(prefix="/api", responses=ERRORS)


def _checked_id(game_id: str) -> str:
    if len(game_id) > ID_LENGTH_LIMIT:
        raise GameNotFoundError(game_id)
    return game_id


def _reply(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status)


def _solver() -> Any:
    try:
        import milligan.solver as solver
    except ImportError:
        raise ApiError(501, "not_available", "the solver is not installed") from None
    return solver


def _must_be_playing(game: Game, what: str) -> None:
    if game.status != "playing":
        raise IllegalMoveError(what, f"the game is over ({game.status})")


# -- variants and games -----------------------------------------------------------------


@router.get("/variants", response_model=list[VariantPublic])
def list_variants() -> JSONResponse:
    """The named variants and their settings."""
    return _reply(
        [
            {"id": name, "title": TITLES[name]}
            | {
                k: getattr(variant, k)
                for k in VariantPublic.model_fields
                if k not in ("id", "title")
            }
            for name, variant in PRESETS.items()
        ]
    )


@router.post("/games", status_code=201, response_model=GamePublic)
def create_game(
    player: Player, games: GamesDep, body: Annotated[GameCreate | None, Body()] = None
) -> JSONResponse:
    """Start a game. Without ``deal`` the number is random and kept secret until the end."""
    body = body or GameCreate()
    variant = Variant.from_json(body.variant)
    choose_from: list[int] = []
    if body.winnable and body.deal is None:
        from milligan.survey.results import known_winnable

        choose_from = known_winnable(variant)
        if not choose_from:
            raise ApiError(501, "not_available", f"no deal of {variant} is proven winnable yet")
    live = games.create(player, variant, body.deal, choose_from)
    return _reply(game_json(live), 201)


@router.get("/games", response_model=GameList)
def list_games(
    player: Player,
    games: GamesDep,
    status: Literal["playing", "won", "lost", "resigned"] | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> JSONResponse:
    """This player's games (``?status=playing`` for the resume list), newest first."""
    return _reply({"games": [summary_json(row) for row in games.list(player, status, limit)]})


@router.post("/games/import", status_code=201, response_model=GamePublic)
def import_game(player: Player, games: GamesDep, body: RecordIn) -> JSONResponse:
    """Import a ``milligan-record/1`` record as a new game (not counted in statistics)."""
    record = Record.from_dict(body.model_dump(exclude_none=True))
    live = games.import_record(player, record)
    return _reply(game_json(live), 201)


@router.get("/games/{game_id}", response_model=GamePublic)
def get_game(game_id: str, player: Player, games: GamesDep) -> JSONResponse:
    """One of this player's games."""
    return _reply(games.read(player, _checked_id(game_id), game_json))


def _change(
    games: Games, player: str, game_id: str, action: Callable[[Game], object], expect: int | None
) -> JSONResponse:
    return _reply(games.change(player, _checked_id(game_id), action, game_json, expect))


@router.post("/games/{game_id}/moves", response_model=GamePublic)
def play_move(game_id: str, body: MoveIn, player: Player, games: GamesDep) -> JSONResponse:
    """Play a move in RULES.md §7 notation."""

    def play(game: Game) -> None:
        _must_be_playing(game, body.move)
        game.play(body.move)

    return _change(games, player, game_id, play, body.expect)


@router.post("/games/{game_id}/undo", response_model=GamePublic)
def undo(
    game_id: str, player: Player, games: GamesDep, body: Annotated[Expect | None, Body()] = None
) -> JSONResponse:
    """Take back the last move."""
    return _change(games, player, game_id, Game.undo, (body or Expect()).expect)


@router.post("/games/{game_id}/redo", response_model=GamePublic)
def redo(
    game_id: str, player: Player, games: GamesDep, body: Annotated[Expect | None, Body()] = None
) -> JSONResponse:
    """Replay the last undone move."""
    return _change(games, player, game_id, Game.redo, (body or Expect()).expect)


@router.post("/games/{game_id}/restart", response_model=GamePublic)
def restart(
    game_id: str, player: Player, games: GamesDep, body: Annotated[Expect | None, Body()] = None
) -> JSONResponse:
    """Back to the deal; the whole line can then be redone."""
    return _change(games, player, game_id, Game.restart, (body or Expect()).expect)


@router.post("/games/{game_id}/resign", response_model=GamePublic)
def resign(
    game_id: str, player: Player, games: GamesDep, body: Annotated[Expect | None, Body()] = None
) -> JSONResponse:
    """Give up: the game is over (and a random deal's number is shown)."""

    def give_up(game: Game) -> None:
        if game.status != "playing":
            raise IllegalMoveError("resign", f"the game is already over ({game.status})")
        game.resign()

    return _change(games, player, game_id, give_up, (body or Expect()).expect)


# -- help -----------------------------------------------------------------------------


def _playing_position(live: Live) -> tuple[Position, int]:
    _must_be_playing(live.game, "help")
    return live.game.position, live.row.revision


@router.get(
    "/games/{game_id}/hint", response_model=HintPublic, responses={501: {"model": ErrorPublic}}
)
def hint(
    game_id: str, player: Player, games: GamesDep, budget: BudgetDep, pool: PoolDep
) -> JSONResponse:
    """A fair hint: the solver sees only what the player sees. Counted in statistics."""
    solver = _solver()
    position, revision = games.read(player, _checked_id(game_id), _playing_position)
    seed = int.from_bytes(hashlib.sha256(f"{game_id}/{revision}".encode()).digest()[:8], "big")
    found = pool.run(
        solver.hint,
        position.observe(),
        samples=budget.hint_samples,
        seed=seed,
        max_positions=budget.hint_positions,
    )
    games.count_help(player, game_id, hint=True)
    move = found.move
    if move is None:  # no sampled deal was won: a move that can never hurt, if there is one
        safe = solver.safe_auto_moves(position)
        move = safe[0] if safe else None
    return _reply(
        {
            "move": str(move) if move is not None else None,
            "win_chance": float(found.win_chance),
            "samples": int(found.samples),
        }
    )


@router.get(
    "/games/{game_id}/solution",
    response_model=SolutionPublic,
    responses={501: {"model": ErrorPublic}},
)
def solution(
    game_id: str, player: Player, games: GamesDep, budget: BudgetDep, pool: PoolDep
) -> JSONResponse:
    """A solution from the current position, with full knowledge: marks the game assisted."""
    solver = _solver()
    position, _ = games.read(player, _checked_id(game_id), _playing_position)
    solved = pool.run(
        solver.solve,
        position,
        timeout=budget.solution_seconds,
        max_positions=budget.solution_positions,
        max_memory_mb=budget.solution_memory_mb,
    )
    games.count_help(player, game_id, solution=True)
    result = str(getattr(solved.result, "value", solved.result)).lower()
    return _reply(
        {
            "result": result if result in ("won", "lost") else "unknown",
            "moves": [str(move) for move in solved.moves] if result == "won" else [],
            "assisted": True,
        }
    )


@router.get("/games/{game_id}/record")
def export_record(game_id: str, player: Player, games: GamesDep) -> JSONResponse:
    """The ``milligan-record/1`` record of a finished game."""

    def record(live: Live) -> dict[str, Any]:
        if live.game.status == "playing":
            raise IllegalMoveError("record", "a game can be exported once it is over")
        return Record.of(live.game).to_dict()

    return _reply(games.read(player, _checked_id(game_id), record))


# -- statistics -------------------------------------------------------------------------


@router.get("/stats", response_model=StatsPublic)
def stats(player: Player, games: GamesDep) -> JSONResponse:
    """Per variant: played, won, win %, streaks, best time, fewest moves, help used."""
    return _reply({"variants": statistics(games.list(player, limit=1_000_000))})
