"""The naive greedy player, a baseline: foundation moves first, then builds, then deal.

It never looks ahead and never makes a free move: inside a reprieve it stops
(``S``) as soon as it may.  A build is skipped when it leads back to a
position the game has already been through, so the player cannot go round
in circles.

>>> from milligan.game import Game
>>> game = Game.new("classic", 42)
>>> greedy_move(game.position, set())
Move.parse('5>F')
>>> play_greedy(game) in ("won", "lost", "resigned")
True
"""

from __future__ import annotations

from collections.abc import Set

from milligan.game import Game
from milligan.moves import Move, MoveKind
from milligan.position import Position


def greedy_move(position: Position, seen: Set[Position]) -> Move | None:
    """The greedy player's move, or None when it has nothing left to try.

    In order: a foundation move; ``S`` when a reprieve may stop; a build
    (a run onto a card one rank higher and of the other colour, or a
    King-led run into an empty column) that reaches a new position and moves
    a run that does not already lie on such a card; a deal.
    """
    legal = position.legal_moves()
    by_kind = {kind: [m for m in legal if m.kind is kind] for kind in MoveKind}
    if by_kind[MoveKind.FOUNDATION]:
        return by_kind[MoveKind.FOUNDATION][0]
    if by_kind[MoveKind.STOP]:
        return by_kind[MoveKind.STOP][0]
    for move in by_kind[MoveKind.COLUMN]:
        if _is_build(position, move) and position.apply(move) not in seen:
            return move
    if by_kind[MoveKind.DEAL]:
        return by_kind[MoveKind.DEAL][0]
    return None


def _is_build(position: Position, move: Move) -> bool:
    source = position.columns[move.source - 1]
    target = position.columns[move.target - 1]
    base = source[len(source) - move.count]
    if move.count > position.run_length(move.source):
        return False
    under = len(source) - move.count - 1
    if under >= position.face_down[move.source - 1] and base.can_go_on(source[under]):
        return False  # it already lies on a parent: moving it gains nothing
    if not target:
        return base.is_king and move.count < len(source)
    return base.can_go_on(target[-1])


def play_greedy(game: Game, max_moves: int = 5000) -> str:
    """Play ``game`` to its end greedily: ``won``, ``lost`` (a dead end) or ``resigned``.

    The game is resigned when the player has no move left to try (every
    build would repeat a position and no deal is allowed) or after
    ``max_moves`` moves.
    """
    seen = set(game.positions)
    while game.status == "playing" and len(game.moves) < max_moves:
        move = greedy_move(game.position, seen)
        if move is None:
            break
        game.play(move)
        seen.add(game.position)
    if game.status == "playing":
        game.resign()
    return game.status
