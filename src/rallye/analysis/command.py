"""``rallye analyse FILE``: a game record analysed, decision by decision (issue #61).

Prints a report in the user's language (``--lang``; by default the game's: a Mille Bornes
edition's own, German for Knight Rider, as ``rallye replay``): the analysis bot, each
player's agreement with it, the points and win chance given up and the marks, each marked
move with the preferred one, and a line of each side's chance to win over the game.
``--json`` prints the analysis's JSON instead (docs/analysis.md). A file that is not a
record says what is wrong with it (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rallye.analysis.analyse import MARKS, analyse
from rallye.analysis.evaluators import BOTS
from rallye.core.cli_args import seed
from rallye.core.errors import GameError
from rallye.core.record import read_jsonl
from rallye.i18n import LANGUAGES, translator

BARS = "▁▂▃▄▅▆▇█"


def add_analyse_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a game record or save file (JSON lines)")
    p.add_argument("--json", action="store_true", help="print the analysis as JSON (docs/analysis.md)")
    p.add_argument(
        "--bot",
        default="expert",
        help=f"the analysis bot: {', '.join(BOTS)}, or NAME*K for K times its budget (NAME/K: a K-th of it)",
    )
    p.add_argument("--seed", type=seed, default=0, help="the analysis's seed (the same seed, the same analysis)")
    p.add_argument("--hindsight", action="store_true", help="add each decision judged with every card known (Mille)")
    p.add_argument("--lang", choices=LANGUAGES, default=None, help="language of the report (default: the game's)")


def run_analyse(args: argparse.Namespace) -> int:
    try:
        lines = read_jsonl(args.file)
        lang = args.lang or _game_language(lines[0][1] if lines else {})
        progress = _progress if sys.stderr.isatty() and not args.json else None
        result = analyse(
            lines, bot=args.bot, seed=args.seed, hindsight=args.hindsight, progress=progress, source=str(args.file)
        )
    except GameError as exc:
        print(f"rallye analyse: {exc}", file=sys.stderr)
        return 2
    if progress is not None:
        print(file=sys.stderr)
    data = result.to_json()
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(report(data, lang, str(args.file)))
    return 0


def _progress(done: int, total: int) -> None:
    print(f"\r{done}/{total}", end="", file=sys.stderr, flush=True)


def _game_language(head: Any) -> str:
    if isinstance(head, dict) and head.get("game") == "mille":
        from rallye.mille.edition import get_edition

        try:
            lang = get_edition(str(head.get("edition", "wm2006"))).language
        except (GameError, KeyError, ValueError):
            return "en"
        return lang if lang in LANGUAGES else "en"
    return "de" if isinstance(head, dict) and head.get("game") == "knightrider" else "en"


def sparkline(values: list[float], width: int = 60) -> str:
    """``values`` (chances 0..1) as a line of bars, ``width`` at most (each bar the mean of
    its stretch of moves)."""
    if not values:
        return ""
    n = min(width, len(values))
    out = []
    for i in range(n):
        part = values[i * len(values) // n : max(i * len(values) // n + 1, (i + 1) * len(values) // n)]
        v = sum(part) / len(part)
        out.append(BARS[min(len(BARS) - 1, int(v * len(BARS)))])
    return "".join(out)


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.0f} %"


def report(data: dict[str, Any], lang: str, path: str) -> str:
    """The analysis ``data`` (its JSON) as the text report, in ``lang``."""
    t = translator(lang, "common")
    game = "Mille Bornes" if data["game"] == "mille" else "Knight Rider"
    out = [
        t("analyse.title", path=path, game=game, moves=t.n("replay.n_moves", data["moves"])),
        t("analyse.bot", bot=data["bot"], seed=data["seed"], decisions=len(data["decisions"])),
        "",
    ]
    for p in data["players"]:
        side = next(i for i, s in enumerate(data["sides"]) if p["seat"] in s)
        marks = ", ".join(t.n(f"analyse.n_{m}", p["marks"][m]) for m in MARKS)
        pts = "" if data["game"] != "mille" else t("analyse.lost_points", points=f"{p['loss_points']:.0f}") + "; "
        out.append(
            t("analyse.player", seat=p["seat"] + 1, side=side + 1, agreement=_pct(p["agreement"]))
            + "; "
            + pts
            + t("analyse.lost_win", win=_pct(p["loss_win"]))
            + "; "
            + marks
        )
    marked = [d for d in data["decisions"] if d["mark"]]
    out += ["", t("analyse.marked", count=len(marked))]
    for d in marked:
        line = t(
            "analyse.move",
            move=d["move"],
            seat=d["seat"] + 1,
            played=d["played"],
            best=d["best"],
            mark=t(f"analyse.mark_{d['mark']}"),
        )
        costs = []
        if d["loss_points"] is not None and data["game"] == "mille":
            costs.append(t("analyse.cost_points", points=f"{d['loss_points']:.0f}"))
        if d["loss_win"] is not None:
            costs.append(t("analyse.cost_win", win=f"{100 * d['loss_win']:.1f}"))
        out.append("  " + line + (" (" + ", ".join(costs) + ")" if costs else ""))
        if d["hindsight"]:
            h = d["hindsight"]
            out.append("    " + t("analyse.hindsight", best=h["best"], points=f"{h['loss_points']:.0f}"))
    out += ["", t("analyse.graph")]
    for side, seats in enumerate(data["sides"]):
        who = ", ".join(str(s + 1) for s in seats)
        series = [point[side] for point in data["graph"]]
        out.append(f"  {t('analyse.side', side=side + 1, seats=who)}: {sparkline(series)} {_pct(series[-1])}")
    return "\n".join(out)
