"""The reprieve planner and the staged search of the compiled core."""

from __future__ import annotations

import random

from milligan.game import Game
from milligan.moves import STOP, Move
from milligan.position import Position
from milligan.solver import compiled
from milligan.solver.shorten import check_win

from .conftest import tiny
from .test_core import needs_core


def core_for(position: Position, *, planner: bool = True) -> object:
    assert compiled._core is not None
    core = compiled._core.Core(table_bytes=16 << 20, **compiled.encode(position))
    core.planner = planner
    return core


def plans_of(position: Position) -> list[tuple[Move, ...]]:
    return [compiled.decode_path(plan) for plan in core_for(position).plans()]


def replay(position: Position, moves: tuple[Move, ...]) -> Position:
    """Play ``moves`` (the engine refuses an illegal one); a plan's close after a win is skipped."""
    for move in moves:
        if position.is_won():
            break
        position = position.apply(move)
    return position


@needs_core
def test_planner_digs_a_card_out_and_sends_it_up() -> None:
    # KD up empties column 3 and opens a reprieve; JH lies under QH and no
    # build can lift QH: the planner parks QH on KH, sends JH up, then QH,
    # and (a second goal) KH.
    start = tiny(["JH QH", "KH", "KD", ""], (13, 12, 10, 13)).apply(Move.parse("3>F"))
    assert start.reprieve == 3
    plans = plans_of(start)
    assert (STOP,) in plans
    best = plans[0]
    assert [str(move) for move in best] == ["1>2", "1>F", "2>F", "2>F", "S"]
    core = core_for(start)
    verdict, path = core.search(-1, -1.0, None, 0.0)  # type: ignore[attr-defined]
    assert verdict == "won"
    check_win(start, compiled.decode_path(path))


@needs_core
def test_planner_closes_with_the_king_led_run_that_holds_the_unsettled_cards() -> None:
    start = tiny(["KS KH", ""], (13, 13, 11, 12), stock="QH", reprieve=2, moved=frozenset({(1, 1)}))
    plans = plans_of(start)
    assert plans == [(Move.parse("1>2"),)]
    assert replay(start, plans[0]).reprieve is None


def reprieve_positions(variant: str, count: int, seed: int) -> list[Position]:
    """Positions where a reprieve has just opened, from random playouts of real deals."""
    rng = random.Random(seed)
    found: list[Position] = []
    number = 0
    while len(found) < count:
        number += 1
        position = Game.new(variant, number).position
        for _ in range(300):
            moves = [m for m in position.legal_moves() if m != STOP]
            if not moves:
                break
            opened = position.reprieve is None
            position = position.apply(rng.choice(moves))
            if opened and position.reprieve is not None and rng.random() < 0.3:
                found.append(position)
                break
    return found


@needs_core
def test_every_plan_is_a_legal_line_that_closes_the_reprieve() -> None:
    total = 0
    for variant in ("classic", "improved", "strict", "one-deck"):
        for start in reprieve_positions(variant, 6, seed=len(variant)):
            plans = plans_of(start)
            keys = set()
            for plan in plans:
                end = replay(start, plan)  # Position.apply refuses any illegal move
                assert end.reprieve is None or end.is_won()
                keys.add(end)
            assert len(keys) == len(plans), "plans with the same outcome are merged"
            total += len(plans)
    assert total >= 60


@needs_core
def test_staged_search_wins_replay_and_repeat() -> None:
    for variant, number in (("classic", 4), ("spanish", 4), ("strict", 2)):
        start = Game.new(variant, number).position
        answers = []
        for _ in range(2):
            core = core_for(start, planner=False)
            verdict, path = compiled.staged(
                core,
                "plan" if variant != "spanish" else "cap",
                100,
                1000,
                3_000_000,
                -1.0,
                lambda positions, seconds: None,
            )
            assert verdict == "won", (variant, number)
            moves = compiled.decode_path(path)
            check_win(start, moves)
            answers.append(moves)
        assert answers[0] == answers[1]


@needs_core
def test_a_stage_never_deals() -> None:
    start = Game.new("spanish", 7).position
    core = core_for(start, planner=False)
    verdict, _, candidates = core.stage(5000, -1.0, 6)  # type: ignore[attr-defined]
    assert verdict != "won" and len(candidates) == 6
    for _, packed in candidates:
        numbers = [int.from_bytes(packed[i : i + 4], "big") for i in range(0, len(packed), 4)]
        moves = compiled.decode_path(
            [(m & 3, (m >> 2) & 15, (m >> 10) & 1023, (m >> 6) & 15) for m in numbers]
        )
        assert "D" not in [str(move) for move in moves]
        assert replay(start, moves).stock == start.stock
    scores = [score for score, _ in candidates]
    assert scores == sorted(scores, reverse=True)


def test_a_round_shrinks_to_a_small_budget() -> None:
    assert compiled.fit(100, 1000, 5_000_000) == (100, 1000)
    width, per_position = compiled.fit(100, 1000, 15_000)
    assert (width, per_position) == (10, 107)
    assert width * per_position * 13 <= 15_000
    assert compiled.fit(100, 1000, 10) == (4, 50)
