"""Statistics per variant, from a player's saved games.

- ``played``: finished games (won, lost or resigned); ``won``, ``win_percent``.
- ``current_streak`` / ``best_streak``: consecutive wins, in the order the
  games finished; a loss or a resignation ends a streak.
- ``best_time`` (seconds) and ``fewest_moves``: over won games that were not
  assisted (no solution shown), or None.
- ``hints`` and ``solutions``: how many were asked for, in every game.

Imported games are not counted: a record proves nothing about who played it.

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


def variant_key(row: GameRow) -> str:
    """The statistics key of a game: its preset's id, or ``custom``."""
    return row.variant if row.variant in PRESETS else CUSTOM


def _empty() -> dict[str, Any]:
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


def statistics(rows: Iterable[GameRow]) -> dict[str, dict[str, Any]]:
    """Per variant key (every preset always present), the figures above."""
    out = {name: _empty() for name in PRESETS}
    finished: dict[str, list[GameRow]] = {}
    for row in rows:
        if row.imported:
            continue
        figures = out.setdefault(variant_key(row), _empty())
        figures["hints"] += row.hints
        figures["solutions"] += row.solutions
        if row.status == "playing":
            continue
        finished.setdefault(variant_key(row), []).append(row)
        figures["played"] += 1
        if row.status != "won":
            continue
        figures["won"] += 1
        if row.assisted:
            continue
        if figures["best_time"] is None or row.seconds < figures["best_time"]:
            figures["best_time"] = round(row.seconds, 1)
        if figures["fewest_moves"] is None or len(row.moves) < figures["fewest_moves"]:
            figures["fewest_moves"] = len(row.moves)
    for key, games in finished.items():
        figures = out[key]
        figures["win_percent"] = round(100 * figures["won"] / figures["played"], 1)
        streak = 0
        for row in sorted(games, key=lambda row: (row.finished or row.updated, row.id)):
            streak = streak + 1 if row.status == "won" else 0
            figures["best_streak"] = max(figures["best_streak"], streak)
        figures["current_streak"] = streak
    return out
