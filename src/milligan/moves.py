"""Moves and their notation (docs/RULES.md §7).

>>> Move.parse("3:2>5")
Move.parse('3:2>5')
>>> str(Move.parse(" 3 : 1 > 5 "))
'3>5'
>>> str(Move.parse("4>f")), str(Move.parse("d")), str(Move.parse("s"))
('4>F', 'D', 'S')
>>> Move.parse("ſ")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
milligan.errors.InvalidMoveError: 'ſ' is not a move: 'ſ' (U+017F) is not ASCII ...
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from milligan.cards import describe_char, quoted
from milligan.errors import InvalidMoveError


class MoveKind(Enum):
    """What a move does."""

    COLUMN = "column"  # cards from one column onto another (build, free move, King-led run)
    FOUNDATION = "foundation"  # a column's top card to a foundation
    DEAL = "deal"  # one row from the stock
    STOP = "stop"  # stop the open reprieve, leaving its column empty


_KIND_NUMBER = {kind: number for number, kind in enumerate(MoveKind)}


@dataclass(frozen=True, slots=True)
class Move:
    """One move.  Columns are numbered from 1, as in the notation."""

    kind: MoveKind
    source: int = 0
    count: int = 0
    target: int = 0
    #: The move's hash (stored: a solver's lines of tens of thousands of
    #: moves are hashed move by move, and an enum's hash is a Python call).
    key: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kind = _KIND_NUMBER.get(self.kind) if isinstance(self.kind, MoveKind) else None
        if kind is None:
            raise InvalidMoveError(f"not a kind of move: {self.kind!r}")
        if self.kind is MoveKind.COLUMN:
            if self.source < 1 or self.target < 1 or self.count < 1 or self.source == self.target:
                raise InvalidMoveError(
                    f"not a column move: {self.source}:{self.count}>{self.target}"
                )
        elif self.kind is MoveKind.FOUNDATION:
            if self.source < 1 or self.count != 1 or self.target != 0:
                raise InvalidMoveError(f"not a foundation move: {self.source}>F")
        elif (self.source, self.count, self.target) != (0, 0, 0):
            raise InvalidMoveError(f"{self.kind.value} takes no columns")
        object.__setattr__(self, "key", hash((kind, self.source, self.count, self.target)))

    @classmethod
    def column(cls, source: int, target: int, count: int = 1) -> Move:
        """``count`` cards from the top of column ``source`` onto column ``target``."""
        return cls(MoveKind.COLUMN, source, count, target)

    @classmethod
    def foundation(cls, source: int) -> Move:
        """The top card of column ``source`` to a foundation."""
        return cls(MoveKind.FOUNDATION, source, 1, 0)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move; raises :class:`InvalidMoveError` on malformed text."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is text, not {quoted(text)}")
        # ASCII only, as docs/RULES.md §7 writes moves: str.upper() and the regex
        # would otherwise read look-alikes ('ſ' as S, '５' or '٥' as 5).
        for char in text:
            if not char.isascii():
                raise InvalidMoveError(
                    f"{quoted(text)} is not a move: {describe_char(char)} is not ASCII "
                    f"(moves are written e.g. 3>F, 3:2>5, D or S)"
                )
        clean = _SPACE.sub("", text).upper()
        if clean == "D":
            return DEAL
        if clean == "S":
            return STOP
        match = _PATTERN.fullmatch(clean)
        if match is None:
            raise InvalidMoveError(
                f"{quoted(text.strip())} is not a move (expected e.g. 3>F, 3>5, 3:2>5, D or S)"
            )
        source = int(match["source"])
        count = int(match["count"]) if match["count"] else 1
        if source < 1:
            raise InvalidMoveError(f"{text.strip()!r}: columns are numbered from 1")
        if match["target"] == "F":
            if count != 1:
                raise InvalidMoveError(f"{text.strip()!r}: only one card goes to a foundation")
            return cls.foundation(source)
        target = int(match["target"])
        if target < 1:
            raise InvalidMoveError(f"{text.strip()!r}: columns are numbered from 1")
        if count < 1:
            raise InvalidMoveError(f"{text.strip()!r}: a move takes at least one card")
        if source == target:
            raise InvalidMoveError(f"{text.strip()!r}: a column cannot move onto itself")
        return cls.column(source, target, count)

    def __hash__(self) -> int:
        return self.key

    def __str__(self) -> str:
        if self.kind is MoveKind.COLUMN:
            if self.count == 1:
                return f"{self.source}>{self.target}"
            return f"{self.source}:{self.count}>{self.target}"
        if self.kind is MoveKind.FOUNDATION:
            return f"{self.source}>F"
        return "D" if self.kind is MoveKind.DEAL else "S"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


_PATTERN = re.compile(r"(?P<source>[0-9]{1,3})(?::(?P<count>[0-9]{1,3}))?>(?P<target>[0-9]{1,3}|F)")
_SPACE = re.compile(r"\s+", re.ASCII)


DEAL = Move(MoveKind.DEAL)
STOP = Move(MoveKind.STOP)
