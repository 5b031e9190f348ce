"""The ``rallye`` command.

Each subcommand lives in its adapter module, which provides ``add_arguments(parser)`` and
``run(args) -> int`` and keeps its heavy imports inside ``run`` so the command starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from rallye import __version__
from rallye.core.errors import GameError

COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("serve", "rallye.server.cli", "run the online table server (play in the browser, with friends and bots)"),
    ("admin", "rallye.server.admin", "look after a server's database: tables, export, prune, backup"),
    ("join", "rallye.server.client", "sit at an online table from the terminal (rallye join URL)"),
    ("play", "rallye.tui.play", "play a game in the terminal against bots"),
    ("editions", "rallye.tui.info", "list the Mille Bornes editions"),
    ("rules", "rallye.tui.info", "how a game is played: the turn, the cards, the scoring"),
    ("replay", "rallye.tui.replay", "replay and verify a game record"),
    ("simulate", "rallye.sim.simulate", "play many bot matches and print statistics"),
    ("tournament", "rallye.sim.tournament", "duplicate-deal tournament with ratings"),
    ("bot", "rallye.agents.process", "run a bot reading views (JSON lines) on stdin"),
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rallye", description="Mille Bornes and Knight Rider: play, bots, research.")
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
    args = parser.parse_args(argv)
    try:
        code: int = args._run(args)
    except GameError as exc:
        print(f"rallye: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nrallye: interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
