"""What a running post-game analysis does to the tables' answers (issue #61, item 5).

Starts a real ``rallye serve`` (a fresh SQLite database, ``--bot-delay 0``), plays one game of
two ``easy`` bots to its end, then connects ``--tables`` people, each at a table of their own
against a ``medium`` bot, who move ``--pace`` seconds after their turn comes (a random legal
move). It measures, for every person's move, the time from sending it to the state that shows
it (the server's answer), and the time from there to the bot's answer (the bot thinks in the
server's thread pool). First ``--seconds`` with nothing else going on, then while the server
analyses the finished game (``GET /api/tables/CODE/analysis``, asked again every second until
it is made). Prints p50, p99 and max of both, in each phase, and the analysis's wall time.

``--where process`` (default) is the server as shipped: the analysis runs in a worker process
of its own, at a lower priority. ``--where thread`` runs the same analysis in the server's
bots' thread pool instead (a server started by this script with that one change), to show
what the worker process is for: a thread holds the interpreter's lock.

    PYTHONPATH=src python benchmarks/server_analysis_latency.py [--tables 4] [--seconds 30]
        [--analysis-bot expert] [--where process|thread]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import websockets


def _http(base: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _child_server(port: int, database: str, bot: str) -> None:
    """``--where thread``: the shipped server with its analyses run in the bots' thread pool."""
    import uvicorn

    from rallye.analysis import analyse
    from rallye.server import analysis
    from rallye.server.app import create_app

    async def in_a_thread(self: Any, job: Any, record: list[Any]) -> tuple[str, float]:
        loop = asyncio.get_running_loop()
        job.state = "running"

        def run() -> tuple[str, float]:
            began = time.process_time()
            out = analyse(record, bot=self.bot, seed=self.seed)
            return json.dumps(out.to_json()), time.process_time() - began

        return await loop.run_in_executor(server.bot_pool, run)

    analysis.Analyses._analyse = in_a_thread  # type: ignore[method-assign]
    app = create_app(f"sqlite:///{database}", bot_delay=0, request_rate=0, analysis_bot=bot)
    server = app.state.server
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio")


def _percentiles(xs: list[float]) -> str:
    if not xs:
        return "no moves"
    xs = sorted(xs)
    p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
    p50 = statistics.median(xs)
    return f"{len(xs)} moves, p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {xs[-1] * 1000:.1f} ms"


class Person:
    """One person at a table against a bot, moving ``pace`` seconds after their turn comes."""

    def __init__(self, base: str, ws_base: str, pace: float, rng: random.Random) -> None:
        self.base, self.ws_base, self.pace, self.rng = base, ws_base, pace, rng
        self.answers: list[tuple[float, float]] = []  # (when, seconds to the server's answer)
        self.bots: list[tuple[float, float]] = []  # (when, seconds to the bot's answer)

    async def run(self, until: float) -> None:
        while time.monotonic() < until:
            status, made = await asyncio.to_thread(
                _http,
                self.base,
                "/api/tables",
                {
                    "game": "mille",
                    "edition": "hu",
                    "players": 2,
                    "seats": [{"kind": "person"}, {"kind": "bot", "level": "medium"}],
                    "sit": 0,
                    "name": "P",
                },
            )
            assert status == 201, made
            await self.play(made["code"], made["token"], until)

    async def play(self, code: str, token: str, until: float) -> None:
        async with websockets.connect(f"{self.ws_base}/ws/{code}", max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
            sent_at: float | None = None
            sent_no = -1
            answered_at: float | None = None
            while time.monotonic() < until:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if msg["type"] != "state":
                    continue
                now = time.monotonic()
                if sent_at is not None and msg["move_no"] > sent_no:
                    self.answers.append((now, now - sent_at))
                    # the bot's answer is timed from here (unless the person moves again at once)
                    sent_at, answered_at = None, None if msg["legal"] else now
                elif answered_at is not None and msg["legal"]:
                    self.bots.append((now, now - answered_at))
                    answered_at = None
                if msg["table"]["status"] == "over":
                    return
                if msg["legal"] and sent_at is None:
                    await asyncio.sleep(self.pace)
                    choice = self.rng.choice(msg["legal"])
                    sent_no = msg["move_no"]
                    sent_at = time.monotonic()
                    await ws.send(json.dumps({"type": "act", "move_no": sent_no, "code": choice["code"]}))


async def measure(args: argparse.Namespace, base: str) -> None:
    ws_base = base.replace("http://", "ws://")
    # a finished game to analyse
    _, made = _http(
        base,
        "/api/tables",
        {"game": "mille", "edition": "hu", "players": 2, "seats": [{"kind": "bot", "level": "easy"}] * 2},
    )
    code = made["code"]
    while _http(base, f"/api/tables/{code}")[1]["table"]["status"] != "over":
        time.sleep(0.2)
    moves = _http(base, f"/api/tables/{code}/replay")[1]["frames"] - 1
    rng = random.Random(1)
    people = [Person(base, ws_base, args.pace, random.Random(rng.random())) for _ in range(args.tables)]
    began = time.monotonic()
    quiet_until = began + args.seconds
    until = quiet_until + args.seconds * 10  # the analysis phase ends when the analysis is made

    async def analysis() -> tuple[float, float]:
        await asyncio.sleep(max(0.0, quiet_until - time.monotonic()))
        start = time.monotonic()
        while True:
            status, body = await asyncio.to_thread(_http, base, f"/api/tables/{code}/analysis")
            if status == 200:
                return start, time.monotonic()
            assert status == 202, body
            await asyncio.sleep(1.0)

    tasks = [asyncio.create_task(p.run(until)) for p in people]
    start, end = await analysis()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    def window(pairs: list[tuple[float, float]], a: float, b: float) -> list[float]:
        return [x for when, x in pairs if a <= when < b]

    answers = [a for p in people for a in p.answers]
    bots = [b for p in people for b in p.bots]
    print(f"the game analysed: {moves} moves, by {args.analysis_bot}, in a {args.where}: {end - start:.1f} s")
    for label, a, b in (("nothing else", began + 2, quiet_until), ("during the analysis", start + 2, end)):
        print(f"{label:>20}: move to its state: {_percentiles(window(answers, a, b))}")
        print(f"{'':>20}  the bot's answer:  {_percentiles(window(bots, a, b))}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=4, help="people, each at a table against a bot (default 4)")
    ap.add_argument("--pace", type=float, default=0.3, help="seconds a person waits before a move (default 0.3)")
    ap.add_argument("--seconds", type=float, default=30.0, help="seconds measured before the analysis (default 30)")
    ap.add_argument("--analysis-bot", default="expert", help="the analysis bot (default expert)")
    ap.add_argument("--where", choices=("process", "thread"), default="process")
    ap.add_argument("--child", nargs=3, metavar=("PORT", "DB", "BOT"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _child_server(int(args.child[0]), args.child[1], args.child[2])
        return 0
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="rallye-alat-") as tmp:
        db = Path(tmp) / "bench.db"
        if args.where == "process":
            cmd = [sys.executable, "-m", "rallye", "serve", "--port", str(port), "--database", f"sqlite:///{db}"]
            cmd += ["--bot-delay", "0", "--request-rate", "0", "--no-browser", "--analysis-bot", args.analysis_bot]
        else:
            cmd = [sys.executable, __file__, "--child", str(port), str(db), args.analysis_bot]
        server = subprocess.Popen(cmd, env=dict(os.environ))
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    if _http(base, "/healthz")[0] == 200:
                        break
                except OSError:
                    pass
                if time.monotonic() > deadline or server.poll() is not None:
                    print("the server did not start", file=sys.stderr)
                    return 1
                time.sleep(0.2)
            asyncio.run(measure(args, base))
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
