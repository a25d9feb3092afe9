"""A plain depth-first search over engine positions: the reference solver.

Slow (tens of thousands of positions per second) but simple enough to trust:
it expands every legal move of :class:`~milligan.position.Position`, free
moves included, so a "lost" from it is exhaustive.  The compiled core is
checked against it in the tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from milligan.moves import Move, MoveKind
from milligan.position import Position
from milligan.solver.safe import safe_auto_moves

#: A rough size of one visited engine position, for the memory budget.
BYTES_PER_POSITION = 1500

Progress = Callable[[int, float], None]


class LimitReached(Exception):
    """A time, position or memory limit ran out."""


def search(
    start: Position,
    *,
    timeout: float | None = None,
    max_positions: int | None = None,
    max_memory_mb: int = 1024,
    progress: Progress | None = None,
    auto_moves: bool = True,
) -> tuple[str, tuple[Move, ...], int]:
    """Search from ``start``: (verdict, moves, expanded positions).

    With ``auto_moves`` a position that has a safe foundation move gets that
    move as its only child (sound, see docs/SOLVER.md); without it the
    search is the plain, unpruned one.
    """
    began = time.monotonic()
    deadline = None if timeout is None else began + timeout
    max_seen = max(1, max_memory_mb * 1024 * 1024 // BYTES_PER_POSITION)
    seen: set[Position] = {start}
    path: list[Move] = []
    stack: list[Iterator[tuple[Move, Position]]] = []
    expanded = 0

    def children(position: Position) -> Iterator[tuple[Move, Position]]:
        if auto_moves:
            safe = safe_auto_moves(position)
            if safe:
                yield safe[0], position.apply(safe[0])
                return
        for move in _ordered(position):
            yield move, position.apply(move)

    if start.is_won():
        return "won", (), 0
    stack.append(children(start))
    expanded = 1
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            if path:
                path.pop()
            continue
        move, after = step
        if after in seen:
            continue
        if after.is_won():
            path.append(move)
            return "won", tuple(path), expanded
        if max_positions is not None and expanded >= max_positions:
            return "unknown", (), expanded
        if len(seen) >= max_seen:
            return "unknown", (), expanded
        if expanded & 1023 == 0:
            elapsed = time.monotonic() - began
            if progress is not None:
                progress(expanded, elapsed)
            if deadline is not None and time.monotonic() > deadline:
                return "unknown", (), expanded
        seen.add(after)
        path.append(move)
        stack.append(children(after))
        expanded += 1
    return "lost", (), expanded


def _ordered(position: Position) -> list[Move]:
    """Legal moves, most promising first: foundation, builds, stop, free moves, deal."""
    founds: list[Move] = []
    builds: list[Move] = []
    stops: list[Move] = []
    frees: list[Move] = []
    deals: list[Move] = []
    columns = position.columns
    for move in position.legal_moves():
        kind = move.kind
        if kind is MoveKind.FOUNDATION:
            founds.append(move)
        elif kind is MoveKind.DEAL:
            deals.append(move)
        elif kind is MoveKind.STOP:
            stops.append(move)
        else:
            source = columns[move.source - 1]
            target = columns[move.target - 1]
            base = source[len(source) - move.count]
            is_build = (
                (not target and base.is_king) or (bool(target) and base.can_go_on(target[-1]))
            ) and move.count <= position.run_length(move.source)
            (builds if is_build else frees).append(move)
    return founds + builds + stops + frees + deals
