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
