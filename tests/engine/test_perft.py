"""Perft: fixed move counts for fixed positions pin the move generator.

``perft(p, d)`` counts the lines of ``d`` legal moves from ``p``.  The first
level of the constructed reprieve positions was also counted by hand: in
classic, 16 groups × 6 non-empty targets + the closing King run + S = 98; in
strict, 8 groups that split no run × 6 + the closing King run + the build
3:2>7 (which splits a run, as builds may) + S = 51.
"""

from __future__ import annotations

import pytest

from milligan import Position, Variant

from .conftest import build_position


def perft(position: Position, depth: int) -> int:
    if depth == 0:
        return 1
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(position.apply(move), depth - 1) for move in moves)


@pytest.mark.parametrize(
    "variant, number, counts",
    [
        ("classic", 42, [4, 145, 5578]),
        ("classic", 1, [7, 305, 12208]),
        ("classic", 2**64 - 1, [None, None, 3525]),
        ("strict", 1, [7, 275, 9578]),
        ("strict", 2**64 - 1, [None, None, 3012]),
        ("spanish", 1, [7, 43, 242, None, 6653]),
        ("spanish", 7, [None, None, None, None, 213]),
        ("improved", 1, [2, 8, 37, None, 662]),
        ("improved", 2**64 - 1, [None, None, None, None, 17030]),
        ("one-deck", 1, [2, 11, 44, None, 365]),
        ("one-deck", 7, [None, None, None, None, 751]),
    ],
)
def test_perft_from_deals(variant: str, number: int, counts: list[int | None]) -> None:
    position = Position.deal(Variant.named(variant), number)
    for depth, expected in enumerate(counts, start=1):
        if expected is not None:
            assert perft(position, depth) == expected, f"depth {depth}"


REPRIEVE_TABLE = ["KH QC JD", "", "9S 8H 7C", "5D 4C", "TC", "AH 2S", "QD JS TD 9C", "6H"]


@pytest.mark.parametrize(
    "variant, columns, face_down, reprieve, counts",
    [
        ("classic", REPRIEVE_TABLE, [], 2, [98, 8609]),
        ("strict", REPRIEVE_TABLE, [], 2, [51, 2107, 77487]),
        ("spanish", REPRIEVE_TABLE, [], None, [5, 29, 185, 1211]),
        (
            "improved",
            ["5D 9S 8H", "", "KC 3H", "QH JS", "TC", "AH 2S", "QD JS TD 9C", "6H"],
            [2, 0, 1, 0, 0, 1, 0, 0],
            2,
            [91, 7483],
        ),
        ("one-deck", REPRIEVE_TABLE[:4], [], 2, [18, 218, 2509, 27389]),
    ],
)
def test_perft_inside_a_reprieve(
    variant: str, columns: list[str], face_down: list[int], reprieve: int | None, counts: list[int]
) -> None:
    stock = "3C 3D 3S 3H 4H 4S 4D 2C 2D" if reprieve is None else "3C 3D"
    position = build_position(
        columns, variant=variant, face_down=face_down, reprieve=reprieve, stock=stock
    )
    for depth, expected in enumerate(counts, start=1):
        assert perft(position, depth) == expected, f"depth {depth}"
