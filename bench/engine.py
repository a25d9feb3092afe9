"""Engine speed: legal-move generation plus apply over random playouts, and replay.

    python bench/engine.py [--deals 20] [--steps 300] [--seed 1]

Prints, per variant, positions per second (a position = one call of
``legal_moves()`` followed by one ``apply()``), and moves per second when
records of those playouts are replayed through ``Record.replay()``.
The playouts prefer foundation moves, deals and S a little, so that
reprieves close and games advance as a player's would.
"""

from __future__ import annotations

import argparse
import random
import time

from milligan import Move, Position, Record
from milligan.moves import MoveKind
from milligan.variants import PRESETS

PROGRESS = (MoveKind.FOUNDATION, MoveKind.DEAL, MoveKind.STOP)


def playout(position: Position, rng: random.Random, steps: int) -> tuple[list[Move], int]:
    """A random legal line; returns its moves and the positions expanded."""
    moves: list[Move] = []
    expanded = 0
    for _ in range(steps):
        legal = list(position.legal_moves())
        expanded += 1
        if not legal:
            break
        progress = [m for m in legal if m.kind in PROGRESS]
        pool = progress if progress and rng.random() < 0.3 else legal
        move = rng.choice(pool)
        position = position.apply(move)
        moves.append(move)
        if position.is_won():
            break
    return moves, expanded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="playouts per variant")
    parser.add_argument("--steps", type=int, default=300, help="moves per playout at most")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"engine benchmark: {args.deals} playouts of up to {args.steps} moves per variant")
    print(
        f"{'variant':<10} {'positions':>10} {'pos/s':>10} {'replayed':>10} {'replay moves/s':>15}"
    )
    for name, variant in PRESETS.items():
        rng = random.Random(args.seed)
        records: list[Record] = []
        expanded = 0
        start = time.perf_counter()
        for number in range(1, args.deals + 1):
            moves, count = playout(Position.deal(variant, number), rng, args.steps)
            expanded += count
            records.append(Record(variant, number, None, tuple(moves)))
        playout_seconds = time.perf_counter() - start
        replayed = sum(len(r.moves) for r in records)
        start = time.perf_counter()
        for record in records:
            record.replay()
        replay_seconds = time.perf_counter() - start
        print(
            f"{name:<10} {expanded:>10} {expanded / playout_seconds:>10.0f} "
            f"{replayed:>10} {replayed / replay_seconds:>15.0f}"
        )


if __name__ == "__main__":
    main()
