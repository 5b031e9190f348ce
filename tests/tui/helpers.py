"""Helpers of the terminal tests (both games): a recording console, scripted input, records."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from rich.console import Console

from rallye.core.record import write_jsonl
from rallye.games import game_for


def recording_console(width: int) -> Console:
    """A console that keeps everything printed, in plain text (``export_text()``)."""
    return Console(file=io.StringIO(), width=width, record=True, color_system=None, force_terminal=False)


def feed(lines: Iterable[str], limit: int = 100_000) -> Callable[[str], str]:
    """An input function answering with ``lines`` then EOF; more than ``limit`` reads fails."""
    it = iter(lines)
    count = 0

    def read(prompt: str) -> str:
        nonlocal count
        count += 1
        if count > limit:
            raise AssertionError("the loop asked for too many lines")
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def random_record(path: Path, key: str, settings: Mapping[str, Any], seed: int, moves: int | None = None) -> Path:
    """A game of ``key`` played at random from ``seed`` through the game face (``moves``
    actions, or to its end), its record written to ``path``."""
    game = game_for(key)
    rng = random.Random(seed)
    state = game.new(settings, seed)
    lines = game.record_start(state)
    n = 0
    while not game.is_over(state) and (moves is None or n < moves):
        seat = game.current_player(state)
        assert seat is not None
        state = game.record_move(lines, state, seat, rng.choice(game.legal_actions(state)))
        n += 1
    write_jsonl(path, lines)
    return path


def rewrite_line(
    path: Path, index: int, change: Callable[[dict[str, Any]], None] | None = None, **fields: object
) -> None:
    """Alter line ``index`` (0-based) of a record file: set ``fields``, then ``change`` it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    obj = json.loads(lines[index])
    obj.update(fields)
    if change is not None:
        change(obj)
    lines[index] = json.dumps(obj, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
