"""The figures of a survey report: counts, win-rate intervals and solve times."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from milligan.survey.results import Limits, Result

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    >>> low, high = wilson_interval(5, 10)
    >>> round(low, 4), round(high, 4)
    (0.2366, 0.7634)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be between 0 and trials, not {successes} of {trials}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0–100) by linear interpolation; None when empty.

    >>> percentile([1, 2, 3, 4], 50)
    2.5
    >>> percentile([3, 1, 2], 95)
    2.9
    """
    if not values:
        return None
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    below = math.floor(rank)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (rank - below)


@dataclass(frozen=True, slots=True)
class VariantSummary:
    """One variant's line of the report (each deal counted once, by its best attempt)."""

    variant: str
    deals: int
    won: int
    lost: int
    unknown: int
    median_seconds: float | None
    p95_seconds: float | None
    first_deal: int | None
    last_deal: int | None
    limits: tuple[Limits, ...]

    @property
    def decided(self) -> int:
        return self.won + self.lost

    @property
    def won_share(self) -> tuple[float, float] | None:
        """The observed win rate's range: unknowns all lost, then all won."""
        if not self.deals:
            return None
        return (self.won / self.deals, (self.won + self.unknown) / self.deals)

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson bounds: unknowns count as lost for the lower, as won for the upper."""
        low = wilson_interval(self.won, self.deals)[0]
        high = wilson_interval(self.won + self.unknown, self.deals)[1]
        return (low, high)


def summarize(variant: str, verdicts: Iterable[Result]) -> VariantSummary:
    """Summarize the best attempts of one variant's deals.

    Solve times are those of decided deals (an ``unknown`` only says how long
    the limit was), in CPU seconds where they were recorded.
    """
    rows = [result for result in verdicts if result.variant == variant]
    counts = {verdict: 0 for verdict in ("won", "lost", "unknown")}
    for result in rows:
        counts[result.verdict] += 1
    times = [result.solve_time for result in rows if result.decided]
    deals = [result.deal for result in rows]
    limits = tuple(sorted({result.limits for result in rows}, key=_limits_order))
    return VariantSummary(
        variant=variant,
        deals=len(rows),
        won=counts["won"],
        lost=counts["lost"],
        unknown=counts["unknown"],
        median_seconds=percentile(times, 50),
        p95_seconds=percentile(times, 95),
        first_deal=min(deals) if deals else None,
        last_deal=max(deals) if deals else None,
        limits=limits,
    )


def _limits_order(limits: Limits) -> tuple[float, float, float]:
    def value(x: float | None) -> float:
        return math.inf if x is None else x

    return (value(limits.timeout), value(limits.max_positions), value(limits.max_memory_mb))
