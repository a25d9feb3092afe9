"""Does the fair player ever go round in circles?  Every game of the study replayed.

    python3 bench/loops.py                                   # docs/data/survey.sqlite3
    python3 bench/loops.py --results other.sqlite3 --workers 1

Every game the fair player has in the ``plays`` table of ``--results`` is
replayed through the engine from its deal number. It prints how many
positions came back that the game had already been through (the issue's aim
is none), and how many games end otherwise than their stored result says.
"""

from __future__ import annotations

import argparse
import sqlite3
import time
from concurrent.futures import ProcessPoolExecutor

from milligan.game import Game
from milligan.moves import Move


def replay(row: tuple[str, int, str, str]) -> tuple[int, bool, int]:
    """(positions repeated, result as stored, moves) of one stored game."""
    variant, deal, result, moves = row
    game = Game.new(variant, deal)
    seen = {game.position}
    repeated = 0
    line = moves.split()
    for move in line:
        game.play(Move.parse(move))
        repeated += game.position in seen
        seen.add(game.position)
    return repeated, (game.status == "won") == (result == "won"), len(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", default="docs/data/survey.sqlite3")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with sqlite3.connect(f"file:{args.results}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT variant, deal, result, moves FROM plays WHERE player = 'fair'"
        ).fetchall()
    began = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        out = list(pool.map(replay, rows, chunksize=50))
    print(
        f"{len(rows):,} games of the fair player, {sum(o[2] for o in out):,} moves replayed "
        f"in {time.perf_counter() - began:.0f} s: {sum(o[0] for o in out)} positions repeated, "
        f"{sum(not o[1] for o in out)} results other than stored"
    )


if __name__ == "__main__":
    main()
