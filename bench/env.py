"""Random masked steps per second of the Gymnasium environment (one core).

    python bench/env.py                       # classic, 20,000 steps
    python bench/env.py --variant one-deck --steps 50000
    python bench/env.py --variant spanish --no-dead-ends

A random agent picks uniformly among the legal actions (``info["action_mask"]``)
through ``gymnasium.make`` (so with Gymnasium's own wrappers and the 2,000-step
limit), resetting on every episode end; it prints steps per CPU second (the
figure to quote on a shared machine), per wall second, and how the episodes
ended.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import gymnasium
import numpy as np

from milligan.env import ENV_IDS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic", choices=sorted(ENV_IDS))
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--no-dead-ends", action="store_true", help="skip the dead-end search (dead_ends=False)"
    )
    args = parser.parse_args()

    env = gymnasium.make(
        ENV_IDS[args.variant], disable_env_checker=True, dead_ends=not args.no_dead_ends
    )
    rng = np.random.default_rng(args.seed)
    _, info = env.reset(seed=args.seed)
    ends: Counter[str] = Counter()
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(args.steps):
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            ends["truncated" if truncated else info["status"]] += 1
            _, info = env.reset()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"{args.variant}: {args.steps / cpu:,.0f} random masked steps per CPU second "
        f"({args.steps / seconds:,.0f} per wall second; {args.steps:,} steps; "
        f"episodes ended: {dict(ends)})"
    )


if __name__ == "__main__":
    main()
