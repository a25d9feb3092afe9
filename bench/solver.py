"""Solver benchmark: raw search speed, then deals 1-N of each variant at a fixed limit.

    python3 bench/solver.py                      # the figures in docs/BENCHMARKS.md
    python3 bench/solver.py --deals 20 --max-positions 50000 --variants spanish
    python3 bench/solver.py --deals 1000 --timeout 10 --variants classic --no-speed

Speed is the compiled core's complete DFS alone (expanded positions per
second, no shortening); the staged rate is a whole search as ``solve`` runs it
(staged rounds, then the complete DFS), still without the shortening.  The
per-variant table solves each deal with ``solve`` (staged search, complete
search, shortening and the engine replay of every win) under a position
limit, so the verdicts do not depend on the machine, or under ``--timeout``
seconds per deal; times are wall seconds per deal, and positions/s is the
whole table's throughput.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterable

from milligan.game import Game
from milligan.position import Position
from milligan.solver import compiled, solve
from milligan.variants import PRESETS


def timed(
    variant: str, deals: Iterable[int], run: Callable[[Position], tuple[str, int]]
) -> tuple[int, float, float, int]:
    """``run`` on each deal's start: (positions, wall seconds, CPU seconds, deals won)."""
    total = won = 0
    seconds = cpu = 0.0
    for number in deals:
        start = Game.new(variant, number).position
        began = time.perf_counter()
        began_cpu = time.process_time()
        verdict, expanded = run(start)
        seconds += time.perf_counter() - began
        cpu += time.process_time() - began_cpu
        total += expanded
        won += verdict == "won"
    return total, seconds, cpu, won


def speed(deals: range, positions: int, memory_mb: int) -> None:
    """Expanded positions per second of the compiled core on ``spanish``."""

    def dfs(start: Position) -> tuple[str, int]:
        verdict, _, expanded = compiled.complete(
            compiled.encode(start),
            memory_mb * 1024 * 1024,
            compiled.Budget(max_positions=positions, timeout=None, progress=None),
        )
        return verdict, expanded

    total, seconds, cpu, _ = timed("spanish", deals, dfs)
    print(
        f"speed: spanish deals {deals.start}-{deals.stop - 1}, up to {positions:,} positions "
        f"each, {memory_mb} MiB table: {total:,} positions in {seconds:.2f} s wall = "
        f"{total / seconds:,.0f} positions/s; {cpu:.2f} s CPU = {total / cpu:,.0f} "
        f"positions per CPU second"
    )


def staged_speed(variant: str, deals: tuple[int, ...], positions: int, memory_mb: int) -> None:
    """Positions per CPU second of a whole search (staged rounds, then the complete DFS).

    ``compiled.search`` as ``solve`` runs it, without the shortening and the
    replay of a win: the staged rounds' Python work per beam position counts.
    """

    def whole(start: Position) -> tuple[str, int]:
        verdict, _, expanded = compiled.search(
            start, timeout=None, max_positions=positions, max_memory_mb=memory_mb, progress=None
        )
        return verdict, expanded

    total, _, cpu, won = timed(variant, deals, whole)
    print(
        f"staged: {variant} deals {', '.join(map(str, deals))} ({won} won), up to "
        f"{positions:,} positions each, {memory_mb} MiB table: {total:,} positions in "
        f"{cpu:.2f} s CPU = {total / cpu:,.0f} positions per CPU second"
    )


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def survey(
    variant: str, deals: range, positions: int | None, timeout: float | None, memory_mb: int
) -> None:
    counts = {"won": 0, "lost": 0, "unknown": 0}
    times: list[float] = []
    lengths: list[int] = []
    expanded = 0
    for number in deals:
        began = time.perf_counter()
        result = solve(
            Game.new(variant, number),
            max_positions=positions,
            timeout=timeout,
            max_memory_mb=memory_mb,
        )
        times.append(time.perf_counter() - began)
        expanded += result.positions
        counts[result.result] += 1
        if result.result == "won":
            lengths.append(len(result.moves))
    n = len(deals)
    decided = counts["won"] + counts["lost"]
    length = f"{statistics.median(lengths):.0f} / {max(lengths)}" if lengths else "-"
    print(
        f"| {variant} | {n} | {100 * decided / n:.1f}% | {counts['won']} / {counts['lost']} / "
        f"{counts['unknown']} | {statistics.median(times):.2f} s | "
        f"{percentile(times, 0.95):.2f} s | {length} | {expanded / sum(times):,.0f} |",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="deals 1..N (default 200)")
    parser.add_argument(
        "--max-positions", type=int, default=5_000_000, help="per-deal limit (default 5000000)"
    )
    parser.add_argument(
        "--timeout", type=float, default=None, help="per-deal limit in seconds instead of positions"
    )
    parser.add_argument("--max-memory", type=int, default=64, help="table MiB (default 64)")
    parser.add_argument("--variants", default=",".join(PRESETS), help="comma-separated")
    parser.add_argument("--speed-positions", type=int, default=2_000_000)
    parser.add_argument("--no-speed", action="store_true", help="skip the speed figure")
    args = parser.parse_args()
    if not compiled.AVAILABLE:
        print("the compiled core is not built", file=sys.stderr)
        return 1
    if not args.no_speed:
        for megabytes in (16, 1024):
            speed(range(2, 7), args.speed_positions, megabytes)
        # Deals no search wins within 2,000,000 positions: every pass spends its share.
        staged_speed("spanish", (12, 19, 21, 23, 24), args.speed_positions, 64)
        staged_speed("classic", (23, 24, 37, 40, 53), args.speed_positions, 64)
        print()
    positions = None if args.timeout else args.max_positions
    limit = f"{args.timeout:g} s" if args.timeout else f"{args.max_positions:,} positions"
    print(f"deals 1-{args.deals}, limit {limit} per deal, {args.max_memory} MiB table")
    print(
        "| variant | deals | decided | won / lost / unknown | median time | p95 time "
        "| moves median / max | positions/s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for variant in args.variants.split(","):
        survey(variant, range(1, args.deals + 1), positions, args.timeout, args.max_memory)
    return 0


if __name__ == "__main__":
    sys.exit(main())
