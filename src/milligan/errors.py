"""The exceptions the engine raises, and the reasons a move is refused.

Every error is a :class:`MilliganError`.  Bad notation and moves against the
rules are also :class:`ValueError`\\ s, as in python-chess, so a caller that only
wants "was the input acceptable?" can catch ``ValueError``.

A refused move carries its reason as data: a stable ``code`` from
:data:`REASONS` and ``params`` (the cards and columns involved, as JSON
values).  The English words come from the same table through
:func:`describe`, so the command line, the terminal game and the browser's
English catalogue say the same thing (the list is documented in docs/API.md,
"Refusal reasons").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Every refusal reason: code -> English template.  A ``{name}`` is filled from
#: the params by :func:`describe`; the browser's catalogues translate the same
#: templates (static/js/reasons.js), keyed by these codes.
REASONS: dict[str, str] = {
    # §7.1: the notation names a column the game does not have
    "no_such_column": "there is no column {column} (this game has {columns})",
    # §4: moves take cards from a column
    "column_empty": "column {column} is empty",
    "too_few_cards": "column {column} holds only {size} card(s)",
    # §4.5
    "face_down_cards": "the top {count} cards of column {column} include face-down cards",
    # §4.1
    "not_a_run": "the top {count} cards of column {column} are not a run "
    "({upper} cannot lie on {lower})",
    "wrong_colour": "{card} cannot go on {target} (needs {needs})",
    "not_one_lower": "{card} cannot go on {target} (needs {needs})",
    # §4.2
    "empty_needs_king": "{card} cannot go into empty column {column} (only a King-led run can)",
    "king_needs_empty": "{card} cannot go on {target} (a King goes only into an empty column)",
    # §4.3
    "no_empty_foundation": "{card} cannot go to a foundation: no {suit} foundation is empty",
    "foundation_needs_below": "{card} cannot go to a foundation: "
    "no {suit} foundation has {below} on top",
    # §4.4
    "stock_empty": "the stock is empty",
    # §5.6
    "no_deal_in_reprieve": "no dealing while a reprieve is open "
    "(end it first with a King-led run or S)",
    # §5.3
    "strict_face_down": "in a strict reprieve, a free move takes face-up cards only",
    "strict_splits_run": "in a strict reprieve, a free move may not split a run "
    "({card} lies on {lower})",
    # §5.5
    "no_reprieve": "no reprieve is open",
    "reprieve_unsettled": "the reprieve cannot end while cards are out of place: {places}",
    # §6.1, §6.4: the game is over
    "game_won": "the game is over: it is won",
    "game_resigned": "the game is over: it was resigned",
    "already_won": "the game is already won",
    "already_resigned": "the game was already resigned",
    # §6.2: the server treats a dead end as the end of the game (D9)
    "game_lost": "the game is over: it is lost",
    "already_lost": "the game is already lost",
    "not_over": "a game can be exported once it is over",
    # §6.5
    "no_undo": "there is no move to undo",
    "no_redo": "there is no move to redo",
}

_SUIT_WORDS = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
_RANK_WORDS = {"A": "Ace", "T": "10", "J": "Jack", "Q": "Queen", "K": "King"}


def _needs(cards: list[str]) -> str:
    """The cards a card needs under it, in words: ``a red 10`` (they share rank and colour)."""
    rank, suit = cards[0][0], cards[0][1]
    colour = "red" if suit in "DH" else "black"
    return f"a {colour} {_RANK_WORDS.get(rank, rank)}"


def _places(places: list[list[Any]]) -> str:
    """Cards named by place: ``5H in column 3, 9C in column 5``."""
    return ", ".join(f"{card} in column {column}" for card, column in places)


def describe(code: str, params: Mapping[str, Any]) -> str:
    """The English words for a refusal ``code`` with its ``params``.

    Cards are shown in notation (``5H``); ``suit`` is a suit letter, ``needs``
    the cards that would do, ``places`` a list of ``[card, column]``.  Raises
    ``KeyError`` for a code not in :data:`REASONS`.
    """
    values: dict[str, str] = {}
    for name, value in params.items():
        if name == "suit":
            values[name] = _SUIT_WORDS[value]
        elif name == "needs":
            values[name] = _needs(value)
        elif name == "places":
            values[name] = _places(value)
        else:
            values[name] = str(value)
    return REASONS[code].format_map(values)


class MilliganError(Exception):
    """The root of every error the package raises on purpose."""


class InvalidMoveError(MilliganError, ValueError):
    """A move's text could not be read (malformed notation)."""


class IllegalMoveError(MilliganError, ValueError):
    """A well-formed move that the rules do not allow in this position.

    ``move`` is the move's text, ``reason`` says why in English, ``code`` and
    ``params`` say it as data (see :data:`REASONS`; ``code`` is None only for
    a refusal made outside the engine with words alone), and ``cards`` lists
    the cards that are out of place when a reprieve cannot close, as
    ``(column, index)`` pairs (column from 1, index from 0 at the bottom).
    Build one from a code with :meth:`refuse`.
    """

    def __init__(
        self,
        move: str,
        reason: str,
        cards: tuple[tuple[int, int], ...] = (),
        index: int | None = None,
        *,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        self.move = move
        self.reason = reason
        self.cards = cards
        self.index = index
        self.code = code
        self.params: dict[str, Any] = dict(params or {})
        where = f"move {index + 1} ({move})" if index is not None else move  # from 1 for people
        super().__init__(f"{where} is illegal: {reason}")

    @classmethod
    def refuse(
        cls, move: str, code: str, cards: tuple[tuple[int, int], ...] = (), **params: Any
    ) -> IllegalMoveError:
        """The refusal of ``move`` for the reason ``code``, worded by :func:`describe`."""
        return cls(move, describe(code, params), cards, code=code, params=params)

    def at(self, index: int) -> IllegalMoveError:
        """The same error, naming the move's place (0-based) in a record.

        The message counts from 1, as people do: ``move 1 (D) is illegal: ...``.
        """
        return IllegalMoveError(
            self.move, self.reason, self.cards, index, code=self.code, params=self.params
        )


class InvalidVariantError(MilliganError, ValueError):
    """An unknown variant name or an impossible combination of settings."""


class InvalidDealError(MilliganError, ValueError):
    """A deal number out of range, or a dealing order that is not a full deck."""


class InvalidRecordError(MilliganError, ValueError):
    """A game record that is not well-formed ``milligan-record/1`` JSON."""
