"""The exceptions the engine raises.

Every error is a :class:`MilliganError`.  Bad notation and moves against the
rules are also :class:`ValueError`\\ s, as in python-chess, so a caller that only
wants "was the input acceptable?" can catch ``ValueError``.
"""

from __future__ import annotations


class MilliganError(Exception):
    """The root of every error the package raises on purpose."""


class InvalidMoveError(MilliganError, ValueError):
    """A move's text could not be read (malformed notation)."""


class IllegalMoveError(MilliganError, ValueError):
    """A well-formed move that the rules do not allow in this position.

    ``move`` is the move's text, ``reason`` says why, and ``cards`` lists the
    cards that are out of place when a reprieve cannot close, as
    ``(column, index)`` pairs (column from 1, index from 0 at the bottom).
    """

    def __init__(
        self,
        move: str,
        reason: str,
        cards: tuple[tuple[int, int], ...] = (),
        index: int | None = None,
    ) -> None:
        self.move = move
        self.reason = reason
        self.cards = cards
        self.index = index
        where = f"move {index + 1} ({move})" if index is not None else move  # from 1 for people
        super().__init__(f"{where} is illegal: {reason}")

    def at(self, index: int) -> IllegalMoveError:
        """The same error, naming the move's place (0-based) in a record.

        The message counts from 1, as people do: ``move 1 (D) is illegal: ...``.
        """
        return IllegalMoveError(self.move, self.reason, self.cards, index)


class InvalidVariantError(MilliganError, ValueError):
    """An unknown variant name or an impossible combination of settings."""


class InvalidDealError(MilliganError, ValueError):
    """A deal number out of range, or a dealing order that is not a full deck."""


class InvalidRecordError(MilliganError, ValueError):
    """A game record that is not well-formed ``milligan-record/1`` JSON."""
