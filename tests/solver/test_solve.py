"""Verdicts on constructed positions and real deals; every win is replayed."""

from __future__ import annotations

import pytest

from milligan.game import Game
from milligan.moves import Move
from milligan.position import Position
from milligan.record import Record
from milligan.solver import SolveResult, solve
from milligan.solver.plain import search as plain_search

from .conftest import tiny


def replays_to_win(start: Position, result: SolveResult) -> bool:
    position = start
    for move in result.moves:
        position = position.apply(move)
    return position.is_won()


def test_simple_win() -> None:
    start = tiny(["QH", "KH", "", ""], (13, 13, 11, 13))
    result = solve(start)
    assert result.result == "won"
    assert replays_to_win(start, result)
    assert [str(m) for m in result.moves] == ["1>F", "2>F"]


def test_simple_loss() -> None:
    start = tiny(["JH QH", "KH", "", ""], (13, 13, 10, 13))
    assert solve(start).result == "lost"


def test_needs_a_reprieve() -> None:
    columns = ["JH QH", "KH", "KD", ""]
    with_reprieve = tiny(columns, (13, 12, 10, 13))
    result = solve(with_reprieve)
    assert result.result == "won"
    assert replays_to_win(with_reprieve, result)
    without = tiny(columns, (13, 12, 10, 13), reprieve_rule="none")
    assert solve(without).result == "lost"


def test_needs_a_king_led_run_into_the_reprieve_column() -> None:
    start = tiny(["KS KH", ""], (13, 13, 11, 12), stock="QH", reprieve=2, moved=frozenset({(1, 1)}))
    assert not start.is_settled()
    result = solve(start)
    assert result.result == "won"
    assert result.moves[0] == Move.parse("1>2")
    assert replays_to_win(start, result)


def test_stuck_reprieve_is_lost() -> None:
    # KH lies unsettled on KS, the reprieve column is the only empty one and
    # closing into it needs a King-led run: here the King is under a Queen.
    start = tiny(
        ["KS KH QS", ""],
        (13, 13, 11, 11),
        stock="QH",
        reprieve=2,
        moved=frozenset({(1, 1), (1, 2)}),
    )
    result = solve(start)
    assert result.result == plain_search(start, auto_moves=False)[0]


#: One-deck deals that both searches decide within 50,000 positions (the plain
#: search needs at most 28,000 of them, the core at most 38,000).  All are
#: lost, as most one-deck deals are: these pin the core's losses (its pruning
#: included) to the exhaustive search; the wins are checked on the positions above.
DECIDED_ONE_DECK_DEALS = (1, 2, 3, 7, 8, 11, 12)


@pytest.mark.parametrize("number", DECIDED_ONE_DECK_DEALS)
def test_one_deck_verdicts_agree_with_plain_unpruned_search(number: int) -> None:
    start = Position.deal(Game.new("one-deck", number).variant, number)
    plain = plain_search(start, auto_moves=False, max_positions=50_000)[0]
    result = solve(start, max_positions=50_000)
    assert plain != "unknown"
    assert result.result == plain


def test_record_start_and_limits() -> None:
    record = Record.from_json(
        '{"format": "milligan-record/1", "variant": "spanish", "deal": 7, "moves": ["D"]}'
    )
    result = solve(record, max_positions=500)
    assert result.result in ("won", "unknown")
    assert result.positions <= 500
    if result.result == "won":
        assert replays_to_win(record.replay().position, result)


def test_progress_counts_never_go_back() -> None:
    seen: list[int] = []
    times: list[float] = []

    def progress(positions: int, seconds: float) -> None:
        seen.append(positions)
        times.append(seconds)

    # deal 24 is not won at this limit: two staged rounds and both complete passes run
    result = solve(Game.new("classic", 24), max_positions=3_000_000, progress=progress)
    assert result.result == "unknown"
    assert seen == sorted(seen)
    assert times == sorted(times)
    assert seen and seen[-1] <= result.positions <= 3_000_000
