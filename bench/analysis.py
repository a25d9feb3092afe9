"""The cost of post-game analysis (``milligan analyse``) over games the greedy player lost.

    nice -n 10 python bench/analysis.py                        # one-deck and classic, 50 each
    python bench/analysis.py --variants classic --games 20 --max-positions 2000000
    python bench/analysis.py --variants one-deck --winnable   # the deals the survey won

Each game is played by :func:`milligan.solver.baseline.play_greedy` from
deal 1 upwards (with ``--winnable``, only the deals the survey proved
winnable: :func:`milligan.survey.results.known_winnable`); games it won are
skipped, until ``--games`` lost or resigned games per variant are collected.
Each is analysed with the server's budget by default (1,000,000 positions
and 10 s per solve, at most 16 solves), first without the fair player, then
the fair player's drops alone (4 samples, 20,000 positions at each point).
It prints, per variant, how the analyses ended and the solves and seconds
per game (median and maximum).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

from milligan.game import Game
from milligan.solver.analysis import FAIR_POINTS, _fair_drops, analyse
from milligan.solver.baseline import play_greedy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="one-deck,classic")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--max-positions", type=int, default=1_000_000)
    parser.add_argument("--max-solves", type=int, default=16)
    parser.add_argument(
        "--winnable", action="store_true", help="only deals the survey proved winnable"
    )
    args = parser.parse_args()
    print(
        "| variant | games | pinned | range | never winnable | still winnable "
        "| solves median / max | seconds median / max | fair seconds median / max |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for variant in args.variants.split(","):
        solves: list[int] = []
        seconds: list[float] = []
        fair_seconds: list[float] = []
        kinds = {"pinned": 0, "range": 0, "never": 0, "still": 0}
        if args.winnable:
            from milligan.survey.results import known_winnable

            deals = iter(known_winnable(variant))
        else:
            deals = itertools.count(1)
        for deal in deals:
            if len(solves) >= args.games:
                break
            game = Game.new(variant, deal)
            if play_greedy(game) == "won":
                continue
            began = time.monotonic()
            found = analyse(
                game,
                timeout=args.timeout,
                max_positions=args.max_positions,
                max_memory_mb=512,
                max_solves=args.max_solves,
                fair=False,
            )
            seconds.append(time.monotonic() - began)
            solves.append(len(found.verdicts))
            if found.never_winnable:
                kinds["never"] += 1
            elif found.still_winnable:
                kinds["still"] += 1
            elif found.turning_point is not None:
                kinds["pinned"] += 1
            else:
                kinds["range"] += 1
            began = time.monotonic()
            _fair_drops(game, 4, 20_000, FAIR_POINTS, 0)
            fair_seconds.append(time.monotonic() - began)
        which = "winnable deals" if args.winnable else f"deals 1-{deal}"
        print(
            f"| {variant} | {len(solves)} ({which}) | {kinds['pinned']} | "
            f"{kinds['range']} | {kinds['never']} | {kinds['still']} | "
            f"{statistics.median(solves):g} / {max(solves)} | "
            f"{statistics.median(seconds):.1f} / {max(seconds):.1f} | "
            f"{statistics.median(fair_seconds):.1f} / {max(fair_seconds):.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
