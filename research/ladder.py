"""Strength ladder for the Mille Bornes bots: duplicate games between levels.

Each pairing plays 2-player wm2006 matches (to the edition's 5000 points, or single hands
with ``--hands``) in duplicate: every deal seed is played twice with the seats swapped, so
luck of the deal cancels out. Prints, per pairing, A's win rate with a 95 % Wilson
interval (a drawn hand counts half) and A's mean point margin per game with a 95 %
interval computed over the duplicate pairs (the two games of a deal are not independent).

    PYTHONPATH=src python research/ladder.py --matches 20 --workers 2
    PYTHONPATH=src python research/ladder.py --pairs expert:medium --hands --matches 200

``--csv FILE`` also writes one row per game (pairing, deal seed, A's seat, A's result and
points, B's points, hands), so two runs on the same seeds can be compared deal by deal.
Rows are written (and flushed) as games finish, in the order they finish: a run stopped
early keeps every game it completed, and ``--resume`` (with the same command and file)
carries it on: the file's games are kept and counted, only the others are played, and
their rows are appended (a file that is not such a CSV, or holds one game with two
results, is refused before any game is played, naming the line). Without ``--resume`` a
file that already holds games is refused, not overwritten::

    PYTHONPATH=src python research/ladder.py --pairs expert:medium --exact --matches 400 \
        --first-seed 341000 --csv /tmp/expert_341000.csv --resume

``--hands-csv FILE`` writes one row per *hand* of every game (:data:`HAND_FIELDS`: the
game's deal seed and A's seat, the hand's number from 1, whether A started it, both sides'
points and match totals, who completed the trip or called an extension), written before the
game's ``--csv`` row, so a game in that file has all its hands here (``--resume`` appends
to it as well; a game cut short and played again repeats its rows, the same ones). What
starting a hand is worth to each bot: ``research/hand_starts.py FILE``.

A bot is a registered name (``medium``, ``expert``, …) or, for tuning, ``pimc`` with
keyword settings after slashes: ``pimc/deals=30/plies=3000/top_k=3`` (``style=classic``,
``style=tuned`` or ``style=fitted``: the heuristic weights of the searching side,
``rallye.agents.mille.heuristic.STYLES``).

``analysis:SPEC`` is the post-game analysis's bot (``rallye analyse --bot SPEC``) playing the
move it prefers: its strength against ``expert`` (issue #61) is
``--pairs analysis:expert:expert --exact``. ``--compare-csv FILE`` adds two shadow ``expert``
bots (other seeds, exact as the run) at the analysis bot's seat: they follow every decision
(their hand trackers), are asked at every ``--compare-every``-th of its choices (more than one
legal move) what they would play, and never play; per game a row (:data:`COMPARE_FIELDS`):
how often the analysis's move differs from the first expert's, and, for reference, how often
the two experts differ from each other.

A diagnostic, not a bot: ``truehands:SPEC`` (``SPEC`` a level or a ``pimc`` spec) is that
search given the opponent's *true* hand at every decision, only the draw pile's order
reshuffled (``TrueHands`` of ``research/mille_decisions.py``; ``truehands-but-GROUP:SPEC``
hides one group of cards again, as there). It cheats; what it wins over ``SPEC`` on the
same deals is the most that reading the hidden cards better could add to that search in
play: ``--pairs truehands:expert:medium --exact``.

Levels play as a person meets them, with their CPU ceiling (``rallye.agents.mille.levels.CPU_LIMITS``;
on a machine too slow to spend a level's budget within it, the ceiling cuts some searches
short, and those moves depend on the machine); ``--exact`` lifts it, as tournaments do, so
every level plays its whole count budget and a run reproduces on any machine. Not a test:
it takes minutes (``expert`` thinks up to ~0.5 s a move).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import math
import multiprocessing
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from rallye import mille
from rallye.agents.base import make_agent
from rallye.agents.mille.heuristic import STYLES
from rallye.agents.mille.search import PimcAgent

T = TypeVar("T")

DEFAULT_PAIRS = "easy:random,medium:easy,hard:medium,expert:hard,expert:medium"
CSV_FIELDS = ("a", "b", "deal_seed", "seat_a", "result_a", "points_a", "points_b", "hands")
#: ``--compare-csv``: per game, the analysis bot's choices compared with the shadow experts',
#: how many of them differ from the first one's, and how many of the two experts' differ
COMPARE_FIELDS = ("a", "b", "deal_seed", "seat_a", "compared", "differ", "experts_differ")
#: ``--hands-csv``: one row per hand of a game, for A (``started_a``: A's side started the
#: hand; ``completed``/``extended``: who completed the trip/called an extension, ``a``, ``b``
#: or empty; ``total_a``/``total_b``: the match totals after the hand)
HAND_FIELDS = (
    "a", "b", "deal_seed", "seat_a", "hand", "started_a", "points_a", "points_b",
    "total_a", "total_b", "completed", "extended",
)  # fmt: skip


#: How the diagnostics' names begin (``truehands:SPEC``, ``truehands-but-GROUP:SPEC``); read
#: by ``mille_decisions`` too.
CHEAT = "truehands"
#: ``analysis:SPEC``: the post-game analysis's bot playing its preferred move
#: (``rallye.analysis.Analyst``; SPEC as ``rallye analyse --bot``: ``expert``, ``expert*2``)
ANALYSIS = "analysis"


class Shadowed:
    """The analysis bot with two shadow experts at its seat (``--compare-csv``): it plays
    the analysis bot's move; the shadows see every view (their trackers follow the hand) and
    are asked what they would play at every ``every``-th choice."""

    def __init__(self, bot: Any, seed: int, exact: bool, every: int) -> None:
        self.bot, self.every = bot, every
        self.name = bot.name
        self.shadows: list[Any] = [make_agent("mille", "expert", seed + k, exact=exact) for k in (1, 2)]
        self.choices = self.compared = self.differ = self.experts_differ = 0

    def choose(self, view: Any, legal: Any) -> Any:
        move = self.bot.choose(view, legal)
        if len(legal) > 1:
            self.choices += 1
        if len(legal) > 1 and self.choices % self.every == 0:
            one, two = (s.choose(view, legal) for s in self.shadows)
            self.compared += 1
            self.differ += one != move
            self.experts_differ += one != two
        else:
            for s in self.shadows:
                s.observe(view)  # what expert does first at every decision (its tracker)
        return move


def split_pair(pair: str) -> tuple[str, str]:
    """``A:B`` into its two bots; a ``truehands:SPEC`` or ``analysis:SPEC`` keeps its own colon."""
    parts = pair.split(":")
    bots: list[str] = []
    while parts:
        head = parts.pop(0)
        if head.startswith((CHEAT, ANALYSIS)) and parts:
            head += ":" + parts.pop(0)
        bots.append(head)
    if len(bots) != 2 or not all(bots):
        raise ValueError(f"a pairing is A:B (two bots), not {pair!r}")
    return bots[0], bots[1]


def build(spec: str, seed: int, exact: bool = False) -> Any:
    """A bot from a name, or ``pimc/key=value/...`` (numbers; ``style`` a style's name), or the
    diagnostic ``truehands:SPEC``; ``exact``: a level's CPU ceiling lifted
    (``make_agent(..., exact=True)``)."""
    if spec.startswith(CHEAT):
        from mille_decisions import cheat_of  # (it imports this module)

        return cheat_of(spec, seed, exact)
    if spec.startswith(ANALYSIS + ":"):
        from rallye.analysis import Analyst

        return Analyst("mille", spec.removeprefix(ANALYSIS + ":"), seed)
    name, *opts = spec.split("/")
    if not opts:
        return make_agent("mille", name, seed, exact=exact)
    if name != "pimc":
        raise ValueError(f"settings are only understood for pimc, not {name!r}")
    kw: dict[str, Any] = {}
    for o in opts:
        k, _, v = o.partition("=")
        if k == "style" and v not in STYLES:
            raise ValueError(f"unknown style {v!r}; styles are {', '.join(STYLES)}")
        kw[k] = STYLES[v] if k == "style" else _number(k, v)
    return PimcAgent(seed, name=spec, **kw)


def _number(key: str, v: str) -> int | float:
    """A spec's value: an integer or a float (``style`` alone takes a word, a style's name)."""
    for kind in (int, float):
        try:
            return kind(v)
        except ValueError:
            pass
    raise ValueError(f"pimc setting {key}={v!r}: the value must be a number")


#: a, b, game seed, hands only, edition, exact (and, optional, ``--compare-every``: 0 off)
Job = tuple[str, str, int, bool, str, bool] | tuple[str, str, int, bool, str, bool, int]
GameKey = tuple[str, str, int, int]  # a, b, deal seed, a's seat
Result = tuple[float, int, int, int]  # a's result, a's points, b's points, hands
HandRow = tuple[int, int, int, int, int, int, str, str]  # HAND_FIELDS from "hand" on
Compared = tuple[int, int, int]  # COMPARE_FIELDS from "compared" on (zeros without a comparison)


def game_key(job: Job) -> GameKey:
    a, b, seed = job[:3]
    return a, b, seed // 2, seed % 2


def read_games(path: Path) -> dict[GameKey, Result]:
    """The games of a ``--csv`` file, to resume from (read as ``ladder_pool.py`` reads them).
    Raises ``ValueError`` naming what is wrong: not this script's header (the rows to come
    are appended in its columns), a line that does not parse, an incomplete last line (a run
    stopped mid-row), or one game recorded with two different results."""
    from ladder_pool import PoolError
    from ladder_pool import read_games as read_pooled

    text = path.read_text(encoding="utf-8")
    if not text:
        return {}
    check_appendable(text, CSV_FIELDS)
    try:
        games = read_pooled([path])
    except PoolError as e:
        raise ValueError(str(e)) from None
    return {key: (res, pa, pb, hands) for key, (res, pa, pb, hands, _) in games.items()}


def check_appendable(text: str, fields: tuple[str, ...]) -> None:
    """Rows in ``fields``' columns may be appended to a file holding ``text`` (not empty):
    else ``ValueError`` says why (a last line cut off, another header)."""
    if not text.endswith("\n"):
        raise ValueError("its last line is incomplete (a run stopped while writing it?): remove that line")
    if tuple(next(csv.reader(text.splitlines()))) != fields:
        raise ValueError(f"line 1 is not this script's header ({','.join(fields)})")


def resumed(
    ap: argparse.ArgumentParser, path: Path | None, resume: bool, read: Callable[[Path], T], empty: T, what: str
) -> tuple[T, bool]:
    """What a ``--csv`` file already holds (``read(path)``; ``empty`` when there is nothing to
    carry on) and whether the run appends to it. Without ``--resume`` a file holding ``what``
    is refused, not overwritten; a file ``read`` finds wrong (or cannot read) ends the run
    with why, before anything is played."""
    if resume and path is not None and path.exists():
        try:
            held = read(path)
        except (ValueError, UnicodeDecodeError) as e:
            ap.error(f"--resume: {path}: {e}")
        except OSError as e:
            ap.error(f"--resume: cannot read {path}: {e.strerror}")
        return held, path.stat().st_size > 0
    if path is not None and path.is_file() and path.stat().st_size > 0:
        ap.error(f"--csv: {path} already holds {what}: --resume to carry that run on, or remove it")
    return empty, False


def play(job: Job) -> Result:
    """One game; returns (result for ``a`` in 0/0.5/1, points a, points b, hands)."""
    return play_hands(job)[0]


def play_hands(job: Job) -> tuple[Result, tuple[HandRow, ...], Compared]:
    """One game: its :func:`play` result, per hand the :data:`HAND_FIELDS` row from ``hand``
    on, and the :data:`COMPARE_FIELDS` counts of an analysis bot with shadows."""
    a, b, seed, hands_only, edition, exact = job[:6]
    every = job[6] if len(job) > 6 else 0
    seat_a = seed % 2
    match_seed = seed // 2
    s = mille.new_match(edition, 2, seed=match_seed)
    bots = {seat_a: build(a, 1000 + seed, exact), 1 - seat_a: build(b, 2000 + seed, exact)}
    shadowed: list[Shadowed] = []
    for seat, spec in ((seat_a, a), (1 - seat_a, b)):
        if every and spec.startswith(ANALYSIS + ":"):
            bots[seat] = Shadowed(bots[seat], 3000 + 2 * seed, exact, every)
            shadowed.append(bots[seat])
    cheats = {seat for seat, spec in ((seat_a, a), (1 - seat_a, b)) if spec.startswith(CHEAT)}
    while not mille.is_over(s) and not (hands_only and s.sheets):
        v = mille.view_for(s, s.current)
        if s.current in cheats:  # the diagnostic is handed the true cards
            bots[s.current].state = s
        s = mille.apply(s, bots[s.current].choose(v, mille.legal_from_view(v)))
    sheets = s.sheets[:1] if hands_only else s.sheets
    if hands_only:
        pa, pb = sheets[0].hand_totals[seat_a], sheets[0].hand_totals[1 - seat_a]
        res = 1.0 if pa > pb else 0.5 if pa == pb else 0.0
    else:
        res = 1.0 if s.winners == (seat_a,) else 0.0
        pa = sum(sh.hand_totals[seat_a] for sh in sheets)
        pb = sum(sh.hand_totals[1 - seat_a] for sh in sheets)
    who = {seat_a: "a", 1 - seat_a: "b", None: ""}  # 2 players: a seat is its side
    rows = tuple(
        (
            sh.hand + 1,
            int((sh.dealer + 1) % 2 == seat_a),
            sh.hand_totals[seat_a],
            sh.hand_totals[1 - seat_a],
            sh.totals[seat_a],
            sh.totals[1 - seat_a],
            who[sh.completed_by],
            who[sh.extended_by],
        )
        for sh in sheets
    )
    compared = (
        sum(x.compared for x in shadowed),
        sum(x.differ for x in shadowed),
        sum(x.experts_differ for x in shadowed),
    )
    return (res, pa, pb, len(s.sheets)), rows, compared


def _play_numbered(item: tuple[int, Job]) -> tuple[int, Result, tuple[HandRow, ...], Compared]:
    k, job = item
    return k, *play_hands(job)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def mean_ci(xs: list[float], z: float = 1.96) -> tuple[float, float, float]:
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, -math.inf, math.inf
    h = z * statistics.stdev(xs) / math.sqrt(len(xs))
    return m, m - h, m + h


def open_rows(
    ap: argparse.ArgumentParser,
    stack: contextlib.ExitStack[Any],
    path: Path,
    fields: tuple[str, ...],
    append: bool,
    option: str,
) -> tuple[Any, Any]:
    """A CSV file of rows in ``fields``' columns, opened before the first game (a bad path
    fails at once, not after an hour of play), appended to or new with its header; the
    file and its writer. ``option`` names it in the error."""
    try:
        f = stack.enter_context(path.open("a" if append else "w", newline=""))
    except OSError as e:
        ap.error(f"{option}: cannot write {path}: {e.strerror}")
    writer = csv.writer(f)
    if not append:
        writer.writerow(fields)
        f.flush()
    return f, writer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", default=DEFAULT_PAIRS, help="comma-separated A:B pairings")
    ap.add_argument("--matches", type=int, default=10, help="deal seeds per pairing (each played twice)")
    ap.add_argument("--hands", action="store_true", help="single hands instead of 5000-point matches")
    ap.add_argument("--edition", default="wm2006")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--csv", type=Path, help="write one row per game to this CSV file")
    ap.add_argument("--hands-csv", type=Path, help="write one row per hand of every game to this CSV file")
    ap.add_argument("--exact", action="store_true", help="lift the levels' CPU ceiling: whole count budgets")
    ap.add_argument("--resume", action="store_true", help="with --csv: keep the file's games, play the rest, append")
    ap.add_argument(
        "--compare-csv", type=Path, help="analysis:SPEC: shadow experts at its seat, one row per game to this CSV file"
    )
    ap.add_argument("--compare-every", type=int, default=4, help="--compare-csv: ask the shadows at every K-th choice")
    args = ap.parse_args()
    if args.resume and not args.csv:
        ap.error("--resume needs --csv (the file of the run to carry on)")
    if args.compare_every < 1:
        ap.error("--compare-every is a whole number of choices, 1 or more")
    empty: dict[GameKey, Result] = {}
    prior, append = resumed(ap, args.csv, args.resume, read_games, empty, "games")
    if args.hands_csv and args.csv and args.hands_csv.resolve() == args.csv.resolve():
        ap.error("--hands-csv and --csv are two files, one row per hand and one per game")
    hands_append = bool(args.hands_csv and args.hands_csv.is_file() and args.hands_csv.stat().st_size > 0)
    if hands_append and not args.resume:
        ap.error(f"--hands-csv: {args.hands_csv} already holds hands: --resume to carry that run on, or remove it")
    if hands_append:  # rows are appended in its columns: refuse another kind of file before any game
        try:
            check_appendable(args.hands_csv.read_text(encoding="utf-8"), HAND_FIELDS)
        except (ValueError, UnicodeDecodeError) as e:
            ap.error(f"--hands-csv: {args.hands_csv}: {e}")
        except OSError as e:
            ap.error(f"--hands-csv: cannot read {args.hands_csv}: {e.strerror}")
    try:
        pairings = [split_pair(pair) for pair in args.pairs.split(",")]
    except ValueError as e:
        ap.error(f"--pairs: {e}")
    unit = "hands" if args.hands else "matches"
    per = "hand" if args.hands else "match"
    ceiling = "whole count budgets (--exact)" if args.exact else "levels with their CPU ceiling"
    build_kind = "compiled build (scripts/compile)" if mille.engine.__file__.endswith(".so") else "pure Python"
    print(
        f"2-player {args.edition}, duplicate {unit}, {args.matches} deal seeds x 2 seat orders per pairing, {ceiling}, "
        f"{build_kind}"
    )
    with contextlib.ExitStack() as stack:
        out = None
        if args.csv:  # opened before the first game: a bad path fails at once, not after an hour of play
            try:
                csv_file = stack.enter_context(args.csv.open("a" if append else "w", newline=""))
            except OSError as e:
                ap.error(f"--csv: cannot write {args.csv}: {e.strerror}")
            out = csv.DictWriter(csv_file, CSV_FIELDS)
            if not append:
                out.writeheader()
                csv_file.flush()
        hand_out = None
        if args.hands_csv:
            hands_file, hand_out = open_rows(ap, stack, args.hands_csv, HAND_FIELDS, hands_append, "--hands-csv")
        compare_out = None
        if args.compare_csv:
            compare_append = args.compare_csv.is_file() and args.compare_csv.stat().st_size > 0
            if compare_append and not args.resume:
                ap.error(f"--compare-csv: {args.compare_csv} already holds games: --resume, or remove it")
            compare_file, compare_out = open_rows(
                ap, stack, args.compare_csv, COMPARE_FIELDS, compare_append, "--compare-csv"
            )
        every = args.compare_every if args.compare_csv else 0
        pool = stack.enter_context(multiprocessing.Pool(args.workers))
        for a, b in pairings:
            jobs: list[Job] = [
                (a, b, args.first_seed * 2 + k, args.hands, args.edition, args.exact, every)
                for k in range(2 * args.matches)
            ]
            t = time.time()
            done: dict[int, Result] = {k: prior[game_key(j)] for k, j in enumerate(jobs) if game_key(j) in prior}
            if args.resume:
                print(f"{a} vs {b}: {len(done)} of {len(jobs)} games already in {args.csv}", flush=True)
            todo = [(k, j) for k, j in enumerate(jobs) if k not in done]
            compared = [0, 0, 0]
            for k, r, hand_rows, comp in pool.imap_unordered(_play_numbered, todo, chunksize=1):
                done[k] = r
                seed = jobs[k][2]
                if compare_out and comp[0]:
                    compare_out.writerow((a, b, seed // 2, seed % 2, *comp))
                    compare_file.flush()
                    compared = [x + y for x, y in zip(compared, comp, strict=True)]
                if hand_out:  # before the game's row: a game in --csv has all its hands here
                    hand_out.writerows((a, b, seed // 2, seed % 2, *h) for h in hand_rows)
                    hands_file.flush()
                if out:
                    out.writerow(dict(zip(CSV_FIELDS, (a, b, seed // 2, seed % 2, *r), strict=True)))
                    csv_file.flush()
            results = [done[k] for k in range(len(jobs))]
            wins = sum(r[0] for r in results)
            n = len(results)
            lo, hi = wilson(wins, n)
            hands = sum(r[3] for r in results)
            # A's margin per game, averaged over each duplicate pair (one value per deal seed)
            pair_margins = [
                (results[i][1] - results[i][2] + results[i + 1][1] - results[i + 1][2]) / 2 for i in range(0, n, 2)
            ]
            m, mlo, mhi = mean_ci(pair_margins)
            print(
                f"{a:>9} vs {b:<9} {a} wins {wins:5.1f}/{n} = {wins / n:6.1%}  95% CI [{lo:.1%}, {hi:.1%}]  "
                f"margin/{per} {m:+7.1f} [{mlo:+.1f}, {mhi:+.1f}]  ({hands} hands, {time.time() - t:.0f} s)",
                flush=True,
            )
            if compared[0]:
                n_c, diff, base = compared
                print(
                    f"{'':>9} the analysis's move differs from expert's in {diff}/{n_c} = {diff / n_c:.1%} of the "
                    f"choices compared [{wilson(diff, n_c)[0]:.1%}, {wilson(diff, n_c)[1]:.1%}]; two experts differ "
                    f"in {base}/{n_c} = {base / n_c:.1%} [{wilson(base, n_c)[0]:.1%}, {wilson(base, n_c)[1]:.1%}]",
                    flush=True,
                )


if __name__ == "__main__":
    main()
