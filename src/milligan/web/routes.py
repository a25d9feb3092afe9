"""The JSON API under ``/api``: thin handlers over :class:`~milligan.store.games.Games`.

Handlers that read or change a game are plain functions (FastAPI runs them
in its thread pool); those that wait for the solver are coroutines that hold
no thread meanwhile, so that solver work never keeps a move waiting. The
engine's errors become HTTP errors in one place, :mod:`milligan.web.app`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Body, Depends, Query, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from milligan.errors import IllegalMoveError
from milligan.game import Game
from milligan.position import Observation, Position
from milligan.record import Record
from milligan.store.games import GameNotFoundError, Games, Live
from milligan.variants import PRESETS, Variant
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
from milligan.web.settings import ServerSettings
from milligan.web.worker import Lane, WorkerStopped

T = TypeVar("T")

#: How many moves of the hint's plan an answer shows.
PLAN_SHOWN = 12

#: Game ids are 22 characters; anything much longer is not one.
ID_LENGTH_LIMIT = 64


@dataclass(frozen=True, slots=True)
class HelpBudget:
    """How much work a hint or a solution may take.

    A fair hint's decision scores its plans on ``hint_samples`` deals
    consistent with what the player sees and expands at most
    ``hint_positions`` positions in all (budgets in positions, not seconds,
    so a hint is the same on every machine); the moves of a plan the player
    follows cost nothing.
    """

    hint_samples: int | None = None  # None: the fair player's own default
    hint_positions: int | None = None
    solution_seconds: float = 10.0
    solution_positions: int = 1_000_000
    solution_memory_mb: int = 512


class SolverPool:
    """Solver work in worker processes, bounded per player and in total.

    Hints and solutions (and winnable deals wanted at once) share the
    ``help`` worker; the ``background`` worker (lower priority) keeps the
    pool of winnable deals filled. The handlers await the work without
    holding a thread, so moves never wait behind the solver. A player has
    one request at the solver at a time (429 for a second), at most
    ``queue_limit`` wait in all (503 beyond), and a request whose client
    has gone is dropped, or stopped if it is running.
    """

    def __init__(self, queue_limit: int = 16) -> None:
        # Below the server's priority: on a busy machine, moves come first.
        self.help = Lane("help", niceness=5)
        self.background = Lane("background", niceness=15)
        self.queue_limit = queue_limit
        self._lock = threading.Lock()
        self._players: set[str] = set()
        self._waiting = 0

    @contextlib.contextmanager
    def turn(self, player: str) -> Iterator[None]:
        """Admit one request of ``player`` to the solver (429 or 503 if not), for a ``with``.

        Checked before anything else is done for the request, so that a
        refusal costs next to nothing.
        """
        with self._lock:
            if player in self._players:
                raise ApiError(
                    429,
                    "too_many",
                    "you already have a hint, a solution or a winnable deal on its way; "
                    "wait for it before asking again",
                )
            if self._waiting >= self.queue_limit:
                raise ApiError(
                    503,
                    "busy",
                    "the solver is busy with other players' requests; try again in a minute",
                )
            self._players.add(player)
            self._waiting += 1
        try:
            yield
        finally:
            with self._lock:
                self._players.discard(player)
                self._waiting -= 1

    async def call(
        self, request: Request | None, function: Callable[..., T], *args: Any, **kwargs: Any
    ) -> T:
        """``function(*args, **kwargs)`` in the help worker (within a :meth:`turn`).

        Stopped when the client of ``request`` disconnects.
        """
        job = self.help.submit(function, *args, **kwargs)
        try:
            waiter = asyncio.wrap_future(job.future)
            while True:
                done, _ = await asyncio.wait({waiter}, timeout=0.25)
                if done:
                    break
                if request is not None and await request.is_disconnected():
                    self.help.cancel(job)
                    raise ApiError(499, "gone", "the client went away; the work was stopped")
            try:
                result: T = waiter.result()
            except WorkerStopped:
                raise ApiError(503, "not_available", "the solver stopped; try again") from None
            return result
        except BaseException:
            self.help.cancel(job)  # a no-op once it has ended
            raise

    async def run(
        self,
        player: str,
        request: Request | None,
        function: Callable[..., T],
        *args: Any,
        **kwargs: Any,
    ) -> T:
        """``function(*args, **kwargs)`` in the help worker, in a turn of ``player``."""
        with self.turn(player):
            return await self.call(request, function, *args, **kwargs)

    def close(self) -> None:
        """Stop the workers."""
        self.help.close()
        self.background.close()


class GameQuota:
    """How many games a player may create or import in a minute (429 beyond).

    Counted in this server process: with ``--workers N``, a player may get
    up to N times as many.
    """

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self._lock = threading.Lock()
        self._times: dict[str, deque[float]] = {}

    def take(self, player: str) -> None:
        """Count one new game for ``player``, or raise 429."""
        now = self.clock()
        with self._lock:
            if len(self._times) > 10_000:  # forget players who have been quiet for a minute
                self._times = {k: v for k, v in self._times.items() if v and v[-1] > now - 60}
            times = self._times.setdefault(player, deque())
            while times and times[0] <= now - 60:
                times.popleft()
            if len(times) >= self.per_minute:
                wait = max(1, round(times[0] + 60 - now))
                raise ApiError(
                    429,
                    "too_many",
                    f"at most {self.per_minute} new games a minute; try again in {wait} s",
                    retry_after=wait,
                )
            times.append(now)


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



async def json_writes(request: Request) -> None:
    """Every write must say ``Content-Type: application/json``, with a body or without.

    A page on another site can send a form or a ``text/plain`` body without
    asking first; it cannot send this content type without a CORS preflight,
    which this server never grants.
    """
    if request.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise ApiError(
            415,
            "not_json",
            "writes must be sent as Content-Type: application/json (even without a body)",
        )


router = APIRouter(prefix="/api", responses=ERRORS, dependencies=[Depends(json_writes)])


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
            {"id": name, "title": variant.title}
            | {
                k: getattr(variant, k)
                for k in VariantPublic.model_fields
                if k not in ("id", "title")
            }
            for name, variant in PRESETS.items()
        ]
    )


@router.post(
    "/games",
    status_code=201,
    response_model=GamePublic,
    responses={status: {"model": ErrorPublic} for status in (429, 503)},
)
async def create_game(
    request: Request,
    player: Player,
    games: GamesDep,
    body: Annotated[GameCreate | None, Body()] = None,
) -> JSONResponse:
    """Start a game. Without ``deal`` the number is random and kept secret until the end.

    With ``winnable``, the random number is one the solver has proven won.
    """
    body = body or GameCreate()
    variant = Variant.from_json(body.variant)
    request.app.state.quota.take(player)
    secret_deal = None
    if body.winnable and body.deal is None:
        secret_deal = await _winnable_deal(request, player, variant)
    live = await run_in_threadpool(
        lambda: games.create(player, variant, body.deal, secret_deal=secret_deal)
    )
    return _reply(game_json(live), 201)


async def _winnable_deal(request: Request, player: str, variant: Variant) -> int:
    """A random deal proven won: from the pool, else found now with a bounded effort."""
    from milligan.web.winnable import find_winnable

    settings: ServerSettings = request.app.state.settings
    database = request.app.state.database
    key = variant.key
    number: int | None = await run_in_threadpool(database.take_winnable, key)
    filler = getattr(request.app.state, "winnable", None)
    if filler is not None:
        filler.wake()
    if number is None:
        pool: SolverPool = request.app.state.solver_pool
        number = await pool.run(
            player,
            request,
            find_winnable,
            key,
            settings.winnable_positions,
            settings.winnable_attempts,
            settings.winnable_seconds,
        )
    if number is None:
        raise ApiError(
            503,
            "not_available",
            f"no deal of {variant} could be proven winnable just now; "
            "try again, or play a random deal",
        )
    return number


@router.get("/games", response_model=GameList)
def list_games(
    player: Player,
    games: GamesDep,
    status: Literal["playing", "won", "lost", "resigned"] | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> JSONResponse:
    """This player's games (``?status=playing`` for the resume list), newest first."""
    return _reply({"games": [summary_json(row) for row in games.list(player, status, limit)]})


@router.post(
    "/games/import",
    status_code=201,
    response_model=GamePublic,
    responses={429: {"model": ErrorPublic}},
)
def import_game(request: Request, player: Player, games: GamesDep, body: RecordIn) -> JSONResponse:
    """Import a ``milligan-record/1`` record as a new game (not counted in statistics)."""
    record = Record.from_dict(body.model_dump(exclude_none=True))
    request.app.state.quota.take(player)
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
    """Play a move in docs/RULES.md §7 notation."""

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


def _playing_line(live: Live) -> tuple[list[Observation], Position, int]:
    """What the player saw at every position of the line, the current one last."""
    position, revision = _playing_position(live)
    return [seen.observe() for seen in live.game.positions], position, revision


def _seed(position: Position, revision: int) -> int:
    """A hint's seed, from what the player sees: asking again gives the same hint.

    Two games that look the same get the same hint, whatever their hidden cards.
    """
    seen = position.observe()
    text = json.dumps([
        seen.variant.key,
        [[str(card) if card is not None else "??" for card in column] for column in seen.columns],
        seen.foundations,
        seen.stock,
        seen.reprieve,
        sorted(seen.moved),
        revision,
    ])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@router.get(
    "/games/{game_id}/hint",
    response_model=HintPublic,
    responses={status: {"model": ErrorPublic} for status in (429, 501, 503)},
)
async def hint(
    game_id: str,
    request: Request,
    player: Player,
    games: GamesDep,
    budget: BudgetDep,
    pool: PoolDep,
) -> JSONResponse:
    """A fair hint: the solver sees only what the player sees. Counted in statistics."""
    solver = _solver()
    game_id = _checked_id(game_id)
    budgets = {"samples": budget.hint_samples, "max_positions": budget.hint_positions}
    with pool.turn(player):
        line, position, revision = await run_in_threadpool(
            games.read, player, game_id, _playing_line
        )
        found = await pool.call(
            request,
            solver.fair.game_hint,
            game_id,
            line[-1],
            line[:-1],
            seed=_seed(position, revision),
            **{name: value for name, value in budgets.items() if value is not None},
        )
    await run_in_threadpool(lambda: games.count_help(player, game_id, hint=True))
    return _reply(
        {
            "move": str(found.move) if found.move is not None else None,
            "win_chance": float(found.win_chance),
            "samples": int(found.samples),
            "plan": [str(move) for move in found.plan[:PLAN_SHOWN]],
            "repeats": bool(found.repeats),
        }
    )


@router.get(
    "/games/{game_id}/solution",
    response_model=SolutionPublic,
    responses={status: {"model": ErrorPublic} for status in (429, 501, 503)},
)
async def solution(
    game_id: str,
    request: Request,
    player: Player,
    games: GamesDep,
    budget: BudgetDep,
    pool: PoolDep,
) -> JSONResponse:
    """A solution from the current position, with full knowledge: marks the game assisted."""
    solver = _solver()
    game_id = _checked_id(game_id)
    with pool.turn(player):
        position, _ = await run_in_threadpool(games.read, player, game_id, _playing_position)
        solved = await pool.call(
            request,
            solver.solve,
            position,
            timeout=budget.solution_seconds,
            max_positions=budget.solution_positions,
            max_memory_mb=budget.solution_memory_mb,
        )
    await run_in_threadpool(lambda: games.count_help(player, game_id, solution=True))
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
    return _reply({"variants": games.database.statistics(player)})
