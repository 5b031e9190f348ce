"""The ``rallye`` command.

Each subcommand lives in its adapter module, which provides ``add_arguments(parser)`` and
``run(args) -> int`` and keeps its heavy imports inside ``run`` so the command starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Sequence
from typing import NoReturn

from rallye import __version__
from rallye.core.errors import GameError

COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("serve", "rallye.server.cli", "run the online table server (play in the browser, with friends and bots)"),
    ("admin", "rallye.server.admin", "look after a server's database: tables, export, prune, backup"),
    ("join", "rallye.tui.online", "sit at an online table from the terminal (rallye join URL)"),
    ("play", "rallye.tui.play", "play a game in the terminal against bots"),
    ("editions", "rallye.tui.info", "list the Mille Bornes editions"),
    ("rules", "rallye.tui.info", "how a game is played: the turn, the cards, the scoring"),
    ("replay", "rallye.tui.replay", "replay and verify a game record"),
    ("analyse", "rallye.analysis.command", "analyse a game record: each decision judged by a bot, marks, win chances"),
    ("simulate", "rallye.sim.simulate", "play many bot matches and print statistics"),
    ("tournament", "rallye.sim.tournament", "duplicate-deal tournament with ratings"),
    ("bot", "rallye.agents.process", "run a bot reading views (JSON lines) on stdin"),
)


#: argparse's messages (and those of ``rallye.core.cli_args``) and their ids in the common
#: catalog; a message not matched is shown as argparse says it.
_ARG_MESSAGES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.S), msg_id)
    for pattern, msg_id in (
        (r"must be from (?P<lo>\S+) to (?P<hi>\S+), got (?P<value>.*)", "arg.range"),
        (r"not a whole number: (?P<value>.*)", "arg.not_whole"),
        (r"not a size: (?P<value>.*) \(bytes, or a number with K, M or G\)", "arg.size"),
        (r"a seed is a whole number of at most (?P<digits>\d+) digits", "arg.seed"),
        (r"must be a number of seconds from 0 to 60, got (?P<value>.*)", "arg.seconds"),
        (r"invalid choice: (?P<value>.*) \(choose from (?P<choices>.*)\)", "arg.choice"),
        (r"expected one argument", "arg.expected_one"),
        (r"invalid \S+ value: (?P<value>.*)", "arg.invalid"),
        (r"not allowed with argument (?P<other>.*)", "arg.not_with"),
        (r"the following arguments are required: (?P<names>.*)", "arg.required"),
        (r"unrecognized arguments: (?P<args>.*)", "arg.unrecognized"),
        (r"ambiguous option: (?P<option>\S+) could match (?P<matches>.*)", "arg.ambiguous"),
    )
)


def translate_usage_error(message: str, lang: str) -> str:
    """An argparse error message in ``lang`` (``argument --seat: …`` becomes ``--seat: …``).

    >>> translate_usage_error("argument --players: must be from 1 to 64, got 99", "de")
    '--players: muss zwischen 1 und 64 liegen, nicht 99'
    >>> translate_usage_error("the following arguments are required: game", "hu")
    'hiányzik: game'
    """
    from rallye.i18n import translator

    tc = translator(lang, "common")
    option, sep, said = message.partition(": ") if message.startswith("argument ") else ("", "", message)
    for pattern, msg_id in _ARG_MESSAGES:
        m = pattern.fullmatch(said)
        if m:
            said = tc(msg_id, **m.groupdict())
            break
    return tc("arg.option", option=option.removeprefix("argument "), message=said) if sep else said


class Parser(argparse.ArgumentParser):
    """argparse with its usage errors in the screen's language: ``--lang`` if the command
    line names one, else (``rallye play``) the game's, else English."""

    #: the command line being parsed (set by :func:`main`)
    argv: Sequence[str] = ()

    def error(self, message: str) -> NoReturn:
        lang = _argv_language(self.argv)
        from rallye.i18n import translator

        self.print_usage(sys.stderr)
        said = translator(lang, "common")("arg.error", prog=self.prog, message=translate_usage_error(message, lang))
        self.exit(2, said + "\n")


def _argv_language(argv: Sequence[str]) -> str:
    """The language a command line asks for before it is parsed (see :class:`Parser`)."""
    from rallye.i18n import LANGUAGES

    words = list(argv)
    for i, w in enumerate(words):
        value = (
            w.split("=", 1)[1]
            if w.startswith("--lang=")
            else (words[i + 1] if w == "--lang" and i + 1 < len(words) else None)
        )
        if value in LANGUAGES:
            return str(value)
    if words[:1] != ["play"]:
        return "en"
    if "knightrider" in words:
        return "de"
    edition = next((words[i + 1] for i, w in enumerate(words[:-1]) if w == "--edition"), None)
    from rallye.tui.play import play_language

    return play_language(argparse.Namespace(lang=None, edition=edition, resume=None))


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="rallye", description="Mille Bornes and Knight Rider: play, bots, research.")
    parser.add_argument("--version", action="version", version=f"rallye {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module, help_text in COMMANDS:
        try:
            mod = importlib.import_module(module)
        except ImportError:  # a command whose adapter is not installed is left out
            continue
        p = sub.add_parser(name, help=help_text, description=help_text)
        adder = getattr(mod, f"add_{name}_arguments", None) or mod.add_arguments
        adder(p)
        p.set_defaults(_run=getattr(mod, f"run_{name}", None) or mod.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    Parser.argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    if args.command == "replay" and getattr(args, "web", False):  # the server's page (docs/server.md, "Replays")
        from rallye.server.replay import serve_file

        args._run = serve_file
    try:
        code: int = args._run(args)
    except GameError as exc:
        print(f"rallye: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        from rallye.i18n import translator

        print(f"\nrallye: {translator(_language(args), 'common')('interrupted')}", file=sys.stderr)
        return 130
    return code


def _language(args: argparse.Namespace) -> str:
    """The language a command speaks: its ``--lang``, else (``rallye play``) the game's,
    else English."""
    from rallye.i18n import LANGUAGES

    lang = getattr(args, "lang", None)
    if lang in LANGUAGES:
        return str(lang)
    if args.command == "play":
        from rallye.tui.play import play_language

        return play_language(args) if args.game == "mille" else "de"
    return "en"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
