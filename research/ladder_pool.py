"""Pool the per-game CSV files of several ``ladder.py`` runs into one figure per pairing.

Runs of the same bots on different deal seeds add up: this prints, per pairing (A vs B),
the games, A's wins (a drawn hand counts half) and win rate with its 95 % intervals:
Wilson's over the games, the deal-clustered one (``rallye.sim.stats.clustered_ci95``: the
two seat orders of a deal are not independent) and the one reported, the wider of the two
(``rallye.sim.stats.rate_ci95``, as a tournament reports); and A's mean margin per game
averaged per deal, with its 95 % interval over the deals.

    python research/ladder_pool.py /tmp/ladder101.csv /tmp/ladder111.csv ...

A game is the row's (A, B, deal seed, A's seat). The same game in two files with the same
result is counted once (a file given twice, or a run repeated at the same seeds); with a
different result it means two versions of a bot, which must not be pooled: that is an
error naming both files. Pool only runs of one version of each bot (and say which: the
files do not record it).

**Paired against another run** (``--against FILE ...``): two bots (or two versions of one)
that met the same opponent on the same deals are compared game by game. A game of the
first files and one of the ``--against`` files pair when they have the same opponent (B),
deal seed and seat; only such common games count. Printed per opponent: each side's wins
on them, and the difference in win rate and in margin a game (first files minus
``--against``) with 95 % intervals that allow for the games of a deal not being
independent (``rallye.sim.stats.clustered_mean_ci95``: the wider of the clustered-by-deal
and the per-game interval):

    python research/ladder_pool.py /tmp/th_181000.csv --against /tmp/expert_181000.csv

**Against a goal** (``--goal RATE``, a win rate such as ``0.7``): per pairing, whether A's
reported interval (the wider one above) lies wholly above the goal (shown), wholly below
it, or holds it (not shown); and while it holds it, how many games in all would lift
Wilson's interval clear of the goal were A's true rate the rate measured (at a rate not
above the goal, none would):

    python research/ladder_pool.py research/results/h16track_3*.csv --goal 0.7

**By seat** (``--seats``): per pairing, over the deals played in both seat orders, A's win
rate from seat 0 (which starts the first, third and fifth hands) and from seat 1, and the
difference, paired by deal: the mean over the deals of A's result from seat 0 less its result
from seat 1, with its 95 % interval over the deals (and the same for A's margin):

    python research/ladder_pool.py research/results/h16track_5*.csv --seats
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from rallye.sim.stats import clustered_ci95, clustered_mean_ci95, mean_ci, rate_ci95, wilson

FIELDS = ("a", "b", "deal_seed", "seat_a", "result_a", "points_a", "points_b", "hands")

#: Every distinct game: (A, B, deal seed, A's seat) -> (A's result, A's points, B's points, hands, file).
Games = dict[tuple[str, str, int, int], tuple[float, int, int, int, str]]


class PoolError(Exception):
    pass


def csv_rows(path: Path, fields: tuple[str, ...], kind: str) -> Iterator[tuple[str, dict[str, str]]]:
    """The rows of a CSV file with these columns (``kind`` names such a file in the error),
    each with where it was read (``PATH, line N``). Raises :class:`PoolError` for a file
    that cannot be read, lacks a column, or has a line without the header's fields."""
    try:
        with path.open(newline="") as f:
            reader = csv.DictReader(f)
            missing = [k for k in fields if k not in (reader.fieldnames or ())]
            if missing:
                raise PoolError(f"{path}: not a {kind} (no column {', '.join(missing)})")
            width = len(reader.fieldnames or ())
            for line, row in enumerate(reader, start=2):
                if None in row or None in row.values():
                    raise PoolError(f"{path}, line {line}: its fields are not the header's {width}")
                yield f"{path}, line {line}", row
    except OSError as e:
        raise PoolError(f"{path}: {e.strerror}") from None


def read_games(paths: list[Path]) -> Games:
    """Every distinct game of these files."""
    games: Games = {}
    for path in paths:
        for where, row in csv_rows(path, FIELDS, "ladder.py CSV"):
            try:
                key = (row["a"], row["b"], int(row["deal_seed"]), int(row["seat_a"]))
                res, hands = float(row["result_a"]), int(row["hands"])
                value = (res, int(row["points_a"]), int(row["points_b"]), hands, str(path))
                if key[3] not in (0, 1) or res not in (0.0, 0.5, 1.0):
                    raise ValueError("a seat is 0 or 1, a result 0, 0.5 or 1")
            except (TypeError, ValueError) as e:
                raise PoolError(f"{where}: {e}") from None
            seen = games.get(key)
            if seen is not None and seen[:3] != value[:3]:
                raise PoolError(
                    f"deal {key[2]} seat {key[3]} of {key[0]} vs {key[1]} has different results in "
                    f"{seen[4]} and {path}: two versions of a bot; pool one version only"
                )
            games.setdefault(key, value)
    return games


def _by_pair(games: Games) -> dict[tuple[str, str], dict[int, list[tuple[float, int, int]]]]:
    """(A, B) -> deal -> every game's (A's result, A's points, B's points)."""
    by_pair: dict[tuple[str, str], dict[int, list[tuple[float, int, int]]]] = defaultdict(lambda: defaultdict(list))
    for (a, b, deal, _seat), (res, pa, pb, _, _) in games.items():
        by_pair[(a, b)][deal].append((res, pa, pb))
    return by_pair


def summary(games: Games, goal: float | None = None) -> list[str]:
    """Per pairing, A's wins, win rate and margin (and, given a ``goal`` rate, the verdict on it)."""
    out = []
    for (a, b), deals in sorted(_by_pair(games).items()):
        clusters = [(sum(r for r, _, _ in g), len(g)) for g in deals.values()]
        wins = sum(w for w, _ in clusters)
        n = sum(k for _, k in clusters)
        wlo, whi = wilson(wins, n)
        dlo, dhi = clustered_ci95(clusters)
        clo, chi = rate_ci95(clusters)
        margins = [sum(pa - pb for _, pa, pb in g) / len(g) for g in deals.values()]
        m, mlo, mhi = mean_ci(margins)
        both = sum(1 for g in deals.values() if len(g) == 2)
        out.append(
            f"{a} vs {b}: {a} won {wins:g} of {n} games = {wins / n:.1%}, Wilson [{wlo:.1%}, {whi:.1%}], "
            f"deal-clustered [{dlo:.1%}, {dhi:.1%}], reported (the wider) [{clo:.1%}, {chi:.1%}]; "
            f"margin {m:+.0f} [{mlo:+.0f}, {mhi:+.0f}] a game; "
            f"{len(deals)} deals ({both} in both seat orders)"
        )
        if goal is not None:
            verdict = goal_verdict(wins / n, n, (clo, chi), goal)
            out.append(f"{a} vs {b} against the goal {goal:.1%}: {wins / n:.1%} [{clo:.1%}, {chi:.1%}]: {verdict}")
    return out


def games_to_show(rate: float, goal: float) -> int | None:
    """The fewest games at which Wilson's 95 % interval around ``rate`` lies wholly above
    ``goal`` (``None`` when ``rate`` is not above it: no number of games would show it)."""
    if not rate > goal:
        return None

    def clear(n: int) -> bool:
        return wilson(rate * n, n)[0] > goal

    hi = 1
    while not clear(hi):  # the lower end rises with n at a fixed rate above the goal
        hi *= 2
    lo = hi // 2  # not clear at lo (or lo == 0)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if clear(mid) else (mid, hi)
    return hi


def goal_verdict(rate: float, n: int, interval: tuple[float, float], goal: float) -> str:
    """A win rate over ``n`` games with its reported ``interval`` against ``goal``: shown
    above, below, or not shown (and the games in all that would show it at this rate)."""
    lo, hi = interval
    if lo > goal:
        return "shown, the interval lies wholly above it"
    if hi < goal:
        return "the interval lies wholly below it"
    need = games_to_show(rate, goal)
    if need is None:
        return "not shown, and at the rate measured no number of games would show it"
    return (
        f"not shown; were the true rate the {rate:.1%} measured, Wilson's interval would clear it at about "
        f"{need:,} games in all ({max(0, need - n):,} more)"
    )


def _by_opponent(games: Games, which: str) -> dict[tuple[str, int, int], tuple[str, float, int]]:
    """(B, deal, seat) -> (A, A's result, A's margin); one bot A per opponent B."""
    out: dict[tuple[str, int, int], tuple[str, float, int]] = {}
    bots: dict[str, str] = {}
    for (a, b, deal, seat), (res, pa, pb, _, _) in games.items():
        if bots.setdefault(b, a) != a:
            raise PoolError(f"the {which} files hold two bots against {b} ({bots[b]} and {a}); pair one with one")
        out[(b, deal, seat)] = (a, res, pa - pb)
    return out


def paired(first: Games, against: Games) -> list[str]:
    """Per opponent, the first files' bot against the ``--against`` files' bot on their common games."""
    x, y = _by_opponent(first, "first"), _by_opponent(against, "--against")
    common = sorted(set(x) & set(y))
    if not common:
        raise PoolError("no game of the first files is also in the --against files (same opponent, deal seed and seat)")
    out = []
    for opp in sorted({k[0] for k in common}):
        keys = [k for k in common if k[0] == opp]
        wins: dict[int, list[float]] = {}
        margins: dict[int, list[float]] = {}
        for k in keys:
            _, rx, mx = x[k]
            _, ry, my = y[k]
            wins.setdefault(k[1], []).append(rx - ry)
            margins.setdefault(k[1], []).append(float(mx - my))
        bx, by = x[keys[0]][0], y[keys[0]][0]
        n = len(keys)
        wx, wy = sum(x[k][1] for k in keys), sum(y[k][1] for k in keys)
        d, dlo, dhi = clustered_mean_ci95(list(wins.values()))
        m, mlo, mhi = clustered_mean_ci95(list(margins.values()))
        out.append(
            f"against {opp}, {n} common games ({len(wins)} deals): {bx} won {wx:g} ({wx / n:.1%}), "
            f"{by} (--against) won {wy:g} ({wy / n:.1%}); difference {100 * d:+.1f} points of win rate "
            f"[{100 * dlo:+.1f}, {100 * dhi:+.1f}], margin {m:+.0f} [{mlo:+.0f}, {mhi:+.0f}] a game "
            "(95 %, deals clustered)"
        )
    return out


def seats(games: Games) -> list[str]:
    """Per pairing, A's results by seat on the deals it played in both seat orders, paired by deal."""
    out = []
    for (a, b), deals in sorted(_by_seat(games).items()):
        both = {d: g for d, g in deals.items() if len(g) == 2}
        if not both:
            out.append(f"{a} vs {b} by seat: no deal played in both seat orders")
            continue
        n = len(both)
        w0, w1 = sum(g[0][0] for g in both.values()), sum(g[1][0] for g in both.values())
        d, dlo, dhi = mean_ci([g[0][0] - g[1][0] for g in both.values()])
        m, mlo, mhi = mean_ci([float(g[0][1] - g[1][1]) for g in both.values()])
        out.append(
            f"{a} vs {b} by seat, {n} deals in both seat orders: {a} won {w0:g} from seat 0 ({w0 / n:.1%}), "
            f"{w1:g} from seat 1 ({w1 / n:.1%}); seat 0 less seat 1, paired by deal, {100 * d:+.1f} points of "
            f"win rate [{100 * dlo:+.1f}, {100 * dhi:+.1f}], margin {m:+.0f} [{mlo:+.0f}, {mhi:+.0f}] a match (95 %)"
        )
    return out


def _by_seat(games: Games) -> dict[tuple[str, str], dict[int, dict[int, tuple[float, int]]]]:
    """(A, B) -> deal -> A's seat -> (A's result, A's margin)."""
    out: dict[tuple[str, str], dict[int, dict[int, tuple[float, int]]]] = defaultdict(lambda: defaultdict(dict))
    for (a, b, deal, seat), (res, pa, pb, _, _) in games.items():
        out[(a, b)][deal][seat] = (res, pa - pb)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+", type=Path, help="ladder.py --csv files")
    ap.add_argument(
        "--against", nargs="+", type=Path, metavar="CSV", help="also compare game by game with these runs' games"
    )
    ap.add_argument("--goal", type=float, metavar="RATE", help="also say whether A's win rate is shown above RATE")
    ap.add_argument("--seats", action="store_true", help="also split A's results by seat, paired by deal")
    args = ap.parse_args(argv)
    if args.goal is not None and not 0.0 < args.goal < 1.0:
        ap.error("--goal is a win rate between 0 and 1 (0.7 for 70 %)")
    try:
        games = read_games(args.csv)
        against = read_games(args.against) if args.against else None
        if not games or against == {}:
            raise PoolError("no games in " + ("these files" if not games else "the --against files"))
        lines = summary(games, args.goal)
        if args.seats:
            lines += seats(games)
        if against is not None:
            lines += paired(games, against)
    except PoolError as e:
        print(f"ladder_pool: {e}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
