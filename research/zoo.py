"""Mille Bornes levels against the opponent zoo, and the ladder, at every table size.

One command for issue #63's tables: each level sits at one side of the table (both or all
seats of that side in a team edition) and every other side is played by one opponent —
a zoo style (``--against zoo``, the default: the six styles of ``rallye.agents`` named
``zoo-*``) or the level below it (``--against below``: the ladder easy < medium < hard <
expert, easy against random). Whole matches, duplicate deals: every deal is played once with
the level at each side in turn, and the same deals serve every level and opponent of a size,
so two levels' rows are paired deal by deal.

Per cell (size, level, opponent): the level's share of the matches won (a shared win counts
its share), its 95 % interval (the wider of Wilson's and the one clustered by deal, as
``rallye tournament`` reports), the fair share (one over the number of sides) and the goal,
1.5 times the fair share (2 players 75 %, 3 players 50 %, 4 players in teams 75 %, 6 players
in three teams 50 %); a cell is *shown* when its interval lies wholly above the goal,
*missed* when wholly below, else *open*. For the ladder the line is the fair share: a step is
shown when the upper level's interval lies above it.

    python research/zoo.py --edition wm2006 --sizes 2,3,4,6 --levels hard,expert --deals 50
    python research/zoo.py --against below --sizes 3 --deals 100 --json

Bots play their whole count budgets (``exact``: no CPU ceiling), so a run's figures are the
same on any machine and any number of ``--workers``. ``--csv FILE`` writes one row per match
(to pool runs or pair them later), as the matches finish: a run stopped early keeps every
match it completed, and ``--resume`` (with the same command and file) carries it on, as
``research/ladder.py --resume`` does: the file's matches are kept and counted, only the
others are played, and their rows are appended. A file that is not such a CSV, holds a
match this command does not play (or of another ``--seed`` or ``--edition``: its deal's seed
differs), or one match with two results, is refused before any match is played, naming
the line. Without ``--resume`` a file that already holds matches is refused, not
overwritten::

    python research/zoo.py --sizes 6 --levels medium --deals 200 --csv /tmp/zoo6.csv --resume
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import sys
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from rallye.agents.base import GAME_LEVELS, LEVELS, agent_names
from rallye.core.errors import GameError
from rallye.core.rng import derive_seed
from rallye.mille import get_edition
from rallye.sim.play import MatchJob, MatchResult
from rallye.sim.runner import run_jobs
from rallye.sim.stats import rate_ci95

#: the opponents of ``--against below``: each level's lower neighbour (``learned``: hard, its goal)
BELOW = {"easy": "random", "medium": "easy", "hard": "medium", "expert": "hard", "learned": "hard"}
GOAL_FACTOR = 1.5
#: the columns of ``--csv``: the match (its cell, deal and the level's side), its deal's seed
#: and the level's share of the win
CSV_FIELDS = ("players", "level", "opponent", "deal", "side", "seed", "level_share")


def zoo_styles() -> tuple[str, ...]:
    """The zoo's styles, as the bots are named (``zoo-racer``, ...)."""
    return tuple(n for n in agent_names("mille") if n.startswith("zoo-"))


@dataclass(frozen=True)
class Cell:
    size: int
    level: str
    opponent: str


def opponents(against: str, level: str) -> list[str]:
    if against == "zoo":
        return list(zoo_styles())
    if against == "below":
        return [BELOW[level]]
    names = [a.strip() for a in against.split(",") if a.strip()]
    known = set(agent_names("mille"))
    for n in names:
        if n not in known:
            raise ValueError(f"unknown bot {n!r}; bots are {', '.join(sorted(known))}")
    return names


def jobs_for(
    edition: str, sizes: Sequence[int], levels: Sequence[str], against: str, deals: int, seed: int
) -> tuple[list[MatchJob], dict[int, tuple[Cell, int, int]]]:
    """Every match of the run, and per match index its cell, deal and the level's side."""
    ed = get_edition(edition)
    jobs: list[MatchJob] = []
    where: dict[int, tuple[Cell, int, int]] = {}
    for size in sizes:
        sides = ed.sides_for(size)
        for level in levels:
            for opp in opponents(against, level):
                cell = Cell(size, level, opp)
                for deal in range(deals):
                    game_seed = derive_seed("zoo", seed, edition, size, deal)
                    for side in range(len(sides)):
                        seat_bots = tuple(level if s in sides[side] else opp for s in range(size))
                        index = len(jobs)
                        bot_seeds = tuple(
                            derive_seed("zoo-bot", seed, edition, size, deal, side, s, level, opp) for s in range(size)
                        )
                        jobs.append(MatchJob(index, "mille", size, seat_bots, game_seed, bot_seeds, edition=edition))
                        where[index] = (cell, deal, side)
    return jobs, where


def level_share(result: MatchResult, where: dict[int, tuple[Cell, int, int]]) -> float:
    """The level's share of the match's win (its side's)."""
    return result.side_scores()[where[result.index][2]]


def summarize(
    edition: str, against: str, shares: Mapping[int, float], where: dict[int, tuple[Cell, int, int]]
) -> list[dict[str, Any]]:
    """One row per cell, in the order the cells were scheduled, from the level's share of
    each match (by match index)."""
    per_cell: dict[Cell, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    order: list[Cell] = []
    for index in sorted(shares):
        cell, deal, _side = where[index]
        if cell not in per_cell:
            order.append(cell)
        per_cell[cell][deal].append(shares[index])
    rows = []
    ed = get_edition(edition)
    for cell in order:
        clusters = [(sum(v), len(v)) for v in per_cell[cell].values()]
        won = sum(s for s, _ in clusters)
        n = sum(t for _, t in clusters)
        lo, hi = rate_ci95(clusters)
        n_sides = len(ed.sides_for(cell.size))
        fair = 1.0 / n_sides
        line = fair if against == "below" else min(1.0, GOAL_FACTOR * fair)
        status = "shown" if lo > line else "missed" if hi < line else "open"
        rows.append(
            {
                "edition": edition,
                "players": cell.size,
                "sides": n_sides,
                "level": cell.level,
                "opponent": cell.opponent,
                "matches": n,
                "deals": len(clusters),
                "won": won,
                "rate": won / n,
                "low": lo,
                "high": hi,
                "fair": fair,
                "line": line,
                "status": status,
            }
        )
    return rows


def read_matches(path: Path, jobs: Sequence[MatchJob], where: dict[int, tuple[Cell, int, int]]) -> dict[int, float]:
    """The matches of a ``--csv`` file of this run, to resume from: the level's share by
    match index. Raises ``ValueError`` naming what is wrong: not this script's header (the
    rows to come are appended in its columns), an incomplete last line (a run stopped
    mid-row), a line that does not parse, a match this command does not play or whose deal's
    seed is another (another ``--seed`` or ``--edition``), one match with two results."""
    from ladder import check_appendable

    text = path.read_text(encoding="utf-8")
    if not text:
        return {}
    check_appendable(text, CSV_FIELDS)
    lines = list(csv.reader(text.splitlines()))
    index = {(cell.size, cell.level, cell.opponent, deal, side): i for i, (cell, deal, side) in where.items()}
    seeds = {job.index: job.seed for job in jobs}
    shares: dict[int, float] = {}
    for n, row in enumerate(lines[1:], start=2):
        if len(row) != len(CSV_FIELDS):
            raise ValueError(f"line {n} has {len(row)} fields, not {len(CSV_FIELDS)}")
        try:
            players, deal, side, seed, share = int(row[0]), int(row[3]), int(row[4]), int(row[5]), float(row[6])
        except ValueError:
            raise ValueError(
                f"line {n}: players, deal, side and seed are whole numbers, level_share a number"
            ) from None
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"line {n}: level_share is from 0 to 1, not {row[6]}")
        i = index.get((players, row[1], row[2], deal, side))
        if i is None:
            raise ValueError(
                f"line {n}: {players} players, {row[1]} against {row[2]}, deal {deal}, side {side} is not a match"
                " of this command (resume with the command that wrote the file)"
            )
        if seed != seeds[i]:
            raise ValueError(f"line {n}: the deal's seed is {seed}, not {seeds[i]}: another --seed or --edition")
        if shares.get(i, share) != share:
            raise ValueError(f"line {n}: this match is in the file already, with another result")
        shares[i] = share
    return shares


def print_table(rows: Sequence[dict[str, Any]], against: str) -> None:
    line_name = "fair share" if against == "below" else "goal (1.5x fair)"
    size = None
    for row in rows:
        if row["players"] != size:
            size = row["players"]
            print(
                f"\n{row['edition']}, {size} players, {row['sides']} sides: the level's share of the matches won"
                f" (95 % interval), against {line_name} {row['line']:.0%}"
            )
        print(
            f"  {row['level']:>8} vs {row['opponent']:<13} {row['rate']:6.1%} [{row['low']:.1%}, {row['high']:.1%}]"
            f"  {row['matches']:>5} matches  {row['status']}"
        )


def _positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def _sizes(text: str) -> list[int]:
    try:
        return [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes are player counts separated by commas, not {text!r}") from None


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--edition", default="wm2006")
    p.add_argument("--sizes", type=_sizes, default=None, help="player counts (default: every count of the edition)")
    p.add_argument("--levels", default=",".join(LEVELS), help="levels (default: the four; learned by name)")
    p.add_argument("--against", default="zoo", help="'zoo' (default), 'below' (the ladder) or bot names")
    p.add_argument("--deals", type=_positive, default=20, help="duplicate deals per cell (default 20)")
    p.add_argument("--seed", type=int, default=63)
    p.add_argument("--workers", type=_positive, default=None, help="processes (default: every core)")
    p.add_argument("--csv", metavar="FILE", type=Path, help="one row per match, written as the matches finish")
    p.add_argument("--resume", action="store_true", help="with --csv: keep the file's matches, play the rest, append")
    p.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = p.parse_args(argv)
    try:
        ed = get_edition(args.edition)
        sizes = args.sizes or list(ed.players)
        for n in sizes:
            ed.sides_for(n)
        levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
        for lv in levels:
            if lv not in GAME_LEVELS["mille"]:
                raise ValueError(f"unknown level {lv!r}; levels are {', '.join(GAME_LEVELS['mille'])}")
            opponents(args.against, lv)
    except (ValueError, OSError, GameError) as exc:  # a ConfigError names the edition's player counts
        p.exit(2, f"{p.prog}: error: {exc}\n")
    if args.resume and not args.csv:
        p.error("--resume needs --csv (the file of the run to carry on)")
    jobs, where = jobs_for(ed.key, sizes, levels, args.against, args.deals, args.seed)
    from ladder import resumed

    empty: dict[int, float] = {}
    shares, append = resumed(p, args.csv, args.resume, lambda f: read_matches(f, jobs, where), empty, "matches")
    todo = [job for job in jobs if job.index not in shares]
    if args.resume:
        print(f"{len(jobs) - len(todo)} of {len(jobs)} matches already in {args.csv}", file=sys.stderr)
    print(f"{len(todo)} matches ...", file=sys.stderr)
    start = time.perf_counter()
    with contextlib.ExitStack() as stack:
        sink: IO[str] | None = None
        if args.csv:  # opened before the first match: a bad path fails at once, not after an hour of play
            try:
                sink = stack.enter_context(args.csv.open("a" if append else "w", newline="", encoding="utf-8"))
            except OSError as exc:
                p.error(f"--csv: cannot write {args.csv}: {exc.strerror}")
            if not append:
                csv.writer(sink).writerow(CSV_FIELDS)

        def finished(results: Sequence[MatchResult]) -> None:
            for r in results:
                shares[r.index] = level_share(r, where)
                if sink is not None:
                    cell, deal, side = where[r.index]
                    csv.writer(sink).writerow(
                        [cell.size, cell.level, cell.opponent, deal, side, r.seed, shares[r.index]]
                    )
            if sink is not None:
                sink.flush()

        run_jobs(todo, workers=args.workers, finished=finished)
    rows = summarize(ed.key, args.against, shares, where)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print_table(rows, args.against)
        print(f"\n{len(todo)} matches in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
