"""What a running server tells its monitoring: ``/metrics`` in Prometheus's text format
(version 0.0.4) and ``/healthz``.

Counts only: how many tables and connections, moves committed, how long commits take, how
many bot moves wait for a thread. No name, code or card ever appears here.
"""

from __future__ import annotations

import bisect
import time
from dataclasses import dataclass, field

# commit time buckets (seconds): a commit on a quiet SQLite takes about a millisecond
COMMIT_BUCKETS: tuple[float, ...] = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


@dataclass
class Histogram:
    """A cumulative histogram as Prometheus reads it (``_bucket``, ``_sum``, ``_count``)."""

    bounds: tuple[float, ...]
    counts: list[int] = field(default_factory=list)
    total: float = 0.0
    n: int = 0

    def __post_init__(self) -> None:
        self.counts = [0] * (len(self.bounds) + 1)

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.total += value
        self.n += 1

    def lines(self, name: str) -> list[str]:
        out: list[str] = []
        running = 0
        for bound, count in zip(self.bounds, self.counts, strict=False):
            running += count
            out.append(f'{name}_bucket{{le="{bound:g}"}} {running}')
        out.append(f'{name}_bucket{{le="+Inf"}} {self.n}')
        out.append(f"{name}_sum {self.total:.6f}")
        out.append(f"{name}_count {self.n}")
        return out


@dataclass
class Metrics:
    """The counters a server keeps while it runs."""

    started: float = field(default_factory=time.time)
    moves: int = 0
    commits: Histogram = field(default_factory=lambda: Histogram(COMMIT_BUCKETS))
    commit_failures: int = 0

    def committed(self, moves: int, seconds: float) -> None:
        self.moves += moves
        self.commits.observe(seconds)


def _number(value: float) -> str:
    return str(value) if isinstance(value, int) else repr(float(value))


def render(
    metrics: Metrics,
    *,
    tables: int,
    playing: int,
    connections: int,
    seats: int,
    bot_queue: int,
    bot_threads: int,
    analyses: int = 0,
    analysis_jobs: int = 0,
    analysis_workers: int = 0,
) -> str:
    """The text ``/metrics`` answers."""

    def gauge(name: str, text: str, value: float) -> list[str]:
        return [f"# HELP {name} {text}", f"# TYPE {name} gauge", f"{name} {_number(value)}"]

    def counter(name: str, text: str, value: float) -> list[str]:
        return [f"# HELP {name} {text}", f"# TYPE {name} counter", f"{name} {_number(value)}"]

    lines = [
        *gauge("rallye_tables", "tables this process holds in memory", tables),
        *gauge("rallye_tables_playing", "tables in play in this process", playing),
        *gauge("rallye_connections", "open websocket connections (players and spectators)", connections),
        *gauge("rallye_seated_connections", "open websocket connections of seated players", seats),
        *counter("rallye_moves_total", "moves committed by this process (rate() gives moves a second)", metrics.moves),
        *counter("rallye_commit_failures_total", "group commits the database refused", metrics.commit_failures),
        "# HELP rallye_commit_seconds time to write one group commit (every move waits for one)",
        "# TYPE rallye_commit_seconds histogram",
        *metrics.commits.lines("rallye_commit_seconds"),
        *gauge("rallye_bot_queue", "bot moves waiting for a thread of the bot pool", bot_queue),
        *gauge("rallye_bot_threads", "threads of the bot pool", bot_threads),
        *counter("rallye_analyses_total", "finished games this process analysed", analyses),
        *gauge("rallye_analysis_jobs", "games waiting for an analysis worker or being analysed", analysis_jobs),
        *gauge("rallye_analysis_workers", "analysis worker processes allowed (0: no analyses)", analysis_workers),
        *gauge("rallye_start_time_seconds", "when this process started (Unix time)", metrics.started),
    ]
    return "\n".join(lines) + "\n"
