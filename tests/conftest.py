"""The whole run: it leaves no process behind (tests/leftovers.py)."""

from __future__ import annotations

import os

import pytest

from leftovers import left_over, mark, stop

_TOKEN: dict[str, str] = {}


def pytest_configure(config: pytest.Config) -> None:
    # one token for the run: xdist's workers keep the main process's (they and whatever they
    # start carry it), and the main process checks for them all once the workers have ended
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        _TOKEN["run"] = mark()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """After every fixture and every other end-of-run hook (the PostgreSQL the server tests
    started is stopped by theirs): no process this run started may still be running."""
    token = _TOKEN.get("run")
    if token is None:
        return
    left = left_over(token)
    if not left:
        return
    stop(left)
    lines = [f"{pid}: {command[:200]}" for pid, command in sorted(left.items())]
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    title = f"the tests left {len(left)} process(es) running (now stopped)"
    if reporter is not None:
        reporter.write_sep("=", title, red=True)
        for line in lines:
            reporter.write_line(line)
    else:
        print(title, *lines, sep="\n")
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
