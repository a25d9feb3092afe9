"""Kept position tables: the fair player's games with and without them, in one run.

    python3 bench/tables.py                    # classic deals 1-6 at the default budget
    python3 bench/tables.py --deals 1-10 --max-positions 300000

The fair player starts some sixty short searches a decision, each with a
fresh position table. The compiled core keeps the tables of ended searches
(up to 64 MB each) for the next ones, zeroing only what was used, instead of
mapping fresh memory that the kernel must fault in page by page
(``_core.reuse_tables``). Each deal is autoplayed twice, with the tables
kept and without, alternating which goes first; the figures are CPU seconds
in user and system mode and minor page faults, summed over the deals, and
the games must come out move for move the same.
"""

from __future__ import annotations

import argparse
import resource
import sys

from milligan.game import Game
from milligan.solver import compiled, fair
from milligan.survey.runner import parse_deals


def play(
    variant: str, deal: int, positions: int, keep: bool
) -> tuple[tuple[str, ...], float, float, int]:
    """(moves, user s, system s, minor faults) of one autoplayed game."""
    assert compiled._core is not None
    compiled._core.reuse_tables(keep)
    game = Game.new(variant, deal)
    before = resource.getrusage(resource.RUSAGE_SELF)
    fair.autoplay(game, max_positions=positions)
    after = resource.getrusage(resource.RUSAGE_SELF)
    return (
        tuple(map(str, game.moves)),
        after.ru_utime - before.ru_utime,
        after.ru_stime - before.ru_stime,
        after.ru_minflt - before.ru_minflt,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", default="1-6", help="deal numbers, e.g. 1-6 or 3,7")
    parser.add_argument("--max-positions", type=int, default=fair.DEFAULT_POSITIONS)
    args = parser.parse_args()
    if not compiled.AVAILABLE:
        print("the compiled core is not built", file=sys.stderr)
        return 2
    totals: dict[bool, list[float]] = {True: [0.0, 0.0, 0.0], False: [0.0, 0.0, 0.0]}
    for index, deal in enumerate(parse_deals(args.deals)):
        order = (True, False) if index % 2 == 0 else (False, True)
        lines: dict[bool, tuple[str, ...]] = {}
        for keep in order:
            moves, user, system, faults = play(args.variant, deal, args.max_positions, keep)
            lines[keep] = moves
            totals[keep][0] += user
            totals[keep][1] += system
            totals[keep][2] += faults
        if lines[True] != lines[False]:
            print(f"deal {deal}: the games differ", file=sys.stderr)
            return 1
    compiled._core.reuse_tables(True)
    print(f"{args.variant} deals {args.deals}, {args.max_positions:,} positions a decision")
    print("| tables | user CPU s | system CPU s | total CPU s | minor faults |")
    print("|---|---:|---:|---:|---:|")
    for keep in (False, True):
        cpu, kernel, paged = totals[keep]
        label = "kept" if keep else "fresh"
        print(f"| {label} | {cpu:.1f} | {kernel:.1f} | {cpu + kernel:.1f} | {int(paged):,} |")
    fresh = sum(totals[False][:2])
    kept = sum(totals[True][:2])
    print(f"total CPU, kept / fresh: {kept / fresh:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
