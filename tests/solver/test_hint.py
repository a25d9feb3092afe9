"""Hints use only what the player sees."""

from __future__ import annotations

from dataclasses import replace

from milligan.cards import Card
from milligan.game import Game
from milligan.moves import Move
from milligan.position import Position
from milligan.solver import hint, safe_auto_moves
from milligan.variants import Variant


def test_hint_ignores_hidden_cards() -> None:
    start = Position.deal(Variant.named("improved"), 11)
    # the same table with the stock reversed and face-down cards swapped
    columns = list(start.columns)
    columns[0], columns[1] = (
        (columns[1][0],) + columns[0][1:],
        (columns[0][0],) + columns[1][1:],
    )
    other = replace(start, columns=tuple(columns), stock=start.stock[::-1])
    assert other != start
    assert other.observe() == start.observe()
    first = hint(start, samples=4, seed=3, max_positions=3000)
    second = hint(other, samples=4, seed=3, max_positions=3000)
    assert first == second
    # moves are legal at the start of a deal, so there is a hint, and it is one of them
    assert first.move is not None
    assert first.move in start.legal_moves()
    assert first.plan[0] == first.move
    assert first.samples == 4
    assert 0 <= first.wins <= 4
    assert first.win_chance == first.wins / 4


def test_hint_from_game() -> None:
    game = Game.new("spanish", 1)
    result = hint(game, samples=2, seed=0, max_positions=20_000)
    assert result.wins <= 2
    assert result.win_chance == result.wins / 2


def two_club_foundations(clubs: tuple[int, int]) -> Position:
    """A classic position: 2C on top of column 1, both Aces of both red suits up."""
    variant = Variant.named("classic")
    columns = ((Card.parse("9S"), Card.parse("2C")), (Card.parse("KH"),)) + ((),) * 6
    foundations = (clubs, (1, 1), (1, 1), (0, 0))
    return Position(variant, columns, (0,) * 8, foundations, (Card.parse("QS"),))


def test_safe_auto_moves_two_decks_need_both_foundations() -> None:
    # Nothing can ever lie on the 2C (both red Aces are up), and one club
    # foundation takes it.  But while the other club foundation is empty,
    # sending it up could strand the other 2C, which may need that pile
    # first (say the second AC lies under it).
    one_ace = two_club_foundations((0, 1))
    assert Move.parse("1>F") in one_ace.legal_moves()
    assert safe_auto_moves(one_ace) == ()
    assert safe_auto_moves(two_club_foundations((1, 1))) == (Move.parse("1>F"),)
