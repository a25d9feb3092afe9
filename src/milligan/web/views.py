"""The API's answers, built from saved games and the solver's findings: one function per model.

Each returns a model of :mod:`milligan.web.schemas`. The game never carries
a stock card or a face-down card: it is the docs/RULES.md §8 position, which
shows neither.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from milligan.position import Position
from milligan.record import game_to_json
from milligan.store.database import Database, GameRow
from milligan.store.games import Live
from milligan.variants import PRESETS, Variant
from milligan.web.schemas import (
    GamePublic,
    GameSummary,
    HintPublic,
    SolutionPublic,
    StatsPublic,
    VariantPublic,
    VariantStats,
)

#: How many moves of the hint's plan an answer shows.
PLAN_SHOWN = 12


def safe_moves(position: Position) -> list[str]:
    """The solver's safe foundation moves, or [] when the solver is not installed."""
    try:
        from milligan.solver import safe_auto_moves
    except ImportError:
        return []
    return [str(move) for move in safe_auto_moves(position)]


def daily_date(database: Database, row: GameRow) -> str | None:
    """The date of the daily deal that this game of its player is, or None.

    Only a numbered deal dealt by the server can be one: random and imported
    games are never looked up.
    """
    if row.random or row.imported or row.deal is None:
        return None
    return database.daily_day(row.id, row.player)


def game_public(live: Live, daily: str | None = None) -> GamePublic:
    """A saved game: the docs/RULES.md §8 position plus what the client needs to play it.

    ``daily`` is the date of the daily deal the game was started as (:func:`daily_date`).
    """
    game, row = live.game, live.row
    out = game_to_json(game, hide_deal=row.secret)
    position = game.position
    playing = out["status"] == "playing"
    return GamePublic(
        **out,
        id=row.id,
        title=game.variant.title,
        legal=[str(move) for move in game.legal_moves()] if playing else [],
        can_undo=game.can_undo(),
        can_redo=game.can_redo(),
        unsettled=[list(place) for place in position.unsettled()],
        hopeless=position.reprieve_hopeless(),
        safe=safe_moves(position) if playing else [],
        assisted=row.assisted,
        hints=row.hints,
        created=row.created,
        updated=row.updated,
        seconds=round(row.seconds, 3),
        last=str(game.moves[-1]) if game.moves else None,
        daily=daily,
    )


def game_summary(row: GameRow) -> GameSummary:
    """One line of the resume list, from a stored row (the game is not replayed)."""
    variant = Variant.from_key(row.variant)
    return GameSummary(
        id=row.id,
        variant=variant.to_json(),
        title=variant.title,
        deal=None if row.secret or row.deal is None else int(row.deal),
        moves=len(row.moves),
        status=row.status,
        updated=row.updated,
    )


def variant_list() -> list[VariantPublic]:
    """The named variants and their settings."""
    return [
        VariantPublic(
            id=name,
            title=variant.title,
            decks=variant.decks,
            columns=variant.columns,
            opening_rows=variant.opening_rows,
            face_down_rows=variant.face_down_rows,
            reprieve=variant.reprieve,
        )
        for name, variant in PRESETS.items()
    ]


def hint_public(found: Any) -> HintPublic:
    """A fair hint (:func:`milligan.solver.fair.game_hint`), with the first moves of its plan."""
    return HintPublic(
        move=str(found.move) if found.move is not None else None,
        win_chance=float(found.win_chance),
        win_estimate=float(found.win_estimate),
        samples=int(found.samples),
        plan=[str(move) for move in found.plan[:PLAN_SHOWN]],
        repeats=bool(found.repeats),
    )


def solution_public(solved: Any) -> SolutionPublic:
    """A solver's answer from the current position; a solution always marks the game assisted."""
    result = str(getattr(solved.result, "value", solved.result)).lower()
    verdict: Literal["won", "lost", "unknown"] = (
        "won" if result == "won" else "lost" if result == "lost" else "unknown"
    )
    return SolutionPublic(
        result=verdict,
        moves=[str(move) for move in solved.moves] if result == "won" else [],
        assisted=True,
    )


def stats_public(figures: Mapping[str, Mapping[str, Any]]) -> StatsPublic:
    """A player's statistics per variant key (:meth:`Database.statistics`)."""
    return StatsPublic(variants={key: VariantStats(**values) for key, values in figures.items()})
