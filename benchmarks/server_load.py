"""Load on the online table server (issue 52, item 11).

Starts ``rallye serve`` (``--servers N``: N processes on one SQLite database, each owning
the tables made on it, as docs/server.md describes) on a fresh database, creates ``--tables``
Mille Bornes tables of ``--players`` people each, and connects one websocket per person over
loopback, to the process that owns the table. Every person's move is played by a client-side
random bot as fast as the states come; the latency of a move is the time from sending it to
receiving the state that shows it. Prints moves a second, latency p50/p99/max, errors (a
message the server held back under its limit of 20 a second a connection is counted apart,
as ``rate_limited``: it waits, then counts), the server's memory (resident set, all
processes) and the CPU time a move costs the server and the load generator (which shares
the machine).

The load generator's websockets are its own few lines over asyncio (``--client light``, the
default: a thousand clients of a general library cost more CPU than the server they load);
``--client websockets`` uses the websockets library instead, to check the figures.

    python benchmarks/server_load.py --tables 250 --players 4 --seconds 60

Goal: 1,000 connected players with p99 under 100 ms on the 2-core machine, and no error.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
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
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, cast

import orjson


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) the process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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
        self.rate_limited = 0  # moves the server held back (20 messages a second a connection)
        self.started = 0.0  # when the people connect (after the tables are made)
        self.cpu_at_start = 0.0  # the servers' CPU seconds then
        self.own_cpu_at_start = 0.0  # and the load generator's


class Deadline:
    """When the people stop: ``seconds`` after they connect, or, with ``min_moves``, later
    while fewer moves than that have been played (on a machine busy with other work a short
    run can end before the first games get going), but never past ``cap`` seconds."""

    def __init__(self, stats: Stats, seconds: float, min_moves: int = 0, cap: float = 120.0) -> None:
        self.stats = stats
        self.min_moves = min_moves
        now = time.monotonic()
        self.end = now + seconds
        self.cap = now + max(cap, seconds)

    def remaining(self) -> float:
        """Seconds left (0 or less: over); extends the run while moves are short."""
        now = time.monotonic()
        if now >= self.end and self.stats.moves < self.min_moves and now < self.cap:
            self.end = min(now + 0.5, self.cap)
        return self.end - now


class Person:
    """One seat's client-side random bot: answers each state that asks it to move."""

    def __init__(self, token: str, stats: Stats, seed: int) -> None:
        self.token = token
        self.stats = stats
        self.rng = random.Random(seed)
        self.sent_at: float | None = None
        self.sent_move = -1
        self.done = False

    def hello(self) -> bytes:
        return orjson.dumps({"type": "hello", "protocol": 1, "token": self.token})

    def answer(self, raw: str | bytes) -> bytes | None:
        """The message to send back to ``raw``, if any; sets ``done`` at the game's end."""
        msg = orjson.loads(raw)
        if msg["type"] == "slow-down":  # not an error: the move waits, then counts
            self.stats.rate_limited += 1
            return None
        if msg["type"] == "error":
            if msg["code"] != "stale":
                self.stats.errors.append(f"{msg['code']}: {msg['message']}")
            return None
        if msg["type"] != "state":
            return None
        if self.sent_at is not None and msg["move_no"] > self.sent_move:
            self.stats.latencies.append(time.monotonic() - self.sent_at)
            self.stats.moves += 1
            self.sent_at = None
        if msg["table"]["status"] == "over":
            self.stats.games += 1
            self.done = True
            return None
        if msg["legal"] and self.sent_at is None:
            choice = self.rng.choice(msg["legal"])
            self.sent_move = msg["move_no"]
            self.sent_at = time.monotonic()
            return orjson.dumps({"type": "act", "move_no": self.sent_move, "code": choice["code"]})
        return None


# -- the light client: RFC 6455 text frames over an asyncio protocol ---------------------------
class LightSocket(asyncio.Protocol):
    """A websocket client for the load generator: the opening handshake, masked text frames
    out, unmasked frames in (text, ping, close); one callback a message."""

    def __init__(self, path: str, port: int, on_message: Callable[[bytes], None]) -> None:
        self.request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
        self.on_message = on_message
        self.buffer = bytearray()
        self.open = asyncio.get_running_loop().create_future()
        self.closed = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.parts: list[bytes] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self.transport.write(self.request)

    def connection_lost(self, exc: Exception | None) -> None:
        for fut in (self.open, self.closed):
            if not fut.done():
                fut.set_result(None)

    def send(self, payload: bytes, opcode: int = 0x1) -> None:
        assert self.transport is not None
        n = len(payload)
        head = bytes((0x80 | opcode,)) + (
            bytes((0x80 | n,)) if n < 126 else bytes((0x80 | 126,)) + n.to_bytes(2, "big")
        )  # the load generator never sends 64 KiB
        key = os.urandom(4)
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes((key * (n // 4 + 1))[:n], "big")).to_bytes(n, "big")
        self.transport.write(head + key + masked)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.open.done():
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(self.buffer[:end]).split(b"\r\n", 1)[0]
            del self.buffer[: end + 4]
            if b" 101 " not in status:
                self.open.set_exception(ConnectionError(status.decode("latin-1")))
                return
            self.open.set_result(None)
        buf = self.buffer
        while len(buf) >= 2:
            fin, opcode, n, at = buf[0] & 0x80, buf[0] & 0x0F, buf[1] & 0x7F, 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, at = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, at = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < at + n:
                return
            payload = bytes(buf[at : at + n])
            del buf[: at + n]
            if opcode == 0x9:  # ping
                self.send(payload, 0xA)
            elif opcode == 0x8:  # close
                assert self.transport is not None
                self.transport.close()
                return
            elif opcode in (0x1, 0x2, 0x0):
                self.parts.append(payload)
                if fin:
                    message, self.parts = b"".join(self.parts), []
                    self.on_message(message)


async def _person_light(port: int, code: str, person: Person, deadline: Deadline, tls: Any = None) -> None:
    loop = asyncio.get_running_loop()
    sock: LightSocket | None = None

    def on_message(raw: bytes) -> None:
        if person.done or deadline.remaining() <= 0:
            return
        out = person.answer(raw)
        if out is not None and sock is not None:
            sock.send(out)

    transport, sock = await loop.create_connection(
        lambda: LightSocket(f"/ws/{code}", port, on_message),
        "127.0.0.1",
        port,
        **({"ssl": tls, "server_hostname": "localhost"} if tls is not None else {}),
    )
    try:
        await asyncio.wait_for(sock.open, 60)
        sock.send(person.hello())
        while (left := deadline.remaining()) > 0:
            try:
                await asyncio.wait_for(asyncio.shield(sock.closed), timeout=max(0.1, left))
                break
            except TimeoutError:
                continue
    except TimeoutError:
        pass
    finally:
        transport.close()


async def _person_websockets(port: int, code: str, person: Person, deadline: Deadline, tls: Any = None) -> None:
    import websockets

    scheme = "wss" if tls is not None else "ws"
    async with websockets.connect(
        f"{scheme}://127.0.0.1:{port}/ws/{code}", max_size=2**22, open_timeout=60, ssl=tls
    ) as ws:
        await ws.send(person.hello().decode())
        while not person.done and (left := deadline.remaining()) > 0:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, left))
            except TimeoutError:
                continue
            out = person.answer(raw)
            if out is not None:
                await ws.send(out.decode())


async def _drive(stats: Stats, servers: list[tuple[int, int]], args: argparse.Namespace, proxy: Any = None) -> None:
    """``servers``: (pid, port) of each process; tables are made on each in turn. With
    ``proxy`` (nginx), the people connect through it over TLS, not to the processes."""
    seats = [{"kind": "person"}] * args.players
    people: list[tuple[int, str, str]] = []
    for t in range(args.tables):
        port = servers[t % len(servers)][1]
        body = {"game": "mille", "edition": args.edition, "players": args.players, "seats": seats}
        made = _post(port, "/api/tables", body)
        for seat in range(args.players):
            joined = _post(port, f"/api/tables/{made['code']}/join", {"seat": seat, "name": f"p{seat + 1}"})
            people.append((port, made["code"], joined["token"]))
    stats.cpu_at_start = sum(_cpu_s(pid) for pid, _ in servers)
    stats.own_cpu_at_start = time.process_time()
    stats.started = time.monotonic()
    deadline = Deadline(stats, args.seconds, args.min_moves)
    run = _person_light if args.client == "light" else _person_websockets
    tls = proxy.tls if proxy is not None else None
    tasks = [
        run(proxy.https if proxy is not None else port, code, Person(token, stats, n), deadline, tls)
        for n, (port, code, token) in enumerate(people)
    ]
    results = await asyncio.gather(*tasks, return_exceptions=True)
    stats.errors.extend(f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException))


def _run(main: Coroutine[Any, Any, None]) -> None:
    """Run the load generator on uvloop where it is installed (as the server runs): it
    shares the machine with the server, so the lighter it is, the more the figures say
    about the server."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(main)
    else:
        uvloop.run(main)


# uvicorn ends on SIGINT or SIGTERM and then raises the signal again: SIGTERM's default
# action ends the process before cProfile writes its file, SIGINT's (KeyboardInterrupt) lets it
_STOP = signal.SIGINT


def _start(
    db: str, profile: str | None, bot_delay: float = 0.0, public_url: str | None = None
) -> tuple[subprocess.Popen[str], int]:
    port = _port()
    prof = ["-m", "cProfile", "-o", profile] if profile else []
    public = ["--public-url", public_url] if public_url else []
    proc = subprocess.Popen(
        [sys.executable, *prof, "-m", "rallye", "serve", "--no-browser", "--port", str(port), "--database", db,
         "--bot-delay", str(bot_delay), "--request-rate", "0", *public],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    return proc, port


def _wait_up(port: int) -> None:
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=2).close()
            return
        except OSError:
            time.sleep(0.1)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=250)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument(
        "--min-moves",
        type=int,
        default=0,
        metavar="N",
        help="play on past --seconds until N moves are made (at most 120 s in all): a run that checks the "
        "benchmark works on a busy machine, not a measurement",
    )
    p.add_argument("--edition", default="wm2006")
    p.add_argument("--servers", type=int, default=1, help="server processes on the one database (default 1)")
    p.add_argument("--database", metavar="URL", help="the database (default: a fresh SQLite file)")
    p.add_argument("--client", choices=("light", "websockets"), default="light", help="the load generator's websockets")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--profile", metavar="FILE", help="run the (first) server under cProfile and write its profile here")
    p.add_argument(
        "--nginx",
        action="store_true",
        help="the people connect through Debian's nginx with deploy/nginx/rallye.conf (TLS), as a club runs it",
    )
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.database or f"sqlite:///{Path(tmp) / 'load.db'}"
        procs: list[subprocess.Popen[str]] = []
        proxy: Any = None
        https = _port() if args.nginx else None
        public = f"https://127.0.0.1:{https}" if https else None
        try:
            first, port = _start(db, args.profile, public_url=public)  # the first creates the schema
            procs.append(first)
            _wait_up(port)
            ports = [port]
            for _ in range(args.servers - 1):
                proc, port = _start(db, None, public_url=public)
                procs.append(proc)
                ports.append(port)
            for port in ports[1:]:
                _wait_up(port)
            if args.nginx:
                from nginx_proxy import Nginx

                proxy = Nginx(Path(tmp) / "nginx", ports, https=https)
            servers = [(proc.pid, port) for proc, port in zip(procs, ports, strict=True)]
            stats = Stats()
            _run(_drive(stats, servers, args, proxy))
            wall = time.monotonic() - stats.started
            cpu = sum(_cpu_s(pid) for pid, _ in servers) - stats.cpu_at_start
            own_cpu = time.process_time() - stats.own_cpu_at_start
            rss = sum(_rss_mb(pid) for pid, _ in servers)
            proxy_cpu = proxy.cpu_seconds() if proxy is not None else None
        finally:
            if proxy is not None:
                proxy.stop()
            for proc in procs:
                proc.send_signal(_STOP)
            for proc in procs:
                try:
                    proc.wait(300 if args.profile else 20)
                except subprocess.TimeoutExpired:
                    proc.kill()
    lat = sorted(stats.latencies) or [float("nan")]
    out = {
        "players": args.tables * args.players,
        "tables": args.tables,
        "servers": args.servers,
        "client": args.client,
        "seconds": round(wall, 1),
        "moves": stats.moves,
        "moves_per_s": round(stats.moves / wall, 1),
        "latency_ms_p50": round(1000 * statistics.median(lat), 1),
        "latency_ms_p99": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 1),
        "latency_ms_max": round(1000 * lat[-1], 1),
        "server_cpu_ms_per_move": round(1000 * cpu / max(1, stats.moves), 3),
        "client_cpu_ms_per_move": round(1000 * own_cpu / max(1, stats.moves), 3),
        "errors": len(stats.errors),
        "rate_limited": stats.rate_limited,
        "server_rss_mb": round(rss, 1),
        "cpus": os.cpu_count(),
    }
    if proxy_cpu is not None:
        out["via"] = "nginx (TLS)"
        out["nginx_cpu_ms_per_move"] = round(1000 * proxy_cpu / max(1, stats.moves), 3)
    report(out, stats.errors, as_json=args.json)
    return 0


def report(out: dict[str, Any], errors: list[str], *, as_json: bool) -> None:
    """The figures: one JSON object, or a line each (and the first errors)."""
    if as_json:
        print(json.dumps(out))
        return
    for k, v in out.items():
        print(f"{k:>22}: {v}")
    for e in errors[:10]:
        print(f"  error: {e}")


if __name__ == "__main__":
    sys.exit(main())
