"""Small constructed positions with known verdicts."""

from __future__ import annotations

from milligan.cards import Card
from milligan.position import Position
from milligan.variants import Variant


def cards(text: str) -> tuple[Card, ...]:
    """``"KS KH"`` -> the cards, bottom first."""
    return tuple(Card.parse(word) for word in text.split())


def tiny(
    columns: list[str],
    heights: tuple[int, int, int, int],
    *,
    reprieve_rule: str = "free",
    stock: str = "",
    reprieve: int | None = None,
    moved: frozenset[tuple[int, int]] = frozenset(),
) -> Position:
    """A one-deck position with the given columns and foundation heights (C D H S)."""
    variant = Variant(
        decks=1,
        columns=len(columns),
        opening_rows=1,
        face_down_rows=0,
        reprieve=reprieve_rule,  # type: ignore[arg-type]
    )
    return Position(
        variant,
        tuple(cards(column) for column in columns),
        (0,) * len(columns),
        tuple((height,) for height in heights),
        cards(stock),
        reprieve,
        moved,
    )
