"""Helpers for the engine tests: build positions from short text."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from milligan.cards import Card
from milligan.position import Place, Position
from milligan.variants import Variant

Builder = Callable[..., Position]


def cards(text: str) -> tuple[Card, ...]:
    """``"KH QC JD"`` → cards, bottom first."""
    return tuple(Card.parse(word) for word in text.split())


def build_position(
    columns: Iterable[str],
    *,
    variant: str | Variant = "classic",
    face_down: Iterable[int] | None = None,
    foundations: dict[str, Iterable[int]] | None = None,
    stock: str = "",
    reprieve: int | None = None,
    moved: Iterable[Place] = (),
) -> Position:
    """A position from text; unlisted columns are empty, foundations empty."""
    v = Variant.named(variant) if isinstance(variant, str) else variant
    cols = [cards(text) for text in columns]
    cols += [()] * (v.columns - len(cols))
    heights = {"C": (0,) * v.decks, "D": (0,) * v.decks, "H": (0,) * v.decks, "S": (0,) * v.decks}
    for suit, values in (foundations or {}).items():
        heights[suit] = tuple(sorted(values))
    return Position(
        variant=v,
        columns=tuple(cols),
        face_down=tuple(face_down or ()) + (0,) * (v.columns - len(tuple(face_down or ()))),
        foundations=tuple(heights[s] for s in "CDHS"),
        stock=cards(stock),
        reprieve=reprieve,
        moved=frozenset(moved),
    )


@pytest.fixture
def build() -> Builder:
    return build_position
