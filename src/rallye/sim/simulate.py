"""``rallye simulate``: play many bot matches and print statistics.

``rallye simulate mille --edition wm2006 --players 2 --games 200 --seed 1 --bots heuristic,random``
plays whole matches, one bot per seat (the last name repeats for the remaining seats), and
prints per side the win rate with a 95% Wilson interval, then the mean hands per match,
the mean decisions per hand and the mean of every score-sheet line per hand, in the
edition's own words. ``rallye simulate knightrider --players 3 --games 200`` prints win
rates per seat, the rounds until the villain is caught (median and quartiles), the games
won in round 1 (by seat and by place in the turn order), the town (its largest
road-connected piece, how often it is one piece) and how far the cars start from the
villain (in road fields and in tiles), and how often each row of the ram and oil tables
fired; ``--rules 2`` plays the set-up of before issue #62, to compare.

Match ``i`` uses the game seed ``derive_seed("simulate", seed, i)``, and the bot at seat
``s`` the seed ``derive_seed("simulate-bot", seed, i, s)``: the same command gives the same
numbers, with any ``--workers``. ``--json`` prints one JSON object and no progress bar.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from rallye.core.cli_args import MAX_GAMES, MAX_WORKERS, seed, whole
from rallye.core.rng import derive_seed, new_seed
from rallye.knightrider.state import DEFAULT_TURN_LIMIT
from rallye.knightrider.state import RULES as KR_RULES
from rallye.sim.play import KR_TABLE_KINDS, MatchJob, MatchResult

# -- common --------------------------------------------------------------------------


def _add_common(p: argparse.ArgumentParser, default_players: int) -> None:
    p.add_argument("--players", type=whole(1, 64), default=default_players, help="seats at the table")
    p.add_argument("--games", type=whole(1, MAX_GAMES), default=100, help="matches to play (default 100)")
    p.add_argument(
        "--seed", type=seed, default=None, help="master seed (default: a new 128-bit one, shown in the report)"
    )
    p.add_argument(
        "--bots",
        default=None,
        help="bot per seat, comma separated; the last repeats (default: heuristic, or random if absent)",
    )
    p.add_argument("--workers", type=whole(1, MAX_WORKERS), default=1, help="processes to use (default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON object (no progress bar)")


def add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="game", required=True, metavar="GAME")
    m = sub.add_parser("mille", help="Mille Bornes matches", description="Play Mille Bornes matches with bots.")
    m.add_argument("--edition", default="wm2006", help="edition key or alias, or a house-rule .json (default wm2006)")
    _add_common(m, 2)
    k = sub.add_parser("knightrider", help="Knight Rider games", description="Play Knight Rider games with bots.")
    _add_common(k, 3)
    k.add_argument("--build", action="store_true", help="let the bots lay the tiles (default: quick build)")
    k.add_argument(
        "--rules",
        type=whole(1, KR_RULES),
        default=KR_RULES,
        help=f"Knight Rider rules version to play (default {KR_RULES}; 2 = the set-up before issue #62)",
    )
    k.add_argument(
        "--turn-limit",
        type=whole(0, 1_000_000),
        default=DEFAULT_TURN_LIMIT,
        help=f"chase turns before the villain escapes and nobody wins (default {DEFAULT_TURN_LIMIT}; 0: no limit)",
    )


add_arguments = add_simulate_arguments


def bot_names(game: str, spec: str | None, players: int) -> list[str]:
    from rallye.agents.base import agent_names, parse_bots

    if spec is None:
        spec = "heuristic" if "heuristic" in agent_names(game) else "random"
    try:
        return parse_bots(game, spec, players)
    except ValueError as exc:  # a usage error: exit status 2, as argparse and every command give
        print(f"rallye simulate: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def make_jobs(game: str, players: int, bots: Sequence[str], games: int, seed: int, **extra: Any) -> list[MatchJob]:
    return [
        MatchJob(
            index=i,
            game=game,
            players=players,
            seat_bots=tuple(bots),
            seed=derive_seed("simulate", seed, i),
            bot_seeds=tuple(derive_seed("simulate-bot", seed, i, s) for s in range(players)),
            **extra,
        )
        for i in range(games)
    ]


def play_all(jobs: Sequence[MatchJob], args: argparse.Namespace, what: str) -> tuple[list[MatchResult], float]:
    from rallye.sim.progress import progress_bar, wants_progress
    from rallye.sim.runner import run_jobs

    t0 = time.perf_counter()
    with progress_bar(len(jobs), what, enabled=wants_progress(args.json)) as advance:
        results = run_jobs(jobs, workers=args.workers, advance=advance)
    return results, time.perf_counter() - t0


def win_rates(results: Sequence[MatchResult], n_sides: int) -> list[dict[str, Any]]:
    """Per side: wins (a drawn result shared between its winners; a game with no result
    is no side's win), the rate and its 95% Wilson interval."""
    from rallye.sim.stats import wilson

    n = len(results)
    out = []
    for side in range(n_sides):
        wins = sum(r.side_scores()[side] for r in results if r.winners)
        lo, hi = wilson(min(wins, n), n)
        out.append({"wins": wins, "win_rate": wins / n if n else 0.0, "ci95": [lo, hi]})
    return out


# -- Mille Bornes ----------------------------------------------------------------------


def simulate_mille(args: argparse.Namespace) -> dict[str, Any]:
    from rallye.mille.edition import SCORE_LINES, get_edition
    from rallye.sim.stats import mean

    ed = get_edition(args.edition)
    sides = ed.sides_for(args.players)
    bots = bot_names("mille", args.bots, args.players)
    jobs = make_jobs("mille", args.players, bots, args.games, args.seed, edition=ed)
    results, seconds = play_all(jobs, args, "matches")
    hands = sum(r.hands for r in results)
    decisions = sum(r.decisions for r in results)
    rates = win_rates(results, len(sides))
    out_sides = []
    for s, seats in enumerate(sides):
        lines = {
            line: {
                "word": ed.word(line),
                "mean_per_hand": sum(r.lines[s][i] for r in results) / hands if hands else 0.0,
            }
            for i, line in enumerate(SCORE_LINES)
        }
        out_sides.append(
            {
                "side": s + 1,
                "seats": [p + 1 for p in seats],
                "bots": [bots[p] for p in seats],
                **rates[s],
                "mean_final_total": mean([r.totals[s] for r in results]),
                "mean_points_per_hand": sum(sum(h[s] for h in r.hand_totals) for r in results) / hands if hands else 0,
                "score_lines": lines,
            }
        )
    return {
        "game": "mille",
        "edition": ed.key,
        "edition_title": ed.title,
        "language": ed.language,
        "players": args.players,
        "games": len(results),
        "seed": args.seed,
        "bots": bots,
        "sides": out_sides,
        "drawn_matches": sum(1 for r in results if len(r.winners) > 1),
        "hands": hands,
        "decisions": decisions,
        "mean_hands_per_match": hands / len(results),
        "mean_decisions_per_hand": decisions / hands if hands else 0.0,
        "_seconds": seconds,
    }


def print_mille(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    from rallye.mille.edition import SCORE_LINES

    con = Console()
    if not con.is_terminal:  # piped or captured: no terminal width to fit, use a wide one
        con = Console(width=120)
    con.print(
        f"[bold]{report['edition_title']}[/] ({report['edition']}), {report['players']} players, "
        f"{report['games']} matches, seed {report['seed']}"
    )
    t = Table(title="Match wins per side (95% Wilson interval)")
    for col in ("side", "seats", "bots", "win rate", "95% CI", "mean final total", "mean points / hand"):
        t.add_column(col, justify="right" if col not in ("bots", "seats") else "left")
    for s in report["sides"]:
        lo, hi = s["ci95"]
        t.add_row(
            str(s["side"]),
            " ".join(f"P{p}" for p in s["seats"]),
            ", ".join(s["bots"]),
            f"{s['win_rate']:.3f}",
            f"{lo:.3f}–{hi:.3f}",
            f"{s['mean_final_total']:.0f}",
            f"{s['mean_points_per_hand']:.1f}",
        )
    con.print(t)
    sheet = Table(title="Mean score-sheet lines per hand")
    sheet.add_column("line")
    sheet.add_column("id")
    for s in report["sides"]:
        sheet.add_column(f"side {s['side']}", justify="right")
    first = report["sides"][0]["score_lines"]
    for line in SCORE_LINES:
        means = (f"{s['score_lines'][line]['mean_per_hand']:.1f}" for s in report["sides"])
        sheet.add_row(first[line]["word"], line, *means)
    con.print(sheet)
    con.print(
        f"drawn matches: {report['drawn_matches']}   mean hands per match: {report['mean_hands_per_match']:.2f}   "
        f"mean decisions per hand: {report['mean_decisions_per_hand']:.1f}"
    )
    secs, decisions = report["_seconds"], report["decisions"]
    con.print(f"[dim]{decisions} decisions in {secs:.1f} s ({decisions / max(secs, 1e-9):.0f}/s)[/]")


# -- Knight Rider ----------------------------------------------------------------------

KR_TABLE_LABELS = {
    "ram": "ram table (rammed player's roll)",
    "ram_fail": "after a ram 6: second roll (5–6 the rammer skids)",
    "oil": "oil table (moving player's roll)",
}


def simulate_knightrider(args: argparse.Namespace) -> dict[str, Any]:
    from rallye.sim.stats import median_iqr

    bots = bot_names("knightrider", args.bots, args.players)
    options = {"quick_build": not args.build, "turn_limit": args.turn_limit or None}
    jobs = make_jobs("knightrider", args.players, bots, args.games, args.seed, options=options, rules=args.rules)
    results, seconds = play_all(jobs, args, "games")
    rates = win_rates(results, args.players)
    caught = [r for r in results if r.winners]
    rounds = [-(-r.turns // args.players) for r in caught]  # chase rounds, the last one begun
    med, q1, q3 = median_iqr(rounds) if rounds else (0.0, 0.0, 0.0)
    table: dict[str, dict[str, int]] = {k: {} for k in KR_TABLE_KINDS}
    for r in results:
        for kind, roll, count in r.table:
            table[kind][str(roll)] = table[kind].get(str(roll), 0) + count
    decisions = sum(r.decisions for r in results)
    return {
        "game": "knightrider",
        "players": args.players,
        "games": len(results),
        "seed": args.seed,
        "rules": args.rules,
        "bots": bots,
        "options": options,
        "seats": [{"seat": s + 1, "bot": bots[s], **rates[s]} for s in range(args.players)],
        "unfinished": len(results) - len(caught),
        "ended_share": len(caught) / len(results),
        "game_turns": game_turns(results),
        "rounds_to_capture": {"median": med, "q1": q1, "q3": q3, "iqr": q3 - q1},
        "round_one": round_one_wins(results, args.players),
        "town": town_summary(results),
        "table_rows": {k: dict(sorted(v.items(), key=lambda kv: int(kv[0]))) for k, v in table.items()},
        "decisions": decisions,
        "mean_decisions_per_game": decisions / len(results),
        "_seconds": seconds,
    }


def game_turns(results: Sequence[MatchResult]) -> dict[str, float]:
    """How long the chases lasted, in chase turns, every game counted (those the turn
    limit stopped at the limit): the median and the longest."""
    from rallye.sim.stats import median_iqr

    turns = [r.turns for r in results]
    med, _, _ = median_iqr(turns)
    return {"median": med, "max": max(turns)}


def round_one_wins(results: Sequence[MatchResult], players: int) -> dict[str, Any]:
    """The games won in the chase's first round: how many, their share of all games, and
    who won them, by seat and by place in the turn order (1 = the start player, car 1)."""
    from rallye.sim.stats import wilson

    first = [r for r in results if r.winners and r.turns <= players]
    by_seat = [sum(1 for r in first if r.winners[0] == s) for s in range(players)]
    by_turn = [sum(1 for r in first if (r.winners[0] - r.start_player) % players == k) for k in range(players)]
    lo, hi = wilson(len(first), len(results))
    return {
        "games": len(first),
        "share": len(first) / len(results) if results else 0.0,
        "ci95": [lo, hi],
        "by_seat": by_seat,
        "by_turn_position": by_turn,
    }


def town_summary(results: Sequence[MatchResult]) -> dict[str, Any]:
    """The towns the chases were played in (``rallye.knightrider.town``): tiles laid, the
    largest road-connected piece (tiles and share), how often the town is one piece, the
    villain's piece, and the start distance in road fields and in tiles (quartiles)."""
    from rallye.sim.stats import mean, median_iqr

    towns = [r.town for r in results if r.town]
    if not towns:
        return {"games": 0}
    tiles, pieces, largest, villain, fields, steps = (list(col) for col in zip(*towns, strict=True))

    def spread(values: list[int]) -> dict[str, float]:
        med, q1, q3 = median_iqr(values)
        return {"mean": mean(values), "median": med, "q1": q1, "q3": q3, "min": min(values), "max": max(values)}

    return {
        "games": len(towns),
        "tiles": mean(tiles),
        "pieces": mean(pieces),
        "one_piece_share": sum(1 for p in pieces if p == 1) / len(towns),
        "largest_piece_tiles": mean(largest),
        "largest_piece_share": mean([lg / t for lg, t in zip(largest, tiles, strict=True)]),
        "villain_piece_tiles": mean(villain),
        "start_fields": spread(fields),
        "start_tiles": spread(steps),
    }


def print_knightrider(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    con = Console()
    if not con.is_terminal:  # piped or captured: no terminal width to fit, use a wide one
        con = Console(width=120)
    con.print(
        f"[bold]Knight Rider[/], {report['players']} players, {report['games']} games, seed {report['seed']}, "
        f"rules {report['rules']}" + (", quick build" if report["options"]["quick_build"] else ", built by the bots")
    )
    t = Table(title="Wins per seat (95% Wilson interval)")
    for col in ("seat", "bot", "win rate", "95% CI"):
        t.add_column(col, justify="left" if col == "bot" else "right")
    for s in report["seats"]:
        lo, hi = s["ci95"]
        t.add_row(f"P{s['seat']}", s["bot"], f"{s['win_rate']:.3f}", f"{lo:.3f}–{hi:.3f}")
    con.print(t)
    r = report["rounds_to_capture"]
    con.print(
        f"rounds to the capture: median {r['median']:.1f}, IQR {r['q1']:.1f}–{r['q3']:.1f} ({r['iqr']:.1f}); "
        f"games without a capture: {report['unfinished']}"
    )
    limit = report["options"]["turn_limit"]
    con.print(
        f"games that end with a capture: {report['ended_share']:.1%}; chase turns, every game: median"
        f" {report['game_turns']['median']:.0f}, longest {report['game_turns']['max']}"
        f" (turn limit: {limit if limit else 'none'})"
    )
    one = report["round_one"]
    seats = " ".join(f"P{i + 1} {n}" for i, n in enumerate(one["by_seat"]))
    order = " ".join(f"{i + 1}. {n}" for i, n in enumerate(one["by_turn_position"]))
    con.print(
        f"won in round 1: {one['games']} games ({one['share']:.1%}, 95% CI {one['ci95'][0]:.1%}–{one['ci95'][1]:.1%});"
        f" by seat: {seats}; by place in the turn order: {order}"
    )
    town = report["town"]
    if town["games"]:
        f, t = town["start_fields"], town["start_tiles"]
        con.print(
            f"town: {town['tiles']:.1f} tiles, {town['pieces']:.2f} road-connected pieces, one piece in"
            f" {town['one_piece_share']:.1%} of the games; largest piece {town['largest_piece_tiles']:.1f} tiles"
            f" ({town['largest_piece_share']:.1%} of the tiles); villain's piece {town['villain_piece_tiles']:.1f}"
            " tiles"
        )
        con.print(
            f"start from the villain: median {f['median']:.0f} road fields (IQR {f['q1']:.0f}–{f['q3']:.0f},"
            f" min {f['min']:.0f}) = {t['median']:.0f} tiles (IQR {t['q1']:.0f}–{t['q3']:.0f}, min {t['min']:.0f})"
        )
    rows = Table(title="Ram and oil table rows fired (all games)")
    rows.add_column("table (roll →)")
    for roll in range(1, 7):
        rows.add_column(str(roll), justify="right")
    for kind, counts in report["table_rows"].items():
        rows.add_row(KR_TABLE_LABELS[kind], *(str(counts.get(str(roll), 0)) for roll in range(1, 7)))
    con.print(rows)


# -- the command ---------------------------------------------------------------------

GAMES: dict[str, tuple[Callable[[argparse.Namespace], dict[str, Any]], Callable[[dict[str, Any]], None]]] = {
    "mille": (simulate_mille, print_mille),
    "knightrider": (simulate_knightrider, print_knightrider),
}


def run_simulate(args: argparse.Namespace) -> int:
    simulate, show = GAMES[args.game]
    if args.seed is None:  # the report names it: the same command with it plays the same games
        args.seed = new_seed()
    report = simulate(args)
    if args.json:
        public = {k: v for k, v in report.items() if not k.startswith("_")}  # no wall time: output is reproducible
        json.dump(public, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        show(report)
    return 0


run = run_simulate
