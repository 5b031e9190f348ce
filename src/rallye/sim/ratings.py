"""Elo ratings fitted from match results (Bradley-Terry), with bootstrap intervals.

A result is a pairwise outcome ``(a, b, score_a)`` with ``score_a`` 1 (a won), 0 (b won)
or 0.5 (drawn). A match between more than two sides counts as every pair of its sides.

The fit is the Bradley-Terry maximum-likelihood one (Newton's method), with a small
prior: every player also has ``prior`` drawn games against a fixed reference of strength
1. That keeps a player who won every game at a finite rating and ties players who never met
to one scale. Ratings are on the Elo scale (400 points = 10:1 odds) and centred so that
the players' mean is 0.

>>> r = fit_elo([("a", "b", 1.0)] * 30 + [("a", "b", 0.0)] * 10)
>>> r["a"] > 0 > r["b"]
True
>>> round(r["a"] - r["b"])  # 3:1 odds is 191 Elo; the prior pulls it in a little
188
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence

PairResult = tuple[str, str, float]

ELO_SCALE = 400.0 / math.log(10.0)


def fit_elo(
    results: Iterable[PairResult],
    players: Sequence[str] | None = None,
    *,
    prior: float = 1.0,
    iterations: int = 100,
    tolerance: float = 1e-12,
) -> dict[str, float]:
    """Elo ratings (mean 0) of every player, fitted from pairwise results."""
    res = list(results)
    names = list(players) if players is not None else sorted({p for a, b, _ in res for p in (a, b)})
    if len(set(names)) != len(names):
        raise ValueError(f"players listed twice: {names}")
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    if k == 0:
        return {}
    if prior <= 0:
        raise ValueError("the prior must be positive (it keeps the ratings finite)")
    wins = [prior / 2.0] * k  # half of the prior's drawn games
    games: list[dict[int, float]] = [{} for _ in range(k)]
    for a, b, score in res:
        if a not in index or b not in index:
            raise ValueError(f"result names an unknown player: {a!r} vs {b!r}")
        if a == b:
            raise ValueError(f"a player cannot play itself: {a!r}")
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"score must be in [0, 1], got {score}")
        i, j = index[a], index[b]
        wins[i] += score
        wins[j] += 1.0 - score
        games[i][j] = games[i].get(j, 0.0) + 1.0
        games[j][i] = games[j].get(i, 0.0) + 1.0
    theta = _newton(wins, games, prior, iterations, tolerance)
    centre = sum(theta) / k
    return {n: ELO_SCALE * (theta[index[n]] - centre) for n in names}


def _log_likelihood(theta: list[float], wins: list[float], games: list[dict[int, float]], prior: float) -> float:
    ll = 0.0
    for i, t in enumerate(theta):
        ll += wins[i] * t - prior * _log1pexp(t)  # games against the reference (strength 1)
        for j, n in games[i].items():
            if j > i:
                ll -= n * (t + _log1pexp(theta[j] - t))
    return ll


def _log1pexp(x: float) -> float:
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _newton(
    wins: list[float], games: list[dict[int, float]], prior: float, iterations: int, tolerance: float
) -> list[float]:
    """Maximise the (strictly concave, thanks to the prior) log-likelihood over the log
    strengths by Newton's method with backtracking."""
    k = len(wins)
    theta = [0.0] * k
    ll = _log_likelihood(theta, wins, games, prior)
    for _ in range(iterations):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for i in range(k):
            s = _sigmoid(theta[i])
            grad[i] = wins[i] - prior * s
            hess[i][i] -= prior * s * (1.0 - s)
            for j, n in games[i].items():
                p = _sigmoid(theta[i] - theta[j])
                grad[i] -= n * p
                hess[i][i] -= n * p * (1.0 - p)
                hess[i][j] += n * p * (1.0 - p)
        step = _solve([[-h for h in row] for row in hess], grad)  # -H is positive definite
        t = 1.0
        while True:
            cand = [a + t * d for a, d in zip(theta, step, strict=True)]
            cand_ll = _log_likelihood(cand, wins, games, prior)
            if cand_ll >= ll - 1e-12 or t < 1e-6:
                break
            t /= 2.0
        change = max(abs(c - a) for c, a in zip(cand, theta, strict=True))
        theta, ll = cand, cand_ll
        if change < tolerance:
            break
    return theta


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve ``a x = b`` (Gaussian elimination with partial pivoting; ``a`` is small)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        if m[col][col] == 0.0:  # pragma: no cover - the prior keeps the matrix definite
            raise ArithmeticError("singular rating system")
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def bootstrap_elo(
    blocks: Sequence[Sequence[PairResult]],
    players: Sequence[str],
    *,
    reps: int = 200,
    seed: int = 0,
    level: float = 0.95,
) -> dict[str, tuple[float, float]]:
    """Percentile intervals of :func:`fit_elo` by resampling ``blocks`` with replacement.

    A block is the unit resampled: one match, or (for duplicate deals) every match of one
    deal, whose results are not independent. The same ``seed`` gives the same intervals.
    """
    if not blocks:
        return {p: (0.0, 0.0) for p in players}
    if reps < 2:
        raise ValueError("bootstrap needs at least 2 repetitions")
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {p: [] for p in players}
    n = len(blocks)
    for _ in range(reps):
        chosen: list[PairResult] = []
        for _ in range(n):
            chosen.extend(blocks[rng.randrange(n)])
        fit = fit_elo(chosen, players)
        for p in players:
            samples[p].append(fit[p])
    tail = (1.0 - level) / 2.0
    from rallye.sim.stats import quantile

    return {p: (quantile(v, tail), quantile(v, 1.0 - tail)) for p, v in samples.items()}


def perfect_record_bounds(
    blocks: Sequence[Sequence[PairResult]], players: Sequence[str], *, level: float = 0.95
) -> dict[str, tuple[float | None, float | None]]:
    """Intervals for the players who won (or lost) every pairwise result they had.

    Resampling such a record gives the same fit every time, so a bootstrap interval has no
    width at all, a certainty no finite set of games gives; and the point rating is only
    finite because of the prior. For them the interval is one-sided instead: a perfect
    record over ``n`` blocks (deals, the unit that is independent) bounds the win chance
    against the field from below by the Clopper-Pearson bound ``((1 - level) / 2) ** (1 / n)``,
    which is turned into Elo over the field's mean and put on the mean-0 scale; the other
    end is open (``None``).

    >>> b = perfect_record_bounds([[("a", "b", 1.0)]] * 10, ["a", "b"])
    >>> round(b["a"][0]), b["a"][1], b["b"][0], round(b["b"][1])
    (70, None, None, -70)
    """
    k = len(players)
    if k < 2:
        return {}
    won: dict[str, set[float]] = {p: set() for p in players}
    seen: dict[str, int] = dict.fromkeys(players, 0)
    for block in blocks:
        present: set[str] = set()
        for a, b, score in block:
            won[a].add(score)
            won[b].add(1.0 - score)
            present.update((a, b))
        for p in present:
            seen[p] += 1
    out: dict[str, tuple[float | None, float | None]] = {}
    for p in players:
        if seen[p] == 0 or won[p] not in ({1.0}, {0.0}):
            continue
        chance = ((1.0 - level) / 2.0) ** (1.0 / seen[p])
        bound = 400.0 * math.log10(chance / (1.0 - chance)) * (k - 1) / k
        out[p] = (bound, None) if won[p] == {1.0} else (None, -bound)
    return out


def format_interval(lo: float | None, hi: float | None) -> str:
    """An Elo interval for print: ``[+31, +212]``, or with an open end ``[+70, +∞)``.

    >>> format_interval(70.4, None), format_interval(None, -70.4)
    ('[+70, +∞)', '(-∞, -70]')
    """
    left = "(-∞" if lo is None else f"[{lo:+.0f}"
    right = "+∞)" if hi is None else f"{hi:+.0f}]"
    return f"{left}, {right}"


def pairwise(side_bots: Sequence[str], side_scores: Sequence[float]) -> list[PairResult]:
    """Pairwise results of one match from each side's bot and match score (1 win, 0 loss,
    a share for a drawn result); pairs of sides played by the same bot are left out.

    >>> pairwise(["a", "b", "c"], [1.0, 0.0, 0.0])
    [('a', 'b', 1.0), ('a', 'c', 1.0), ('b', 'c', 0.5)]
    """
    out: list[PairResult] = []
    for i in range(len(side_bots)):
        for j in range(i + 1, len(side_bots)):
            if side_bots[i] == side_bots[j]:
                continue
            si, sj = side_scores[i], side_scores[j]
            out.append((side_bots[i], side_bots[j], 1.0 if si > sj else 0.0 if si < sj else 0.5))
    return out
