"""Load on the online table server (issue 52, item 11).

Starts ``rallye serve`` on a fresh SQLite database, creates ``--tables`` Mille Bornes tables
of ``--players`` people each, and connects one websocket per person over loopback. Every
person's move is played by a client-side random bot as fast as the states come; the
latency of a move is the time from sending it to receiving the state that shows it. Prints
moves a second, latency p50/p99/max, errors and the server's memory (its resident set).

    python benchmarks/server_load.py --tables 250 --players 4 --seconds 60

Goal: 1,000 connected players with p99 under 100 ms on the 2-core machine, and no error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _post(port: int, path: str, body: Any) -> Any:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.moves = 0
        self.games = 0


async def _person(port: int, code: str, token: str, stats: Stats, stop_at: float, seed: int) -> None:
    rng = random.Random(seed)
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{code}", max_size=2**22, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        sent_at: float | None = None
        sent_move = -1
        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop_at - time.monotonic()))
            except TimeoutError:
                return
            msg = json.loads(raw)
            if msg["type"] == "error":
                if msg["code"] not in ("stale",):
                    stats.errors.append(f"{msg['code']}: {msg['message']}")
                continue
            if msg["type"] != "state":
                continue
            if sent_at is not None and msg["move_no"] > sent_move:
                stats.latencies.append(time.monotonic() - sent_at)
                stats.moves += 1
                sent_at = None
            if msg["table"]["status"] == "over":
                stats.games += 1
                return
            if msg["legal"] and sent_at is None:
                choice = rng.choice(msg["legal"])
                sent_move = msg["move_no"]
                sent_at = time.monotonic()
                await ws.send(json.dumps({"type": "act", "move_no": sent_move, "code": choice["code"]}))


async def _drive(port: int, tables: int, players: int, seconds: float, edition: str) -> Stats:
    stats = Stats()
    seats = [{"kind": "person"}] * players
    people: list[tuple[str, str]] = []
    for _ in range(tables):
        made = _post(port, "/api/tables", {"game": "mille", "edition": edition, "players": players, "seats": seats})
        for seat in range(players):
            joined = _post(port, f"/api/tables/{made['code']}/join", {"seat": seat, "name": f"p{seat + 1}"})
            people.append((made["code"], joined["token"]))
    stop_at = time.monotonic() + seconds
    tasks = [_person(port, code, token, stats, stop_at, n) for n, (code, token) in enumerate(people)]
    results = await asyncio.gather(*tasks, return_exceptions=True)
    stats.errors.extend(f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException))
    return stats


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=250)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--edition", default="wm2006")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--profile", metavar="FILE", help="run the server under cProfile and write its profile here")
    args = p.parse_args(argv)
    port = _port()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'load.db'}"
        prof = ["-m", "cProfile", "-o", args.profile] if args.profile else []
        server = subprocess.Popen(
            [sys.executable, *prof, "-m", "rallye", "serve", "--no-browser", "--port", str(port), "--database", db,
             "--bot-delay", "0"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=2).close()
                    break
                except OSError:
                    time.sleep(0.1)
            start = time.monotonic()
            stats = asyncio.run(_drive(port, args.tables, args.players, args.seconds, args.edition))
            wall = time.monotonic() - start
            rss = _rss_mb(server.pid)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
    lat = sorted(stats.latencies) or [float("nan")]
    out = {
        "players": args.tables * args.players,
        "tables": args.tables,
        "seconds": round(wall, 1),
        "moves": stats.moves,
        "moves_per_s": round(stats.moves / wall, 1),
        "latency_ms_p50": round(1000 * statistics.median(lat), 1),
        "latency_ms_p99": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 1),
        "latency_ms_max": round(1000 * lat[-1], 1),
        "errors": len(stats.errors),
        "server_rss_mb": round(rss, 1),
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>16}: {v}")
        for e in stats.errors[:10]:
            print(f"  error: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
