"""Confidence intervals and quantiles used by the simulation reports."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rallye.sim.stats import mean_ci, median_iqr, quantile, wilson


@given(st.integers(1, 10_000), st.data())
def test_wilson_interval_lies_in_unit_range_and_contains_the_rate(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_wilson_matches_a_published_value() -> None:
    # Wilson (1927) / Newcombe (1998) example: 81 of 263 -> 0.2553 .. 0.3662
    lo, hi = wilson(81, 263)
    assert lo == pytest.approx(0.2553, abs=1e-4)
    assert hi == pytest.approx(0.3662, abs=1e-4)


def test_wilson_narrows_with_more_trials() -> None:
    w10 = wilson(5, 10)
    w1000 = wilson(500, 1000)
    assert w1000[1] - w1000[0] < w10[1] - w10[0]


def test_wilson_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError, match="successes"):
        wilson(11, 10)
    assert wilson(0, 0) == (0.0, 1.0)


def test_quantiles_interpolate_like_numpy() -> None:
    import numpy as np

    xs = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]
    for q in (0.0, 0.25, 0.5, 0.75, 1.0):
        assert quantile(xs, q) == pytest.approx(float(np.quantile(xs, q)))
    assert median_iqr([1, 2, 3, 4]) == (2.5, 1.75, 3.25)
    with pytest.raises(ValueError):
        quantile([], 0.5)


def test_mean_ci_contains_the_mean() -> None:
    m, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert lo < m == 2.5 < hi
