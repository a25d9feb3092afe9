"""Fit the correction of a hint's win chance (milligan.solver.estimate); test it on held-out deals.

    python3 bench/calibration.py --variant spanish --deals 1-200 --rows 12,9,6,3,1 \\
        --workers 2 --dump spanish-4M.jsonl                  # and --max-positions 2000000
    python3 bench/chancefit.py spanish-4M.jsonl spanish-2M.jsonl --held-out 101-200

Each line of the input files is one decision of the shipped fair player,
made again at a deal of a committed study game (``bench/calibration.py
--dump``): the samples its plan won and those whose solve ran out, how far
the game had gone, and whether the game, following such hints, was won.
The decisions with some samples won and some not are fitted, per variant,
with a logistic model (the module docstring of
``milligan.solver.estimate`` gives it); the two ends stay at 0 and 1.

First the model is fitted on the decisions of every deal *not* in
``--held-out`` and tested on the others: for each input file, the Brier
score (mean squared difference from the game's result, lower is better)
of the share shown before, of the corrected chance, and of a constant (the
share of games won), and tables of the corrected chance against the share
of games won, by the chance shown and by the rows left in the stock.  Then
it is fitted on every decision, and the coefficients to
ship are printed as Python.  With ``--shipped`` nothing is fitted: the
correction that ships is tested on every decision of the files (deals it
was not fitted on).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

import numpy as np

from milligan.solver.estimate import CORRECTIONS, Correction, chance, features, progress
from milligan.survey.runner import parse_deals
from milligan.survey.stats import wilson_interval

#: The groups of the held-out table: corrected chances from ``low`` to ``high`` (in %).
GROUPS = ((0, 0), (1, 24), (25, 49), (50, 74), (75, 99), (100, 100))
#: The weight of the ridge penalty on the coefficients (not the intercept).
RIDGE = 1e-3
HEADS = (
    "| file | held-out decisions | games won | Brier, share | Brier, corrected | Brier, constant |",
    "| chance shown | decisions | mean share before | mean corrected | games won | Wilson 95% |",
)


class Decision(NamedTuple):
    """One line of a ``bench/calibration.py --dump`` file."""

    variant: str
    deal: int
    rows_left: int
    rows: int
    samples: int
    wins: int
    unsettled: int
    won: bool

    @property
    def inner(self) -> bool:
        """Whether the share lies strictly between 0 and 1 (the ends are not corrected)."""
        return 0 < self.wins < self.samples

    @property
    def played(self) -> float:
        return progress(self.rows_left, self.rows)

    def features(self) -> tuple[float, ...]:
        """The model's inputs (milligan.solver.estimate.features)."""
        return features(self.wins, self.samples, self.unsettled, self.played)

    def shown(self, correction: Correction | None) -> float:
        """The chance shown: the share (``correction`` None) or the corrected one."""
        return chance(correction, self.wins, self.samples, self.unsettled, self.played)


def load(path: str) -> list[Decision]:
    return [
        Decision(*(json.loads(line)[field] for field in Decision._fields))
        for line in Path(path).read_text().splitlines()
    ]


def fit(decisions: list[Decision]) -> Correction:
    """The maximum-likelihood logistic fit (Newton's method, a light ridge) of ``decisions``.

    A chance must not fall as more samples are won, so the weight of the
    share at the opening (``share``) is kept at 0 or above: when the free
    fit makes it negative, it is fitted again without that term.  (The
    weight once the stock is out, ``share + late``, is checked by the tests
    of milligan.solver.estimate.)
    """
    x = np.array([d.features() for d in decisions if d.inner])
    y = np.array([float(d.won) for d in decisions if d.inner])
    beta = _newton(x, y)
    if beta[1] < 0:
        beta = np.insert(_newton(np.delete(x, 1, axis=1), y), 1, 0.0)
    return Correction(*(round(float(b), 4) for b in beta))


def _newton(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    beta = np.zeros(x.shape[1])
    penalty = RIDGE * np.diag([0.0] + [1.0] * (x.shape[1] - 1))
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ beta))
        gradient = x.T @ (y - p) - penalty @ beta
        hessian = x.T @ (x * (p * (1 - p))[:, None]) + penalty
        step = np.linalg.solve(hessian, gradient)
        beta = beta + step
        if np.max(np.abs(step)) < 1e-10:
            break
    return beta


def brier(decisions: list[Decision], correction: Correction | None) -> float:
    """The mean squared difference between the chance shown and the result (0 or 1)."""
    return sum((d.shown(correction) - d.won) ** 2 for d in decisions) / len(decisions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dumps", nargs="+", help="files written by bench/calibration.py --dump")
    parser.add_argument("--held-out", default="101-200", help="the deals the first fit leaves out")
    parser.add_argument(
        "--shipped",
        action="store_true",
        help="fit nothing: test the shipped correction on every decision of the files",
    )
    args = parser.parse_args()
    files = {path: load(path) for path in args.dumps}
    every = [d for found in files.values() for d in found]
    variants = {d.variant for d in every}
    if len(variants) != 1:
        raise SystemExit(f"one variant at a time, not {sorted(variants)}")
    variant = variants.pop()
    if args.shipped:
        held = {d.deal for d in every}
        trained = CORRECTIONS[variant]
        print(f"{variant}: the shipped correction, {trained}")
    else:
        held = set(parse_deals(args.held_out))
        training = [d for d in every if d.deal not in held]
        trained = fit(training)
        count = len(training)
        print(f"{variant}: fitted on the {count} decisions of deals not held out, {trained}")
    print()
    print(HEADS[0])
    print("|---|" + "---:|" * 5)
    files = {path: found for path, found in files.items() if any(d.deal in held for d in found)}
    for path, found in files.items():
        test = [d for d in found if d.deal in held]
        won = sum(d.won for d in test) / len(test)
        print(
            f"| {Path(path).name} | {len(test)} | {100 * won:.0f}% | {brier(test, None):.3f} "
            f"| {brier(test, trained):.3f} | {won * (1 - won):.3f} |"
        )
    for path, found in files.items():
        print()
        print(f"{Path(path).name}, held out:")
        print(HEADS[1])
        print("|---|" + "---:|" * 5)
        groups: dict[tuple[int, int], list[Decision]] = defaultdict(list)
        for d in found:
            if d.deal in held:
                percent = round(100 * d.shown(trained))
                groups[next(g for g in GROUPS if g[0] <= percent <= g[1])].append(d)
        for group in GROUPS:
            label = f"{group[0]}–{group[1]}%" if group[0] != group[1] else f"{group[0]}%"
            _row(label, groups[group], trained)
        print()
        print(HEADS[1].replace("chance shown", "rows left"))
        print("|---|" + "---:|" * 5)
        for left in sorted({d.rows_left for d in found}, reverse=True):
            _row(str(left), [d for d in found if d.deal in held and d.rows_left == left], trained)
    if args.shipped:
        return
    final = fit(every)
    inner = sum(d.inner for d in every)
    print()
    print(f"fitted on all {len(every)} decisions ({inner} with a share inside 0–1):")
    print(f'    "{variant}": {final!r},')


def _row(label: str, rows: list[Decision], trained: Correction) -> None:
    if not rows:
        print(f"| {label} | 0 | | | | |")
        return
    won = sum(d.won for d in rows)
    low, high = wilson_interval(won, len(rows))
    before = sum(d.shown(None) for d in rows) / len(rows)
    after = sum(d.shown(trained) for d in rows) / len(rows)
    print(
        f"| {label} | {len(rows)} | {100 * before:.0f}% | {100 * after:.0f}% "
        f"| {won} ({100 * won / len(rows):.0f}%) | {100 * low:.0f}–{100 * high:.0f}% |"
    )


if __name__ == "__main__":
    main()
