"""The compiled core's move generator pinned against the engine (docs/RULES.md §7.3).

Random playouts of every variant, steered into reprieves, compare at every
position the core's ``legal()`` with ``Position.legal_moves()``: once for a
core built from the position, once for a core that reached it by playing the
line itself from the deal (so its apply and undo are checked too).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

import pytest

from milligan.cards import CARDS, Card
from milligan.moves import Move, MoveKind
from milligan.position import Position
from milligan.solver import compiled, safe_auto_moves
from milligan.variants import PRESETS, Variant

from .test_hint import two_club_foundations

pytestmark = pytest.mark.skipif(
    not compiled.AVAILABLE and not os.environ.get("CI"), reason="the compiled core was not built"
)

#: Playouts per variant and their longest line.
PLAYOUTS = 80
STEPS = 260


def choose(position: Position, moves: list[Move], rng: random.Random) -> Move:
    """A random move, steered into reprieves (cards up, columns emptied) and out again."""
    columns = position.columns

    def empties(m: Move) -> bool:
        return m.kind is MoveKind.COLUMN and m.count == len(columns[m.source - 1])

    def builds(m: Move) -> bool:
        target = columns[m.target - 1]
        return m.kind is MoveKind.COLUMN and (
            not target or columns[m.source - 1][-m.count].can_go_on(target[-1])
        )

    def closes(m: Move) -> bool:
        return m.kind is MoveKind.STOP or (
            m.kind is MoveKind.COLUMN and m.target == position.reprieve
        )

    up = [m for m in moves if m.kind is MoveKind.FOUNDATION]
    # (cumulative share of the rolls, the moves it picks from when there are any)
    steer = (
        [
            (0.35, up),
            (0.6, [m for m in moves if empties(m)]),
            (0.65, [m for m in moves if m.kind is MoveKind.DEAL]),
        ]
        if position.reprieve is None
        else [
            (0.3, [m for m in moves if closes(m)]),
            (0.5, up),
            (0.8, [m for m in moves if builds(m)]),
            (1.0, [m for m in moves if not empties(m)]),  # a pile of every card is stuck
        ]
    )
    roll = rng.random()
    for share, some in steer:
        if some and roll < share:
            return rng.choice(some)
    return rng.choice(moves)


def endgame(variant: Variant, rng: random.Random) -> Position:
    """A position of ``variant`` late in the game: random foundations, the rest dealt at random.

    Short columns empty often, so these reach reprieves even where deals
    rarely do (``improved``: face-down cards at the bottom of every column).
    """
    heights = [sorted(rng.randint(4, 13) for _ in range(variant.decks)) for _ in range(4)]
    left = [CARDS[s][r - 1] for s in range(4) for h in heights[s] for r in range(h + 1, 14)]
    rng.shuffle(left)
    stock_size = rng.randint(0, min(2 * variant.columns, len(left)))
    columns: list[list[Card]] = [[] for _ in range(variant.columns)]
    for card in left[stock_size:]:
        columns[rng.randrange(variant.columns)].append(card)
    return Position(
        variant,
        tuple(tuple(column) for column in columns),
        tuple(min(variant.face_down_rows, max(len(column) - 1, 0)) for column in columns),
        tuple(tuple(h) for h in heights),
        tuple(left[:stock_size]),
    )


def playout(name: str, seed: int) -> Iterator[tuple[Position, tuple[Move, ...]]]:
    """The positions of one random line of ``name``, each with the moves that led there.

    Even seeds start from a deal, odd ones from an endgame.
    """
    rng = random.Random(f"movegen-{name}-{seed}")
    variant = Variant.named(name)
    if seed % 2:
        position = endgame(variant, rng)
    else:
        position = Position.deal(variant, rng.randrange(1, 10_000))
    line: tuple[Move, ...] = ()
    for _ in range(STEPS):
        yield position, line
        moves = list(position.legal_moves())
        if not moves:
            return
        move = choose(position, moves, rng)
        position = position.apply(move)
        line += (move,)


def packed(line: tuple[Move, ...]) -> bytes:
    """``line`` packed by the core, as ``goto`` reads it."""
    pack = compiled._core.pack_move
    return b"".join(pack(*compiled.encode_move(m)).to_bytes(4, "big") for m in line)


def pruned_by_the_dfs(position: Position, legal: set[Move]) -> set[Move]:
    """What the complete search expands of ``legal`` (reductions 4 and 5 of docs/SOLVER.md)."""
    if position.reprieve is None:
        safe = safe_auto_moves(position)
        if safe:
            return {safe[0]}
    if position.stock:
        return legal
    return {
        m
        for m in legal
        if not (
            m.kind is MoveKind.COLUMN
            and not position.columns[m.target - 1]
            and m.target != position.reprieve
            and m.count == len(position.columns[m.source - 1])
        )
    }


@pytest.mark.parametrize("name", list(PRESETS))
def test_core_lists_the_engines_legal_moves(name: str) -> None:
    reprieves = stockless = pruned = 0
    for seed in range(PLAYOUTS):
        walker = None
        for position, line in playout(name, seed):
            legal = set(position.legal_moves())
            fresh = compiled.new_core(position, 1)
            raw = fresh.legal()
            assert len(raw) == len(set(raw)), (position, raw)  # each move once
            assert {compiled.decode_move(*m) for m in raw} == legal, (name, seed, line)
            expanded = {compiled.decode_move(*m) for m in fresh.legal(pruned=True)}
            expected = pruned_by_the_dfs(position, legal)
            assert expanded == expected, (name, seed, line)
            if walker is None:
                walker = fresh
            else:
                walker.goto(packed(line))
                assert {compiled.decode_move(*m) for m in walker.legal()} == legal, line
            reprieves += position.reprieve is not None
            stockless += not position.stock
            pruned += expected != legal
    # the playouts reached what they are for
    assert reprieves >= 500 or PRESETS[name].reprieve == "none"
    assert stockless >= 300
    assert pruned >= 100


def test_the_first_safe_auto_move_is_the_only_child() -> None:
    # spanish deal 42 opens with an Ace on column 5 that goes up safely
    position = Position.deal(Variant.named("spanish"), 42)
    core = compiled.new_core(position, 1)
    assert [compiled.decode_move(*m) for m in core.legal(pruned=True)] == [Move.parse("5>F")]
    assert len(core.legal()) == len(position.legal_moves()) > 1


def test_a_two_deck_auto_move_needs_both_foundations() -> None:
    # not safe: 1>F, the King into each of the 6 empty columns, D; safe: 1>F alone
    for clubs, children in (((0, 1), 8), ((1, 1), 1)):
        position = two_club_foundations(clubs)
        expanded = compiled.new_core(position, 1).legal(pruned=True)
        assert len(expanded) == children
        assert compiled.decode_move(*expanded[0]) == Move.parse("1>F")


@pytest.mark.parametrize("name", ["one-deck", "strict"])
def test_kings_columns_into_empty_columns_are_pruned_only_without_stock(name: str) -> None:
    # a King alone in column 1, the rest empty: moving it there only swaps columns
    # once the stock is empty; before that, the dealing order tells the columns apart
    base = Position.deal(Variant.named(name), 5)
    king = Card.parse("KS")
    for stock in ((), base.stock[:1]):
        variant = base.variant
        position = Position(
            variant,
            ((king,),) + ((),) * (variant.columns - 1),
            (0,) * variant.columns,
            base.foundations,
            stock,
        )
        core = compiled.new_core(position, 1)
        every = {compiled.decode_move(*m) for m in core.legal()}
        expanded = {compiled.decode_move(*m) for m in core.legal(pruned=True)}
        assert every == set(position.legal_moves())
        assert Move.parse("1>2") in every
        assert (Move.parse("1>2") in expanded) == bool(stock)
