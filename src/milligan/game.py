"""A game: a deal plus its line of play, with unlimited undo and redo.

>>> game = Game.new("classic", 42)
>>> game.play("5>F")
Move.parse('5>F')
>>> game.position.reprieve
5
>>> game.undo()
Move.parse('5>F')
>>> game.redo()
Move.parse('5>F')
>>> game.moves
(Move.parse('5>F'),)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from milligan.cards import Card
from milligan.deal import check_deal_number, check_order, deal_order
from milligan.errors import IllegalMoveError, InvalidDealError
from milligan.moves import Move
from milligan.position import DEAD_END_LIMIT, LegalMoves, Position
from milligan.variants import Variant

Status = Literal["playing", "won", "lost", "resigned"]
STATUSES: tuple[Status, ...] = ("playing", "won", "lost", "resigned")


class Game:
    """The deal, the moves played from it, and the moves that can be redone.

    ``deal`` is the deal number (None for an explicit order); ``order`` is
    the full dealing order either way.

    ``revision`` rises by one with every change (move, undo, redo, restart,
    resign) and never goes down.
    """

    def __init__(
        self,
        variant: Variant | str,
        *,
        deal: int | None = None,
        order: Iterable[Card] | None = None,
    ) -> None:
        self.variant = Variant.named(variant) if isinstance(variant, str) else variant
        if (deal is None) == (order is None):
            raise InvalidDealError("a game comes from a deal number or an explicit order, not both")
        if deal is not None:
            self.deal: int | None = check_deal_number(deal)
            self.order: tuple[Card, ...] = deal_order(self.variant, deal)
        else:
            assert order is not None
            self.deal = None
            self.order = check_order(self.variant, order)
        self.start = Position.from_order(self.variant, self.order)
        self._positions: list[Position] = [self.start]
        self._moves: list[Move] = []
        self._redo: list[Move] = []
        self.revision = 0
        self.resigned = False
        self._dead_end: tuple[Position, bool | None] | None = None

    @classmethod
    def new(cls, variant: Variant | str, number: int) -> Game:
        """A game of deal ``number``."""
        return cls(variant, deal=number)

    @classmethod
    def from_order(cls, variant: Variant | str, order: Iterable[Card]) -> Game:
        """A game with an explicit dealing order."""
        return cls(variant, order=order)

    # -- state ------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The current position."""
        return self._positions[-1]

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves of the current line of play, from the deal."""
        return tuple(self._moves)

    @property
    def positions(self) -> tuple[Position, ...]:
        """Every position of the line of play, the deal first."""
        return tuple(self._positions)

    @property
    def redo_moves(self) -> tuple[Move, ...]:
        """The moves :meth:`redo` would replay, next first."""
        return tuple(reversed(self._redo))

    def legal_moves(self) -> LegalMoves:
        """The current position's legal moves (none once won or resigned)."""
        if self.resigned or self.position.is_won():
            return LegalMoves(())
        return self.position.legal_moves()

    def can_undo(self) -> bool:
        """Whether there is a move to take back."""
        return bool(self._moves) and not self.resigned

    def can_redo(self) -> bool:
        """Whether there is an undone move to replay."""
        return bool(self._redo) and not self.resigned

    @property
    def status(self) -> Status:
        """``playing``, ``won``, ``lost`` (a plain dead end, docs/RULES.md §6) or ``resigned``."""
        if self.resigned:
            return "resigned"
        position = self.position
        if position.is_won():
            return "won"
        if self.is_dead_end():
            return "lost"
        return "playing"

    def is_dead_end(self, limit: int = DEAD_END_LIMIT) -> bool:
        """Whether the current position is a plain dead end (cached per position)."""
        position = self.position
        if position.stock or position.reprieve is not None:
            return False
        if self._dead_end is None or self._dead_end[0] is not position:
            self._dead_end = (position, position.dead_end(limit))
        return self._dead_end[1] is True

    def is_over(self) -> bool:
        """Won, lost or resigned."""
        return self.status != "playing"

    # -- changes ----------------------------------------------------------

    def play(self, move: Move | str) -> Move:
        """Play a move (a :class:`Move` or its notation) and return it.

        Raises :class:`InvalidMoveError` for bad notation and
        :class:`IllegalMoveError` for a move the rules refuse; the game is
        unchanged then.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        if self.resigned:
            raise IllegalMoveError.refuse(str(move), "game_resigned")
        if self.position.is_won():
            # The winning move may open a reprieve (docs/RULES.md §6.1, D8); there is
            # nothing left to play.
            raise IllegalMoveError.refuse(str(move), "game_won")
        after = self.position.apply(move)
        self._positions.append(after)
        self._moves.append(move)
        if self._redo and self._redo[-1] == move:
            self._redo.pop()
        else:
            self._redo.clear()
        self.revision += 1
        return move

    def undo(self) -> Move:
        """Take back the last move and return it."""
        if not self.can_undo():
            raise IllegalMoveError.refuse("undo", "no_undo")
        move = self._moves.pop()
        self._positions.pop()
        self._redo.append(move)
        self.revision += 1
        return move

    def redo(self) -> Move:
        """Replay the last undone move and return it."""
        if not self.can_redo():
            raise IllegalMoveError.refuse("redo", "no_redo")
        move = self._redo.pop()
        self._positions.append(self.position.apply(move))
        self._moves.append(move)
        self.revision += 1
        return move

    def restart(self) -> None:
        """Go back to the deal; the whole line can then be redone move by move."""
        if self.resigned:
            raise IllegalMoveError.refuse("restart", "game_resigned")
        self._redo.extend(reversed(self._moves))
        self._moves.clear()
        del self._positions[1:]
        self.revision += 1

    def resign(self) -> None:
        """Give up.  The game is then over (a won game cannot be resigned)."""
        if self.resigned:
            raise IllegalMoveError.refuse("resign", "already_resigned")
        if self.position.is_won():
            raise IllegalMoveError.refuse("resign", "already_won")
        self.resigned = True
        self.revision += 1

    def __repr__(self) -> str:
        source = f"deal {self.deal}" if self.deal is not None else "explicit order"
        return f"<Game {self.variant} {source}, {len(self._moves)} moves, {self.status}>"
