"""The load benchmark (benchmarks/server_load.py) runs: a small load against real server
processes, with its own light websocket client and with the websockets library, one
process and two on one database; every move gets its state back and nothing errs. (It
checks that the benchmark works, never how fast: the figures are in docs/server.md.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _figures(script: str, args: list[str]) -> dict[str, Any]:
    """Run a benchmark with ``--json``; its figures."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args, "--json"],
        capture_output=True, text=True, env=env, timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    return out


@pytest.mark.parametrize(("client", "servers"), [("light", 1), ("websockets", 1), ("light", 2)])
def test_the_load_benchmark_plays_moves_without_an_error(client: str, servers: int) -> None:
    # enough tables that no one person outruns the server's 20 messages a second a connection
    # --min-moves: on a busy machine two seconds can pass before the first games get going
    args = ["--tables", "40", "--players", "4", "--seconds", "2", "--min-moves", "11"]
    args += ["--client", client, "--servers", str(servers)]
    out = _figures("server_load.py", args)
    assert out["errors"] == 0 and out["moves"] > 10 and out["players"] == 160 and out["servers"] == servers
    assert out["latency_ms_p50"] <= out["latency_ms_p99"] <= out["latency_ms_max"]


def test_the_paced_benchmark_holds_people_who_think_and_play_games_to_the_end() -> None:
    """benchmarks/server_paced.py, small and quick: people who think before they move, bots,
    a spectator, chat, games that end and start again at the same seats; every connection is
    still held at the end and nothing errs."""
    args = ["--people", "24", "--ramp", "1", "--seconds", "8", "--think", "0.01", "0.05", "--bot-delay", "0",
            "--chat-every", "2", "--spectators", "0.5"]  # fmt: skip
    out = _figures("server_paced.py", args)
    assert out["errors"] == 0, out["first_errors"]
    assert out["tables"] == 8 and out["connections"] >= 24
    assert out["connections_held"] == out["connections"]
    assert out["moves"] > 20 and out["games_finished"] >= 1 and out["chat_lines"] > 0
    assert out["latency_ms_p50"] <= out["latency_ms_p99"] <= out["latency_ms_max"]
    assert out["kb_per_connection"] > 0 and out["server_rss_mb"] > out["server_rss_mb_empty"]


def test_the_load_benchmark_runs_through_nginx_and_reports_its_cost() -> None:
    """``--nginx``: the people connect over TLS through Debian's nginx running the shipped site
    file, in front of two processes (a table's players reach the process its code hashes to,
    which takes the table over); the figures say what nginx cost."""
    from tests.proxy_helpers import nginx_or_skip

    nginx_or_skip()
    args = ["--tables", "40", "--players", "4", "--seconds", "6", "--min-moves", "11", "--servers", "2", "--nginx"]
    out = _figures("server_load.py", args)
    assert out["errors"] == 0 and out["moves"] > 10 and out["via"] == "nginx (TLS)"
    assert out["nginx_cpu_ms_per_move"] > 0
