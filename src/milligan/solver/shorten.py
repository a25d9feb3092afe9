"""Make a found win shorter and easier to follow, then prove it still wins."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from milligan.errors import IllegalMoveError
from milligan.moves import Move, MoveKind
from milligan.position import Position

#: Inside a reprieve, how many of the line's next moves are tried as shortcuts.
LOOKAHEAD = 60


class ReplayError(AssertionError):
    """A solution that the engine does not accept as a win: a solver bug."""


def replay(start: Position, moves: Sequence[Move]) -> list[Position]:
    """Every position along ``moves`` (start first); raises :class:`ReplayError`."""
    positions = [start]
    position = start
    for index, move in enumerate(moves):
        try:
            position = position.apply(move)
        except IllegalMoveError as error:
            raise ReplayError(f"solver bug: move {index} ({move}) is illegal: {error}") from None
        positions.append(position)
    return positions


def check_win(start: Position, moves: Sequence[Move]) -> None:
    """Raise :class:`ReplayError` unless ``moves`` from ``start`` end in a win."""
    if not replay(start, moves)[-1].is_won():
        raise ReplayError("solver bug: the solution does not end in a win")


def shorten(start: Position, moves: Sequence[Move]) -> tuple[Move, ...]:
    """A shorter winning line: cycles cut, undone moves dropped, run moves merged.

    Each pass keeps the line legal and winning (checked by the engine).
    """
    line = simplify(start, moves)
    check_win(start, line)
    return line


def simplify(start: Position, moves: Sequence[Move]) -> tuple[Move, ...]:
    """The same line with cycles cut, detours shortcut and run moves merged.

    It ends in the same position and passes only through positions the
    original line passed through.
    """
    # one shortcut pass does nearly all the work; a second costs seconds and
    # rarely saves a move, since the line it walks is dense with free moves
    return _merge_runs(start, _shortcuts(start, tuple(moves)))


def _shortcuts(start: Position, moves: tuple[Move, ...]) -> tuple[Move, ...]:
    """Cut cycles and take one-move shortcuts to later positions of the line.

    From each position the line jumps to its last occurrence (a cycle cut),
    then takes the legal move that reaches the latest position of the line
    (which drops every move in between, undone moves included).  Inside a
    reprieve only cycles are cut.
    """
    positions = replay(start, moves)
    last = {position: index for index, position in enumerate(positions)}
    out: list[Move] = []
    i = 0
    while i < len(moves):
        j = last[positions[i]]
        if j > i:
            i = j
            continue
        here = positions[i]
        best, target = moves[i], i + 1
        # inside a reprieve, trying every free move costs too much: try the
        # moves the line itself makes soon after
        if here.reprieve is None:
            candidates: Iterable[Move] = here.legal_moves()
        else:
            candidates = dict.fromkeys(moves[i + 1 : i + 1 + LOOKAHEAD])
        for move in candidates:
            try:
                after = here.apply(move)
            except IllegalMoveError:
                continue
            reached = last.get(after)
            if reached is not None and reached > target:
                best, target = move, reached
        out.append(best)
        i = target
    return tuple(out)


def _merge_runs(start: Position, moves: tuple[Move, ...]) -> tuple[Move, ...]:
    """Replace ``a:k>b, b:k>c`` (the same cards moving on) by ``a:k>c`` when legal.

    Also drops a move whose cards are moved straight back (``a:k>b, b:k>a``)
    when that restores the position, which cycle cutting already catches.
    """
    out: list[Move] = []
    positions = [start]
    for move in moves:
        after = positions[-1].apply(move)
        if out and move.kind is MoveKind.COLUMN and out[-1].kind is MoveKind.COLUMN:
            previous = out[-1]
            if (
                previous.target == move.source
                and previous.count == move.count
                and previous.source != move.target
            ):
                before = positions[-2]
                merged = Move.column(previous.source, move.target, move.count)
                try:
                    direct = before.apply(merged)
                except IllegalMoveError:
                    direct = None
                if direct == after:
                    out[-1] = merged
                    positions[-1] = after
                    continue
        out.append(move)
        positions.append(after)
    return tuple(out)
