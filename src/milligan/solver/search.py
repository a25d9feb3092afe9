"""``solve``: the front door of the solver."""

from __future__ import annotations

import time
from collections.abc import Callable

from milligan.game import Game
from milligan.position import Position
from milligan.record import Record
from milligan.solver import compiled, plain
from milligan.solver.results import SolveResult
from milligan.solver.shorten import check_win, shorten


def start_position(start: Game | Record | Position) -> Position:
    """The position a solve starts from: a record is replayed first."""
    if isinstance(start, Record):
        return start.replay().position
    if isinstance(start, Game):
        return start.position
    return start


def solve(
    start: Game | Record | Position,
    *,
    timeout: float | None = None,
    max_positions: int | None = None,
    max_memory_mb: int = 1024,
    progress: Callable[[int, float], None] | None = None,
) -> SolveResult:
    """Solve with complete knowledge (stock order and face-down cards).

    Returns ``won`` with a replay-checked, shortened move list from
    ``start``; ``lost`` only after an exhaustive search; ``unknown`` when
    ``timeout`` (seconds), ``max_positions`` (expanded positions) or
    ``max_memory_mb`` (the position table) ran out.
    """
    return run(
        start_position(start),
        timeout=timeout,
        max_positions=max_positions,
        max_memory_mb=max_memory_mb,
        progress=progress,
    )


def run(
    position: Position,
    *,
    timeout: float | None = None,
    max_positions: int | None = None,
    max_memory_mb: int = 1024,
    progress: Callable[[int, float], None] | None = None,
    shorten_win: bool = True,
) -> SolveResult:
    """:func:`solve` from a position; ``shorten_win=False`` skips the shortening."""
    began = time.monotonic()
    engine = compiled.search if compiled.AVAILABLE else plain.search
    verdict, moves, positions = engine(
        position,
        timeout=timeout,
        max_positions=max_positions,
        max_memory_mb=max_memory_mb,
        progress=progress,
    )
    if verdict == "won":
        if shorten_win:
            moves = shorten(position, moves)
        check_win(position, moves)
    seconds = time.monotonic() - began
    if verdict == "won":
        return SolveResult("won", moves, positions, seconds)
    if verdict == "lost":
        return SolveResult("lost", (), positions, seconds)
    return SolveResult("unknown", (), positions, seconds)
