"""The statistics that ``bench/choices.py`` publishes in docs/SOLVER.md, checked by hand."""

from __future__ import annotations

import math

import pytest

from .conftest import load_bench

choices = load_bench("choices")


@pytest.mark.parametrize(
    ("x", "df"),
    # the 5% critical values of the chi-square tables, for small and large df
    [(3.841459, 1), (5.991465, 2), (18.307038, 10), (124.342113, 100), (233.994, 200)],
)
def test_the_chi_square_tail_at_the_tables_critical_values(x: float, df: int) -> None:
    assert choices.chi_square_tail(x, df) == pytest.approx(0.05, abs=2e-5)


def test_the_chi_square_tail_with_two_degrees_of_freedom_is_an_exponential() -> None:
    for x in (0.1, 1.0, 4.0, 30.0):
        assert choices.chi_square_tail(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-9)
    assert choices.chi_square_tail(0.0, 3) == 1.0


def test_cochrans_q_of_two_candidates_is_mcnemars_statistic() -> None:
    # stocks won by the first only (b), by the second only (c), by both and by neither
    b, c, both, neither = 9, 3, 5, 7
    first = [1] * b + [0] * c + [1] * both + [0] * neither
    second = [0] * b + [1] * c + [1] * both + [0] * neither
    q, df = choices.cochran([first, second])
    assert df == 1
    assert q == pytest.approx((b - c) ** 2 / (b + c))


def test_cochrans_q_is_zero_when_the_candidates_win_the_same_stocks() -> None:
    won = [1, 0, 1, 1, 0, 0, 1, 0]
    assert choices.cochran([won, won, won]) == (0.0, 2)
