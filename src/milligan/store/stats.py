"""Statistics per variant, from a player's saved games.

- ``played``: finished games (won, lost or resigned); ``won``, ``win_percent``.
- ``current_streak`` / ``best_streak``: consecutive wins, in the order the
  games finished; a loss or a resignation ends a streak.
- ``best_time`` (seconds) and ``fewest_moves``: over won games that were not
  assisted (no solution shown), or None.
- ``hints`` and ``solutions``: how many were asked for, in every game.

Imported games are not counted: a record proves nothing about who played it.

The server does not call :func:`statistics` on every request: the database
keeps these figures per player and variant, changed with each game
(:meth:`milligan.store.database.Database.statistics`); :func:`statistics`
fills them when the table is created, and counts them again for a player
whose finished game goes back into play.

>>> statistics([])["classic"]["played"]
0
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from milligan.store.database import GameRow
from milligan.variants import PRESETS

#: The key for games of settings that are not a preset.
CUSTOM = "custom"


def stats_key(row: GameRow) -> str:
    """The statistics key of a game: its preset's id, or ``custom``."""
    return row.variant if row.variant in PRESETS else CUSTOM


def empty_figures() -> dict[str, Any]:
    """The figures of a variant with no games."""
    return {
        "played": 0,
        "won": 0,
        "win_percent": 0.0,
        "current_streak": 0,
        "best_streak": 0,
        "best_time": None,
        "fewest_moves": None,
        "hints": 0,
        "solutions": 0,
    }


def finish_figures(figures: dict[str, Any]) -> dict[str, Any]:
    """The figures as shown: ``win_percent`` worked out, ``best_time`` to a tenth."""
    out = empty_figures()
    out.update({key: value for key, value in figures.items() if key in out})
    out["win_percent"] = round(100 * out["won"] / out["played"], 1) if out["played"] else 0.0
    if out["best_time"] is not None:
        out["best_time"] = round(float(out["best_time"]), 1)
    return out


def statistics(rows: Iterable[GameRow], *, rounded: bool = True) -> dict[str, dict[str, Any]]:
    """Per variant key (every preset always present), the figures above.

    ``rounded=False`` leaves ``best_time`` as measured (what the database keeps).
    """
    out = {name: empty_figures() for name in PRESETS}
    finished: dict[str, list[GameRow]] = {}
    for row in rows:
        if row.imported:
            continue
        figures = out.setdefault(stats_key(row), empty_figures())
        figures["hints"] += row.hints
        figures["solutions"] += row.solutions
        if row.status == "playing":
            continue
        finished.setdefault(stats_key(row), []).append(row)
        figures["played"] += 1
        if row.status != "won":
            continue
        figures["won"] += 1
        if row.assisted:
            continue
        if figures["best_time"] is None or row.seconds < figures["best_time"]:
            figures["best_time"] = row.seconds
        if figures["fewest_moves"] is None or len(row.moves) < figures["fewest_moves"]:
            figures["fewest_moves"] = len(row.moves)
    for key, games in finished.items():
        figures = out[key]
        streak = 0
        for row in sorted(games, key=lambda row: (row.finished or row.updated, row.id)):
            streak = streak + 1 if row.status == "won" else 0
            figures["best_streak"] = max(figures["best_streak"], streak)
        figures["current_streak"] = streak
    if rounded:
        out = {key: finish_figures(figures) for key, figures in out.items()}
    return out
