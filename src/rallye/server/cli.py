"""``rallye serve``: the online table server (``docs/protocol.md``)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def default_database() -> str:
    """An SQLite file in the user's data directory (platformdirs)."""
    from platformdirs import user_data_dir

    return f"sqlite:///{Path(user_data_dir('rallye', appauthor=False)) / 'rallye.db'}"


def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST}; 0.0.0.0 for your LAN)"
    )
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="database URL: sqlite:///path/to/file.db or postgresql://user@host/db"
        " (default: an SQLite file in your data directory)",
    )
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
        help="seconds a process holds its tables without renewing; another process on the same database"
        " takes them over after that (default 30)",
    )
    p.add_argument("--no-browser", action="store_true", help="do not open the lobby in a web browser")


def _has_browser() -> bool:
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from rallye.server.app import create_app
    from rallye.server.store import normalise_url

    if not 0 < args.port < 65536:
        print(f"rallye serve: --port must be 1..65535, not {args.port}", file=sys.stderr)
        return 2
    if not 0 <= args.bot_delay <= 60:
        print("rallye serve: --bot-delay must be 0 to 60 seconds", file=sys.stderr)
        return 2
    database = args.database or default_database()
    normalise_url(database)  # a clear error for a bad URL before anything starts
    shown_host = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    url = args.public_url or f"http://{shown_host}:{args.port}"
    print(f"rallye: database {database}", flush=True)
    print(
        f"rallye: open {url}/ to play (Ctrl-C stops the server; unfinished games resume at the next start)", flush=True
    )
    if not 1 <= args.lease <= 3600:
        print("rallye serve: --lease must be 1 to 3600 seconds", file=sys.stderr)
        return 2
    import socket

    owner = args.public_url or f"{socket.gethostname()}:{args.port}"
    app = create_app(database, bot_delay=args.bot_delay, owner_url=args.public_url, lease=args.lease, owner=owner)
    if not args.no_browser and _has_browser():
        import threading
        import webbrowser

        threading.Timer(1.0, lambda: webbrowser.open(f"{url}/")).start()
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        ws="websockets-sansio",
        ws_max_size=65536,
        ws_per_message_deflate=False,  # compressing every state cost a fifth of the server's time
        log_level="warning",
        lifespan="on",
    )
    try:
        uvicorn.Server(config).run()
    except OSError as exc:
        print(f"rallye serve: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0
