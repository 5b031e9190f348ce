"""Capacity at people's pace (issue 64, item 1): how many connected people one ``rallye
serve`` process holds with the time from a move to its state under 50 ms (p99).

Unlike the saturation test (``server_load.py``, every person moving the instant it is their
turn), people here think: each waits a random 2–8 s before a move, and the bots at the tables
wait their delay (``--bot-delay``, 0.6 s as ``rallye serve`` does). Tables of ``--humans``
people and ``--bots`` bots play 1000 Meilen (one hand, so games end and start all the time:
when one ends, its people ask for another game with the same seats and move to the new
table). A people's game lasts minutes, so each table's first game starts with a random
number of moves (up to ``--rush``) made without thinking: the tables are at every stage of
a game when the figures are taken, and games end and start all through them. The figures
are taken once every table has made those moves. Some tables
have a spectator (``--spectators``), and now and then someone writes a
chat line (``--chat-every`` seconds on average). The people connect over ``--ramp`` seconds;
the figures are taken over the ``--seconds`` that follow.

Prints the people and connections held, moves a second, the latency of people's moves
(p50/p99/max), errors, the server's CPU share, its memory and the memory a connection costs
above the empty server (resident set after the load minus before it, over the connections).

    python benchmarks/server_paced.py --people 10000 --ramp 60 --seconds 120

The load generator shares the machine (both cores) with the server, as the goal says. Each
connection is a file descriptor in both processes: the script raises its own soft limit to
the hard one (``ulimit -Hn``; raise that in /etc/security/limits.conf if it is lower than
the people plus a few hundred) and the server inherits it.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import orjson
from server_load import _STOP, LightSocket, _cpu_s, _post, _rss_mb, _run, _start, _wait_up, report

GOAL_P99_MS = 50.0


class Load:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.moves = 0
        self.games = 0
        self.chats = 0
        self.connected = 0
        self.measuring = False
        self.stopping = False
        self.rushing: set[str] = set()  # tables still making their first moves at once


class Seat:
    """One person: thinks 2–8 s, then plays a random legal move; chats now and then; asks
    for another game when one ends and follows the table to its new code."""

    def __init__(self, load: Load, port: int, code: str, token: str | None, seed: int) -> None:
        self.load, self.port, self.code, self.token = load, port, code, token
        self.rng = random.Random(seed)
        self.sock: LightSocket | None = None
        self.sent_at: float | None = None
        self.sent_move = -1
        self.timer: asyncio.TimerHandle | None = None
        self.thinking_on = -1  # the move number the pending move answers
        self.ready = False  # hello sent on the connection open now
        self.chatting = False  # one chain of chat lines, whatever the reconnections
        self.leader = False  # the one of a table's people who asks for another game
        self.next_code: str | None = None
        self.rush = 0  # the table's first moves made without thinking (its first game only)
        self.ended: str | None = None  # the code of the last game this seat saw end

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while not self.load.stopping:
            self.next_code = None
            self.ready = False
            _transport, self.sock = await loop.create_connection(
                lambda: LightSocket(f"/ws/{self.code}", self.port, self.on_message), "127.0.0.1", self.port
            )
            try:
                await asyncio.wait_for(self.sock.open, 120)
            except (TimeoutError, ConnectionError) as exc:
                self.load.errors.append(f"connect: {exc}")
                return
            if self.load.stopping or self.sock.closed.done():
                return  # the run ended while this connection opened
            hello: dict[str, Any] = {"type": "hello", "protocol": 1}
            hello.update({"token": self.token} if self.token else {"watch": True})
            self.sock.send(orjson.dumps(hello))
            self.ready = True
            self.load.connected += 1
            if self.token and self.load.args.chat_every > 0 and not self.chatting:
                self.chatting = True
                loop.call_later(self.rng.uniform(0, 2 * self.load.args.chat_every), self.chat)
            await self.sock.closed
            self.load.connected -= 1
            if self.timer is not None:
                self.timer.cancel()
            if self.next_code is None:
                if not self.load.stopping:
                    self.load.errors.append(f"table {self.code}: the server closed the connection")
                return
            self.code = self.next_code  # another game at the same seats

    def close(self) -> None:
        if self.sock is not None and self.sock.transport is not None:
            self.sock.transport.close()

    def chat(self) -> None:
        if self.load.stopping:
            return
        if self.ready and self.sock is not None and not self.sock.closed.done():
            self.sock.send(orjson.dumps({"type": "chat", "text": "gut gefahren!"}))
            self.load.chats += 1
        asyncio.get_running_loop().call_later(self.rng.uniform(0, 2 * self.load.args.chat_every), self.chat)

    def move(self, move_no: int, code: int) -> None:
        self.timer = None
        if self.load.stopping or not self.ready or self.sock is None or self.sock.closed.done():
            return
        self.sent_move, self.sent_at = move_no, time.monotonic()
        self.sock.send(orjson.dumps({"type": "act", "move_no": move_no, "code": code}))

    def on_message(self, raw: bytes) -> None:
        msg = orjson.loads(raw)
        kind = msg["type"]
        if kind == "error":
            if msg["code"] not in ("chat-rejected",):
                self.load.errors.append(f"{msg['code']}: {msg['message']}")
            return
        if kind == "again":
            self.next_code = msg["code"]
            self.rush = 0
            self.close()
            return
        if kind != "state" or self.token is None:
            return
        if (
            self.leader
            and self.code in self.load.rushing
            and (msg["move_no"] >= self.rush or msg["table"]["status"] == "over")
        ):
            self.load.rushing.discard(self.code)
        if self.sent_at is not None and msg["move_no"] > self.sent_move:
            if self.load.measuring:
                self.load.latencies.append(time.monotonic() - self.sent_at)
                self.load.moves += 1
            self.sent_at = None
        if msg["table"]["status"] == "over":
            if self.leader and self.next_code is None and self.ended != self.code:
                self.ended = self.code  # once a game, however many states say it is over
                if self.load.measuring:
                    self.load.games += 1
                delay = self.rng.uniform(*self.load.args.think)
                asyncio.get_running_loop().call_later(delay, self.again)
            return
        if self.timer is not None and msg["move_no"] != self.thinking_on:
            self.timer.cancel()  # the table moved on while this person thought: think again
            self.timer = None
        if msg["legal"] and self.sent_at is None and self.timer is None:
            choice = self.rng.choice(msg["legal"])
            self.thinking_on = msg["move_no"]
            think = 0.0 if msg["move_no"] < self.rush else self.rng.uniform(*self.load.args.think)
            self.timer = asyncio.get_running_loop().call_later(think, self.move, msg["move_no"], choice["code"])

    def again(self) -> None:
        if not self.load.stopping and self.ready and self.sock is not None and not self.sock.closed.done():
            self.sock.send(orjson.dumps({"type": "again"}))


def _make_tables(port: int, args: argparse.Namespace) -> list[tuple[str, list[str]]]:
    """The tables, each with its people's tokens (made over HTTP, eight at a time)."""
    seats = [{"kind": "person"}] * args.humans + [{"kind": "bot", "level": args.bot_level}] * args.bots
    count = math.ceil(args.people / args.humans)

    def one(_: int) -> tuple[str, list[str]]:
        body = {"game": "mille", "edition": args.edition, "players": len(seats), "seats": seats}
        made = _post(port, "/api/tables", body)
        tokens = [
            _post(port, f"/api/tables/{made['code']}/join", {"seat": s, "name": f"p{s + 1}"})["token"]
            for s in range(args.humans)
        ]
        return made["code"], tokens

    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(one, range(count)))


async def _drive(load: Load, pid: int, port: int, made: list[tuple[str, list[str]]]) -> dict[str, Any]:
    args = load.args
    rng = random.Random(args.seed)
    seats: list[Seat] = []
    for t, (code, tokens) in enumerate(made):
        rush = rng.randrange(args.rush + 1)  # tables at every stage of a game: games end all the time
        for i, token in enumerate(tokens):
            s = Seat(load, port, code, token, rng.getrandbits(32))
            s.leader = i == 0
            s.rush = rush
            seats.append(s)
        if rush:
            load.rushing.add(code)
        if rng.random() < args.spectators:
            seats.append(Seat(load, port, code, None, t))
    tasks = []
    step = args.ramp / max(1, len(seats))
    for s in seats:  # people arrive over the ramp, not all in one instant
        tasks.append(asyncio.create_task(s.run()))
        await asyncio.sleep(step)
    await asyncio.sleep(min(10.0, args.ramp / 4 + 2))  # the last ones settle
    for _ in range(1200):  # and every table has made its first moves at once (at most 2 minutes)
        if not load.rushing:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(min(5.0, args.ramp / 4))
    rss_loaded_at_start = _rss_mb(pid)
    cpu0, t0 = _cpu_s(pid), time.monotonic()
    load.measuring = True
    await asyncio.sleep(args.seconds)
    load.measuring = False
    wall, cpu = time.monotonic() - t0, _cpu_s(pid) - cpu0
    held = load.connected
    rss = max(rss_loaded_at_start, _rss_mb(pid))
    load.stopping = True
    for s in seats:
        s.close()
    await asyncio.wait(tasks, timeout=30)
    return {"wall": wall, "cpu": cpu, "held": held, "rss": rss, "connections": len(seats)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--people", type=int, default=1000, help="people connected at once (default 1000)")
    p.add_argument("--humans", type=int, default=3, help="people a table (default 3)")
    p.add_argument("--bots", type=int, default=1, help="bots a table (default 1)")
    p.add_argument("--bot-level", default="medium")
    p.add_argument("--bot-delay", type=float, default=0.6, help="seconds a bot waits (default 0.6, as rallye serve)")
    p.add_argument("--think", type=float, nargs=2, default=(2.0, 8.0), metavar=("MIN", "MAX"))
    p.add_argument(
        "--rush",
        type=int,
        default=76,
        help="each table's first game starts with up to this many moves made at once (default 76, of the 80 "
        "in a 4-player 1000 Meilen game), so tables are at every stage and games end during the run",
    )
    p.add_argument("--spectators", type=float, default=0.1, help="share of tables with a spectator (default 0.1)")
    p.add_argument("--chat-every", type=float, default=60.0, help="mean seconds between a person's chat lines")
    p.add_argument("--edition", default="meilen", help="default meilen: one hand a game, so games end often")
    p.add_argument("--ramp", type=float, default=30.0, help="seconds over which the people connect")
    p.add_argument("--seconds", type=float, default=60.0, help="seconds measured after the ramp")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--database", metavar="URL", help="the database (default: a fresh SQLite file)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--profile", metavar="FILE", help="run the server under cProfile and write its profile here")
    args = p.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = int(args.people * (1 + args.spectators / args.humans)) + 200
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(need, soft)), hard))
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < need:
        print(f"server_paced: {need} open files needed, the limit is {hard} (ulimit -Hn)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        db = args.database or f"sqlite:///{Path(tmp) / 'paced.db'}"
        proc, port = _start(db, args.profile, bot_delay=args.bot_delay)
        try:
            _wait_up(port)
            time.sleep(1.0)
            rss_empty = _rss_mb(proc.pid)
            made = _make_tables(port, args)
            load = Load(args)
            got: dict[str, Any] = {}

            async def go() -> None:
                got.update(await _drive(load, proc.pid, port, made))

            _run(go())
        finally:
            proc.send_signal(_STOP)
            try:
                proc.wait(300 if args.profile else 30)  # cProfile writes its file as the server ends
            except Exception:
                proc.kill()
    lat = sorted(load.latencies) or [float("nan")]
    p99 = 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))]
    out = {
        "people": args.people,
        "tables": len(made),
        "connections": got["connections"],
        "connections_held": got["held"],
        "seconds": round(got["wall"], 1),
        "moves": load.moves,
        "moves_per_s": round(load.moves / got["wall"], 1),
        "games_finished": load.games,
        "games_finished_per_s": round(load.games / got["wall"], 2),
        "chat_lines": load.chats,
        "latency_ms_p50": round(1000 * statistics.median(lat), 1),
        "latency_ms_p99": round(p99, 1),
        "latency_ms_max": round(1000 * lat[-1], 1),
        "goal_p99_ms": GOAL_P99_MS,
        "goal_met": bool(p99 < GOAL_P99_MS and not load.errors and got["held"] == got["connections"]),
        "errors": len(load.errors),
        "first_errors": load.errors[:5],
        "server_cpu_share": round(got["cpu"] / got["wall"], 3),
        "server_rss_mb_empty": round(rss_empty, 1),
        "server_rss_mb": round(got["rss"], 1),
        "kb_per_connection": round(1024 * (got["rss"] - rss_empty) / max(1, got["connections"]), 1),
        "cpus": os.cpu_count(),
    }
    report(out, load.errors, as_json=args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
