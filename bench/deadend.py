"""The dead-end check (docs/RULES.md §6.2) on the last tables of the study's lost games.

    python bench/deadend.py [--variant classic] [--games 0] [--results docs/data/survey.sqlite3]

Every game the fair player lost in the skill study (``plays`` in the results
file, default settings) ends on a dead end or on a table the player gave up.
This replays each to its end and times ``Position.dead_end`` there, and the
plain search it must agree with (``milligan.position.plain_dead_end``), in
CPU seconds of this process.  ``--games`` keeps the first N games (0: all).
Prints the totals, their ratio and the slowest tables.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterable

from milligan import Move, Position
from milligan.position import plain_dead_end
from milligan.survey.results import ResultStore
from milligan.survey.runner import Player
from milligan.variants import Variant


def last_table(variant: str, deal: int, moves: Iterable[str]) -> Position:
    position = Position.deal(Variant.named(variant), deal)
    for text in moves:
        position = position.apply(Move.parse(text))
    return position


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--results", default="docs/data/survey.sqlite3")
    args = parser.parse_args()
    with ResultStore(args.results) as store:
        rows = sorted(
            (play.deal, play.moves)
            for play in store.plays(args.variant, "fair", Player.fair().settings())
            if play.result != "won"
        )
    if args.games:
        rows = rows[: args.games]
    fast_total = plain_total = 0.0
    answers: dict[str, int] = {}
    slowest: list[tuple[float, float, int, bool | None]] = []
    for deal, moves in rows:
        position = last_table(args.variant, deal, moves)
        start = time.process_time()
        fast = position.dead_end()
        middle = time.process_time()
        plain = plain_dead_end(position)
        end = time.process_time()
        if fast != plain:
            raise SystemExit(f"deal {deal}: dead_end says {fast}, the plain search {plain}")
        fast_total += middle - start
        plain_total += end - middle
        answers[str(fast)] = answers.get(str(fast), 0) + 1
        slowest.append((end - middle, middle - start, deal, fast))
    slowest.sort(reverse=True)
    print(f"{args.variant}: the last tables of {len(rows)} lost games; answers {answers}")
    print(f"  dead_end {fast_total:.2f} CPU s, plain search {plain_total:.2f} CPU s", end="")
    print(f", ratio {plain_total / fast_total:.1f}" if fast_total else "")
    for plain_s, fast_s, deal, answer in slowest[:3]:
        ratio = plain_s / fast_s if fast_s else float("inf")
        print(f"  deal {deal}: {answer}, {fast_s:.3f} s against {plain_s:.3f} s ({ratio:.1f}x)")


if __name__ == "__main__":
    main()
