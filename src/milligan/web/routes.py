"""The JSON API under ``/api``: thin handlers over :class:`~milligan.store.games.Games`.

What the handlers share comes through the aliases of :mod:`milligan.web.deps`;
their answers are models of :mod:`milligan.web.schemas`, built by
:mod:`milligan.web.views` and checked by FastAPI against each route's
``response_model``. Handlers that read or change a game are plain functions
(FastAPI runs them in its thread pool); those that wait for the solver are
coroutines that hold no thread meanwhile, so that solver work never keeps a
move waiting. The engine's errors become HTTP errors in one place,
:mod:`milligan.web.app`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Query, Request
from starlette.concurrency import run_in_threadpool

from milligan.errors import IllegalMoveError
from milligan.game import Game
from milligan.position import Observation, Position
from milligan.record import Record
from milligan.store.games import Games, Live
from milligan.variants import Variant
from milligan.web.deps import (
    ApiError,
    BudgetDep,
    DatabaseDep,
    FillerDep,
    GamesDep,
    HelpBudget,
    PlayerDep,
    PoolDep,
    QuotaDep,
    SettingsDep,
    SolverDep,
    SolverPool,
    checked_id,
    json_writes,
)
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
)
from milligan.web.views import (
    daily_date,
    game_public,
    game_summary,
    hint_public,
    solution_public,
    stats_public,
    variant_list,
)

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorPublic} for status in (404, 409, 413, 422)
}

router = APIRouter(prefix="/api", responses=ERRORS, dependencies=[Depends(json_writes)])


#: Why a finished game refuses a change, and a second resignation, by status.
OVER = {"won": "game_won", "resigned": "game_resigned", "lost": "game_lost"}
ALREADY = {"won": "already_won", "resigned": "already_resigned", "lost": "already_lost"}


def _must_be_playing(game: Game, what: str) -> None:
    if game.status != "playing":
        raise IllegalMoveError.refuse(what, OVER[game.status])


def give_up(game: Game) -> None:
    """Resign ``game``, which must still be in play (a lost game is over, D9)."""
    if game.status != "playing":
        raise IllegalMoveError.refuse("resign", ALREADY[game.status])
    game.resign()


def record_of(game: Game) -> dict[str, Any]:
    """The record of a finished game (a game in play is not exported)."""
    if game.status == "playing":
        raise IllegalMoveError.refuse("record", "not_over")
    return Record.of(game).to_dict()


# -- hints made ahead -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HintsAhead:
    """Hints made ahead: after a change to a game whose player has asked for a hint in it,
    the hint for the new position is offered to the help worker as spare work; so is the
    opening's, for a new game of a player who asked for one in the game they changed last.

    It is the decision the next hint would make (the same observations, seed
    and budget), so the answer is the same whether it was made ahead or
    not; made ahead, it is ready, or under way, when the player asks. It runs
    only when no request waits for the worker, and only the latest change of
    a game is kept waiting (``ServerSettings.hints_ahead`` turns it off).
    """

    pool: SolverPool
    budget: HelpBudget
    enabled: bool

    def call(self, game_id: str, live: Live, asked: bool) -> _HintCall | None:
        """The hint to make ahead for ``live``, just changed, if the player ``asked`` for
        hints and the game goes on (else None)."""
        if not self.enabled or not asked or live.game.status != "playing":
            return None
        return _hint_call(game_id, live, self.budget)

    def opening(self, games: Games, player: str, create: Callable[[], Live]) -> Live:
        """``create()`` a game of ``player``, and make its opening hint ahead if they asked
        for a hint in the game they changed last."""
        if not self.enabled:
            return create()
        before = games.list(player, limit=1)
        live = create()
        self.offer(self.call(live.row.id, live, bool(before) and before[0].hints > 0))
        return live

    def offer(self, call: _HintCall | None) -> None:
        if call is None:
            return
        try:
            from milligan.solver import fair
        except ImportError:  # no solver: no hints to make
            return
        args, kwargs = call
        with contextlib.suppress(RuntimeError):  # the server is stopping: the move stands
            self.pool.help.offer(("hint", args[0]), fair.game_hint, *args, **kwargs)


async def hints_ahead(pool: PoolDep, budget: BudgetDep, settings: SettingsDep) -> HintsAhead:
    """The server's :class:`HintsAhead`."""
    return HintsAhead(pool, budget, settings.hints_ahead)


AheadDep = Annotated[HintsAhead, Depends(hints_ahead)]


# -- variants and games -----------------------------------------------------------------


@router.get("/variants", response_model=list[VariantPublic])
def list_variants() -> list[VariantPublic]:
    """The named variants and their settings."""
    return variant_list()


@router.post(
    "/games",
    status_code=201,
    response_model=GamePublic,
    responses={status: {"model": ErrorPublic} for status in (429, 503)},
)
async def create_game(
    request: Request,
    player: PlayerDep,
    games: GamesDep,
    quota: QuotaDep,
    database: DatabaseDep,
    settings: SettingsDep,
    pool: PoolDep,
    filler: FillerDep,
    ahead: AheadDep,
    body: Annotated[GameCreate | None, Body()] = None,
) -> GamePublic:
    """Start a game. Without ``deal`` the number is random and kept secret until the end.

    With ``winnable``, the random number is one the solver has proven won: from
    the pool in the database, else found now with a bounded effort.
    """
    body = body or GameCreate()
    variant = Variant.from_json(body.variant)
    quota.take(player)
    secret_deal = None
    if body.winnable and body.deal is None:
        from milligan.web.winnable import find_winnable

        secret_deal = await run_in_threadpool(database.take_winnable, variant.key)
        if filler is not None:
            filler.wake()
        if secret_deal is None:
            secret_deal = await pool.run(
                player,
                request,
                find_winnable,
                variant.key,
                settings.winnable_positions,
                settings.winnable_attempts,
                settings.winnable_seconds,
            )
        if secret_deal is None:
            raise ApiError(
                503,
                "not_available",
                f"no deal of {variant} could be proven winnable just now; "
                "try again, or play a random deal",
            )

    def create() -> Live:
        return games.create(player, variant, body.deal, secret_deal=secret_deal)

    live = await run_in_threadpool(ahead.opening, games, player, create)
    return game_public(live)


@router.get("/games", response_model=GameList)
def list_games(
    player: PlayerDep,
    games: GamesDep,
    status: Literal["playing", "won", "lost", "resigned"] | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> GameList:
    """This player's games (``?status=playing`` for the resume list), newest first."""
    return GameList(games=[game_summary(row) for row in games.list(player, status, limit)])


@router.post(
    "/games/import",
    status_code=201,
    response_model=GamePublic,
    responses={429: {"model": ErrorPublic}},
)
def import_game(player: PlayerDep, games: GamesDep, quota: QuotaDep, body: RecordIn) -> GamePublic:
    """Import a ``milligan-record/1`` record as a new game (not counted in statistics)."""
    record = Record.from_dict(body.model_dump(exclude_none=True))
    quota.take(player)
    return game_public(games.import_record(player, record))


def _public(games: Games) -> Callable[[Live], GamePublic]:
    """:func:`game_public` with the date of the daily deal the game is, if it is one."""
    return lambda live: game_public(live, daily=daily_date(games.database, live.row))


@router.get("/games/{game_id}", response_model=GamePublic)
def get_game(game_id: str, player: PlayerDep, games: GamesDep) -> GamePublic:
    """One of this player's games."""
    return games.read(player, checked_id(game_id), _public(games))


def _change(
    games: Games,
    player: str,
    game_id: str,
    action: Callable[[Game], object],
    expect: int | None,
    ahead: HintsAhead | None = None,
) -> GamePublic:
    game_id = checked_id(game_id)
    public = _public(games)
    if ahead is None:
        return games.change(player, game_id, action, public, expect)
    shown, call = games.change(
        player,
        game_id,
        action,
        lambda live: (public(live), ahead.call(game_id, live, live.row.hints > 0)),
        expect,
    )
    ahead.offer(call)
    return shown


@router.post("/games/{game_id}/moves", response_model=GamePublic)
def play_move(
    game_id: str, body: MoveIn, player: PlayerDep, games: GamesDep, ahead: AheadDep
) -> GamePublic:
    """Play a move in docs/RULES.md §7 notation."""

    def play(game: Game) -> None:
        _must_be_playing(game, body.move)
        game.play(body.move)

    return _change(games, player, game_id, play, body.expect, ahead)


@router.post("/games/{game_id}/undo", response_model=GamePublic)
def undo(
    game_id: str,
    player: PlayerDep,
    games: GamesDep,
    ahead: AheadDep,
    body: Annotated[Expect | None, Body()] = None,
) -> GamePublic:
    """Take back the last move."""
    return _change(games, player, game_id, Game.undo, (body or Expect()).expect, ahead)


@router.post("/games/{game_id}/redo", response_model=GamePublic)
def redo(
    game_id: str,
    player: PlayerDep,
    games: GamesDep,
    ahead: AheadDep,
    body: Annotated[Expect | None, Body()] = None,
) -> GamePublic:
    """Replay the last undone move."""
    return _change(games, player, game_id, Game.redo, (body or Expect()).expect, ahead)


@router.post("/games/{game_id}/restart", response_model=GamePublic)
def restart(
    game_id: str,
    player: PlayerDep,
    games: GamesDep,
    ahead: AheadDep,
    body: Annotated[Expect | None, Body()] = None,
) -> GamePublic:
    """Back to the deal; the whole line can then be redone."""
    return _change(games, player, game_id, Game.restart, (body or Expect()).expect, ahead)


@router.post("/games/{game_id}/resign", response_model=GamePublic)
def resign(
    game_id: str, player: PlayerDep, games: GamesDep, body: Annotated[Expect | None, Body()] = None
) -> GamePublic:
    """Give up: the game is over (and a random deal's number is shown)."""

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
    text = json.dumps(
        [
            seen.variant.key,
            [
                [str(card) if card is not None else "??" for card in column]
                for column in seen.columns
            ],
            seen.foundations,
            seen.stock,
            seen.reprieve,
            sorted(seen.moved),
            revision,
        ]
    )
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


#: The arguments of a call to :func:`milligan.solver.fair.game_hint`.
_HintCall = tuple[tuple[Any, ...], dict[str, Any]]


def _hint_call(game_id: str, live: Live, budget: HelpBudget) -> _HintCall:
    """How to ask the fair player for this game's hint: the same call whenever it is made."""
    line, position, revision = _playing_line(live)
    budgets = {"samples": budget.hint_samples, "max_positions": budget.hint_positions}
    kwargs = {name: value for name, value in budgets.items() if value is not None}
    kwargs["threads"] = budget.hint_threads
    return (game_id, line[-1], line[:-1]), {"seed": _seed(position, revision), **kwargs}


@router.get(
    "/games/{game_id}/hint",
    response_model=HintPublic,
    responses={status: {"model": ErrorPublic} for status in (429, 501, 503)},
)
async def hint(
    game_id: str,
    request: Request,
    solver: SolverDep,
    player: PlayerDep,
    games: GamesDep,
    budget: BudgetDep,
    pool: PoolDep,
) -> HintPublic:
    """A fair hint: the solver sees only what the player sees. Counted in statistics."""
    game_id = checked_id(game_id)
    with pool.turn(player):
        args, kwargs = await run_in_threadpool(
            games.read, player, game_id, lambda live: _hint_call(game_id, live, budget)
        )
        found = await pool.call(request, solver.fair.game_hint, *args, **kwargs)
    await run_in_threadpool(lambda: games.count_help(player, game_id, hint=True))
    return hint_public(found)


@router.get(
    "/games/{game_id}/solution",
    response_model=SolutionPublic,
    responses={status: {"model": ErrorPublic} for status in (429, 501, 503)},
)
async def solution(
    game_id: str,
    request: Request,
    solver: SolverDep,
    player: PlayerDep,
    games: GamesDep,
    budget: BudgetDep,
    pool: PoolDep,
) -> SolutionPublic:
    """A solution from the current position, with full knowledge: marks the game assisted."""
    game_id = checked_id(game_id)
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
    return solution_public(solved)


@router.get("/games/{game_id}/record")
def export_record(game_id: str, player: PlayerDep, games: GamesDep) -> dict[str, Any]:
    """The ``milligan-record/1`` record of a finished game."""

    def record(live: Live) -> dict[str, Any]:
        return record_of(live.game)

    return games.read(player, checked_id(game_id), record)


# -- statistics -------------------------------------------------------------------------


@router.get("/stats", response_model=StatsPublic)
def stats(player: PlayerDep, games: GamesDep) -> StatsPublic:
    """Per variant: played, won, win %, streaks, best time, fewest moves, help used."""
    return stats_public(games.database.statistics(player))
