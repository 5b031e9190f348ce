"""``rallye play``: play Mille Bornes (or Knight Rider) in the terminal against bots.

``rallye play mille`` runs :mod:`rallye.tui.mille.app`; ``rallye play knightrider`` hands
the parsed arguments to ``rallye.tui.knightrider.app.run_play(args) -> int``, imported only
when asked for.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from rallye.core.cli_args import integer, seconds, seed, whole
from rallye.core.rng import new_seed
from rallye.i18n import LANGUAGES
from rallye.knightrider.state import DEFAULT_TURN_LIMIT
from rallye.tui.words import common

if TYPE_CHECKING:
    from rich.console import Console

    from rallye.mille.edition import Edition
    from rallye.tui.mille.app import MilleSession

GAMES = ("mille", "knightrider")
KNIGHTRIDER_APP = "rallye.tui.knightrider.app"


def add_play_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=GAMES, help="which game to play")
    p.add_argument(
        "--edition", default=None, help="mille: edition key, alias or .json house-rule file (default wm2006)"
    )
    p.add_argument("--players", type=whole(1, 64), default=None, help="number of players, you included (default 2)")
    p.add_argument("--seat", type=integer, default=None, help="your seat, 1-based (default 1)")
    p.add_argument(
        "--humans",
        metavar="SEATS",
        default=None,
        help="seats played by people at this keyboard, e.g. 1,3 (a 'pass the keyboard' screen between turns)",
    )
    p.add_argument(
        "--seed", type=seed, default=None, help="the deal's seed (default: a random one, shown when the game ends)"
    )
    p.add_argument(
        "--bots",
        default=None,
        help="bot names for the other seats in seat order, comma-separated; the last repeats (default heuristic)",
    )
    p.add_argument(
        "--lang", choices=LANGUAGES, default=None, help="language of the screen and card names (default: the edition's)"
    )
    p.add_argument("--save", metavar="FILE", default=None, help="save file: for 'save', the offer on quit and Ctrl-D")
    p.add_argument("--resume", metavar="FILE", default=None, help="continue a saved game (replayed and verified)")
    p.add_argument(
        "--delay", type=seconds, default=None, help="seconds to pause after each bot move (default 0.4 on a terminal)"
    )
    p.add_argument(
        "--coach",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="'hint' shows the analysis bot's move and why (default: on for one person with bots)",
    )
    kr = p.add_argument_group("Knight Rider variants (rallye rules knightrider)")
    kr.add_argument("--quick-build", action="store_true", help="the computer lays all tiles, continuing the roads")
    kr.add_argument("--rolled-start", action="store_true", help="the start tile is rolled too")
    kr.add_argument("--tour", type=whole(0, 5), default=None, metavar="N", help="N target tiles to reach first (0-5)")
    kr.add_argument("--deal-spares", action="store_true", help="with fewer than 5 players deal the spare cards")
    kr.add_argument("--shuffle-cards", action="store_true", help="shuffle and deal the cards instead of sets")
    kr.add_argument(
        "--turn-limit",
        type=whole(0, 1_000_000),
        default=None,
        metavar="N",
        help=f"chase turns before the villain escapes and nobody wins (default {DEFAULT_TURN_LIMIT}; 0: no limit)",
    )
    kr.add_argument("--tiles", metavar="FILE", default=None, help="your own tile set (JSON, like data/tiles.json)")
    kr.add_argument(
        "--escape-cards", metavar="FILE", default=None, help="your own escape cards (JSON, like data/escape_cards.json)"
    )


def run_play(args: argparse.Namespace) -> int:
    if args.game == "knightrider":
        return _run_knightrider(args)
    kr_flags = [f for f, on in _kr_flags(args) if on]
    if kr_flags:
        said = common(play_language(args)).n("play.kr_options", len(kr_flags), flags=", ".join(kr_flags))
        print(f"rallye play: {said}", file=sys.stderr)
        return 2
    from rich.console import Console

    console = Console()
    return play_mille(args, console, console.input, interactive=sys.stdin.isatty())


def _kr_flags(args: argparse.Namespace) -> list[tuple[str, bool]]:
    return [
        ("--quick-build", bool(getattr(args, "quick_build", False))),
        ("--rolled-start", bool(getattr(args, "rolled_start", False))),
        ("--tour", getattr(args, "tour", None) is not None),
        ("--deal-spares", bool(getattr(args, "deal_spares", False))),
        ("--shuffle-cards", bool(getattr(args, "shuffle_cards", False))),
        ("--turn-limit", getattr(args, "turn_limit", None) is not None),
        ("--tiles", getattr(args, "tiles", None) is not None),
        ("--escape-cards", getattr(args, "escape_cards", None) is not None),
    ]


def _run_knightrider(args: argparse.Namespace) -> int:
    try:
        mod = importlib.import_module(KNIGHTRIDER_APP)
    except ModuleNotFoundError as exc:
        if exc.name != KNIGHTRIDER_APP:
            raise
        said = common(getattr(args, "lang", None) or "de")("play.no_knightrider", module=KNIGHTRIDER_APP)
        print(f"rallye: {said}", file=sys.stderr)
        return 2
    runner: Callable[[argparse.Namespace], int] | None = getattr(mod, "run_play", None) or getattr(mod, "run", None)
    if runner is None:
        print(f"rallye: {KNIGHTRIDER_APP} has no run_play(args)", file=sys.stderr)
        return 2
    return runner(args)


def resolve_bots(spec: str | None, count: int, note: Callable[[str], None], lang: str = "en") -> list[str]:
    """Bot names for ``count`` seats (see :func:`rallye.tui.loop.resolve_bots`)."""
    from rallye.tui.loop import resolve_bots as resolve

    return resolve("mille", spec, count, note, lang)


def play_language(args: argparse.Namespace) -> str:
    """The language a Mille Bornes game will be played in, for what is said before it
    starts: ``--lang``, else the edition's (of the save file with ``--resume``), else
    German (the default edition's)."""
    lang: str | None = getattr(args, "lang", None)
    if lang:
        return lang
    from rallye.mille.edition import get_edition

    try:
        if getattr(args, "resume", None):
            from rallye.core.record import read_jsonl

            head = read_jsonl(args.resume)[0][1]
            data = head.get("edition_data")
            language = data.get("language") if isinstance(data, dict) else None
            if language is None:
                language = get_edition(str(head.get("edition"))).language
        else:
            language = get_edition(getattr(args, "edition", None) or "wm2006").language
    except Exception:  # a file or edition that cannot be read: its own error is told later
        return "de"
    return language if language in LANGUAGES else "en"


def play_mille(
    args: argparse.Namespace,
    console: Console,
    input_fn: Callable[[str], str],
    *,
    interactive: bool = False,
) -> int:
    """``rallye play mille`` with an injectable console and input (tests use this)."""
    from rich.text import Text

    from rallye.core.errors import GameError
    from rallye.tui.loop import coach_wanted, play_failed, play_note, told
    from rallye.tui.mille.app import MilleSession, run_session
    from rallye.tui.mille.render import pick_language

    session: MilleSession | None = None

    def lang() -> str:
        """The game's language: ``--lang``, else the edition's (once the game is known)."""
        return _ui(args.lang, session) if session is not None else play_language(args)

    def note(msg: str) -> None:
        play_note(console, msg)

    def fail(msg: str) -> int:
        return play_failed(console, msg)

    def bots_for(spec: str | None, n: int) -> list[str]:
        return resolve_bots(spec, n, note, lang())

    try:
        if args.resume:
            clash = [f"--{k}" for k in ("edition", "players", "seed") if getattr(args, k) is not None]
            if clash:
                return fail(common(lang())("play.resume_clash", flags=", ".join(clash)))
            from rallye.core.record import read_jsonl
            from rallye.tui.loop import resume_args

            head = read_jsonl(args.resume)[0][1]
            seats, bots = resume_args(args, head, bots_for)
            session = MilleSession.resume(args.resume, seats, bots)
            if session.over:
                return fail(common(lang())("play.match_over", path=args.resume))
            resumed = common(lang())
            console.print(Text(resumed.n("resumed", session.actions_played, path=args.resume), style="green"))
            save_path: str | None = args.save or args.resume
        else:
            from rallye.tui.loop import UsageError, human_seats_arg

            edition = _edition(args.edition or "wm2006")
            players = args.players if args.players is not None else 2
            if players not in edition.players:  # a clear error for a player count the box has not
                allowed = ", ".join(map(str, edition.players))
                raise UsageError("play.edition_players", players=players, edition=edition.key, allowed=allowed)
            humans = human_seats_arg(args.seat, getattr(args, "humans", None), players) or (0,)
            bots = bots_for(args.bots, players - len(humans))  # a bad --bots is refused before the game
            seed = args.seed if args.seed is not None else new_seed()
            session = MilleSession.new(edition, players, seed, humans, bots)
            save_path = args.save
    except (ValueError, GameError) as exc:
        return fail(told(exc, lang()))
    _, lang_note = pick_language(session.view().edition, args.lang)
    if lang_note:
        note(lang_note)
    delay = args.delay if args.delay is not None else (0.4 if interactive else 0.0)
    coach = coach_wanted(args, session.human_seats)
    return run_session(session, input_fn, console, lang=args.lang, save_path=save_path, delay=delay, coach=coach)


def _edition(name: str) -> Edition:
    """``--edition``: a name that is no edition is a :class:`~rallye.tui.loop.UsageError`
    (said in the player's language); a house-rule file's errors are the file's."""
    from rallye.core.errors import ConfigError
    from rallye.mille.edition import EDITION_KEYS, get_edition
    from rallye.tui.loop import UsageError

    try:
        return get_edition(name)
    except ConfigError as exc:
        if exc.rule != "edition":
            raise
        raise UsageError("play.unknown_edition", name=name[:40], known=", ".join(EDITION_KEYS)) from None


def _ui(lang: str | None, session: MilleSession) -> str:
    """The screen's language: ``--lang``, else the edition's."""
    ed = session.view().edition
    return lang or (ed.language if ed.language in LANGUAGES else "en")
