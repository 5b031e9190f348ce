"""Processes a test run leaves behind (issue 65, item 7).

Each pytest process (the main one, and each xdist worker) marks its environment with a token
of its own at start; every process the tests start inherits it (a PostgreSQL server started by
``scripts/postgres``, a ``rallye serve``, a browser). At the end of the run, any other process
still carrying the token was left running: the run names it, stops it and fails.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time
from pathlib import Path

VARIABLE = "RALLYE_TEST_RUN"


def mark() -> str:
    """Give this process (and so everything it starts from now on) a token of its own."""
    token = f"{os.getpid()}-{secrets.token_hex(6)}"
    os.environ[VARIABLE] = token
    return token


def carrying(token: str) -> dict[int, str]:
    """The processes (but this one) whose environment holds ``token``: pid -> command line.
    Linux's /proc only; elsewhere, and for processes this user may not read, nothing."""
    needle = f"{VARIABLE}={token}".encode()
    found = {}
    for entry in Path("/proc").glob("[0-9]*"):
        pid = int(entry.name)
        if pid == os.getpid():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if command:  # a zombie has none: it is over, only not yet reaped
            found[pid] = command
    return found


def left_over(token: str, grace: float = 10.0) -> dict[int, str]:
    """The processes still carrying ``token`` after ``grace`` seconds (those ending meanwhile,
    such as xdist workers shutting down, are not counted)."""
    deadline = time.monotonic() + grace
    while True:
        found = carrying(token)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def stop(pids: dict[int, str]) -> None:
    """End processes a run left (they are its own: they carry its token)."""
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
