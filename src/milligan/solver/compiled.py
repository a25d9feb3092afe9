"""The bridge between engine positions and the compiled core (``_core.pyx``)."""

from __future__ import annotations

import time
from collections.abc import Callable

from milligan.cards import Card
from milligan.moves import DEAL, STOP, Move
from milligan.position import Position

try:
    from milligan.solver import _core  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - only when the extension was not built
    _core = None

AVAILABLE = _core is not None

_RULES = {"none": 0, "free": 1, "strict": 2}
#: The card byte's "moved and not yet settled" bit (see _core.pyx).
FLAG = 64
#: The first pass allows this many free moves per reprieve ...
FIRST_PASS_FREE_MOVES = 3
#: ... and gets 1/FIRST_PASS_SHARE of the position and time budget.
FIRST_PASS_SHARE = 2


def card_code(card: Card) -> int:
    """The core's code of a card: ``suit * 13 + rank - 1``."""
    return int(card.suit) * 13 + int(card.rank) - 1


def encode(position: Position) -> dict[str, object]:
    """The core's constructor arguments for ``position``."""
    unsettled = set(position.unsettled())
    columns = [
        [card_code(card) | (FLAG if (c, i) in unsettled else 0) for i, card in enumerate(cards)]
        for c, cards in enumerate(position.columns, start=1)
    ]
    return {
        "decks": position.variant.decks,
        "ncols": position.variant.columns,
        "rule": _RULES[position.variant.reprieve],
        "columns": columns,
        "face_down": list(position.face_down),
        "foundations": [list(heights) for heights in position.foundations],
        "stock": [card_code(card) for card in position.stock],
        "reprieve": -1 if position.reprieve is None else position.reprieve - 1,
    }


def decode_move(kind: int, source: int, count: int, target: int) -> Move:
    """An engine move from the core's (kind, source, count, target), columns from 0."""
    if kind == 0:
        return Move.column(source + 1, target + 1, count)
    if kind == 1:
        return Move.foundation(source + 1)
    return DEAL if kind == 2 else STOP


def search(
    start: Position,
    *,
    timeout: float | None,
    max_positions: int | None,
    max_memory_mb: int,
    progress: Callable[[int, float], None] | None,
) -> tuple[str, tuple[Move, ...], int]:
    """Run the compiled DFS: (verdict, moves, expanded positions)."""
    assert _core is not None
    began = time.monotonic()
    deadline = -1.0 if timeout is None else began + timeout
    arguments = encode(start)
    table = max_memory_mb * 1024 * 1024
    spent = 0
    if arguments["rule"] != _RULES["none"]:
        # First pass: at most FIRST_PASS_FREE_MOVES free moves per reprieve,
        # with a share of the budget.  It can prove a win; it proves a loss
        # only if the cap never cut a move (core.incomplete is False).
        core = _core.Core(table_bytes=table, **arguments)
        core.max_free = FIRST_PASS_FREE_MOVES
        first_limit = -1 if max_positions is None else max(1, max_positions // FIRST_PASS_SHARE)
        first_deadline = (
            -1.0 if timeout is None else began + timeout / FIRST_PASS_SHARE
        )
        verdict, path = core.search(first_limit, first_deadline, progress, began)
        spent = int(core.positions)
        del core
        if verdict == "won" or verdict == "lost":
            return str(verdict), _moves(path), spent
        if max_positions is not None and spent >= max_positions:
            return "unknown", (), spent
    core = _core.Core(table_bytes=table, **arguments)
    limit = -1 if max_positions is None else max(1, max_positions - spent)
    report = progress
    if progress is not None and spent:
        done = spent

        def report(positions: int, seconds: float) -> None:
            progress(done + positions, seconds)

    verdict, path = core.search(limit, deadline, report, began)
    return str(verdict), _moves(path), spent + int(core.positions)


def _moves(path: list[tuple[int, int, int, int]] | None) -> tuple[Move, ...]:
    return tuple(decode_move(*step) for step in path) if path is not None else ()


def table_bytes(max_memory_mb: int) -> int:
    """The bytes the core's position table takes for a budget (a power of two <= it)."""
    assert _core is not None
    return int(_core.table_size(max_memory_mb * 1024 * 1024))
