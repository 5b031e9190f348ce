"""``rallye editions`` and ``rallye rules``: what each box holds, in its own words.

The rules texts are each game's own (:mod:`rallye.tui.mille.info`,
:mod:`rallye.tui.knightrider.info`); here are the two commands.
"""

from __future__ import annotations

import argparse

from rallye.mille.edition import LANGUAGES, editions, get_edition


def add_editions_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON")


def run_editions(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    if args.json:
        import json

        rows = [
            {
                "key": e.key,
                "title": e.title,
                "aliases": list(e.aliases),
                "players": list(e.players),
                "language": e.language,
            }
            for e in editions()
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    t = Table(title="Mille Bornes editions")
    for col in ("key", "title", "players", "language", "aliases"):
        t.add_column(col)
    for e in editions():
        t.add_row(e.key, e.title, ", ".join(map(str, e.players)), e.language, ", ".join(e.aliases))
    t.add_row("knightrider", "Knight Rider (ASS, board game)", "2-5", "de", "–")
    # the aliases column holds names --edition takes; how to reach Knight Rider is said apart
    t.caption = "knightrider: rallye play knightrider; its rules: rallye rules knightrider"
    t.caption_justify = "left"
    Console().print(t)
    return 0


def add_rules_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=("mille", "knightrider"))
    p.add_argument("--edition", default="wm2006", help="edition key, alias or a .json path (mille)")
    p.add_argument("--lang", choices=LANGUAGES, default=None, help="language of the rules (default: the edition's)")
    p.add_argument("--players", type=int, default=None, help="the rules and the deck for this many players (mille)")


def run_rules(args: argparse.Namespace) -> int:
    from rich.console import Console

    console = Console()
    if args.game == "knightrider":
        from rallye.tui.knightrider.info import print_rules as knightrider_rules

        knightrider_rules(console, args.lang)
        return 0
    from rallye.tui.mille.info import print_rules

    print_rules(console, get_edition(args.edition), args.lang, args.players)
    return 0
