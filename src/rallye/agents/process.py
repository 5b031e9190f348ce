"""``rallye bot``: a bot as a process, one view in, one action out, per line.

Reads one view per line on stdin (the JSON form of ``MilleView.to_json``, documented in
``docs/view-json.md``; with ``--game knightrider`` the form of the Knight Rider
``View.to_json``), writes the chosen action in notation (``play D100``,
``attack 2 STOP``, ``discard ROLL``, ``extend``, ``decline``) on stdout, one per line,
flushed at once. A line that cannot be used (not JSON, not a view, not this player's turn,
no legal action) gets one line ``error: <message>`` and the process carries on with the
next line. Blank lines are ignored. End of input ends the process (exit status 0).

The bot is made once, so a search bot's random stream runs on from view to view: the same
seed and the same input give the same output.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from rallye.agents.base import Agent, make_agent
from rallye.core.errors import GameError


def add_bot_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", choices=("mille", "knightrider"), default="mille", help="the game (default: mille)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--level", choices=("easy", "medium", "hard", "expert"), help="a level (default: medium)")
    group.add_argument("--bot", metavar="NAME", help="a bot by name (random, heuristic, ismcts, or a level)")
    p.add_argument("--seed", type=int, default=0, help="the bot's random seed (default: 0)")
    p.add_argument(
        "--exact",
        action="store_true",
        help="play the level's whole count budget (no CPU ceiling): the same answers on any machine, "
        "slower than the level's per-move limit on a slow one",
    )


def answer_knightrider(agent: Agent, line: str) -> str:
    """:func:`answer` for Knight Rider views."""
    from rallye.knightrider import View, legal_from_view

    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return f"error: not JSON: {exc.msg} at column {exc.colno}"
    if not isinstance(data, dict):
        return "error: a view must be a JSON object"
    try:
        view = View.from_json(data)
    except KeyError as exc:
        return f"error: view JSON: missing field {exc.args[0]!r}"
    except (TypeError, ValueError, AttributeError) as exc:
        return f"error: view JSON: {exc}"
    if view.over:
        return "error: the game is over; there is nothing to decide"
    if view.current != view.me:
        return f"error: it is P{(view.current or 0) + 1}'s turn, not P{view.me + 1}'s (the view's seat)"
    try:
        legal = legal_from_view(view)
        if not legal:
            return "error: no legal action in this view"
        return str(agent.choose(view, legal))
    except (GameError, ValueError, KeyError, IndexError) as exc:  # a view that is inconsistent
        return f"error: cannot decide on this view: {exc}"


def answer(agent: Agent, line: str, game: str = "mille") -> str:
    """The output line for one input line (an action in notation, or ``error: …``)."""
    if game == "knightrider":
        return answer_knightrider(agent, line)
    from rallye.mille.engine import legal_from_view
    from rallye.mille.view import MilleView

    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return f"error: not JSON: {exc.msg} at column {exc.colno}"
    try:
        view = MilleView.from_json(data)
    except GameError as exc:
        return f"error: {exc}"
    if view.phase == "over":
        return "error: the match is over; there is nothing to decide"
    if view.current != view.seat:
        return f"error: it is P{view.current + 1}'s turn, not P{view.seat + 1}'s (the view's seat)"
    legal = legal_from_view(view)
    if not legal:
        return "error: no legal action in this view"
    try:
        return str(agent.choose(view, legal))
    except (GameError, ValueError, KeyError, IndexError) as exc:  # a view that is inconsistent
        return f"error: cannot decide on this view: {exc}"


def serve(agent: Agent, stdin: TextIO, stdout: TextIO, game: str = "mille") -> int:
    """Answer every line of ``stdin`` on ``stdout`` until end of input."""
    for line in stdin:
        if not line.strip():
            continue
        stdout.write(answer(agent, line, game) + "\n")
        stdout.flush()
    return 0


def run_bot(args: argparse.Namespace) -> int:
    name = args.bot or args.level or "medium"
    try:
        agent = make_agent(args.game, name, args.seed, exact=getattr(args, "exact", False))
    except ValueError as exc:
        print(f"rallye bot: {exc}", file=sys.stderr)
        return 2
    return serve(agent, sys.stdin, sys.stdout, args.game)
