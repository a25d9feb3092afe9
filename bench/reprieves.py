"""Reprieves and breaks: the fair player's games beside the complete-knowledge solver's wins.

    python3 bench/reprieves.py --deals 1-16
    python3 bench/reprieves.py --deals 1-40 --workers 2

For each deal, the fair player autoplays it as shipped, and the solver
(``compiled.search``, which sees the stock) solves it with
``--max-positions``. For both lines the bench counts the reprieves opened
and, before each deal, the breaks on the table (cards not lying on a card
one rank higher and of the other colour, as the table heuristic counts
them). A diagnostic of where the fair player's games go another way than
the solver's; nothing is written.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from milligan.game import Game
from milligan.moves import DEAL, Move
from milligan.position import Position
from milligan.solver import compiled, fair
from milligan.survey.runner import parse_deals


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


def study(job: tuple[str, int, int]) -> tuple[int, str, int, list[int], str, int, list[int]]:
    """One deal: the fair game's (result, reprieves, breaks), then the solver's."""
    variant, deal, budget = job
    game = Game.new(variant, deal)
    start = game.position
    result = fair.autoplay(game).result
    fair_reprieves, fair_breaks = profile(start, game.moves)
    verdict, line, _ = compiled.search(
        start, timeout=None, max_positions=budget, max_memory_mb=512, progress=None
    )
    solver_reprieves, solver_breaks = profile(start, line) if verdict == "won" else (0, [])
    return deal, result, fair_reprieves, fair_breaks, verdict, solver_reprieves, solver_breaks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", default="1-16", help="deal numbers, e.g. 1-16 or 3,7,10-12")
    parser.add_argument("--max-positions", type=int, default=3_000_000)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    if not compiled.AVAILABLE:
        raise SystemExit("the compiled core is needed (pip install . with a C compiler)")
    jobs = [(args.variant, deal, args.max_positions) for deal in parse_deals(args.deals)]
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(study, jobs, chunksize=1))
    print(
        "| deal | fair player | reprieves | breaks before each deal | solver | reprieves "
        "| breaks before each deal |"
    )
    print("|---:|---|---:|---|---|---:|---|")
    for deal, result, f_rep, f_breaks, verdict, s_rep, s_breaks in rows:
        solver = f"{s_rep} | {' '.join(map(str, s_breaks))}" if verdict == "won" else "|"
        print(
            f"| {deal} | {result} | {f_rep} | {' '.join(map(str, f_breaks))} "
            f"| {verdict} | {solver} |"
        )
    groups = {
        "fair player, won": [row[2] for row in rows if row[1] == "won"],
        "fair player, not won": [row[2] for row in rows if row[1] != "won"],
        "solver, won": [row[5] for row in rows if row[4] == "won"],
    }
    for name, counts in groups.items():
        if counts:
            print(
                f"{name}: {len(counts)} games, reprieves per game median "
                f"{statistics.median(counts):g} (range {min(counts)}-{max(counts)})"
            )


if __name__ == "__main__":
    main()
