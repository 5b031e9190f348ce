"""Confidence intervals and quantiles used by the simulation reports."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rallye.sim.stats import clustered_ci95, clustered_mean_ci95, mean_ci, median_iqr, quantile, rate_ci95, t95, wilson


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


def test_t95_matches_students_t() -> None:
    stats = pytest.importorskip("scipy.stats")  # scipy comes with the rl extra (open_spiel)
    for df in [*range(1, 61), 80, 120, 500, 10_000]:
        assert t95(df) == pytest.approx(stats.t.ppf(0.975, df), abs=1e-4), df
    with pytest.raises(ValueError, match="at least 1"):
        t95(0)


def test_clustered_interval_by_hand() -> None:
    # 8 deals of 2 matches: 2, 1 (six times), 0 wins; p = 8/16; residuals 1, 0 ..., -1;
    # var = 8/7 * 2 / 16**2 = 1/112; half-width t95(7) * sqrt(1/112)
    lo, hi = clustered_ci95([(2, 2), *[(1, 2)] * 6, (0, 2)])
    half = 2.3646 * math.sqrt(1 / 112)
    assert (lo, hi) == pytest.approx((0.5 - half, 0.5 + half))
    assert clustered_ci95([(2, 2), (1, 2), (1, 2), (0, 2)]) == (0.0, 1.0)  # t95(3) is wide: clipped
    assert clustered_ci95([(3, 4)]) == (0.0, 1.0)  # one deal: nothing known about deals
    assert clustered_ci95([(0, 0), (1, 2)]) == (0.0, 1.0)  # an empty cluster does not count
    with pytest.raises(ValueError, match="successes <= trials"):
        clustered_ci95([(3, 2), (1, 2)])


_DEAL = st.integers(1, 24).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n)))  # (wins, matches)


@settings(max_examples=200, deadline=None)
@given(st.lists(_DEAL, min_size=1, max_size=40))
def test_reported_interval_is_never_narrower_than_wilsons(clusters: list[tuple[int, int]]) -> None:
    lo, hi = rate_ci95(clusters)
    wins, n = sum(s for s, _ in clusters), sum(t for _, t in clusters)
    wlo, whi = wilson(wins, n)
    assert 0.0 <= lo <= wlo and whi <= hi <= 1.0
    assert lo <= wins / n <= hi


def test_deals_that_go_all_one_way_are_few_pieces_of_evidence() -> None:
    """48 matches in 2 deals of 24 each won wholly by one side say little: Wilson's
    interval over the matches would be far narrower than what two deals can show."""
    assert rate_ci95([(24, 24), (0, 24)]) == (0.0, 1.0)
    many = [(24, 24), (0, 24)] * 20  # 40 deals: the clustered interval is still the wider
    lo, hi = rate_ci95(many)
    wlo, whi = wilson(480, 960)
    assert hi - lo > 3 * (whi - wlo)


def test_interval_widens_when_a_deals_games_agree_and_never_narrows() -> None:
    agree = [[1.0, 1.0]] * 10 + [[0.0, 0.0]] * 10  # every deal's two games go one way
    split = [[1.0, 0.0]] * 20  # every deal's two games go opposite ways
    singles = [[v] for g in agree for v in g]  # the same 40 values, one game a deal
    m, lo_a, hi_a = clustered_mean_ci95(agree)
    _, lo_i, hi_i = clustered_mean_ci95(singles)
    _, lo_s, hi_s = clustered_mean_ci95(split)
    assert m == pytest.approx(0.5)
    assert hi_a - lo_a > hi_i - lo_i  # 20 independent deals, not 40 games
    # split deals: the clustered variance is 0, the per-game interval of the same values stands
    assert (lo_s, hi_s) == pytest.approx((lo_i, hi_i))
    assert clustered_mean_ci95([[0.3, 0.5]])[1:] == (float("-inf"), float("inf"))
    with pytest.raises(ValueError):
        clustered_mean_ci95([[]])
