"""``rallye serve``: the online table server (``docs/protocol.md``)."""

from __future__ import annotations

import argparse
import gc
import os
import sys
from pathlib import Path

from rallye.core.cli_args import size, size_text, whole

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: What one connection may have waiting to be sent (``rallye.server.app.Outbox``), by default
#: and at the least and most ``--outbox-messages`` and ``--outbox-bytes`` allow: this many
#: messages, or this many characters of their text (a Mille state is 2-4 KB). A client that
#: reads slower than its table plays (it stopped reading, its network is stuck) reaches one of
#: the two and is closed with ``1013 too-slow`` (docs/server.md, "A slow reader"); it
#: reconnects and is sent the current state. The least leave room for a reconnection's
#: welcome and state and what follows them.
OUTBOX_MESSAGES, OUTBOX_MESSAGES_RANGE = 128, (16, 100_000)
OUTBOX_BYTES, OUTBOX_BYTES_RANGE = 512 << 10, (64 << 10, 1 << 30)


def default_database() -> str:
    """An SQLite file in the user's data directory (platformdirs)."""
    from platformdirs import user_data_dir

    return f"sqlite:///{Path(user_data_dir('rallye', appauthor=False)) / 'rallye.db'}"


def add_database_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="database URL: sqlite:///path/to/file.db or postgresql://user@host/db"
        " (default: $RALLYE_DATABASE, else an SQLite file in your data directory)",
    )


def database_from(args: argparse.Namespace) -> str:
    """The database a command uses: ``--database``, else ``$RALLYE_DATABASE``, else the
    SQLite file in the user's data directory."""
    return str(args.database or os.environ.get("RALLYE_DATABASE") or default_database())


def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST}; 0.0.0.0 for your LAN)"
    )
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    add_database_argument(p)
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        help="seconds a bot waits before it moves, so people can follow (default 0.6)",
    )
    p.add_argument(
        "--public-url",
        default=None,
        help="this server's address as clients reach it (for invite links and several processes on one database)",
    )
    p.add_argument(
        "--lease",
        type=float,
        default=30.0,
        help="seconds a process holds its tables (and the analyses it makes) without renewing; another process"
        " on the same database takes them over after that (default 30)",
    )
    p.add_argument(
        "--request-rate",
        type=float,
        default=30.0,
        help="tables created and seats taken a minute from one address (bursts of 20; 0: no limit; default 30)",
    )
    p.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        default=None,
        help="behind a reverse proxy: its addresses or networks, comma separated, whose X-Forwarded-For header"
        " names the client (the limits above key on it); from any other peer the header is ignored"
        " (default: none trusted)",
    )
    p.add_argument(
        "--ws-deflate",
        action="store_true",
        help="compress websocket messages (permessage-deflate) for clients that offer it: a Mille move"
        " sends a player about 100 bytes instead of 4,400, for more CPU a message than building it (docs/server.md)",
    )
    p.add_argument(
        "--coach-bot",
        choices=("hard", "expert"),
        default="expert",
        help="the analysis bot behind the coach's hints (default expert; hard answers faster, for tests)",
    )
    p.add_argument(
        "--hint-rate",
        type=float,
        default=20.0,
        help="hints a minute one seat may ask for (bursts of 5; 0: no limit; default 20)",
    )
    p.add_argument(
        "--analysis-workers",
        type=int,
        default=1,
        metavar="N",
        help="processes that analyse finished games for their replays, at a lower priority than the"
        " server (default 1; 0: no analyses are made, a stored one is still shown; docs/analysis.md)",
    )
    p.add_argument(
        "--analysis-bot",
        default="expert",
        metavar="SPEC",
        help="the bot that analyses them: expert (default) or hard, NAME*K for K times its budget,"
        " NAME/K for a K-th of it",
    )
    p.add_argument(
        "--analysis-queue",
        type=int,
        default=8,
        metavar="N",
        help="games that may wait for an analysis worker; more are told to ask again later (default 8)",
    )
    p.add_argument(
        "--outbox-messages",
        type=whole(*OUTBOX_MESSAGES_RANGE),
        default=OUTBOX_MESSAGES,
        metavar="N",
        help="messages one connection may have waiting to be sent; a client that reads slower than its"
        f" table plays is closed past them, and reconnects (default {OUTBOX_MESSAGES};"
        f" {OUTBOX_MESSAGES_RANGE[0]:,} to {OUTBOX_MESSAGES_RANGE[1]:,})",
    )
    p.add_argument(
        "--outbox-bytes",
        type=size(*OUTBOX_BYTES_RANGE),
        default=OUTBOX_BYTES,
        metavar="SIZE",
        help="the same bound on their text: bytes, or with K, M or G (default"
        f" {size_text(OUTBOX_BYTES)}; {size_text(OUTBOX_BYTES_RANGE[0])} to {size_text(OUTBOX_BYTES_RANGE[1])})",
    )
    p.add_argument("--no-browser", action="store_true", help="do not open the lobby in a web browser")


def _lan_addresses() -> list[str]:
    """This machine's own IPv4 addresses (not loopback), as its name resolves them."""
    import socket

    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return sorted({str(i[4][0]) for i in infos if not str(i[4][0]).startswith("127.")})


def _has_browser() -> bool:
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from rallye.server.app import create_app, trusted_proxies
    from rallye.server.messages import MAX_FRAME
    from rallye.server.store import normalise_url

    if not 0 < args.port < 65536:
        print(f"rallye serve: --port must be 1..65535, not {args.port}", file=sys.stderr)
        return 2
    if not 0 <= args.bot_delay <= 60:
        print("rallye serve: --bot-delay must be 0 to 60 seconds", file=sys.stderr)
        return 2
    if not 0 <= args.request_rate <= 1_000_000:
        print("rallye serve: --request-rate must be 0 to 1000000 a minute", file=sys.stderr)
        return 2
    if not 0 <= args.hint_rate <= 1_000_000:
        print("rallye serve: --hint-rate must be 0 to 1000000 a minute", file=sys.stderr)
        return 2
    if not 1 <= args.lease <= 3600:
        print("rallye serve: --lease must be 1 to 3600 seconds", file=sys.stderr)
        return 2
    if not 0 <= args.analysis_workers <= 64:
        print("rallye serve: --analysis-workers must be 0 (no analyses) to 64", file=sys.stderr)
        return 2
    if not 0 <= args.analysis_queue <= 10_000:
        print("rallye serve: --analysis-queue must be 0 to 10000 games", file=sys.stderr)
        return 2
    from rallye.analysis.evaluators import parse_spec
    from rallye.core.errors import ConfigError

    try:
        parse_spec(args.analysis_bot)
    except ConfigError as exc:
        print(f"rallye serve: --analysis-bot: {exc.message}", file=sys.stderr)
        return 2
    try:
        proxies = trusted_proxies(args.forwarded_allow_ips)
    except ValueError as exc:
        print(f"rallye serve: --forwarded-allow-ips: {exc}", file=sys.stderr)
        return 2
    database = database_from(args)
    normalise_url(database)  # a clear error for a bad URL before anything starts
    shown_host = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    url = args.public_url or f"http://{shown_host}:{args.port}"
    print(f"rallye: database {database}", flush=True)
    print(f"rallye: open {url}/ to play", flush=True)
    if args.host in ("0.0.0.0", "::") and not args.public_url:
        for address in _lan_addresses():
            print(f"rallye: other devices on your network open http://{address}:{args.port}/", flush=True)
    print("rallye: Ctrl-C stops the server; unfinished games resume at the next start", flush=True)
    import socket

    # unique to this process, and the same after a restart (which takes its tables straight back)
    owner = f"{socket.gethostname()}:{args.port}"
    app = create_app(
        database,
        bot_delay=args.bot_delay,
        owner_url=args.public_url,
        lease=args.lease,
        owner=owner,
        request_rate=args.request_rate,
        coach_bot=args.coach_bot,
        hint_rate=args.hint_rate,
        forwarded_allow_ips=proxies,
        analysis_workers=args.analysis_workers,
        analysis_bot=args.analysis_bot,
        analysis_queue=args.analysis_queue,
        outbox_messages=args.outbox_messages,
        outbox_bytes=args.outbox_bytes,
    )
    if not args.no_browser and _has_browser():
        import threading
        import webbrowser

        threading.Timer(1.0, lambda: webbrowser.open(f"{url}/")).start()
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        ws="websockets-sansio",
        ws_max_size=MAX_FRAME,  # a longer frame closes the connection (1009), docs/protocol.md
        # off by default: compressing every state costs more CPU than building it (docs/server.md)
        ws_per_message_deflate=args.ws_deflate,
        proxy_headers=False,  # the app trusts --forwarded-allow-ips alone (uvicorn: loopback by default)
        log_level="warning",
        lifespan="on",
    )
    _tune_collector()
    try:
        uvicorn.Server(config).run()
    except OSError as exc:
        print(f"rallye serve: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


def _tune_collector() -> None:
    """Set the cyclic garbage collector for a long-lived server. With the default thresholds
    a full collection ran every 70,000 allocations, and at 250 busy tables each one stopped
    every table for tens of milliseconds: the p99 time to answer a move fell from 221 to
    136 ms with the collections ten times rarer (benchmarks/server_load.py, docs/server.md).
    What is loaded before serving (modules, catalogs, editions) lives as long as the process,
    so no collection needs to look at it again."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
