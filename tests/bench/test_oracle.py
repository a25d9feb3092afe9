"""``bench/oracle.py``'s samplers tell exactly what they say, and keep every card."""

from __future__ import annotations

import random
from collections import Counter

from milligan.game import Game
from milligan.position import Position

from .conftest import load_bench


def face_down(position: Position) -> list[tuple[object, ...]]:
    return [cards[:down] for cards, down in zip(position.columns, position.face_down, strict=True)]


def every_card(position: Position) -> Counter[str]:
    return Counter(str(card) for cards in position.columns for card in cards) + Counter(
        str(card) for card in position.stock
    )


def test_told_the_face_down_cards_and_nothing_of_the_stock() -> None:
    oracle = load_bench("oracle")
    game = Game.new("improved", 7)
    truth = game.position
    fair = oracle.told(game, 0)(truth.observe(), random.Random(1))
    told = oracle.told(game, 0, down=True)(truth.observe(), random.Random(1))
    assert face_down(told) == face_down(truth) != face_down(fair)
    assert told.stock != truth.stock
    assert every_card(told) == every_card(truth) == every_card(fair)
    assert told.observe() == truth.observe()


def test_told_the_next_row_but_not_the_face_down_cards() -> None:
    oracle = load_bench("oracle")
    game = Game.new("improved", 7)
    truth = game.position
    told = oracle.told(game, 1)(truth.observe(), random.Random(1))
    assert told.stock[:8] == truth.stock[:8] and told.stock[8:] != truth.stock[8:]
    assert face_down(told) != face_down(truth)
    assert every_card(told) == every_card(truth)
