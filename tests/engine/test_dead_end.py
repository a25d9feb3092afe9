"""The dead-end search (docs/RULES.md §6.2) against the plain search it replaced.

``Position.dead_end`` searches on small integers for speed.  The plain search,
``milligan.position.plain_dead_end``, over ``legal_moves()`` and ``apply()``,
is the definition: the two must give the same answer for every table and
every limit, ``None`` included.
"""

from __future__ import annotations

from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

from milligan import Game, Position
from milligan.cards import Card, Rank, Suit
from milligan.moves import MoveKind
from milligan.position import plain_dead_end
from milligan.variants import Variant

from .conftest import Builder, build_position


def reachable(position: Position, most: int = 3_000) -> int:
    """How many tables builds reach from ``position``, itself included (at most ``most``)."""
    seen = {position.columns}
    queue = deque([position])
    while queue and len(seen) < most:
        here = queue.popleft()
        for move in here.legal_moves():
            if move.kind is MoveKind.COLUMN:
                after = here.apply(move)
                if after.columns not in seen:
                    seen.add(after.columns)
                    queue.append(after)
    return len(seen)


VARIANTS = {
    "classic": Variant.named("classic"),
    "spanish": Variant.named("spanish"),
    "small": Variant(decks=1, columns=4, reprieve="none"),
    "face-down": Variant(decks=1, columns=5, opening_rows=2, face_down_rows=1, reprieve="none"),
    "improved": Variant.named("improved"),
}


@st.composite
def tables(draw: st.DrawFn) -> Position:
    """A table with an empty stock: random cards, mostly ones that cannot go up."""
    variant = VARIANTS[draw(st.sampled_from(sorted(VARIANTS)), label="variant")]
    low = draw(st.sampled_from([1, 2, 2, 2]), label="lowest rank")  # Aces go up at once
    cards = st.builds(Card, st.sampled_from(list(Rank)[low - 1 :]), st.sampled_from(list(Suit)))
    columns = []
    face_down = []
    for _ in range(variant.columns):
        column = tuple(draw(st.lists(cards, max_size=6)))
        columns.append(column)
        hidden = variant.face_down_rows > 0 and len(column) > 1
        face_down.append(draw(st.integers(0, len(column) - 1)) if hidden else 0)
    height = draw(st.integers(0, 3), label="foundations")
    foundations = tuple((height,) * variant.decks for _ in Suit)
    return Position(variant, tuple(columns), tuple(face_down), foundations, ())


@settings(max_examples=400, deadline=None)
@given(tables(), st.integers(1, 400))
def test_the_search_agrees_with_the_plain_one(position: Position, limit: int) -> None:
    assert position.dead_end(limit) == plain_dead_end(position, limit)


@settings(max_examples=60, deadline=None)
@given(tables())
def test_the_limit_counts_tables_as_the_plain_search_does(position: Position) -> None:
    """At every limit up to 60, and one either side of the number of tables builds reach.

    Which tables are seen before the limit depends on the order of the
    search, so a low limit also checks that order: a foundation move found
    one table later is a ``None`` instead of a ``False``.
    """
    size = reachable(position)
    limits = set(range(1, 61))
    if size < 3_000:
        limits |= {size - 1, size, size + 1}
    for limit in sorted(limits - {0}):
        assert position.dead_end(limit) == plain_dead_end(position, limit)


def test_every_answer_on_the_rules_tables(build: Builder) -> None:
    spanish = Variant(decks=1, columns=4, reprieve="none")
    hidden = Variant(decks=1, columns=4, opening_rows=2, face_down_rows=1, reprieve="none")
    positions = [
        build(["9C 5D", "8C", "3S", "KD"], variant="one-deck"),
        build(["9S", "AS 8D", "3C", "KD"], variant="one-deck"),
        build(["9C", "8D", "3S", "KD"], variant="one-deck"),
        build(["9C", "8D", "3S", "KD"], variant=spanish),
        build(["AS 8D", "9C", "3S", "KD"], variant=hidden, face_down=[1, 0, 0, 0]),
        build(["KH QC", "KD", "", "9S 5D"], variant="one-deck"),
    ]
    answers = [position.dead_end() for position in positions]
    assert answers == [True, False, False, True, None, True]
    for position in positions:
        for limit in (1, 2, 3, 5, 100):
            assert position.dead_end(limit) == plain_dead_end(position, limit)


def test_the_end_of_real_games() -> None:
    """Deals played to an empty stock, three builds a stage: tables with many builds."""
    for number in range(1, 13):
        game = Game(Variant.named("spanish"), deal=number)
        while game.position.stock:
            for step in range(3):
                builds = [m for m in game.legal_moves() if m.kind is MoveKind.COLUMN]
                if builds:
                    game.play(builds[(number + step) % len(builds)])
            game.play("D")
        position = game.position
        for limit in (50, 2_000):
            assert position.dead_end(limit) == plain_dead_end(position, limit)


def test_kings_into_empty_columns_count_as_tables() -> None:
    # Two Kings and two empty columns: each King may move to either empty
    # column, so builds reach several tables without any progress.
    position = build_position(["KH", "KS", "", "", "9C"], variant="spanish")
    assert position.dead_end() is True
    size = reachable(position)
    assert size > 1
    assert position.dead_end(size) is True
    assert position.dead_end(size - 1) is None
