"""Post-game analysis (``milligan.solver.analysis``, ``milligan analyse``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from milligan.cli import main
from milligan.game import Game
from milligan.record import Record
from milligan.solver import plain, solve
from milligan.solver.analysis import NothingToAnalyse, analyse
from milligan.solver.baseline import play_greedy

#: A reproducible budget: positions, never seconds.
BUDGET = 2_000_000

#: The first 30 moves of a win of one-deck deal 136 (a deal the survey won).
WINNING_START = [
    "4>F",
    "1>3",
    "S",
    "D",
    "1>F",
    "S",
    "D",
    "D",
    "2>4",
    "3>4",
    "D",
    "3>F",
    "4>F",
    "D",
    "2>F",
    "1>4",
    "1>4",
    "3>2",
    "D",
    "1:2>3",
    "D",
    "D",
    "2>F",
    "3>F",
    "3>4",
    "4:2>1",
    "1:3>4",
    "D",
    "2>4",
    "D",
]
#: Dealing here instead of playing 1>F throws the win away.
BLUNDER = "D"


def greedy(variant: str, number: int) -> Game:
    game = Game.new(variant, number)
    play_greedy(game)
    return game


def test_a_known_blunder_is_found() -> None:
    game = Game.new("one-deck", 136)
    for move in WINNING_START:
        game.play(move)
    assert solve(game, max_positions=BUDGET).result == "won"
    game.play(BLUNDER)
    assert solve(game, max_positions=BUDGET).result == "lost"
    play_greedy(game)
    assert game.status in ("lost", "resigned")
    found = analyse(game, timeout=None, max_positions=BUDGET, fair=False)
    assert found.turning_point == len(WINNING_START) + 1
    assert str(found.move) == BLUNDER
    assert found.range is None and not found.never_winnable
    assert found.better_from == len(WINNING_START)
    after = game.positions[len(WINNING_START)]
    for move in found.better:
        after = after.apply(move)
    assert after.is_won()
    by_index = {probe.index: probe.verdict for probe in found.verdicts}
    assert by_index[len(WINNING_START)] == "won"
    assert by_index[len(WINNING_START) + 1] == "lost"


def test_the_turning_point_agrees_with_the_exhaustive_search() -> None:
    game = greedy("one-deck", 54)
    found = analyse(game, timeout=None, max_positions=BUDGET, fair=False)
    assert found.turning_point is not None
    point = found.turning_point
    # after the move: the plain search, every legal move expanded, no pruning
    verdict, _, _ = plain.search(game.positions[point], auto_moves=False)
    assert verdict == "lost"
    # before it: a win, replayed through the engine
    position = game.positions[point - 1]
    for move in found.better:
        position = position.apply(move)
    assert position.is_won()
    assert found.move == game.moves[point - 1]


def test_a_deal_that_was_never_winnable_says_so() -> None:
    game = greedy("one-deck", 1)
    found = analyse(game, timeout=None, max_positions=BUDGET)
    assert found.never_winnable and found.turning_point is None
    assert [(probe.index, probe.verdict) for probe in found.verdicts] == [(0, "lost")]
    assert "never winnable" in found.note


def test_unknown_verdicts_leave_a_range_and_say_why() -> None:
    game = greedy("one-deck", 54)
    found = analyse(game, timeout=None, max_positions=100, fair=False)
    assert found.turning_point is None
    assert found.range is not None
    first, last = found.range
    assert 1 <= first <= last <= len(game.moves)
    assert "unknown" in found.note
    assert any(probe.verdict == "unknown" for probe in found.verdicts)
    # nothing called lost without a proof: every lost probe is a real solve's lost
    for probe in found.verdicts:
        if probe.verdict == "lost":
            assert solve(game.positions[probe.index], max_positions=BUDGET).result == "lost"


def test_a_won_game_has_nothing_to_analyse() -> None:
    game = Game.new("one-deck", 54)
    for move in solve(game, max_positions=BUDGET).moves:
        game.play(move)
    with pytest.raises(NothingToAnalyse):
        analyse(game)


def test_fair_drops_come_from_stretches_between_deals() -> None:
    game = greedy("classic", 5)
    found = analyse(game, timeout=None, max_positions=400_000)
    assert found.fair_drops
    for drop in found.fair_drops:
        assert drop.after < drop.before
        assert 1 <= drop.first <= drop.index <= len(game.moves)
        assert drop.move == game.moves[drop.index - 1]
        assert all(
            move.kind.value != "deal" for move in game.moves[drop.first - 1 : drop.index - 1]
        )


def test_cli_json_and_refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "lost.json"
    path.write_text(Record.of(greedy("one-deck", 54)).to_json())
    assert main(["analyse", str(path), "--json", "--max-positions", str(BUDGET)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["turning_point"] == 15 and out["move"] == "4>3"
    assert out["never_winnable"] is False and out["range"] is None
    assert out["verdicts"][0] == {**out["verdicts"][0], "index": 0, "verdict": "won"}
    assert out["better"]
    assert main(["analyse", str(path), "--max-positions", str(BUDGET)]) == 0
    assert "move 15 of 35 (4>3) threw the win away" in capsys.readouterr().out
    won = Game.new("one-deck", 54)
    for move in solve(won, max_positions=BUDGET).moves:
        won.play(move)
    path.write_text(Record.of(won).to_json())
    assert main(["analyse", str(path)]) == 2
    assert "nothing to analyse" in capsys.readouterr().err
