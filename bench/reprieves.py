"""Reprieves and breaks: the fair player's games beside the complete-knowledge solver's wins.

    python3 bench/reprieves.py --deals 1-16
    python3 bench/reprieves.py --deals 1-40 --workers 2
    python3 bench/reprieves.py --deals 1-60 --results docs/data/survey.sqlite3 --workers 2 --stages

For each deal, the fair player autoplays it as shipped, and the solver
(``compiled.search``, which sees the stock) solves it with
``--max-positions``. For both lines the bench counts the reprieves opened
and, before each deal, the breaks on the table (cards not lying on a card
one rank higher and of the other colour, as the table heuristic counts
them). A diagnostic of where the fair player's games go another way than
the solver's; nothing is written. ``--results`` takes the fair player's
games from the skill study (the shipped settings) instead of playing them.

``--stages`` also asks, at the start of every stage (just after a deal),
whether builds and foundation moves alone can empty a column, so that a
reprieve is in reach, and counts the empty columns left at each deal. It
prints how often a reprieve was in reach after a deal made with 0, 1, 2 or
more empty columns, for both lines.
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter, deque
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from milligan.game import Game
from milligan.moves import DEAL, Move, MoveKind
from milligan.position import Position
from milligan.solver import compiled, fair
from milligan.survey.results import ResultStore
from milligan.survey.runner import Player, parse_deals

#: Positions the reach test looks at after one deal before it says no.
REACH_LIMIT = 20_000


def profile(start: Position, moves: Sequence[Move]) -> tuple[int, list[int]]:
    """(reprieves opened, breaks before each deal) along ``moves``."""
    position, opened, before_deals = start, 0, []
    for move in moves:
        if move == DEAL:
            before_deals.append(fair.breaks(position))
        was_open = position.reprieve is not None
        position = position.apply(move)
        opened += position.reprieve is not None and not was_open
    return opened, before_deals


def in_reach(position: Position, limit: int = REACH_LIMIT) -> bool:
    """Whether builds and foundation moves alone can open a reprieve from ``position``.

    A breadth-first search over the moves ``legal_moves()`` lists, never a
    deal or a stop; more than ``limit`` positions count as no.
    """
    if position.reprieve is not None:
        return True
    seen = {position}
    queue = deque([position])
    while queue:
        here = queue.popleft()
        for move in here.legal_moves():
            if move.kind in (MoveKind.DEAL, MoveKind.STOP):
                continue
            after = here.apply(move)
            if after.reprieve is not None:
                return True
            if after not in seen:
                if len(seen) >= limit:
                    return False
                seen.add(after)
                queue.append(after)
    return False


def stages(start: Position, moves: Sequence[Move]) -> list[tuple[int, bool]]:
    """Per deal along ``moves``: (empty columns it was made with, a reprieve in reach after it)."""
    position, out = start, []
    for move in moves:
        empty = sum(not cards for cards in position.columns)
        position = position.apply(move)
        if move == DEAL and position.stock:
            out.append((empty, in_reach(position)))
    return out


class Row(NamedTuple):
    """One deal, as ``study`` finds it."""

    deal: int
    result: str  # the fair game's
    fair_reprieves: int
    fair_breaks: list[int]  # before each deal
    verdict: str  # the solver's
    solver_reprieves: int
    solver_breaks: list[int]
    fair_stages: list[tuple[int, bool]]  # per deal: empty columns, a reprieve in reach after it
    solver_stages: list[tuple[int, bool]]


def study(job: tuple[str, int, int, tuple[tuple[str, ...], str] | None, bool]) -> Row:
    """One deal: the fair game's (result, reprieves, breaks), then the solver's, then stages."""
    variant, deal, budget, played, staged = job
    game = Game.new(variant, deal)
    start = game.position
    if played is None:
        result = fair.autoplay(game).result
    else:
        moves, result = played
        for move in moves:
            game.play(move)
    fair_reprieves, fair_breaks = profile(start, game.moves)
    verdict, line, _ = compiled.search(
        start, timeout=None, max_positions=budget, max_memory_mb=512, progress=None
    )
    solver_reprieves, solver_breaks = profile(start, line) if verdict == "won" else (0, [])
    fair_stages = stages(start, game.moves) if staged else []
    solver_stages = stages(start, line) if staged and verdict == "won" else []
    return Row(
        deal,
        result,
        fair_reprieves,
        fair_breaks,
        verdict,
        solver_reprieves,
        solver_breaks,
        fair_stages,
        solver_stages,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", default="1-16", help="deal numbers, e.g. 1-16 or 3,7,10-12")
    parser.add_argument("--max-positions", type=int, default=3_000_000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--results", help="take the fair games from this study store")
    parser.add_argument("--stages", action="store_true", help="reprieves in reach at each deal")
    args = parser.parse_args()
    if not compiled.AVAILABLE:
        raise SystemExit("the compiled core is needed (pip install . with a C compiler)")
    deals = parse_deals(args.deals)
    played: dict[int, tuple[tuple[str, ...], str]] = {}
    if args.results:
        wanted = set(deals)
        with ResultStore(args.results) as store:
            played = {
                play.deal: (tuple(play.moves), play.result)
                for play in store.plays(args.variant, "fair", Player.fair().settings())
                if play.deal in wanted
            }
        deals = [deal for deal in deals if deal in played]
    jobs = [
        (args.variant, deal, args.max_positions, played.get(deal), args.stages) for deal in deals
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(study, jobs, chunksize=1))
    print(
        "| deal | fair player | reprieves | breaks before each deal | solver | reprieves "
        "| breaks before each deal |"
    )
    print("|---:|---|---:|---|---|---:|---|")
    for row in rows:
        solver = (
            f"{row.solver_reprieves} | {' '.join(map(str, row.solver_breaks))}"
            if row.verdict == "won"
            else "|"
        )
        print(
            f"| {row.deal} | {row.result} | {row.fair_reprieves} "
            f"| {' '.join(map(str, row.fair_breaks))} | {row.verdict} | {solver} |"
        )
    groups = {
        "fair player, won": [row.fair_reprieves for row in rows if row.result == "won"],
        "fair player, not won": [row.fair_reprieves for row in rows if row.result != "won"],
        "solver, won": [row.solver_reprieves for row in rows if row.verdict == "won"],
    }
    for name, counts in groups.items():
        if counts:
            print(
                f"{name}: {len(counts)} games, reprieves per game median "
                f"{statistics.median(counts):g} (range {min(counts)}-{max(counts)})"
            )
    if args.stages:
        print(
            "\n| line | deals | a reprieve in reach after it | made with 0 empty columns "
            "| with 1 | with 2 or more |"
        )
        print("|---|---:|---:|---:|---:|---:|")
        lines = {
            "fair player": [stage for row in rows for stage in row.fair_stages],
            "solver, won": [stage for row in rows for stage in row.solver_stages],
        }
        for name, deals_made in lines.items():
            made: Counter[int] = Counter()
            reached: Counter[int] = Counter()
            for empty, reach in deals_made:
                made[min(empty, 2)] += 1
                reached[min(empty, 2)] += reach
            total = sum(made.values())
            if not total:
                continue
            cells = " | ".join(
                f"{reached[e] / made[e]:.0%} of {made[e]}" if made[e] else "-" for e in (0, 1, 2)
            )
            print(f"| {name} | {total} | {sum(reached.values()) / total:.0%} | {cells} |")


if __name__ == "__main__":
    main()
