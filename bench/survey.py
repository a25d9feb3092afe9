"""Survey scaling: deals per minute with 1 and 2 workers, and the efficiency ratio.

    python3 bench/survey.py                      # classic deals 1-100, 200,000 positions each
    python3 bench/survey.py --variant one-deck --deals 1-200 --max-positions 20000
    python3 bench/survey.py --engine dask        # the same on a Dask LocalCluster

Each deal runs under a position limit (no time limit), so both runs do the same
work whatever the load; each run writes a fresh results file. The efficiency is
the 2-worker rate divided by twice the 1-worker rate (1.0 = perfect scaling).
The runs alternate (1, 2, 1, 2...) and the best rate of each counts, since
other processes on a shared machine only ever slow a run down; the load
average is printed too.
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
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", default="1-100")
    parser.add_argument("--max-positions", type=int, default=200_000)
    parser.add_argument("--engine", choices=["local", "dask"], default="local")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the best rate counts")
    args = parser.parse_args()

    deals = parse_deals(args.deals)
    limits = Limits(timeout=None, max_positions=args.max_positions, max_memory_mb=256)
    print(f"{args.variant} deals {args.deals}, {limits} per deal, {args.engine} engine")
    print(f"cores: {os.cpu_count()}; load average before: {os.getloadavg()[0]:.2f}")
    rates: dict[int, list[float]] = {1: [], 2: []}
    for round_ in range(1, args.repeat + 1):
        for workers in (1, 2):  # interleaved, so a burst of load hits both alike
            rates[workers].append(rate(args.engine, workers, args.variant, deals, limits))
            print(f"round {round_}, {workers} worker(s): {rates[workers][-1]:8.1f} deals/min")
    one, two = max(rates[1]), max(rates[2])
    print(f"best of {args.repeat}: 1 worker {one:.1f} deals/min, 2 workers {two:.1f} deals/min")
    print(f"efficiency (2 workers / 2 x 1 worker): {two / (2 * one):.2f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
