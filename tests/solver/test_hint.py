"""Hints use only what the player sees."""

from __future__ import annotations

from dataclasses import replace

from milligan.game import Game
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
    assert first.samples == 4
    assert 0.0 <= first.win_chance <= 1.0
    if first.move is not None:
        assert first.move in start.legal_moves()


def test_hint_from_game() -> None:
    game = Game.new("spanish", 1)
    result = hint(game, samples=2, seed=0, max_positions=20_000)
    assert result.wins <= 2
    assert result.win_chance == result.wins / 2


def test_safe_auto_moves_two_decks_need_both_foundations() -> None:
    # one ace of clubs is up; the 2C may go up only when both club
    # foundations hold an ace (the other copy of 2C could need the slot)
    start = Position.deal(Variant.named("spanish"), 42)
    for move in safe_auto_moves(start):
        after = start.apply(move)
        assert after.cards_on_foundations() == start.cards_on_foundations() + 1
