"""An analysis worker: a process of its own that analyses the games the server sends it, one
after another (``python -m rallye.server.analysis_worker``, started by
:class:`rallye.server.analysis.Analyses`).

It reads one job a line on its standard input, ``{"job": N, "bot": SPEC, "seed": S,
"record": "the record's JSON lines"}``, and answers on its standard output, one JSON line each: its
progress ``{"job": N, "done": d, "total": t}`` (at most :data:`REPORTS` a game), then
``{"job": N, "cpu": seconds, "error": null}`` followed by a line holding the analysis's
JSON (``rallye analyse --json``), or ``{"job": N, "error": "what is wrong"}`` alone. It runs
at a lower priority than the server (``nice``) and ends when its input closes, or when its
output does (the server was killed: it ends at its next progress report).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from typing import IO, Any

import orjson

#: progress reports a game sends, at most
REPORTS = 200
#: how much nicer than the server a worker runs
NICE = 10


def _send(out: IO[bytes], msg: Any) -> None:
    out.write(orjson.dumps(msg) + b"\n")
    out.flush()


def run(inp: IO[bytes], out: IO[bytes]) -> None:
    """Answer every job read from ``inp`` on ``out`` (see the module)."""
    from rallye.analysis import analyse
    from rallye.core.errors import GameError
    from rallye.core.record import parse_jsonl

    for raw in inp:
        job = orjson.loads(raw)
        n = job["job"]

        def progress(done: int, total: int, n: int = n) -> None:
            if done % max(1, total // REPORTS) == 0 or done == total:
                _send(out, {"job": n, "done": done, "total": total})

        began = time.process_time()
        try:
            lines = parse_jsonl(job["record"], source="the game")
            result = analyse(lines, bot=job["bot"], seed=job["seed"], progress=progress, source="the game")
        except GameError as exc:  # a record that does not replay, an unknown bot
            _send(out, {"job": n, "error": exc.message})
            continue
        body = orjson.dumps(result.to_json())
        _send(out, {"job": n, "cpu": round(time.process_time() - began, 3), "error": None})
        out.write(body + b"\n")
        out.flush()


def main() -> None:
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(NICE)
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write on the answers' stream
    with contextlib.suppress(KeyboardInterrupt, BrokenPipeError):
        run(sys.stdin.buffer, out)


if __name__ == "__main__":
    main()
