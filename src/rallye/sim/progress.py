"""A rich progress bar on standard error, or nothing when it would get in the way.

>>> with progress_bar(3, "matches", enabled=False) as advance:
...     advance(3)
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


def wants_progress(json_output: bool) -> bool:
    """A bar only for a person watching: not with ``--json``, and only on a terminal."""
    return not json_output and sys.stderr.isatty()


@contextmanager
def progress_bar(total: int, what: str, *, enabled: bool) -> Iterator[Callable[[int], None]]:
    """Yield ``advance(n)``; draws a bar on stderr when ``enabled``."""
    if not enabled:
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=total)
        yield lambda n: bar.advance(task, n)
