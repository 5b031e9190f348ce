"""``rallye tournament``: duplicate-deal tournaments between bots, with Elo ratings.

``rallye tournament --game mille --edition wm2006 --players 2 --bots expert,heuristic --matches 400 --seed 1``

**Duplicate deals.** Every deal (a game seed) is replayed with the bots moved round the
sides, so a bot that had the good cards in one match has its opponent holding them in the
next and luck cancels. The bots sit by *side* (in a team edition both seats of a side
get the same bot). The arrangements of one deal, its *group*:

* as many bots as sides: every permutation of the bots over the sides (2 sides: each deal
  twice, seats swapped); with more than 4 sides, the rotations only;
* fewer bots than sides: the bots repeat in turn (``a,b,a``) and every distinct
  arrangement of that is played (rotations with more than 4 sides);
* more bots than sides: a round robin, every combination of bots, each in every
  arrangement.

``--matches`` is the number of matches to play; it is rounded up to whole groups.

**Determinism.** Match ``i`` is deal ``i // G``, arrangement ``i % G``. Its game seed is
``derive_seed("tournament", seed, deal)`` (shared by the group) and the bot at seat ``s``
gets ``derive_seed("tournament-bot", seed, i, s)``. Results are sorted by match index
before anything is added up, and the Elo bootstrap uses a seed derived from ``seed``, so
the report is identical whatever ``--backend`` and ``--workers``, on any machine: bots here
play their whole count budgets (:func:`rallye.sim.play.make_agents` lifts the CPU ceiling the
Mille Bornes search levels keep when a person waits for them, which would make a move
depend on the machine's speed).

**Report** per bot: match wins and hand wins (a hand's winner is the side with the best
hand total; ties share) with 95% intervals, mean points per hand, mean final score,
and an Elo rating (Bradley-Terry fit of the pairwise match results, mean 0) with a 95%
bootstrap interval, resampling whole deal groups. The matches of one deal are not
independent, so a win rate's interval is the wider of the Wilson interval over the matches
(hands) and the deal-clustered one (``rallye.sim.stats.rate_ci95``): a deal whose
matches all went one way counts as one piece of evidence, not as many. ``--out DIR`` writes ``bots.csv``,
``matches.csv``, ``tournament.json`` and ``tournament.png`` (needs matplotlib, extra
``plot``).
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rallye.core.rng import derive_seed, new_seed
from rallye.knightrider.state import DEFAULT_TURN_LIMIT
from rallye.sim.play import MatchJob, MatchResult

GAMES: tuple[str, ...] = ("mille", "knightrider")
#: Above this many sides, a deal is played in the rotations only (6! = 720 is too many).
MAX_PERMUTED_SIDES = 4
BOOTSTRAP_REPS = 200
#: Below this many deals the report warns that its intervals are rough (a bootstrap over a
#: handful of deals has only a handful of distinct resamples).
FEW_DEALS = 20


@dataclass(frozen=True)
class TournamentConfig:
    game: str
    bots: tuple[str, ...]
    players: int
    matches: int
    seed: int = 0
    edition: str = "wm2006"  # mille only: key, alias or .json path
    options: dict[str, Any] = field(default_factory=dict)  # knightrider only: Options fields
    bootstrap: int = BOOTSTRAP_REPS

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["bots"] = list(self.bots)
        if self.game != "mille":
            d.pop("edition")
        return d


# -- the schedule ----------------------------------------------------------------------


def _arrangements(lineup: Sequence[str]) -> list[tuple[str, ...]]:
    if len(lineup) <= MAX_PERMUTED_SIDES:
        perms = itertools.permutations(lineup)
    else:
        perms = (tuple(lineup[k:]) + tuple(lineup[:k]) for k in range(len(lineup)))  # type: ignore[assignment]
    return list(dict.fromkeys(tuple(p) for p in perms))  # distinct, in a fixed order


def deal_group(bots: Sequence[str], n_sides: int) -> list[tuple[str, ...]]:
    """The side-by-side bot line-ups every deal is played with (see the module doc).

    >>> deal_group(["a", "b"], 2)
    [('a', 'b'), ('b', 'a')]
    >>> deal_group(["a", "b"], 3)
    [('a', 'b', 'a'), ('a', 'a', 'b'), ('b', 'a', 'a')]
    >>> len(deal_group(["a", "b", "c"], 2))
    6
    """
    if len(bots) < 2:
        raise ValueError("a tournament needs at least two different bots")
    if len(set(bots)) != len(bots):
        raise ValueError(f"a bot is named twice: {', '.join(bots)}")
    if n_sides < 2:
        raise ValueError("a tournament needs at least two sides")
    if len(bots) <= n_sides:
        lineup = [bots[i % len(bots)] for i in range(n_sides)]
        return _arrangements(lineup)
    group: list[tuple[str, ...]] = []
    for combo in itertools.combinations(bots, n_sides):
        group.extend(_arrangements(combo))
    return group


def game_sides(config: TournamentConfig) -> tuple[tuple[int, ...], ...]:
    if config.game == "mille":
        from rallye.mille import get_edition

        return get_edition(config.edition).sides_for(config.players)
    if config.game == "knightrider":
        return tuple((s,) for s in range(config.players))
    raise ValueError(f"unknown game {config.game!r}; games are {', '.join(GAMES)}")


def schedule(config: TournamentConfig) -> tuple[list[MatchJob], int]:
    """Every match of the tournament, and the group size (matches per deal)."""
    if config.matches < 1:
        raise ValueError(f"matches must be at least 1, got {config.matches}")
    sides = game_sides(config)
    group = deal_group(config.bots, len(sides))
    g = len(group)
    deals = math.ceil(config.matches / g)
    edition: Any = None
    if config.game == "mille":
        from rallye.mille import get_edition

        edition = get_edition(config.edition)
    jobs = []
    for deal in range(deals):
        game_seed = derive_seed("tournament", config.seed, deal)
        for a, lineup in enumerate(group):
            i = deal * g + a
            seat_bots = [""] * config.players
            for side, seats in enumerate(sides):
                for s in seats:
                    seat_bots[s] = lineup[side]
            jobs.append(
                MatchJob(
                    index=i,
                    game=config.game,
                    players=config.players,
                    seat_bots=tuple(seat_bots),
                    seed=game_seed,
                    bot_seeds=tuple(derive_seed("tournament-bot", config.seed, i, s) for s in range(config.players)),
                    edition=edition,
                    options=dict(config.options),
                )
            )
    return jobs, g


# -- running and adding up ---------------------------------------------------------------


def play_tournament(
    config: TournamentConfig,
    *,
    backend: str = "process",
    workers: int | None = None,
    address: str | None = None,
    progress: bool = False,
) -> tuple[dict[str, Any], list[MatchResult]]:
    """Play the tournament; returns the report (a JSON-ready dict) and the match results."""
    from rallye.agents.base import agent_names
    from rallye.sim.progress import progress_bar
    from rallye.sim.runner import run_jobs

    known = agent_names(config.game)
    for b in config.bots:
        if b not in known:
            raise ValueError(f"unknown bot {b!r} for {config.game}; known: {', '.join(known)}")
    jobs, g = schedule(config)
    with progress_bar(len(jobs), "matches", enabled=progress) as advance:
        results = run_jobs(jobs, backend=backend, workers=workers, address=address, advance=advance)
    return summarize(config, results, g), results


def _hand_scores(totals: Sequence[int]) -> list[float]:
    best = max(totals)
    tops = [i for i, t in enumerate(totals) if t == best]
    return [1.0 / len(tops) if i in tops else 0.0 for i in range(len(totals))]


def summarize(config: TournamentConfig, results: Sequence[MatchResult], group_size: int) -> dict[str, Any]:
    """The report, from results in match-index order (deterministic)."""
    from rallye.sim.ratings import bootstrap_elo, fit_elo, pairwise, perfect_record_bounds
    from rallye.sim.stats import rate_ci95

    results = sorted(results, key=lambda r: r.index)
    bots = list(config.bots)
    acc: dict[str, dict[str, Any]] = {b: {"points": 0, "finals": []} for b in bots}
    # per bot and deal: [match wins, matches, hand wins, hands] (the deal is the unit of the intervals)
    by_deal: dict[str, dict[int, list[float]]] = {b: {} for b in bots}
    blocks: dict[int, list[tuple[str, str, float]]] = {}
    pair_acc: dict[tuple[str, str], list[float]] = {}
    for r in results:
        side_bots = r.side_bots
        scores = r.side_scores()
        pairs = pairwise(side_bots, scores)
        deal = r.index // group_size
        blocks.setdefault(deal, []).extend(pairs)
        for x, y, sx in pairs:
            key, score = ((x, y), sx) if bots.index(x) < bots.index(y) else ((y, x), 1.0 - sx)
            pair_acc.setdefault(key, []).append(score)
        hand_scores = [_hand_scores(h) for h in r.hand_totals]
        for side, bot in enumerate(side_bots):
            a = acc[bot]
            d = by_deal[bot].setdefault(deal, [0.0, 0, 0.0, 0])
            d[0] += scores[side]
            d[1] += 1
            if r.totals:
                a["finals"].append(r.totals[side])
            for h, hs in zip(r.hand_totals, hand_scores, strict=True):
                d[2] += hs[side]
                d[3] += 1
                a["points"] += h[side]
    all_pairs = [p for k in sorted(blocks) for p in blocks[k]]
    elo = fit_elo(all_pairs, bots)
    ordered = [blocks[k] for k in sorted(blocks)]
    intervals: dict[str, tuple[float | None, float | None]] = dict(
        bootstrap_elo(ordered, bots, reps=config.bootstrap, seed=derive_seed("elo", config.seed))
    )
    # a bot that won (or lost) everything: a one-sided bound, not a zero-width interval
    intervals.update(perfect_record_bounds(ordered, bots))
    out_bots = []
    for b in bots:
        a = acc[b]
        deals = [by_deal[b][k] for k in sorted(by_deal[b])]
        match_wins, hand_wins = math.fsum(d[0] for d in deals), math.fsum(d[2] for d in deals)
        n_matches, n_hands = sum(int(d[1]) for d in deals), sum(int(d[3]) for d in deals)
        out_bots.append(
            {
                "bot": b,
                "matches": n_matches,
                "match_wins": match_wins,
                "match_win_rate": match_wins / n_matches if n_matches else 0.0,
                "match_ci95": list(rate_ci95([(d[0], int(d[1])) for d in deals])),
                "hands": n_hands,
                "hand_wins": hand_wins,
                "hand_win_rate": hand_wins / n_hands if n_hands else 0.0,
                "hand_ci95": list(rate_ci95([(d[2], int(d[3])) for d in deals])),
                "mean_points_per_hand": a["points"] / n_hands if n_hands else 0.0,
                "mean_final_total": sum(a["finals"]) / len(a["finals"]) if a["finals"] else 0.0,
                "elo": elo[b],
                "elo_ci95": list(intervals[b]),
            }
        )
    return {
        "config": config.to_json(),
        "group_size": group_size,
        "deals": math.ceil(len(results) / group_size),
        "matches": len(results),
        "decisions": sum(r.decisions for r in results),
        "bots": out_bots,
        "pairs": [
            {"a": a, "b": b, "matches": len(v), "a_score": sum(v) / len(v)} for (a, b), v in sorted(pair_acc.items())
        ],
    }


# -- output --------------------------------------------------------------------------


def print_report(report: dict[str, Any], seconds: float | None = None) -> None:
    from rich.console import Console
    from rich.table import Table

    from rallye.sim.ratings import format_interval

    con = Console()
    if not con.is_terminal:  # piped or captured: no terminal width to fit, use a wide one
        con = Console(width=120)
    cfg = report["config"]
    what = f"{cfg['game']}" + (f" {cfg['edition']}" if "edition" in cfg else "")
    con.print(
        f"[bold]Tournament[/] {what}, {cfg['players']} players, seed {cfg['seed']}: {report['matches']} matches "
        f"({report['deals']} deals × {report['group_size']} seatings)"
    )
    if report["matches"] != cfg["matches"]:
        con.print(f"[dim](asked for {cfg['matches']} matches; rounded up to whole deals)[/]")
    t = Table(title="Per bot, best first (95% intervals)")
    for col in ("bot", "Elo [95%]", "match win [95%]", "hand win [95%]", "pts/hand", "final"):
        t.add_column(col, justify="left" if col == "bot" else "right", no_wrap=True)
    for b in sorted(report["bots"], key=lambda x: -x["elo"]):
        has_hands = b["hands"] > 0
        t.add_row(
            b["bot"],
            f"{b['elo']:+.0f} {format_interval(*b['elo_ci95'])}",
            f"{b['match_win_rate']:.3f} [{b['match_ci95'][0]:.3f}, {b['match_ci95'][1]:.3f}]",
            f"{b['hand_win_rate']:.3f} [{b['hand_ci95'][0]:.3f}, {b['hand_ci95'][1]:.3f}]" if has_hands else "–",
            f"{b['mean_points_per_hand']:.1f}" if has_hands else "–",
            f"{b['mean_final_total']:.0f}" if has_hands else "–",
        )
    con.print(t)
    if report["deals"] < FEW_DEALS:
        con.print(
            f"[yellow]only {report['deals']} deal{'s' if report['deals'] != 1 else ''}: the intervals count "
            f"deals, and fewer than {FEW_DEALS} make them rough (the Elo ones too narrow); play more matches[/]"
        )
    for p in report["pairs"]:
        con.print(f"  {p['a']} vs {p['b']}: {p['a_score']:.3f} over {p['matches']} pairwise results")
    if seconds is not None:
        con.print(f"[dim]{report['decisions']} decisions in {seconds:.1f} s[/]")


def _bound(value: float | None, open_end: str) -> str:
    return open_end if value is None else f"{value:.2f}"


def write_outputs(report: dict[str, Any], results: Sequence[MatchResult], out: Path) -> list[Path]:
    """``bots.csv``, ``matches.csv``, ``tournament.json`` and (with matplotlib) the plot."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    p = out / "tournament.json"
    p.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    written.append(p)
    p = out / "bots.csv"
    with p.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["bot", "elo", "elo_lo", "elo_hi", "matches", "match_wins", "match_win_rate", "match_lo",
                    "match_hi", "hands", "hand_wins", "hand_win_rate", "hand_lo", "hand_hi",
                    "mean_points_per_hand", "mean_final_total"])  # fmt: skip
        for b in report["bots"]:
            elo_lo, elo_hi = b["elo_ci95"]
            m_lo, m_hi = b["match_ci95"]
            h_lo, h_hi = b["hand_ci95"]
            w.writerow(
                [b["bot"], f"{b['elo']:.2f}", _bound(elo_lo, "-inf"), _bound(elo_hi, "inf"), b["matches"],
                 b["match_wins"],
                 f"{b['match_win_rate']:.5f}", f"{m_lo:.5f}", f"{m_hi:.5f}", b["hands"], b["hand_wins"],
                 f"{b['hand_win_rate']:.5f}", f"{h_lo:.5f}", f"{h_hi:.5f}", f"{b['mean_points_per_hand']:.3f}",
                 f"{b['mean_final_total']:.3f}"]
            )  # fmt: skip
    written.append(p)
    g = report["group_size"]
    p = out / "matches.csv"
    with p.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["match", "deal", "seating", "side", "seats", "bot", "score", "final_total", "hands", "points",
                    "turns", "decisions"])  # fmt: skip
        for r in results:
            scores = r.side_scores()
            for side, seats in enumerate(r.sides):
                w.writerow(
                    [r.index, r.index // g, r.index % g, side + 1, " ".join(f"P{s + 1}" for s in seats),
                     r.side_bots[side], scores[side], r.totals[side] if r.totals else "", r.hands,
                     sum(h[side] for h in r.hand_totals), r.turns, r.decisions]
                )  # fmt: skip
    written.append(p)
    try:
        written.append(plot(report, results, out / "tournament.png"))
    except ImportError:
        print("rallye tournament: matplotlib is not installed, no plot (pip install 'rallye[plot]')", file=sys.stderr)
    return written


def plot(report: dict[str, Any], results: Sequence[MatchResult], path: Path) -> Path:
    """Ratings with their intervals, and each bot's distribution of points per hand (or,
    without hands, of match scores), saved as a PNG (see :func:`figure`)."""
    figure(report, results).savefig(path, dpi=100)
    return path


def figure(report: dict[str, Any], results: Sequence[MatchResult]) -> Any:
    """The plot's matplotlib ``Figure``. An interval's open end (a bot that won or lost
    everything has a one-sided interval) is drawn open: a dashed arrow running off the
    axis, not a bar that stops at a bound."""
    from matplotlib.figure import Figure  # no pyplot: no global backend state

    bots = [b["bot"] for b in report["bots"]]
    fig = Figure(figsize=(11, 4.5), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2)
    elo = [b["elo"] for b in report["bots"]]
    # (a percentile interval need not contain the point estimate: clamp the bars at it)
    lo = [0.0 if b["elo_ci95"][0] is None else max(0.0, b["elo"] - b["elo_ci95"][0]) for b in report["bots"]]
    hi = [0.0 if b["elo_ci95"][1] is None else max(0.0, b["elo_ci95"][1] - b["elo"]) for b in report["bots"]]
    ax1.errorbar(range(len(bots)), elo, yerr=[lo, hi], fmt="o", capsize=0)
    for i, b in enumerate(report["bots"]):  # a cap only where the interval ends
        closed = [end for k, end in ((0, elo[i] - lo[i]), (1, elo[i] + hi[i])) if b["elo_ci95"][k] is not None]
        ax1.plot([i] * len(closed), closed, linestyle="none", marker="_", markersize=12, color="C0")
    ends = [e for i in range(len(bots)) for e in (elo[i] - lo[i], elo[i] + hi[i])]
    span = (max(ends) - min(ends)) if ends else 0.0
    margin = max(span * 0.25, 50.0)
    bottom, top = min([*ends, 0.0]) - margin, max([*ends, 0.0]) + margin
    ax1.set_ylim(bottom, top)
    for i, b in enumerate(report["bots"]):
        for k, edge in ((0, bottom), (1, top)):
            if b["elo_ci95"][k] is None:  # open: on to the edge of the axis and beyond
                ax1.annotate(
                    "",
                    xy=(i, edge),
                    xytext=(i, elo[i]),
                    arrowprops={"arrowstyle": "->", "linestyle": "--", "color": "C0"},
                    annotation_clip=False,
                )
    ax1.axhline(0, color="grey", linewidth=0.5)
    ax1.set_xticks(range(len(bots)), bots)
    ax1.set_ylabel("Elo (mean 0), 95% bootstrap interval")
    ax1.set_title("Ratings (dashed arrow: the interval is open on that side)")
    per_bot: dict[str, list[float]] = {b: [] for b in bots}
    for r in results:
        if r.hand_totals:
            for side, bot in enumerate(r.side_bots):
                per_bot[bot].extend(h[side] for h in r.hand_totals)
        else:
            for side, bot in enumerate(r.side_bots):
                per_bot[bot].append(r.side_scores()[side])
    label = "points per hand" if any(r.hand_totals for r in results) else "match score"
    everything = [v for vs in per_bot.values() for v in vs]
    if everything:
        low, high = min(everything), max(everything)
        width = (high - low) / 30 or 1.0
        bins = [low + width * i for i in range(31)]
        for b in bots:
            if per_bot[b]:
                ax2.hist(per_bot[b], bins=bins, alpha=0.5, label=b)
    ax2.set_xlabel(label)
    ax2.set_ylabel("count")
    ax2.set_title(f"Distribution of {label}")
    if everything:
        ax2.legend()
    cfg = report["config"]
    game = cfg["game"] + (f" {cfg['edition']}" if "edition" in cfg else "")
    fig.suptitle(f"{game}, {cfg['players']} players: {report['matches']} matches, seed {cfg['seed']}")
    return fig


# -- the command ---------------------------------------------------------------------


def add_tournament_arguments(p: argparse.ArgumentParser) -> None:
    from rallye.core.cli_args import MAX_GAMES, MAX_WORKERS, seed, whole
    from rallye.sim.runner import BACKENDS

    p.add_argument("--game", choices=GAMES, default="mille")
    p.add_argument("--edition", default="wm2006", help="Mille Bornes edition (default wm2006)")
    p.add_argument("--players", type=whole(1, 64), default=2)
    p.add_argument("--bots", required=True, help="two or more bots or levels, comma separated")
    p.add_argument(
        "--matches", type=whole(1, MAX_GAMES), default=100, help="matches to play, rounded up to whole deals"
    )
    p.add_argument(
        "--seed", type=seed, default=None, help="master seed (default: a new 128-bit one, shown in the report)"
    )
    p.add_argument(
        "--workers", type=whole(1, MAX_WORKERS), default=None, help="processes (default: every available core)"
    )
    p.add_argument("--backend", choices=BACKENDS, default="process", help="process pool (default) or ray")
    p.add_argument("--address", default=None, help="join this Ray cluster (with --backend ray)")
    p.add_argument("--bootstrap", type=whole(2, 100_000), default=BOOTSTRAP_REPS, help="bootstrap repetitions for Elo")
    p.add_argument(
        "--turn-limit",
        type=whole(1, 1_000_000),
        default=DEFAULT_TURN_LIMIT,
        help=f"Knight Rider: chase turns without a capture before the villain escapes and nobody wins"
        f" (default {DEFAULT_TURN_LIMIT}, the rules' turn limit)",
    )
    p.add_argument("--out", type=Path, default=None, help="write CSV, JSON and a PNG plot here")
    p.add_argument("--json", action="store_true", help="print the report as JSON (no progress bar)")


add_arguments = add_tournament_arguments


def config_from_args(args: argparse.Namespace) -> TournamentConfig:
    bots = tuple(s.strip() for s in args.bots.split(",") if s.strip())
    options = {"quick_build": True, "turn_limit": args.turn_limit} if args.game == "knightrider" else {}
    return TournamentConfig(
        game=args.game,
        bots=bots,
        players=args.players,
        matches=args.matches,
        seed=new_seed() if args.seed is None else args.seed,
        edition=args.edition,
        options=options,
        bootstrap=args.bootstrap,
    )


def run_tournament(args: argparse.Namespace) -> int:
    from rallye.sim.progress import wants_progress

    config = config_from_args(args)
    t0 = time.perf_counter()
    try:
        report, results = play_tournament(
            config,
            backend=args.backend,
            workers=args.workers,
            address=args.address,
            progress=wants_progress(args.json),
        )
    except ValueError as exc:
        print(f"rallye tournament: {exc}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - t0
    if args.json:
        json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print_report(report, seconds)
    if args.out is not None:
        for path in write_outputs(report, results, args.out):
            print(f"wrote {path}", file=sys.stderr)
    return 0


run = run_tournament
