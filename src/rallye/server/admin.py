"""``rallye admin``: day-two care of a server's database (docs/hosting.md).

    rallye admin tables [--status playing] [--json]     every table, who sits and who is connected
    rallye admin export DIR [--since 2026-12-01]         finished games as record files
    rallye admin prune --older-than 365 [--yes]          remove finished games older than N days
    rallye admin backup FILE                             a consistent copy of an SQLite database

Each takes ``--database URL`` (default: ``$RALLYE_DATABASE``, else the file ``rallye serve``
uses). The commands read and write the database directly, so they work whether or not a
server is running; a running server keeps serving meanwhile.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from pathlib import Path
from typing import Any

from rallye.core.errors import ConfigError

STATUSES = ("waiting", "playing", "over")


def _date(text: str) -> float:
    """A day (YYYY-MM-DD, taken as UTC midnight) or an ISO time, as Unix seconds."""
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return when.timestamp()


def _days(text: str) -> float:
    try:
        days = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of days: {text!r}") from None
    if not 0 <= days <= 100_000 or days != days:
        raise argparse.ArgumentTypeError("days must be 0 to 100000")
    return days


def add_arguments(p: argparse.ArgumentParser) -> None:
    from rallye.server.cli import add_database_argument

    sub = p.add_subparsers(dest="admin_command", required=True, metavar="ACTION")
    t = sub.add_parser("tables", help="list the tables: game, status, moves, seats, who is connected")
    t.add_argument("--status", choices=STATUSES, help="only tables of this status")
    t.add_argument("--json", action="store_true", help="one JSON document for programs")
    e = sub.add_parser("export", help="write finished games as record files (rallye replay verifies them)")
    e.add_argument("directory", type=Path, help="folder for the files (created if missing)")
    e.add_argument("--since", type=_date, metavar="DATE", help="only games finished on or after this day (UTC)")
    r = sub.add_parser("prune", help="remove finished games older than N days (asks for --yes)")
    r.add_argument("--older-than", type=_days, required=True, metavar="DAYS", help="days since the game's last move")
    r.add_argument("--yes", action="store_true", help="really remove them (without it: only say how many)")
    b = sub.add_parser("backup", help="a consistent copy of an SQLite database (PostgreSQL: pg_dump)")
    b.add_argument("file", type=Path, help="the new file (never overwritten)")
    for q in (t, e, r, b):
        add_database_argument(q)


def run(args: argparse.Namespace) -> int:
    from rallye.server.cli import database_from
    from rallye.server.store import Store

    try:
        store = Store(database_from(args))
    except ConfigError as exc:
        print(f"rallye admin: {exc.message}", file=sys.stderr)
        return 2
    try:
        store.upgrade()  # an old database is brought up to date, as rallye serve would
        command = {"tables": _tables, "export": _export, "prune": _prune, "backup": _backup}[args.admin_command]
        return command(store, args)
    except ConfigError as exc:
        print(f"rallye admin: {exc.message}", file=sys.stderr)
        return 2
    except Exception as exc:  # a database that cannot be reached or read
        print(f"rallye admin: the database could not be used: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    finally:
        store.close()


def _when(t: float | None) -> str:
    if t is None:
        return "-"
    return dt.datetime.fromtimestamp(t, dt.UTC).strftime("%Y-%m-%d %H:%M")


def table_listing(store: Any, status: str | None = None) -> list[dict[str, Any]]:
    """Every table (of ``status``) with its seats, owner and who is connected now (from the
    processes' heartbeats of the last two minutes)."""
    now = time.time()
    connected: dict[str, dict[str, Any]] = {}
    alive = store.live_processes(now - 120)
    for proc in alive:
        for code, who in proc["connections"].items():
            connected[code] = {**who, "process": proc["owner"]}
    owners = {p["owner"] for p in alive}
    out = []
    for t in store.table_rows(status=status):
        here = connected.get(t.code, {})
        out.append(
            {
                "code": t.code,
                "game": t.game,
                "edition": t.settings.get("edition") if isinstance(t.settings, dict) else None,
                "status": t.status,
                "moves": t.move_no,
                "seats": [
                    {
                        "seat": s.seat,
                        "kind": s.kind,
                        "level": s.level,
                        "name": s.name,
                        "taken": s.kind == "bot" or s.token_hash is not None,
                        "connected": s.seat in here.get("seats", []),
                    }
                    for s in t.seats
                ],
                "spectators": here.get("spectators", 0),
                "owner": t.owner,
                "owner_alive": t.owner in owners,
                "result": t.result,
            }
        )
    return out


def _tables(store: Any, args: argparse.Namespace) -> int:
    rows = table_listing(store, args.status)
    if args.json:
        procs = store.live_processes(time.time() - 120)
        print(json.dumps({"tables": rows, "processes": procs}, ensure_ascii=False, indent=1))
        return 0
    if not rows:
        print("no tables" + (f" with status {args.status}" if args.status else ""))
        return 0
    print(f"{'code':<12} {'game':<12} {'status':<8} {'moves':>5}  seats (* connected)")
    for r in rows:
        seats = ", ".join(
            ("*" if s["connected"] else "") + (f"bot {s['level']}" if s["kind"] == "bot" else (s["name"] or "(free)"))
            for s in r["seats"]
        )
        game = r["game"] + (f"/{r['edition']}" if r["edition"] else "")
        extra = f"  +{r['spectators']} watching" if r["spectators"] else ""
        print(f"{r['code']:<12} {game:<12} {r['status']:<8} {r['moves']:>5}  {seats}{extra}")
    return 0


def _export(store: Any, args: argparse.Namespace) -> int:
    from rallye.core.record import dumps_line

    folder: Path = args.directory
    folder.mkdir(parents=True, exist_ok=True)
    rows = store.table_rows(finished_since=args.since if args.since is not None else 0.0)
    written = 0
    for t in rows:
        path = folder / f"rallye-{t.game}-{t.code}.jsonl"
        text = "".join(dumps_line(line) + "\n" for line in store.record_lines_of(t.id))
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
        written += 1
    print(f"rallye admin: {written} finished game(s) written to {folder}")
    return 0


def _prune(store: Any, args: argparse.Namespace) -> int:
    cutoff = time.time() - args.older_than * 86_400
    found = store.table_rows(finished_before=cutoff)
    if not args.yes:
        print(
            f"rallye admin: {len(found)} finished game(s) older than {args.older_than:g} days"
            f" (last move before {_when(cutoff)} UTC); add --yes to remove them"
        )
        return 0
    removed = store.remove_finished(cutoff)
    print(f"rallye admin: removed {removed} finished game(s) older than {args.older_than:g} days")
    return 0


def _backup(store: Any, args: argparse.Namespace) -> int:
    store.backup(args.file)
    print(f"rallye admin: backup written to {args.file}")
    return 0
