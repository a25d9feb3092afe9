"""Survey scaling: deals per minute with 1 and 2 workers, and the efficiency ratio.

    python3 bench/survey.py                      # one-deck deals 1-60, 3,000 positions each
    python3 bench/survey.py --variant classic --deals 1-20 --max-positions 2000
    python3 bench/survey.py --engine dask        # the same on a Dask LocalCluster

Each deal runs under a position limit (no time limit), so both runs do the same
work whatever the load; each run writes a fresh results file. The efficiency is
the 2-worker rate divided by twice the 1-worker rate (1.0 = perfect scaling).
The machine's load average is printed too: other processes take cores away.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from milligan.survey.results import Limits, ResultStore
from milligan.survey.runner import DaskEngine, Engine, LocalEngine, parse_deals, run_survey


def rate(engine_name: str, workers: int, variant: str, deals: list[int], limits: Limits) -> float:
    """Deals per minute of one survey run, from the first submission to the last result."""
    engine: Engine = LocalEngine(workers) if engine_name == "local" else DaskEngine(None, workers)
    with tempfile.TemporaryDirectory() as directory, ResultStore(Path(directory) / "r") as store:
        # Warm the workers up (process start, imports) on other deals before timing.
        warm = range(10**6, 10**6 + 2 * workers)
        assert run_survey(store, variant, warm, limits, _Keep(engine)).failed == 0
        began = time.perf_counter()
        progress = run_survey(store, variant, deals, limits, engine)
        seconds = time.perf_counter() - began
    if progress.failed:
        raise SystemExit(f"failures: {progress.failures}")
    return 60 * progress.done / seconds


class _Keep:
    """An engine wrapper that is not closed by the survey (for the warm-up)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def slots(self) -> int:
        return self.engine.slots()

    def memory_per_slot_mb(self) -> int | None:
        return self.engine.memory_per_slot_mb()

    def submit(self, task: object) -> object:
        return self.engine.submit(task)  # type: ignore[arg-type]

    def wait(self, handles: object, timeout: float) -> object:
        return self.engine.wait(handles, timeout)  # type: ignore[arg-type]

    def close(self, abort: bool = False) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="one-deck")
    parser.add_argument("--deals", default="1-60")
    parser.add_argument("--max-positions", type=int, default=3000)
    parser.add_argument("--engine", choices=["local", "dask"], default="local")
    args = parser.parse_args()

    deals = parse_deals(args.deals)
    limits = Limits(timeout=None, max_positions=args.max_positions, max_memory_mb=256)
    print(f"{args.variant} deals {args.deals}, {limits} per deal, {args.engine} engine")
    print(f"cores: {os.cpu_count()}; load average before: {os.getloadavg()[0]:.2f}")
    one = rate(args.engine, 1, args.variant, deals, limits)
    print(f"1 worker : {one:8.1f} deals/min")
    two = rate(args.engine, 2, args.variant, deals, limits)
    print(f"2 workers: {two:8.1f} deals/min")
    print(f"efficiency (2 workers / 2 x 1 worker): {two / (2 * one):.2f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
