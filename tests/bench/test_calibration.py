"""``bench/calibration.py`` makes each decision again exactly as the game made it."""

from __future__ import annotations

from milligan.game import Game
from milligan.solver import fair

from .conftest import load_bench


def test_every_decision_after_a_deal_is_made_again_with_the_plan_the_game_played() -> None:
    calibration = load_bench("calibration")
    game = Game.new("classic", 3)
    ended = fair.autoplay(game, samples=4, max_positions=30_000)
    moves = tuple(str(move) for move in game.moves)
    rows = tuple(range(13))
    found = calibration.chances(("classic", 3, moves, rows, 30_000, 4))
    deals = sum(1 for text in moves if text == "D")
    assert ended.decisions >= len(found) > 0
    # the opening, and every deal that left a row in the stock
    assert len(found) == 1 + min(deals, 11)
    assert [left for left, *_ in found] == sorted((left for left, *_ in found), reverse=True)
    assert all(same for *_, same in found)
    assert all(
        0 <= wins <= wins + unsettled <= samples == 4 for _, wins, unsettled, samples, _ in found
    )
    # at 30,000 positions a decision's solves run out in some samples
    assert any(unsettled for _, _, unsettled, _, _ in found)
