"""The daily deal over HTTP (docs/RULES.md §10): the number, starting it, the streak.

- ``GET /api/daily?variant=V&date=YYYY-MM-DD``: the deal of that UTC date
  (today by default), the player's latest game of it and, once that game is
  over, the spoiler-free share text.
- ``POST /api/daily/games``: start the daily deal as a game (its number is
  public) and remember that it is a daily game, for the streak.
- ``GET /api/daily/stats``: the daily streak over every variant.

Only shipped dates are served (:mod:`milligan.daily` never searches here):
a date after today (UTC) is 404 ``not_yet``, a date outside the shipped data
404 ``not_shipped``, a malformed date or an unknown variant 422 ``invalid``.
"""

from __future__ import annotations

import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from starlette.concurrency import run_in_threadpool

from milligan import daily
from milligan.store.database import GameRow
from milligan.store.games import Live
from milligan.variants import Variant
from milligan.web.deps import ApiError, DatabaseDep, GamesDep, PlayerDep, QuotaDep, json_writes
from milligan.web.routes import AheadDep
from milligan.web.schemas import (
    DailyCreate,
    DailyGamePublic,
    DailyPublic,
    DailyStatsPublic,
    ErrorPublic,
    GamePublic,
)
from milligan.web.views import game_public

router = APIRouter(
    prefix="/api/daily",
    responses={status: {"model": ErrorPublic} for status in (404, 422)},
    dependencies=[Depends(json_writes)],
)


def _deal_of(date_text: str | None, variant_id: str) -> tuple[datetime.date, int]:
    """The date asked for and its daily deal; ApiError or a MilliganError (422) else."""
    today = daily.today()
    date = today if date_text is None else daily.parse_date(date_text)
    daily.check_variant(variant_id)
    if date > today:
        raise ApiError(
            404,
            "not_yet",
            f"the daily deal of {date.isoformat()} is not out yet "
            f"(today is {today.isoformat()} UTC)",
        )
    try:
        return date, daily.daily_deal(date, variant_id)
    except daily.DailyUnavailableError as error:
        raise ApiError(404, "not_shipped", str(error)) from None


def _game_summary(row: GameRow) -> DailyGamePublic:
    return DailyGamePublic(
        id=row.id,
        status=row.status,  # type: ignore[arg-type]
        moves=len(row.moves),
        seconds=round(row.seconds, 1),
        hints=row.hints,
        assisted=row.assisted,
    )


@router.get("", response_model=DailyPublic)
def get_daily(
    request: Request,
    player: PlayerDep,
    database: DatabaseDep,
    variant: Annotated[str, Query(max_length=40)] = "classic",
    date: Annotated[str | None, Query(max_length=40)] = None,
) -> DailyPublic:
    """The daily deal of a date, and this player's latest game of it."""
    day, number = _deal_of(date, variant)
    rows = database.daily_games(player, day=day.isoformat(), variant=variant)
    row = rows[-1][2] if rows else None
    share = None
    if row is not None and row.status != "playing":
        share = daily.share_text(
            day,
            variant,
            won=row.status == "won",
            moves=len(row.moves),
            seconds=row.seconds,
            hints=row.hints,
            base_url=str(request.base_url).rstrip("/"),
        )
    return DailyPublic(
        date=day.isoformat(),
        variant=variant,
        deal=number,
        game=_game_summary(row) if row is not None else None,
        share=share,
    )


@router.post(
    "/games", status_code=201, response_model=GamePublic, responses={429: {"model": ErrorPublic}}
)
async def start_daily(
    body: DailyCreate,
    player: PlayerDep,
    games: GamesDep,
    database: DatabaseDep,
    quota: QuotaDep,
    ahead: AheadDep,
) -> GamePublic:
    """Start the daily deal of a date as a new game of this player."""
    day, number = _deal_of(body.date, body.variant)
    quota.take(player)

    def start() -> Live:
        live = games.create(player, Variant.named(body.variant), number)
        database.add_daily_game(live.row.id, player, day.isoformat(), body.variant)
        return live

    def create() -> GamePublic:
        live = ahead.opening(games, player, start)
        return game_public(live, daily=day.isoformat())

    return await run_in_threadpool(create)


@router.get("/stats", response_model=DailyStatsPublic)
def daily_stats(player: PlayerDep, database: DatabaseDep) -> DailyStatsPublic:
    """The daily streak: consecutive UTC dates with a daily game won on its own date."""
    won = [
        datetime.date.fromisoformat(day)
        for day, _, row in database.daily_games(player)
        if row.status == "won" and not row.assisted and (row.finished or "")[:10] == day
    ]
    current, best = daily.streaks(won, daily.today())
    return DailyStatsPublic(current_streak=current, best_streak=best, days_won=len(set(won)))
