"""``rallye editions`` and ``rallye rules``: what each box holds, in its own words."""

from __future__ import annotations

import argparse

from rallye.mille.cards import CARDS, kind
from rallye.mille.edition import LANGUAGES, SCORE_LINES, Edition, editions, get_edition


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
    t.add_row("knightrider", "Knight Rider (ASS, board game)", "2-5", "de", "rallye rules knightrider")
    Console().print(t)
    return 0


def add_rules_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=("mille", "knightrider"))
    p.add_argument("--edition", default="wm2006", help="edition key, alias or a .json path (mille)")
    p.add_argument("--lang", choices=LANGUAGES, default=None, help="language of names (default: the edition's)")
    p.add_argument("--players", type=int, default=None, help="show the deck for this many players")


def rules_text(ed: Edition, lang: str | None = None, players: int | None = None) -> list[tuple[str, str, str]]:
    """(card id, count, name) rows for an edition's deck; a player count the edition is
    not played by is a :class:`~rallye.core.errors.ConfigError`, not silently ignored."""
    if players is not None:
        ed.sides_for(players)
    deck = ed.deck_for(players) if players is not None else tuple(c for c, k in ed.deck for _ in range(k))
    return [(c, str(deck.count(c)), ed.card_name(c, lang)) for c in CARDS if deck.count(c)]


def run_rules(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if args.game == "knightrider":
        from rallye.tui.knightrider_info import print_rules

        print_rules(console, args.lang)
        return 0
    ed = get_edition(args.edition)
    lang = args.lang or ed.language
    if lang not in ed.languages():
        lang = "en"
    console.print(f"[bold]{ed.title}[/bold]  ({ed.key}; seed {ed.seed})")
    cards = Table()
    cards.add_column("id")
    cards.add_column("kind")
    cards.add_column("count", justify="right")
    cards.add_column("name")
    deck = rules_text(ed, lang, args.players)
    for cid, count, name in deck:
        cards.add_row(cid, kind(cid), count, name)
    console.print(cards)
    total = sum(int(c) for _, c, _ in deck)
    console.print(f"{total} cards" + (f" with {args.players} players" if args.players else ""))
    sc = ed.scoring
    pts = Table(title=ed.word("score_sheet", lang))
    pts.add_column("line")
    pts.add_column("points", justify="right")
    values = {
        "distance": "1 / km",
        "safeties": f"{sc.safety} each",
        "all_four": f"+{sc.all_four_bonus}" if sc.all_four_bonus else "—",
        "coup_fourre": f"+{sc.coup_fourre_bonus} each",
        "trip": str(sc.trip),
        "safe_trip": str(sc.safe_trip) if sc.safe_trip else "—",
        "delayed_action": str(sc.delayed_action) if sc.delayed_action else "—",
        "shutout": f"{sc.shutout} per side ({sc.shutout_to})" if sc.shutout else "—",
        "extension": f"{sc.extension}" if ed.extension.allowed else "—",
        "hand_penalty": "− km in hand" if ed.subtract_distance_in_hand else "—",
    }
    for line in SCORE_LINES:
        pts.add_row(ed.word(line, lang), values[line])
    console.print(pts)
    target = "one hand" if ed.match_target is None else f"{ed.match_target} points"
    console.print(
        f"players {', '.join(map(str, ed.players))}; target {ed.target_alone} km alone, "
        f"{ed.target_team} km as a team; match: {target}"
    )
    if ed.small_game_removed:
        removed = ", ".join(ed.card_name(c, lang) for c in ed.small_game_removed)
        console.print(f"removed with {'/'.join(map(str, ed.small_game_players))} players: {removed}")
    return 0
