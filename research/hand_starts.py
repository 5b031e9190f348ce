"""What starting a hand is worth to each bot: the hands of ``ladder.py --hands-csv`` runs.

In 2-player Mille Bornes the players take turns to start a hand (seat 0 starts the first),
and the starter draws and moves first. A bot's edge over its opponent may not be the same
in the hands it starts and the ones it does not: a search can make more of the tempo, or
read the opponent worse when the opponent has moved first. Per pairing (A against B) this
prints A's mean point margin a hand (A's points less B's) in the hands A started and in the
hands B started, with the share of those hands A won (a drawn hand counts half) and who
completed the trip or called an extension in them, and the
difference between the two margins: what starting adds to A's margin, A's own gain from
the tempo plus what B loses by not having it. Against the same opponent, two bots' figures
compare: a bot whose difference is larger gains more from starting, or plays worse when it
does not. Intervals are 95 %, the wider of the one over hands and the one clustered by deal
(the hands of a deal's games are not independent)::

    PYTHONPATH=src python research/ladder.py --pairs fitted:medium --matches 1000 \\
        --first-seed 600000 --hands-csv /tmp/hands.csv
    PYTHONPATH=src python research/hand_starts.py /tmp/hands.csv

Several files pool (each hand once: a hand recorded twice, by a game cut short and played
again, must be recorded the same; two different records of one hand are refused, naming
both files). A file that is not such a CSV, or a line that does not parse, is refused
naming the line.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from ladder import HAND_FIELDS
from ladder_pool import PoolError, csv_rows

from rallye.sim.stats import clustered_mean_ci95, rate_ci95, t95

SIDES = ("a", "b", "")  # who completed the trip or called an extension: A, B or neither

#: (A, B, deal seed, A's seat, hand) -> (A started it, A's points, B's points, who completed
#: the trip, who called an extension (``a``, ``b`` or ``""``), where it was read)
Hands = dict[tuple[str, str, int, int, int], tuple[bool, int, int, str, str, str]]


def read_hands(paths: list[Path]) -> Hands:
    """Every distinct hand of these files (see the module doc for what is refused:
    :class:`~ladder_pool.PoolError` naming the file and line)."""
    hands: Hands = {}
    for path in paths:
        for where, row in csv_rows(path, HAND_FIELDS, "ladder.py --hands-csv file"):
            try:
                key = (row["a"], row["b"], int(row["deal_seed"]), int(row["seat_a"]), int(row["hand"]))
                started = int(row["started_a"])
                if key[3] not in (0, 1) or started not in (0, 1) or key[4] < 1:
                    raise ValueError("a seat is 0 or 1, started_a 0 or 1, a hand numbered from 1")
                if row["completed"] not in SIDES or row["extended"] not in SIDES:
                    raise ValueError("completed and extended are a, b or empty")
                value = (
                    bool(started),
                    int(row["points_a"]),
                    int(row["points_b"]),
                    row["completed"],
                    row["extended"],
                    where,
                )
            except ValueError as e:
                raise PoolError(f"{where}: {e}") from None
            seen = hands.setdefault(key, value)
            if seen[:5] != value[:5]:
                raise PoolError(
                    f"hand {key[4]} of deal {key[2]} seat {key[3]} ({key[0]} vs {key[1]}) is recorded "
                    f"differently at {seen[5]} and {where}: two versions of a bot; pool one version only"
                )
    return hands


@dataclass(frozen=True)
class Split:
    """A's hands against B split by who started them (values are A's margins a hand, by
    deal), and per split the hands' trips completed and extensions called, by side."""

    started: dict[int, list[int]]
    not_started: dict[int, list[int]]
    counts: dict[bool, Counter[str]]


def split(hands: Hands) -> dict[tuple[str, str], Split]:
    """(A, B) -> A's hand margins by deal, in the hands A started and in the others."""
    out: dict[tuple[str, str], Split] = {}
    for (a, b, deal, _seat, _hand), (started, pa, pb, completed, extended, _) in hands.items():
        s = out.setdefault((a, b), Split(defaultdict(list), defaultdict(list), {True: Counter(), False: Counter()}))
        (s.started if started else s.not_started)[deal].append(pa - pb)
        s.counts[started].update(("completed " + completed, "extended " + extended))
    return out


def difference_ci95(first: dict[int, list[int]], second: dict[int, list[int]]) -> tuple[float, float, float]:
    """``(d, low, high)``: ``d`` the mean of ``first``'s values less the mean of
    ``second``'s (both keyed by cluster, a deal) and a 95 % interval, the wider of the one
    that treats every value as independent (Welch's standard error, Student's t on the
    values less 2) and the cluster-robust one (the two means linearized per cluster,
    ``D / (D - 1) * sum(u_c ** 2)``, Student's t on ``D - 1``). Needs two values on each
    side and two clusters; otherwise the interval is unbounded."""
    xs = [float(v) for c in first.values() for v in c]
    ys = [float(v) for c in second.values() for v in c]
    if not xs or not ys:
        raise ValueError("a difference needs values on both sides")
    mx, my = math.fsum(xs) / len(xs), math.fsum(ys) / len(ys)
    d = mx - my
    clusters = set(first) | set(second)
    if len(xs) < 2 or len(ys) < 2 or len(clusters) < 2:
        return d, -math.inf, math.inf
    vx = math.fsum((v - mx) ** 2 for v in xs) / (len(xs) - 1)
    vy = math.fsum((v - my) ** 2 for v in ys) / (len(ys) - 1)
    independent = t95(len(xs) + len(ys) - 2) * math.sqrt(vx / len(xs) + vy / len(ys))
    u = [
        math.fsum(v - mx for v in first.get(c, ())) / len(xs) - math.fsum(v - my for v in second.get(c, ())) / len(ys)
        for c in clusters
    ]
    k = len(clusters)
    clustered = t95(k - 1) * math.sqrt(k / (k - 1) * math.fsum(x * x for x in u))
    half = max(independent, clustered)
    return d, d - half, d + half


def _won(margins: dict[int, list[int]]) -> tuple[float, tuple[float, float]]:
    """A's share of these hands won (a draw half) and its interval, clustered by deal."""
    clusters = [(sum(1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in ms), len(ms)) for ms in margins.values()]
    n = sum(k for _, k in clusters)
    return sum(w for w, _ in clusters) / n, rate_ci95(clusters)


def summary(hands: Hands) -> list[str]:
    lines: list[str] = []
    for (a, b), s in sorted(split(hands).items()):
        deals = set(s.started) | set(s.not_started)
        total = sum(map(len, s.started.values())) + sum(map(len, s.not_started.values()))
        lines.append(f"{a} (A) vs {b} (B): {total:,} hands of {len(deals):,} deals")
        for label, margins, counts in (
            ("A started", s.started, s.counts[True]),
            ("B started", s.not_started, s.counts[False]),
        ):
            if not margins:
                lines.append(f"  {label}: no hands")
                continue
            m, lo, hi = clustered_mean_ci95(list(margins.values()))
            won, (wlo, whi) = _won(margins)
            n = sum(map(len, margins.values()))
            lines.append(
                f"  {label}: {n:,} hands, A's margin {m:+.0f} [{lo:+.0f}, {hi:+.0f}] a hand, "
                f"A won {won:.1%} [{wlo:.1%}, {whi:.1%}]; trip completed by A {counts['completed a'] / n:.1%}, "
                f"by B {counts['completed b'] / n:.1%}; extended by A {counts['extended a'] / n:.1%}, "
                f"by B {counts['extended b'] / n:.1%}"
            )
        if s.started and s.not_started:
            d, lo, hi = difference_ci95(s.started, s.not_started)
            lines.append(f"  A started less B started: {d:+.0f} [{lo:+.0f}, {hi:+.0f}] points of A's margin a hand")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+", type=Path, help="ladder.py --hands-csv files")
    args = ap.parse_args(argv)
    try:
        hands = read_hands(args.csv)
        if not hands:
            raise PoolError("no hands in these files")
    except PoolError as e:
        print(f"hand_starts: {e}", file=sys.stderr)
        return 2
    print("\n".join(summary(hands)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
