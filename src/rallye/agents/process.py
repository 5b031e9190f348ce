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
import os
import sys
from typing import IO, Any, TextIO

from rallye.agents.base import GAME_LEVELS, GAMES, Agent, levels_for, make_agent
from rallye.core.cli_args import seed
from rallye.core.errors import GameError, RecordError
from rallye.core.jsonio import FORMAT_RULE, MAX_LINE_BYTES, iter_lines, loads


def add_bot_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", choices=("mille", "knightrider"), default="mille", help="the game (default: mille)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--level", metavar="LEVEL", help=levels_help())
    group.add_argument("--bot", metavar="NAME", help="a bot by name (random, heuristic, ismcts, or a level)")
    p.add_argument("--seed", type=seed, default=0, help="the bot's random seed (default: 0)")
    p.add_argument(
        "--exact",
        action="store_true",
        help="play the level's whole count budget (no CPU ceiling): the same answers on any machine, "
        "slower than the level's per-move limit on a slow one",
    )


def levels_help() -> str:
    """``--level``'s help: each game's levels on this install (the registry's
    :func:`~rallye.agents.base.levels_for`: ``learned`` where NumPy is installed)."""
    each = "; ".join(f"{game}: {', '.join(levels_for(game))}" for game in GAMES)
    return f"a level of the game ({each}; default: medium)"


def level_error(game: str, level: str) -> str | None:
    """Why ``level`` is not one of ``game``'s here, or ``None`` when it is."""
    here = levels_for(game)
    if level in here:
        return None
    if level in GAME_LEVELS[game]:  # a level whose bot needs what is not installed
        return (
            f"the {level} level needs NumPy, which is not installed here: pip install 'rallye[learned]'"
            f" (or numpy); the levels here: {', '.join(here)}"
        )
    return f"--level: {level!r} is not a level of {game}; its levels: {', '.join(here)}"


def answer_knightrider(agent: Agent, line: str) -> str:
    """:func:`answer` for Knight Rider views."""
    from rallye.knightrider import View, legal_from_view

    data = _parse(line)
    if isinstance(data, str):
        return data
    if not isinstance(data, dict):
        return "error: a view must be a JSON object"
    if data.get("game") == "mille":
        return "error: this is a Mille Bornes view; this bot plays Knight Rider (start it with --game mille)"
    try:
        view = View.from_json(data)
    except GameError as exc:
        return f"error: {exc}"
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


def _parse(line: str) -> Any:
    """The line's JSON, or the ``error:`` line that refuses it (within the limits of
    :mod:`rallye.core.jsonio`)."""
    if len(line.rstrip("\r\n")) > MAX_LINE_BYTES:
        return f"error: the view is longer than {MAX_LINE_BYTES:,} characters, the most a line may be"
    try:
        return loads(line, source="the view", line=None, error=RecordError)
    except RecordError as exc:
        if exc.rule == FORMAT_RULE and exc.message.startswith("the view is not valid JSON ("):
            return "error: not JSON: " + exc.message.removeprefix("the view is not valid JSON (").removesuffix(")")
        return f"error: {exc}"


def answer(agent: Agent, line: str, game: str = "mille") -> str:
    """The output line for one input line (an action in notation, or ``error: …``)."""
    if game == "knightrider":
        return answer_knightrider(agent, line)
    from rallye.mille.engine import legal_from_view
    from rallye.mille.state import OVER_PHASE
    from rallye.mille.view import MilleView

    data = _parse(line)
    if isinstance(data, str):
        return data
    if isinstance(data, dict) and "game" not in data and "me" in data and "cars" in data:
        return "error: this is a Knight Rider view; this bot plays Mille Bornes (start it with --game knightrider)"
    try:
        view = MilleView.from_json(data)
    except GameError as exc:
        return f"error: {exc}"
    if view.phase == OVER_PHASE:
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


def serve(agent: Agent, stdin: IO[bytes] | IO[str], stdout: TextIO, game: str = "mille") -> int:
    """Answer every line of ``stdin`` on ``stdout`` until end of input. A line that is too
    long or not UTF-8 gets its ``error:`` line like any other bad line."""
    for _, line in iter_lines(stdin, source="input"):
        if isinstance(line, RecordError):
            out = f"error: {line}"
        elif not line.strip():
            continue
        else:
            out = answer(agent, line, game)
        stdout.write(out + "\n")
        stdout.flush()
    return 0


def run_bot(args: argparse.Namespace) -> int:
    why = level_error(args.game, args.level) if args.level is not None else None
    if why is not None:
        print(f"rallye bot: {why}", file=sys.stderr)
        return 2
    name = args.bot or args.level or "medium"
    try:
        agent = make_agent(args.game, name, args.seed, exact=getattr(args, "exact", False))
    except ValueError as exc:
        print(f"rallye bot: {exc}", file=sys.stderr)
        return 2
    try:
        return serve(agent, getattr(sys.stdin, "buffer", sys.stdin), sys.stdout, args.game)
    except BrokenPipeError:  # the reader of our answers went away: nothing more to say
        _silence_stdout()
        return 0


def _silence_stdout() -> None:
    """Point stdout at the null device, so that the interpreter's last flush at exit does
    not raise again on the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file: nothing will be flushed
        pass
