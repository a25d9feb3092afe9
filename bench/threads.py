"""A fair decision on one thread and on several: the same plan, how much sooner.

    python3 bench/threads.py                                   # classic deals 1-4
    python3 bench/threads.py --variant spanish --deals 1-4 --threads 2
    python3 bench/threads.py --positions 2000000

For each deal, the fair player plays its first ``--decisions`` decisions.
Each decision is made twice from the same observation, line and seed, with
``threads=1`` and with ``--threads``, one after the other; the two plans
must be equal (the run stops if they are not), and the wall times are
compared as a ratio in the same run, since this machine is shared. The game
goes on along the plan.
"""

from __future__ import annotations

import argparse
import statistics
import time

from milligan.game import Game
from milligan.solver import fair
from milligan.survey.runner import parse_deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", default="1-4", help="deal numbers, e.g. 1-4 or 2,7")
    parser.add_argument("--decisions", type=int, default=6, help="decisions per deal")
    parser.add_argument("--positions", type=int, default=fair.DEFAULT_POSITIONS)
    parser.add_argument("--samples", type=int, default=fair.DEFAULT_SAMPLES)
    parser.add_argument("--threads", type=int, default=fair.default_threads())
    args = parser.parse_args()
    budget = {"samples": args.samples, "max_positions": args.positions}
    alone: list[float] = []
    together: list[float] = []
    for deal in parse_deals(args.deals):
        game = Game.new(args.variant, deal)
        seen = [position.observe() for position in game.positions]
        for _ in range(args.decisions):
            if game.status != "playing":
                break
            seed = len(game.moves)
            began = time.perf_counter()
            one = fair.decide(seen[-1], seen[:-1], seed=seed, threads=1, **budget)
            middle = time.perf_counter()
            many = fair.decide(seen[-1], seen[:-1], seed=seed, threads=args.threads, **budget)
            end = time.perf_counter()
            if one != many:
                raise SystemExit(f"deal {deal}, move {seed}: the plans differ")
            alone.append(middle - began)
            together.append(end - middle)
            endgame = " (endgame: one search)" if fair._in_endgame(seen[-1]) else ""
            print(
                f"deal {deal}, move {seed}: {alone[-1]:.2f} s on 1 thread, {together[-1]:.2f} s "
                f"on {args.threads} ({alone[-1] / together[-1]:.2f}x){endgame}",
                flush=True,
            )
            for move in one.moves:
                game.play(move)
                seen.append(game.position.observe())
    print(
        f"{args.variant}, deals {args.deals}, {len(alone)} decisions of {args.positions:,} "
        f"positions, every plan the same: 1 thread {sum(alone):.1f} s (median "
        f"{statistics.median(alone):.2f} s), {args.threads} threads {sum(together):.1f} s "
        f"(median {statistics.median(together):.2f} s): {sum(alone) / sum(together):.2f}x"
    )


if __name__ == "__main__":
    main()
