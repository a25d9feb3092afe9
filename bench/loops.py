"""Does the fair player ever go round in circles?  Every game of the study replayed.

    python3 bench/loops.py                                   # docs/data/survey.sqlite3
    python3 bench/loops.py --results other.sqlite3 --workers 1

Every game the fair player has in the ``plays`` table of ``--results`` is
replayed through the engine from its deal number. It prints how many
positions came back that the game had already been through (the issue's aim
is none), and how many games stored as won do not end won, or the other way
round.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from milligan.game import Game
from milligan.survey.results import Play, ResultStore


def replay(play: Play) -> tuple[int, bool]:
    """(positions repeated, won as stored or not won as stored) of one stored game."""
    game = Game.new(play.variant, play.deal)
    for move in play.moves:
        game.play(move)
    return len(game.positions) - len(set(game.positions)), (game.status == "won") == (
        play.result == "won"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", default="docs/data/survey.sqlite3")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with ResultStore(args.results) as store:
        plays = store.plays(player="fair")
    began = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        out = list(pool.map(replay, plays, chunksize=50))
    print(
        f"{len(plays):,} games of the fair player, {sum(len(p.moves) for p in plays):,} moves "
        f"replayed in {time.perf_counter() - began:.0f} s: "
        f"{sum(repeated for repeated, _ in out)} positions repeated, "
        f"{sum(not as_stored for _, as_stored in out)} results other than stored"
    )


if __name__ == "__main__":
    main()
