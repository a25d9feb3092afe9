"""Actions and observations as numbers: the layout the Gymnasium and OpenSpiel games share.

Actions: one fixed set per variant, every move the notation (docs/RULES.md §7) can
write in it, numbered as follows (``C`` columns, ``K`` = deck size − 1, the
longest group a column move can carry, since its target keeps a card):

- ``0 … C·K·(C−1) − 1``: the column moves ``s:k>t``, at
  ``((s − 1)·K + k − 1)·(C − 1) + u``, where ``u`` is the target's rank among
  the other columns (``t − 1`` when ``t < s``, else ``t − 2``);
- then ``C`` foundation moves ``1>F … C>F``;
- then ``D``, then ``S``.

``classic`` has 8·103·7 + 8 + 2 = 5,778 actions; ``one-deck`` 4·51·3 + 6 = 618.

>>> actions = Actions.of("classic")
>>> actions.size
5778
>>> actions.index(Move.parse("3:2>5")), str(actions.move(actions.index(Move.parse("3:2>5"))))
(1452, '3:2>5')
>>> str(actions.move(actions.size - 2)), str(actions.move(actions.size - 1))
('D', 'S')

Observations: what a player sees (:meth:`Position.observe`), as small
integer arrays keyed by name, in this (alphabetical) order:

- ``columns`` (C × H, H = deck size): card codes bottom first; 0 for no card,
  1 for a face-down card, ``2 + 13·suit + rank − 1`` for a face-up card
  (suits ``C D H S`` = 0–3, ranks 1–13), so 2–53;
- ``face_down`` (C): face-down cards per column (its bound is at least 1);
- ``foundations`` (4 × decks): per suit ``C D H S``, the heights ascending;
- ``moved`` (C × H): 1 where a card moved during the open reprieve lies;
- ``reprieve`` (1): the reprieve column's number, 0 when none is open;
- ``stock_rows`` (1): rows left in the stock.

Flattened in that order (what :func:`gymnasium.spaces.flatten` gives) it is
also the OpenSpiel observation tensor.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from milligan.cards import CARDS, Card
from milligan.moves import DEAL, STOP, Move, MoveKind
from milligan.position import Observation
from milligan.variants import Variant

#: Code of a place with no card, and of a face-down card, in ``columns``.
NO_CARD = 0
FACE_DOWN = 1
#: Codes of the face-up cards: ``CODES[card]``, 2 to 53.
CODES: dict[Card, int] = {
    card: 2 + 13 * suit + rank
    for suit, cards in enumerate(CARDS)
    for rank, card in enumerate(cards)
}
#: The observation's arrays, in flattening order.
KEYS = ("columns", "face_down", "foundations", "moved", "reprieve", "stock_rows")


def as_variant(variant: Variant | str | Mapping[str, Any]) -> Variant:
    """A variant from a preset name, a settings dict (docs/RULES.md §2) or a Variant."""
    if isinstance(variant, Variant):
        return variant
    return Variant.from_json(variant)


class Actions:
    """The fixed action set of one variant: moves to indices and back."""

    __slots__ = ("_index", "moves", "variant")

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        n = variant.columns
        moves: list[Move] = []
        for source in range(1, n + 1):
            for count in range(1, self.max_count + 1):
                moves.extend(
                    Move.column(source, target, count)
                    for target in range(1, n + 1)
                    if target != source
                )
        moves.extend(Move.foundation(source) for source in range(1, n + 1))
        moves += [DEAL, STOP]
        #: Every action's move, by index.
        self.moves: tuple[Move, ...] = tuple(moves)
        self._index = {move: i for i, move in enumerate(moves)}

    @staticmethod
    @functools.cache
    def of(variant: Variant | str) -> Actions:
        """The action set of a variant (cached)."""
        return Actions(as_variant(variant))

    @property
    def max_count(self) -> int:
        """The most cards a column move can carry: the deck less the target's top card."""
        return self.variant.deck_size - 1

    @property
    def size(self) -> int:
        """How many actions there are."""
        return len(self.moves)

    def index(self, move: Move) -> int:
        """The action of a move; ValueError when the variant cannot hold it."""
        try:
            return self._index[move]
        except KeyError:
            raise ValueError(f"{move} is not a move of {self.variant}") from None

    def move(self, index: int) -> Move:
        """The move of an action."""
        if not 0 <= index < len(self.moves):
            raise ValueError(f"action {index} is outside 0..{len(self.moves) - 1}")
        return self.moves[index]

    def mask(self, moves: Iterable[Move]) -> np.ndarray:
        """An ``int8`` array with 1 at the actions of ``moves`` (the legal ones)."""
        size = len(self.moves)
        mask = np.zeros(size, np.int8)
        # The layout's arithmetic: faster than hashing each move.
        n = self.variant.columns
        k = self.max_count
        others = n - 1
        foundations = n * k * others - 1
        column, foundation = MoveKind.COLUMN, MoveKind.FOUNDATION
        indices = []
        for move in moves:
            kind = move.kind
            if kind is column:
                s, t = move.source, move.target
                indices.append(((s - 1) * k + move.count - 1) * others + t - 1 - (t > s))
            elif kind is foundation:
                indices.append(foundations + move.source)
            else:
                indices.append(size - 2 if move is DEAL or move == DEAL else size - 1)
        mask[indices] = 1
        return mask


def action_to_move(variant: Variant | str, index: int) -> Move:
    """The move of an action index in a variant's action set.

    >>> str(action_to_move("one-deck", 612))
    '1>F'
    """
    return Actions.of(as_variant(variant)).move(int(index))


def move_to_action(variant: Variant | str, move: Move | str) -> int:
    """The action index of a move (a Move or its notation) in a variant's action set.

    >>> move_to_action("one-deck", "D")
    616
    """
    if isinstance(move, str):
        move = Move.parse(move)
    return Actions.of(as_variant(variant)).index(move)


def stock_rows(variant: Variant, cards: int) -> int:
    """Rows left in a stock of ``cards`` cards (a short last row counts as one)."""
    return variant.stock_rows(cards)


def shapes(variant: Variant) -> dict[str, tuple[tuple[int, ...], int]]:
    """Each observation array's shape and highest value, in :data:`KEYS` order."""
    n, height = variant.columns, variant.deck_size
    return {
        "columns": ((n, height), 53),
        "face_down": ((n,), max(variant.face_down_rows, 1)),  # a Box needs high > low
        "foundations": ((4, variant.decks), 13),
        "moved": ((n, height), 1),
        "reprieve": ((1,), n),
        "stock_rows": ((1,), stock_rows(variant, variant.stock_size)),
    }


def observation_size(variant: Variant) -> int:
    """The flattened observation's length."""
    return sum(int(np.prod(shape)) for shape, _ in shapes(variant).values())


def encode(observation: Observation) -> dict[str, np.ndarray]:
    """The arrays of an observation (``int8``), keyed as :data:`KEYS`."""
    variant = observation.variant
    n, height = variant.columns, variant.deck_size
    columns = np.zeros((n, height), np.int8)
    face_down = np.zeros(n, np.int8)
    codes = CODES
    for c, cards in enumerate(observation.columns):
        if cards:
            row = [FACE_DOWN if card is None else codes[card] for card in cards]
            columns[c, : len(row)] = row
            if cards[0] is None:
                face_down[c] = row.count(FACE_DOWN)
    moved = np.zeros((n, height), np.int8)
    for column, index in observation.moved:
        moved[column - 1, index] = 1
    return {
        "columns": columns,
        "face_down": face_down,
        "foundations": np.array(observation.foundations, np.int8),
        "moved": moved,
        "reprieve": np.array([observation.reprieve or 0], np.int8),
        "stock_rows": np.array([stock_rows(variant, observation.stock)], np.int8),
    }


def flatten(arrays: Mapping[str, np.ndarray]) -> np.ndarray:
    """The observation arrays as one vector, in :data:`KEYS` order."""
    return np.concatenate([arrays[key].ravel() for key in KEYS])


def observation_text(observation: Observation) -> str:
    """The observation as one line of text: columns, foundations, stock, reprieve, moved.

    >>> from milligan import Position
    >>> observation_text(Position.deal(Variant.named("one-deck"), 1).observe())
    '|7D|9C|4D|8H| F C0 D0 H0 S0 stock 48 reprieve - moved -'
    """
    columns = "|".join(
        " ".join("??" if card is None else str(card) for card in cards)
        for cards in observation.columns
    )
    foundations = " ".join(
        "CDHS"[suit] + "/".join(str(h) for h in heights)
        for suit, heights in enumerate(observation.foundations)
    )
    moved = " ".join(f"{c}.{i}" for c, i in sorted(observation.moved)) or "-"
    reprieve = observation.reprieve or "-"
    return (
        f"|{columns}| F {foundations} stock {observation.stock} reprieve {reprieve} moved {moved}"
    )
