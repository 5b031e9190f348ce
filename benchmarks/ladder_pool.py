"""Pool the per-game CSV files of several ``ladder.py`` runs into one figure per pairing.

Runs of the same bots on different deal seeds add up: this prints, per pairing (A vs B),
the games, A's wins (a drawn hand counts half) and win rate with two 95 % intervals,
Wilson's over the games and the wider of that and the deal-clustered one
(``rallye.sim.stats.rate_ci95``: the two seat orders of a deal are not independent), and
A's mean margin per game averaged per deal, with its 95 % interval over the deals.

    python benchmarks/ladder_pool.py /tmp/ladder101.csv /tmp/ladder111.csv ...

A game is the row's (A, B, deal seed, A's seat). The same game in two files with the same
result is counted once (a file given twice, or a run repeated at the same seeds); with a
different result it means two versions of a bot, which must not be pooled: that is an
error naming both files. Pool only runs of one version of each bot (and say which: the
files do not record it).
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import defaultdict
from pathlib import Path

from rallye.sim.stats import mean_ci, rate_ci95, wilson

FIELDS = ("a", "b", "deal_seed", "seat_a", "result_a", "points_a", "points_b", "hands")


class PoolError(Exception):
    pass


def read_games(paths: list[Path]) -> dict[tuple[str, str, int, int], tuple[float, int, int, str]]:
    """Every distinct game: key -> (A's result, A's points, B's points, file)."""
    games: dict[tuple[str, str, int, int], tuple[float, int, int, str]] = {}
    for path in paths:
        try:
            with path.open(newline="") as f:
                reader = csv.DictReader(f)
                missing = [k for k in FIELDS if k not in (reader.fieldnames or ())]
                if missing:
                    raise PoolError(f"{path}: not a ladder.py CSV (no column {', '.join(missing)})")
                for line, row in enumerate(reader, start=2):
                    try:
                        key = (row["a"], row["b"], int(row["deal_seed"]), int(row["seat_a"]))
                        value = (float(row["result_a"]), int(row["points_a"]), int(row["points_b"]), str(path))
                    except (TypeError, ValueError) as e:
                        raise PoolError(f"{path}, line {line}: {e}") from None
                    seen = games.get(key)
                    if seen is not None and seen[:3] != value[:3]:
                        raise PoolError(
                            f"deal {key[2]} seat {key[3]} of {key[0]} vs {key[1]} has different results in "
                            f"{seen[3]} and {path}: two versions of a bot; pool one version only"
                        )
                    games.setdefault(key, value)
        except OSError as e:
            raise PoolError(f"{path}: {e.strerror}") from None
    return games


def summary(games: dict[tuple[str, str, int, int], tuple[float, int, int, str]]) -> list[str]:
    by_pair: dict[tuple[str, str], dict[int, list[tuple[float, int, int]]]] = defaultdict(lambda: defaultdict(list))
    for (a, b, deal, _seat), (res, pa, pb, _) in games.items():
        by_pair[(a, b)][deal].append((res, pa, pb))
    out = []
    for (a, b), deals in sorted(by_pair.items()):
        clusters = [(sum(r for r, _, _ in g), len(g)) for g in deals.values()]
        wins = sum(w for w, _ in clusters)
        n = sum(k for _, k in clusters)
        wlo, whi = wilson(wins, n)
        clo, chi = rate_ci95(clusters)
        margins = [sum(pa - pb for _, pa, pb in g) / len(g) for g in deals.values()]
        m, mlo, mhi = mean_ci(margins)
        both = sum(1 for g in deals.values() if len(g) == 2)
        out.append(
            f"{a} vs {b}: {a} won {wins:g} of {n} games = {wins / n:.1%}, Wilson [{wlo:.1%}, {whi:.1%}], "
            f"deal-clustered [{clo:.1%}, {chi:.1%}]; margin {m:+.0f} [{mlo:+.0f}, {mhi:+.0f}] a game; "
            f"{len(deals)} deals ({both} in both seat orders)"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+", type=Path, help="ladder.py --csv files")
    args = ap.parse_args(argv)
    try:
        games = read_games(args.csv)
    except PoolError as e:
        print(f"ladder_pool: {e}", file=sys.stderr)
        return 2
    if not games:
        print("ladder_pool: no games in these files", file=sys.stderr)
        return 2
    print("\n".join(summary(games)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
