"""Small, dependency-free statistics for simulations and tournaments.

>>> lo, hi = wilson(50, 100)
>>> round(lo, 3), round(hi, 3)
(0.404, 0.596)
>>> median_iqr([1, 2, 3, 4, 5])
(3.0, 2.0, 4.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / n``.

    ``successes`` may be fractional (a drawn match counts as a share of a win). With
    ``n == 0`` nothing is known: ``(0.0, 1.0)``.
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the ends (no rounding dust)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return lo, hi


#: Student's t, two-sided 95% (the 0.975 quantile), for 1 to 30 degrees of freedom.
_T975 = (
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
    2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
    2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
)  # fmt: skip


def t95(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (a table to 30,
    then the Cornish-Fisher expansion, within 1e-4 of the exact value).

    >>> t95(1), t95(10), round(t95(120), 3)
    (12.7062, 2.2281, 1.98)
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


def clustered_ci95(clusters: Sequence[tuple[float, int]]) -> tuple[float, float]:
    """A 95% interval for the rate ``sum(successes) / sum(trials)`` when the trials come in
    clusters that are not independent (the matches of one duplicate deal): the ratio
    estimator's cluster-robust variance, ``D / (D - 1) * sum((s_d - p * n_d) ** 2) / N ** 2``
    over the ``D`` clusters, with Student's t on ``D - 1`` degrees of freedom; clipped to
    ``[0, 1]``. Fewer than two clusters with trials: ``(0.0, 1.0)``, nothing is known about
    how clusters differ.

    >>> clustered_ci95([(2, 2), (0, 2), (1, 2), (2, 2)])  # p = 5/8
    (0.0, 1.0)
    >>> lo, hi = clustered_ci95([(1, 2)] * 50 + [(2, 2)] * 50)
    >>> round(lo, 3), round(hi, 3)
    (0.7, 0.8)
    """
    cs = [(float(s), n) for s, n in clusters if n > 0]
    for s, n in cs:
        if s < 0 or s > n:
            raise ValueError(f"need 0 <= successes <= trials in every cluster, got {s} of {n}")
    if len(cs) < 2:
        return 0.0, 1.0
    p = math.fsum(s for s, _ in cs) / sum(n for _, n in cs)
    half = _clustered_half(cs, p)
    return max(0.0, p - half), min(1.0, p + half)


def _clustered_half(cs: Sequence[tuple[float, int]], mean: float) -> float:
    """Half the 95% interval of the ratio ``mean = sum(s) / sum(n)`` over at least two
    clusters ``(sum of values, count)``: the cluster-robust variance
    ``D / (D - 1) * sum((s_d - mean * n_d) ** 2) / N ** 2``, Student's t on ``D - 1``."""
    d = len(cs)
    total = sum(n for _, n in cs)
    var = d / (d - 1) * math.fsum((s - mean * n) ** 2 for s, n in cs) / (total * total)
    return t95(d - 1) * math.sqrt(var)


def clustered_mean_ci95(clusters: Sequence[Sequence[float]]) -> tuple[float, float, float]:
    """``(mean, low, high)`` of values that come in clusters (a duplicate deal's games, say
    the paired differences of two bots): the mean over every value and a 95% interval, the
    wider of the one that treats every value as independent and :func:`clustered_ci95`'s
    cluster-robust one, both with Student's t (on values - 1 and clusters - 1 degrees of
    freedom). As :func:`rate_ci95` does for rates, duplicate play's negative correlation,
    which would make the clustered interval narrower, is not claimed. One cluster: no
    interval (``-inf``, ``inf``).

    >>> clustered_mean_ci95([[1.0, 0.0]] * 20) == clustered_mean_ci95([[1.0], [0.0]] * 20)
    True
    """
    cs = [(math.fsum(c), len(c)) for c in clusters if c]
    total = sum(n for _, n in cs)
    if total == 0:
        raise ValueError("no values")
    m = math.fsum(s for s, _ in cs) / total
    if len(cs) < 2:
        return m, -math.inf, math.inf
    independent = math.fsum((x - m) ** 2 for c in clusters for x in c) / (total - 1) / total
    half = max(_clustered_half(cs, m), t95(total - 1) * math.sqrt(independent))
    return m, m - half, m + half


def rate_ci95(clusters: Sequence[tuple[float, int]]) -> tuple[float, float]:
    """The 95% interval a tournament reports for a win rate: the wider of the Wilson
    interval over every trial and :func:`clustered_ci95` over the clusters (deals). When
    the matches of a deal go the same way (positively correlated) the clustered interval is
    the honest, wider one; duplicate play's negative correlation would make it narrower
    than Wilson's, which is not claimed. ``clusters`` are ``(successes, trials)``.

    >>> rate_ci95([(1, 2)] * 3) == wilson(3, 6)  # split deals: the clustered one is a point
    True
    >>> rate_ci95([(24, 24), (0, 24)])  # 48 matches, but two deals that went all one way
    (0.0, 1.0)
    """
    wins = math.fsum(s for s, _ in clusters)
    n = sum(t for _, t in clusters)
    wlo, whi = wilson(min(wins, n), n)
    clo, chi = clustered_ci95(clusters)
    return min(wlo, clo), max(whi, chi)


def quantile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated quantile (numpy's default method) of a non-empty sequence."""
    if not values:
        raise ValueError("quantile of no values")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile q must be in [0, 1], got {q}")
    xs = sorted(values)
    pos = (len(xs) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return float(xs[lo] + (xs[hi] - xs[lo]) * (pos - lo))


def median_iqr(values: Sequence[float]) -> tuple[float, float, float]:
    """``(median, first quartile, third quartile)``."""
    return quantile(values, 0.5), quantile(values, 0.25), quantile(values, 0.75)


def mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values) if values else 0.0


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """``(mean, low, high)``: a normal-approximation interval for the mean."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    m = mean(values)
    if n == 1:
        return m, m, m
    var = math.fsum((v - m) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return m, m - half, m + half
