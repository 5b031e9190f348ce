"""Helpers for the tests of several people at one keyboard (both terminal games)."""

from __future__ import annotations

import io
from collections.abc import Callable

from rich.console import Console


class ClearingConsole(Console):
    """A recording console that notes each screen clear in ``log``."""

    def __init__(self, log: list[object], width: int = 140) -> None:
        super().__init__(file=io.StringIO(), width=width, record=True, color_system=None, force_terminal=False)
        self.log = log

    def clear(self, home: bool = True) -> None:
        self.log.append("clear")


def assert_each_person_alone(log: list[object]) -> None:
    """In ``log`` ("clear", ("pass", prompt), ("screen", seat) in the order they happened):
    between two clears only one person's screen is shown, and every person's first screen
    after a clear comes after the pass screen."""
    shown: int | None = None
    cleared = passed = False
    for e in log:
        if e == "clear":
            cleared, shown = True, None
        elif isinstance(e, tuple) and e[0] == "pass":
            assert cleared, "the pass screen came without clearing the last person's screen"
            passed = True
        elif isinstance(e, tuple) and e[0] == "screen":
            if shown is None:
                assert cleared and passed, "a person's screen came without the pass screen"
                cleared = passed = False
            assert shown in (None, e[1]), f"seat {e[1]}'s screen after seat {shown}'s without a clear"
            shown = e[1]


def hot_seat_input(log: list[object], move: str = "1", limit: int = 20_000) -> Callable[[str], str]:
    """Enter at each 'pass the keyboard' prompt, ``move`` at every other one."""
    count = 0

    def read(prompt: str) -> str:
        nonlocal count
        count += 1
        if count > limit:
            raise EOFError
        if "press Enter" in prompt:
            log.append(("pass", prompt))
            return ""
        return move

    return read
