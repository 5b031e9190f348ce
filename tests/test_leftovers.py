"""The end-of-run check of tests/leftovers.py sees a process a test started and left, and
not one that ended."""

from __future__ import annotations

import os
import subprocess
import sys

from leftovers import VARIABLE, carrying, left_over


def test_a_process_left_running_is_seen_and_one_that_ended_is_not() -> None:
    token = os.environ[VARIABLE]  # this run's (tests/conftest.py)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert child.pid in carrying(token)
        assert child.pid in left_over(token, grace=0.5)
    finally:
        child.kill()
        child.wait()
    assert child.pid not in left_over(token, grace=5)
    other = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"], env={**os.environ, VARIABLE: "another-run"}
    )
    try:
        assert other.pid not in carrying(token)  # another run's processes are not this one's
    finally:
        other.kill()
        other.wait()
