"""Game records (``milligan-record/1``) and the JSON position (docs/RULES.md §7–§8).

>>> record = Record.from_json(
...     '{"format": "milligan-record/1", "variant": "classic", "deal": 42,'
...     ' "moves": ["5>F", "S", "D"]}')
>>> game = record.replay()
>>> game.position.stock.__len__()
88
>>> record.to_json()
'{"format": "milligan-record/1", "variant": "classic", "deal": 42, "moves": ["5>F", "S", "D"]}'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from milligan.cards import SUIT_CHARS, Card, quoted
from milligan.errors import IllegalMoveError, InvalidMoveError, InvalidRecordError, MilliganError
from milligan.game import STATUSES, Game, Status
from milligan.moves import Move
from milligan.position import Position
from milligan.variants import Variant

FORMAT = "milligan-record/1"
#: The longest record accepted, in bytes: far above any real game.
MAX_RECORD_BYTES = 1 << 20
RESULTS = ("won", "lost", "resigned", "unknown")
HIDDEN = "??"


@dataclass(frozen=True, slots=True)
class Record:
    """A saved game: the variant, the deal (number or order) and the moves from it."""

    variant: Variant
    deal: int | None
    order: tuple[Card, ...] | None
    moves: tuple[Move, ...]
    result: str | None = None

    @classmethod
    def of(cls, game: Game, result: str | None = None) -> Record:
        """The record of a game's current line of play (result from its status)."""
        if result is None and game.status != "playing":
            result = game.status
        order = game.order if game.deal is None else None
        return cls(game.variant, game.deal, order, game.moves, result)

    # -- JSON ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-ready dict."""
        out: dict[str, Any] = {"format": FORMAT, "variant": self.variant.to_json()}
        if self.order is not None:
            out["order"] = [str(card) for card in self.order]
        else:
            out["deal"] = self.deal
        out["moves"] = [str(move) for move in self.moves]
        if self.result is not None:
            out["result"] = self.result
        return out

    def to_json(self, indent: int | None = None) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """Read a record from JSON text; :class:`InvalidRecordError` if malformed.

        A record is at most :data:`MAX_RECORD_BYTES` long.
        """
        size = len(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
        if size > MAX_RECORD_BYTES:
            raise InvalidRecordError(
                f"a record is at most {MAX_RECORD_BYTES >> 20} MiB; this one is larger"
            )
        try:
            data = decode_json(text)
        except ValueError as error:
            raise InvalidRecordError(f"a record must be JSON: {error}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: object) -> Record:
        """Read a record from decoded JSON; :class:`InvalidRecordError` if malformed."""
        if not isinstance(data, Mapping):
            raise InvalidRecordError("a record must be a JSON object")
        if data.get("format") != FORMAT:
            raise InvalidRecordError(f'a record must say "format": "{FORMAT}"')
        if "variant" not in data:
            raise InvalidRecordError("the record has no variant")
        try:
            variant = Variant.from_json(data["variant"])
        except MilliganError as error:
            raise InvalidRecordError(f"bad variant in record: {error}") from None
        has_deal = data.get("deal") is not None
        has_order = data.get("order") is not None
        if has_deal == has_order:
            raise InvalidRecordError('a record needs either "deal" or "order"')
        deal: int | None = None
        order: tuple[Card, ...] | None = None
        if has_deal:
            deal = data["deal"]
            if not isinstance(deal, int) or isinstance(deal, bool) or not 0 <= deal < 2**64:
                raise InvalidRecordError(
                    f"the deal must be a number from 0 to 2**64-1, not {deal!r}"
                )
        else:
            raw_order = data["order"]
            if not isinstance(raw_order, list) or not all(isinstance(c, str) for c in raw_order):
                raise InvalidRecordError('the order must be a list of cards such as "AS"')
            try:
                order = tuple(Card.parse(card) for card in raw_order)
            except InvalidMoveError as error:
                raise InvalidRecordError(f"bad card in order: {error}") from None
        raw_moves = data.get("moves", [])
        if not isinstance(raw_moves, list):
            raise InvalidRecordError("the moves must be a list of move texts")
        moves = []
        for index, text in enumerate(raw_moves):
            if not isinstance(text, str):
                raise InvalidRecordError(f"move {index + 1} is not text: {quoted(text)}")
            try:
                moves.append(Move.parse(text))
            except InvalidMoveError as error:
                raise InvalidRecordError(f"move {index + 1}: {error}") from None
        result = data.get("result")
        if result is not None and result not in RESULTS:
            raise InvalidRecordError(f"unknown result {result!r} (known: {', '.join(RESULTS)})")
        return cls(variant, deal, order, tuple(moves), result)

    # -- replay ---------------------------------------------------------------

    def new_game(self) -> Game:
        """The game at the deal, before any move."""
        try:
            return Game(self.variant, deal=self.deal, order=self.order)
        except MilliganError as error:
            raise InvalidRecordError(str(error)) from None

    def replay(self) -> Game:
        """The game after every move of the record.

        Raises :class:`IllegalMoveError` naming the first illegal move (its
        ``index`` from 0, its message counting from 1), and
        :class:`InvalidRecordError` when the record says it was won but its
        moves do not win.
        """
        game = self.new_game()
        for index, move in enumerate(self.moves):
            try:
                game.play(move)
            except IllegalMoveError as error:
                raise error.at(index) from None
        if self.result == "resigned" and game.status == "playing":
            game.resign()
        if self.result == "won" and game.status != "won":
            raise InvalidRecordError("the record says won, but its moves do not win")
        return game


def decode_json(text: str | bytes) -> Any:
    """Decode JSON text, or raise :class:`ValueError` with a one-line reason.

    Unlike :func:`json.loads`, every way to fail is a ``ValueError``:
    nesting too deep for the decoder, or a number too long to read.

    >>> decode_json("[" * 100_000 + "]" * 100_000)
    Traceback (most recent call last):
    ...
    ValueError: it is nested too deeply
    """
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("it is nested too deeply") from None
    except json.JSONDecodeError as error:
        raise ValueError(str(error)) from None
    except UnicodeDecodeError as error:
        raise ValueError(f"it is not UTF-8 text ({error.reason} at byte {error.start})") from None
    except ValueError:
        # Python refuses to read integers of more than a few thousand digits.
        raise ValueError("it holds a number too long to read") from None


# -- the JSON position (§8) ---------------------------------------------------------


def position_to_json(
    position: Position,
    *,
    deal: int | None = None,
    status: Status = "playing",
    moves: int = 0,
    revision: int = 0,
) -> dict[str, Any]:
    """A position in the §8 shape.  Face-down cards are ``"??"``; the stock is a count."""
    if status not in STATUSES:
        raise ValueError(f"unknown status {status!r}")
    columns = [
        [HIDDEN if i < down else str(card) for i, card in enumerate(cards)]
        for cards, down in zip(position.columns, position.face_down, strict=True)
    ]
    return {
        "variant": position.variant.to_json(),
        "deal": deal,
        "columns": columns,
        "foundations": {
            SUIT_CHARS[suit]: list(heights) for suit, heights in enumerate(position.foundations)
        },
        "stock": len(position.stock),
        "reprieve": position.reprieve,
        "moved": [list(place) for place in sorted(position.moved)],
        "status": status,
        "moves": moves,
        "revision": revision,
    }


def game_to_json(game: Game, *, hide_deal: bool = False) -> dict[str, Any]:
    """The game's current position in the §8 shape (``deal`` null if hidden or explicit)."""
    return position_to_json(
        game.position,
        deal=None if hide_deal else game.deal,
        status=game.status,
        moves=len(game.moves),
        revision=game.revision,
    )
