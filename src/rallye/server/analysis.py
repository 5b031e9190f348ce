"""The server's analyses of finished games (docs/analysis.md, "On the server").

``GET /api/tables/{code}/analysis`` (and ``/api/replays/{id}/analysis`` for a record file)
answers a game's analysis (:func:`rallye.analysis.analyse`, its JSON as ``rallye analyse
--json`` prints it) once it is made. The first request starts it; until it is ready every
request is answered ``202`` with its progress (the moves analysed, of how many). :class:`Analyses`
makes each analysis once however many ask at the same time (one job a game, which every
request finds), stores it in the database with the table (``analyses``: keyed by the game,
the analysis bot's spec, the seed and :func:`analyser`, so another bot, or a rallye whose
bots or rules changed, never serves an old result) and serves it from there after a restart.

Several processes on one database make each analysis once too: the process that makes one
claims it in the database first (``analysis_claims``: the key, the process, its status and
progress, and a lease it renews every second while the analysis waits or runs). Another
process asked for the same game finds the claim and answers ``202`` with the status and
progress it reads there (read again at most once a :data:`POLL`), then serves the stored
result once it is made. A claim whose process died runs out with its lease (``--lease``), and
the next process asked for the game takes it over; a process that stops ends its claims at
once. An analysis that failed is told to every process until :data:`RETRY` has passed.

A whole match is tens of seconds of pure-Python CPU. In a thread it would hold the GIL and
slow every table's answers, so the analyses run in worker processes of their own: a small
pool owned by the server, ``--analysis-workers`` processes (:mod:`rallye.server.analysis_worker`,
at a lower priority: ``nice`` 10) that each analyse one game after another, with at most
``--analysis-queue`` games waiting; more are refused (``503 analysis-busy``) until one is
done. A job and its answers are JSON lines on the worker's standard input and output, read
by the event loop (a record is plain text lines); the workers start at the first analysis
and end with the server (a running analysis is stopped, and made again when next asked
for). Only a finished table's record reaches them (an unfinished one's cards are hidden:
``409 not-over``, as its replay).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import itertools
import json
import logging
import os
import secrets
import sys
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from rallye import __version__
from rallye.analysis.analyse import FORMAT
from rallye.analysis.evaluators import parse_spec
from rallye.core.record import Line
from rallye.server.store import AnalysisClaim, AnalysisKey, Store
from rallye.server.table import LEASE_SECONDS, TableError

log = logging.getLogger("rallye.server")

#: the packages whose code and data make an analysis what it is (the judge, the bots it runs,
#: the rules it replays): a change to any of them is a new analyser
ANALYSER_PACKAGES = ("analysis", "agents", "mille", "knightrider", "games.py", "core")
#: games waiting for a worker, beyond those being analysed
QUEUE = 8
#: finished analyses kept in memory besides the database (the last asked for)
KEEP = 16
#: seconds a failed analysis is answered with its error before it is tried again (a game
#: that cannot be analysed is not analysed again at every request of a page)
RETRY = 60.0
#: seconds between two readings of an analysis another process is making (its progress is
#: read from the database, however often its page asks)
POLL = 1.0
#: the longest a process waits to renew its claim on an analysis and write its progress
BEAT = 1.0
#: the longest line a worker sends (an analysis's JSON: a long Knight Rider game's is a few MB)
LINE_LIMIT = 256 << 20

Lines = Sequence[Line] | Sequence[tuple[int, Line]]


@functools.cache
def analyser() -> str:
    """What made an analysis besides its bot and seed: the JSON's format, the version of
    rallye and a fingerprint of the files of :data:`ANALYSER_PACKAGES` (so a server whose
    bots or rules changed, even within one version, makes its analyses again)."""
    from importlib import resources

    digest = hashlib.blake2b(digest_size=6)
    stack = [resources.files("rallye") / name for name in ANALYSER_PACKAGES]
    files = []
    while stack:
        node = stack.pop()
        if node.is_dir():
            stack.extend(c for c in node.iterdir() if c.name != "__pycache__")
        elif node.is_file() and not node.name.endswith(".pyc"):
            files.append(node)
    root = str(resources.files("rallye"))
    for node in sorted(files, key=str):
        digest.update(str(node).removeprefix(root).encode("utf-8", "surrogateescape") + b"\0")
        digest.update(node.read_bytes())
    return f"format-{FORMAT}/rallye-{__version__}/{digest.hexdigest()}"


def _kind(line: Any) -> Any:
    """A record line's type (lines bare or numbered)."""
    body = line[1] if isinstance(line, tuple) else line
    return body.get("type") if isinstance(body, dict) else None


class WorkerGone(Exception):
    """A worker process ended in the middle of a game (killed, out of memory)."""


@dataclass
class Job:
    """One game's analysis: being looked up, waiting, running, done or failed."""

    subject: str  # "t:CODE" (a table's) or "f:HASH" (a record file's)
    id: int
    state: str = "checking"  # checking, queued, running, done, failed; elsewhere: another process's
    elsewhere: str = ""  # that process's status of it (queued, running, failed)
    done: int = 0
    total: int = 0
    text: str | None = None
    error: TableError | None = None
    failed_at: float = 0.0
    checked_at: float = 0.0
    checked: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


class Analyses:
    """Every analysis this server makes or serves (see the module). ``made`` counts the
    analyses computed by this process (a stored one served again is not one). ``owner``
    names this process in the claims (the server's owner name), ``lease`` is how long a
    claim lasts without being renewed."""

    def __init__(
        self,
        store: Store,
        db: Callable[..., Awaitable[Any]],
        *,
        workers: int = 1,
        bot: str = "expert",
        seed: int = 0,
        waiting: int = QUEUE,
        keep: int = KEEP,
        owner: str | None = None,
        lease: float = LEASE_SECONDS,
    ) -> None:
        parse_spec(bot)  # a ConfigError naming a bad spec before anything starts
        if not 0 <= workers <= 64:
            raise ValueError("analysis workers: 0 (off) to 64")
        if not 0 <= waiting <= 10_000:
            raise ValueError("analysis queue: 0 to 10000 games")
        self.store, self.db = store, db
        self.workers, self.bot, self.seed, self.waiting, self.keep = workers, bot, seed, waiting, keep
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.ids = itertools.count(1)
        self.made = 0
        self.retry = RETRY
        self.poll = POLL
        self.owner = owner or f"{os.getpid()}-{secrets.token_hex(6)}"
        self.lease = lease
        self.beat = min(BEAT, lease / 3)
        self.analyser = analyser()
        self.slots = asyncio.Semaphore(workers)  # first come, first served
        self.idle: list[asyncio.subprocess.Process] = []  # workers waiting for a game
        self.busy: set[asyncio.subprocess.Process] = set()  # workers analysing one
        self.started = 0  # worker processes started

    @property
    def enabled(self) -> bool:
        return self.workers > 0

    # -- the workers --------------------------------------------------------------------
    async def _worker(self) -> asyncio.subprocess.Process:
        """A worker waiting for a game, or a new one (started at the first analysis)."""
        while self.idle:
            proc = self.idle.pop()
            if proc.returncode is None:
                return proc
        self.started += 1
        return await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "rallye.server.analysis_worker",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=LINE_LIMIT,
        )

    async def _analyse(self, job: Job, record: list[Any]) -> tuple[str, float]:
        """The game analysed by a worker (waiting for one first): its JSON text and CPU seconds."""
        async with self.slots:
            job.state = "running"
            proc = await self._worker()
            assert proc.stdin is not None and proc.stdout is not None
            self.busy.add(proc)
            try:
                # the record as its JSON lines' text (a seed has up to 128 bits: no JSON number
                # orjson writes)
                record_text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in record)
                proc.stdin.write(
                    orjson.dumps({"job": job.id, "bot": self.bot, "seed": self.seed, "record": record_text}) + b"\n"
                )
                await proc.stdin.drain()
                while True:
                    msg = orjson.loads(await _line(proc))
                    if "done" in msg:
                        job.done, job.total = msg["done"], msg["total"]
                        continue
                    if msg["error"] is not None:
                        why = f"the game could not be analysed: {msg['error']}"
                        raise TableError("analysis-failed", why, status=500)
                    text = (await _line(proc)).decode("utf-8")
                    break
            except BaseException:
                await _end(proc)
                raise
            finally:
                self.busy.discard(proc)
            self.idle.append(proc)
        return text, float(msg["cpu"])

    async def stop(self) -> None:
        """No analysis outlives the server: the running ones are stopped (they are made again
        when next asked for; what is stored stays), and so are the workers."""
        tasks = [j.task for j in self.jobs.values() if j.task is not None and not j.task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        idle, self.idle = self.idle, []
        for proc in idle:
            await _end(proc)

    # -- asking --------------------------------------------------------------------------
    def active(self) -> int:
        """Games waiting for a worker or being analysed."""
        return sum(1 for j in self.jobs.values() if j.state in ("queued", "running"))

    async def ask(self, subject: str, table_id: int | None, lines: Callable[[], Lines]) -> tuple[int, Any]:
        """The answer for ``subject``'s analysis: ``(200, JSON text)`` when made, ``(202,
        progress)`` while it is being made (the first asking starts it), or a
        :class:`TableError` (busy, off, failed). ``lines()``: the finished game's record,
        asked for only when the analysis is to be made."""
        job = self.jobs.get(subject)
        if job is None or (job.state == "failed" and self._again(job)) or self._look_again(job):
            job = Job(subject, next(self.ids))
            self.jobs[subject] = job
            self._forget_old()
            job.task = asyncio.create_task(self._run(job, table_id, lines))
        else:
            self.jobs.move_to_end(subject)
        await asyncio.shield(job.checked.wait())
        if job.state == "done":
            return 200, job.text
        if job.error is not None:  # failed here, or where it is being made
            raise job.error
        return 202, self.progress(job)

    def key(self, subject: str) -> AnalysisKey:
        """The key of ``subject``'s analysis by this server's bot, seed and analyser."""
        return AnalysisKey(subject, self.bot, self.seed, self.analyser)

    def _look_again(self, job: Job) -> bool:
        """Whether an analysis another process makes is read from the database again now."""
        return job.state == "elsewhere" and time.monotonic() - job.checked_at >= self.poll

    def _again(self, job: Job) -> bool:
        """Whether a failed job is tried again now: at once when it found no room or no
        database, after :attr:`retry` seconds when the analysis itself failed."""
        assert job.error is not None
        return job.error.code != "analysis-failed" or time.monotonic() - job.failed_at >= self.retry

    def progress(self, job: Job) -> dict[str, Any]:
        """What a request is told while ``job`` is not done."""
        if job.state == "elsewhere":  # as the process making it says
            return {"status": job.elsewhere, "done": job.done, "total": job.total, "ahead": 0, "bot": self.bot}
        ahead = sum(1 for j in self.jobs.values() if j.state in ("queued", "running") and j.id < job.id)
        return {
            "status": "running" if job.state == "running" else "queued",
            "done": job.done,
            "total": job.total,
            "ahead": max(0, ahead - self.workers + 1) if job.state == "queued" else 0,
            "bot": self.bot,
        }

    def _forget_old(self) -> None:
        """Keep the last :attr:`keep` finished jobs (never one still being made)."""
        finished = [k for k, j in self.jobs.items() if j.state in ("done", "failed", "elsewhere")]
        for key in finished[: max(0, len(finished) - self.keep)]:
            self.jobs.pop(key)

    def _fail(self, job: Job, error: TableError) -> None:
        job.state, job.error, job.failed_at = "failed", error, time.monotonic()
        job.checked.set()

    async def _run(self, job: Job, table_id: int | None, lines: Callable[[], Lines]) -> None:
        try:
            await self._make(job, table_id, lines)
        except asyncio.CancelledError:
            self._fail(job, TableError("stopping", "the server is stopping", status=503))
            raise
        except TableError as exc:
            self._fail(job, exc)
        except Exception:
            log.exception("the analysis of %s failed", job.subject)
            self._fail(job, TableError("analysis-failed", "the analysis of this game failed", status=500))

    async def _ask_db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """A database call whose failure is the request's: ``503 unavailable``."""
        try:
            return await self.db(fn, *args)
        except Exception as exc:
            log.warning("the database failed for an analysis: %s", exc)
            raise TableError("unavailable", "the database cannot be reached; try again", status=503) from None

    def _done(self, job: Job, text: str) -> None:
        job.state, job.text = "done", text
        job.checked.set()

    def _elsewhere(self, job: Job, claim: AnalysisClaim) -> None:
        """``job`` is made by another process: answered with what its claim says."""
        job.state, job.elsewhere, job.done, job.total = "elsewhere", claim.status, claim.done, claim.total
        if claim.status == "failed":
            job.error = TableError("analysis-failed", claim.error or "the analysis of this game failed", status=500)
        job.checked_at = time.monotonic()
        job.checked.set()

    async def _make(self, job: Job, table_id: int | None, lines: Callable[[], Lines]) -> None:
        key = self.key(job.subject)
        stored = await self._ask_db(self.store.analysis, *key)
        if stored is not None:
            self._done(job, stored)
            return
        room = self.active() < self.workers + self.waiting
        if self.enabled and room:
            record = [line[1] if isinstance(line, tuple) else line for line in lines()]
            total = sum(1 for line in record if _kind(line) == "action")
            claim = await self._ask_db(self.store.claim_analysis, key, self.owner, time.time() + self.lease, total)
        else:  # this process makes none now; another one may
            claim = await self._ask_db(self.store.analysis_claim, key)
            if claim is None and not self.enabled:
                raise TableError("analysis-off", "this server makes no analyses (--analysis-workers 0)", status=503)
            if claim is None:
                raise TableError(
                    "analysis-busy", "the server is analysing other games; ask again in a minute", status=503
                )
        if claim is not None:
            self._elsewhere(job, claim)
            return
        # ours: made and stored by the process that held it just before we claimed it?
        try:
            stored = await self._ask_db(self.store.analysis, *key)
        except BaseException:  # (the database is gone: so is the claim, as far as it can be)
            await self._let_go(job, key)
            raise
        if stored is not None:
            await self._let_go(job, key)
            self._done(job, stored)
            return
        job.state, job.total = "queued", total
        job.checked.set()
        ended = asyncio.Event()
        holding = asyncio.create_task(self._hold(job, key, ended))
        try:
            try:
                text, seconds = await self._analyse(job, record)
            finally:  # the claim is not renewed once the analysis ended (nor after it is let go)
                ended.set()
                await holding
        except TableError as exc:  # the game cannot be analysed: told to every process for a while
            await self._let_go(job, key, exc)
            raise
        except WorkerGone:
            await self._let_go(job, key)
            log.error("an analysis worker ended while analysing %s", job.subject)
            raise TableError("analysis-failed", "the analysis of this game failed; ask again", status=500) from None
        except BaseException:  # stopped (the server stops), or an error of ours
            await self._let_go(job, key)
            raise
        self.made += 1
        log.info("analysed %s in %.1f s of CPU", job.subject, seconds)
        try:  # the claim ends with it
            await self.db(
                self.store.put_analysis, job.subject, table_id, self.bot, self.seed, self.analyser, text, seconds
            )
        except Exception as exc:  # served from memory all the same; made again after a restart
            log.warning("storing the analysis of %s failed: %s", job.subject, exc)
        job.state, job.text, job.done = "done", text, job.total

    async def _hold(self, job: Job, key: AnalysisKey, ended: asyncio.Event) -> None:
        """Renew this process's claim on ``job`` with its progress, every :attr:`beat`
        seconds while it waits for a worker or runs, until ``ended``."""
        lost = False
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ended.wait(), self.beat)
            if ended.is_set():
                return
            hold = functools.partial(
                self.store.hold_analysis,
                key,
                self.owner,
                time.time() + self.lease,
                status="running" if job.state == "running" else "queued",
                done=job.done,
                total=job.total,
            )
            try:
                held = await self.db(hold)
            except Exception as exc:
                log.warning("renewing the claim on the analysis of %s failed: %s", job.subject, exc)
                continue
            if not held and not lost:  # its lease ran out (this process was stalled): made twice, stored once
                log.warning("another process took over the analysis of %s", job.subject)
            lost = not held

    async def _let_go(self, job: Job, key: AnalysisKey, failure: TableError | None = None) -> None:
        """End this process's claim on ``job`` without an analysis: at once (another process
        may make it), or, when the game cannot be analysed, kept :attr:`retry` seconds with
        the error, which every process tells meanwhile."""
        try:
            if failure is None:
                await self.db(self.store.release_analysis, key, self.owner)
            else:
                until = time.time() + self.retry
                await self.db(
                    lambda: self.store.hold_analysis(
                        key,
                        self.owner,
                        until,
                        status="failed",
                        done=job.done,
                        total=job.total,
                        error=failure.message[:400],
                    )
                )
        except Exception as exc:  # its lease runs out by itself
            log.warning("ending the claim on the analysis of %s failed: %s", job.subject, exc)


async def _line(proc: asyncio.subprocess.Process) -> bytes:
    """The worker's next line (:class:`WorkerGone` if it ended)."""
    assert proc.stdout is not None
    try:
        raw = await proc.stdout.readline()
    except (ValueError, asyncio.LimitOverrunError):
        raise WorkerGone from None
    if not raw.endswith(b"\n"):
        raise WorkerGone
    return raw


async def _end(proc: asyncio.subprocess.Process) -> None:
    """End a worker now (a game it is analysing too) and wait for it."""
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(proc.wait(), 10)


__all__ = ["POLL", "QUEUE", "Analyses", "Job", "analyser"]
