"""``GET /api/games/{id}/analysis``: where a finished game threw the win away.

The analysis (:mod:`milligan.solver.analysis`) solves positions of the line
with full knowledge, so it is given only for games that are over: 409
``not_over`` while the game is being played, 409 ``won`` for a won game,
which has nothing to analyse. The work runs in the solver's help worker, in
the player's turn, as a solution does.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from starlette.concurrency import run_in_threadpool

from milligan.record import Record
from milligan.store.games import Live
from milligan.web.deps import (
    ApiError,
    BudgetDep,
    GamesDep,
    PlayerDep,
    PoolDep,
    SolverDep,
    checked_id,
    json_writes,
)
from milligan.web.schemas import AnalysisPublic, ErrorPublic

#: At most this many solves per analysis, each with the solution's budget.
MAX_SOLVES = 16
#: The fair player's budget at each point it is asked.
FAIR_SAMPLES = 4
FAIR_POSITIONS = 20_000

router = APIRouter(
    prefix="/api",
    responses={status: {"model": ErrorPublic} for status in (404, 409, 429, 501, 503)},
    dependencies=[Depends(json_writes)],
)


def _finished_record(live: Live) -> Record:
    game = live.game
    if game.status == "playing":
        raise ApiError(
            409,
            "not_over",
            "a game is analysed once it is over: the analysis uses full knowledge of the deal",
        )
    if game.status == "won":
        raise ApiError(409, "won", "the game was won: there is nothing to analyse")
    return Record.of(game)


@router.get("/games/{game_id}/analysis", response_model=AnalysisPublic)
async def analysis(
    game_id: str,
    request: Request,
    solver: SolverDep,
    player: PlayerDep,
    games: GamesDep,
    budget: BudgetDep,
    pool: PoolDep,
) -> AnalysisPublic:
    """The turning point of a lost or resigned game, a better line, the fair player's drops."""
    game_id = checked_id(game_id)
    from milligan.solver.analysis import analyse, default_solves

    with pool.turn(player):
        record = await run_in_threadpool(games.read, player, game_id, _finished_record)
        found = await pool.call(
            request,
            analyse,
            record,
            timeout=budget.solution_seconds,
            max_positions=budget.solution_positions,
            max_memory_mb=budget.solution_memory_mb,
            max_solves=min(MAX_SOLVES, default_solves(len(record.moves))),
            fair_samples=FAIR_SAMPLES,
            fair_positions=FAIR_POSITIONS,
        )
    return AnalysisPublic.model_validate(found.to_dict())
