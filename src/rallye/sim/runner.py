"""Running many match jobs: in this process, on a process pool, or on Ray.

Whatever the backend and worker count, :func:`run_jobs` returns the results sorted by
match index, and every job carries its own seeds, so the results are identical.

Ray is imported only when asked for (optional extra ``dist``). By default it starts a
local Ray with one CPU per available core, no dashboard and quiet logs, and shuts it
down afterwards; ``address`` joins a running cluster instead (every node then needs
``rallye`` installed). A Ray already initialised by the caller is used as it is and left
running.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rallye.sim.play import MatchJob, MatchResult, play_chunk

BACKENDS: tuple[str, ...] = ("process", "ray")

Advance = Callable[[int], None]
#: called with the results of each piece of work as it finishes (in the order they finish)
Finished = Callable[[list[MatchResult]], None]


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def chunks(jobs: Sequence[MatchJob], workers: int) -> list[list[MatchJob]]:
    """Split jobs into about 8 chunks per worker (so progress moves and load balances)."""
    if not jobs:
        return []
    size = max(1, min(64, len(jobs) // max(1, workers * 8)))
    return [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]


def run_jobs(
    jobs: Sequence[MatchJob],
    *,
    backend: str = "process",
    workers: int | None = None,
    address: str | None = None,
    advance: Advance | None = None,
    finished: Callable[[Sequence[MatchResult]], None] | None = None,
) -> list[MatchResult]:
    """Play every job; ``advance(n)`` is called as ``n`` more matches finish, and
    ``finished(results)`` with those matches' results (to write them as they come: a run
    stopped early keeps them)."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; backends are {', '.join(BACKENDS)}")
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if address is not None and backend != "ray":
        raise ValueError("--address joins a Ray cluster: use it with --backend ray")
    n_workers = workers or available_cores()

    def step(part: list[MatchResult]) -> None:
        if advance is not None:
            advance(len(part))
        if finished is not None:
            finished(part)

    if backend == "ray":
        results = _run_ray(jobs, n_workers, address, step, explicit_workers=workers is not None)
    elif n_workers == 1 or len(jobs) <= 1:
        results = []
        for job in jobs:
            part = play_chunk([job])
            results.extend(part)
            step(part)
    else:
        results = _run_pool(jobs, n_workers, step)
    results.sort(key=lambda r: r.index)
    if [r.index for r in results] != sorted(j.index for j in jobs):
        raise RuntimeError("the backend lost or duplicated matches")  # pragma: no cover
    return results


def _run_pool(jobs: Sequence[MatchJob], workers: int, step: Finished) -> list[MatchResult]:
    results: list[MatchResult] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: set[Future[list[MatchResult]]] = {pool.submit(play_chunk, c) for c in chunks(jobs, workers)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                part = fut.result()
                results.extend(part)
                step(part)
    return results


@contextmanager
def ray_session(address: str | None, workers: int, explicit_workers: bool) -> Iterator[Any]:
    """Ray, initialised here if nobody did (and then shut down afterwards)."""
    try:
        import ray
    except ImportError:
        raise RuntimeError("the ray backend needs Ray: pip install 'rallye[dist]'") from None
    if ray.is_initialized():
        yield ray
        return
    import logging

    kwargs: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.ERROR, "log_to_driver": False}
    if address is not None:
        ray.init(address=address, **kwargs)
    else:
        # Local workers inherit this environment; make sure they find this rallye (it may
        # be a source checkout that is not installed). Cheaper than a Ray runtime_env.
        root = str(Path(__file__).resolve().parents[2])
        before = os.environ.get("PYTHONPATH")
        paths = before.split(os.pathsep) if before else []
        if root not in paths:
            os.environ["PYTHONPATH"] = os.pathsep.join([root, *paths])
        try:
            ray.init(num_cpus=workers if explicit_workers else available_cores(), **kwargs)
        finally:
            if before is None:
                os.environ.pop("PYTHONPATH", None)
            else:
                os.environ["PYTHONPATH"] = before
    try:
        yield ray
    finally:
        ray.shutdown()


def _run_ray(
    jobs: Sequence[MatchJob], workers: int, address: str | None, step: Finished, *, explicit_workers: bool
) -> list[MatchResult]:
    with ray_session(address, workers, explicit_workers) as ray:
        remote = ray.remote(num_cpus=1)(play_chunk)
        cpus = int(ray.cluster_resources().get("CPU", workers)) or workers
        pending = [remote.remote(c) for c in chunks(jobs, cpus)]
        results: list[MatchResult] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                part = ray.get(ref)
                results.extend(part)
                step(part)
        return results
