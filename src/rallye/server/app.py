"""The ASGI app: HTTP API, one websocket per connected player, bots and turn timers.

Every table lives in one :class:`~rallye.server.table.Table` (the authority); this module
only carries messages to and from it (``docs/protocol.md``). Database calls and bot
thinking run off the event loop, in thread pools; a table's lock keeps its moves in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, TypeVar

import orjson
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from rallye.core.errors import GameError
from rallye.server.analysis import QUEUE as ANALYSIS_QUEUE
from rallye.server.analysis import Analyses
from rallye.server.cli import OUTBOX_BYTES, OUTBOX_MESSAGES
from rallye.server.coaching import COACH_BOT, HINT_BURST, HINT_RATE, Coaching
from rallye.server.games import lobby_info
from rallye.server.messages import check, message_id, read, whole
from rallye.server.metrics import Metrics
from rallye.server.metrics import render as render_metrics
from rallye.server.replay import MAX_UPLOAD, Replay, Replays, file_key, record_lines
from rallye.server.store import ChatLine, Conflict, Store, token_hash
from rallye.server.table import LEASE_SECONDS, PROTOCOL, Accepted, AnyTable, Pending, Table, TableError, split_coach

log = logging.getLogger("rallye.server")
T = TypeVar("T")

MAX_BODY = 16_384  # bytes in one HTTP request body
RATE = 20.0  # messages a second, per connection
BURST = 40.0
CHAT_LENGTH = 300
CHAT_RATE = 1.0  # chat lines a second, per connection
HELLO_SECONDS = 30.0


class Buckets:
    """Token buckets by key (a client's address): ``take(key)`` is ``False`` when empty."""

    def __init__(self, rate: float, burst: float, size: int = 10_000) -> None:
        self.rate, self.burst, self.size = rate, burst, size
        self.state: dict[str, tuple[float, float]] = {}

    def take(self, key: str) -> bool:
        now = time.monotonic()
        tokens, stamp = self.state.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - stamp) * self.rate)
        if len(self.state) >= self.size and key not in self.state:
            self.state.clear()  # a bounded memory: forget the quiet ones
        if tokens < 1.0:
            self.state[key] = (tokens, now)
            return False
        self.state[key] = (tokens - 1.0, now)
        return True


#: the close status of such a connection: 1013, "try again later" (RFC 6455), reason "too-slow"
TOO_SLOW = 1013
#: how long the closing frame may wait for the client to read what is before it; then the
#: connection is dropped without it
CLOSE_SECONDS = 5.0


class Outbox:
    """What a connection's writer sends next, in order, as JSON text: a list read from a
    moving head (each message taken in O(1)) and the one waiting writer. Bounded: past
    ``most`` messages or ``size`` characters waiting (by default :data:`OUTBOX_MESSAGES` and
    :data:`OUTBOX_BYTES`), everything waiting is dropped,
    :attr:`overrun` is set, nothing more is taken and the writer is cancelled (it then closes
    the connection, :func:`_writer`). A state cannot stand for the states before it: each
    carries only the moves since the one before (docs/protocol.md), so none is skipped.
    (An ``asyncio.Queue`` holds three deques and an Event, about 2.5 KB a connection of the
    server's memory at people's pace, docs/server.md; this holds a few hundred bytes.)"""

    __slots__ = ("_bytes", "_head", "_items", "_waiter", "most", "overrun", "size", "writer")

    def __init__(self, most: int = OUTBOX_MESSAGES, size: int = OUTBOX_BYTES) -> None:
        self.most, self.size = most, size
        self._items: list[str | None] = []
        self._head = 0  # the next to send: the list is cleared when the head reaches its end
        self._bytes = 0
        self._waiter: asyncio.Future[None] | None = None
        self.overrun = False
        self.writer: asyncio.Task[None] | None = None  # cancelled on an overrun

    def put_nowait(self, item: dict[str, Any] | str | None) -> None:
        """Queue a message (a dict is encoded here, once), or ``None``: close the connection."""
        if self.overrun:
            return
        text = encode(item) if isinstance(item, dict) else item
        if text is not None:
            if len(self._items) - self._head >= self.most or self._bytes + len(text) > self.size:
                self._overrun()
                return
            self._bytes += len(text)
        self._items.append(text)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _overrun(self) -> None:
        self.overrun = True
        self._items, self._head, self._bytes = [], 0, 0
        if self.writer is not None:
            self.writer.cancel()

    def _take(self) -> str | None:
        item = self._items[self._head]
        self._items[self._head] = None  # not held once taken
        self._head += 1
        if self._head == len(self._items):
            self._items.clear()
            self._head = 0
        elif self._head >= 64 and self._head * 2 >= len(self._items):
            del self._items[: self._head]  # a long backlog: what was sent leaves the list
            self._head = 0
        if item is not None:
            self._bytes -= len(item)
        return item

    def get_nowait(self) -> str | None:
        if self._head == len(self._items):
            raise asyncio.QueueEmpty
        return self._take()

    async def get(self) -> str | None:
        """The next message, once there is one (one reader: the connection's writer)."""
        while self._head == len(self._items):
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._take()

    def qsize(self) -> int:
        return len(self._items) - self._head


@dataclass(slots=True)
class Conn:
    ws: WebSocket
    seat: int | None
    name: str
    queue: Outbox = field(default_factory=lambda: Outbox())
    tokens: float = BURST
    stamp: float = field(default_factory=time.monotonic)
    chat_at: float = 0.0

    held: bool = False  # the last message was held back

    def throttle(self) -> float:
        """Token bucket: the seconds this message must wait (0: none; more: this client
        is flooding). The caller waits them, then :meth:`waited`."""
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.held = False
            return 0.0
        return (1.0 - self.tokens) / RATE

    def waited(self) -> None:
        self.tokens = 0.0
        self.stamp = time.monotonic()
        self.held = True


class Server:
    """Tables in memory, their connections, the pools; one per process."""

    def __init__(
        self,
        database_url: str,
        *,
        bot_delay: float = 0.6,
        owner_url: str | None = None,
        bot_threads: int | None = None,
        lease: float = LEASE_SECONDS,
        owner: str | None = None,
        request_rate: float = 30.0,
        handoff_wait: float = 5.0,
        coach_bot: str = COACH_BOT,
        hint_rate: float = HINT_RATE,
        hint_burst: float = HINT_BURST,
        analysis_workers: int = 1,
        analysis_bot: str = "expert",
        analysis_seed: int = 0,
        analysis_queue: int = ANALYSIS_QUEUE,
        outbox_messages: int = OUTBOX_MESSAGES,
        outbox_bytes: int = OUTBOX_BYTES,
    ) -> None:
        if outbox_messages < 1 or outbox_bytes < 1:
            raise ValueError("an outbox holds at least one message of at least one byte")
        # what one connection may have waiting to be sent (Outbox)
        self.outbox_messages, self.outbox_bytes = outbox_messages, outbox_bytes
        self.store = Store(database_url)
        # behind a proxy that routes by table code, how long a process waits for a table's
        # owner to hand it over (docs/server.md, "More than one process")
        self.handoff_wait = handoff_wait
        self.lease = lease
        self.bot_delay = bot_delay
        # who holds this process's tables: the same address after a restart is the same
        # server, which takes its tables straight back (another waits out the lease)
        self.owner = owner or f"{os.getpid()}-{secrets.token_hex(6)}"
        self.owner_url = owner_url
        self.tables: dict[str, AnyTable] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.conns: dict[str, list[Conn]] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.db_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="rallye-db")
        self.bot_pool = ThreadPoolExecutor(
            max_workers=bot_threads or max(1, os.cpu_count() or 1), thread_name_prefix="rallye-bot"
        )
        self._renewer: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self.committer = Committer(self)
        # creating tables and taking seats: ``request_rate`` a minute from one address
        # (bursts of 20); 0: no limit
        self.http_buckets = Buckets(rate=request_rate / 60, burst=20) if request_rate > 0 else None
        self.metrics = Metrics()
        self.replays = Replays()
        # the coach's hints (server/coaching.py): ``hint_rate`` a minute from one seat (0: no limit)
        self.coaching = Coaching(coach_bot, Buckets(rate=hint_rate / 60, burst=hint_burst) if hint_rate > 0 else None)
        # finished games' analyses, made in worker processes of their own (server/analysis.py)
        self.analyses = Analyses(
            self.store,
            self.db,
            workers=analysis_workers,
            bot=analysis_bot,
            seed=analysis_seed,
            waiting=analysis_queue,
            owner=self.owner,
            lease=lease,
        )

    # -- life --------------------------------------------------------------------------
    async def start(self) -> None:
        await self.db(self.store.upgrade)
        # the committer first: a resumed table's bot may move while the others still load
        # (before it ran, such a move was refused as 'stopping' and the table waited for ever)
        self.committer.start()
        for code in await self.db(self.store.unfinished_codes):
            try:
                await self.get_table(code)
            except TableError as exc:
                log.warning("table %s not resumed: %s", code, exc.message)
            except Exception as exc:
                log.error("table %s could not be resumed: %s", code, exc)
        with contextlib.suppress(Exception):
            await self.db(self.store.heartbeat, self.owner, self.owner_url, self.metrics.started, {})
        self._renewer = asyncio.create_task(self._renew())
        if self.owner_url:
            self._watcher = asyncio.create_task(self._watch_wanted())

    async def stop(self) -> None:
        for task in list(self.tasks.values()):
            task.cancel()
        self.coaching.stop()
        await self.committer.stop()
        for background in (self._renewer, self._watcher):
            if background is not None:
                background.cancel()
        for conns in self.conns.values():
            for c in conns:
                c.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await self.db(self.store.release, self.owner)
        with contextlib.suppress(Exception):
            await self.db(self.store.forget_process, self.owner)
        await self.analyses.stop()
        # no thread outlives the server (a bot still thinking finishes its move first)
        self.bot_pool.shutdown(wait=True, cancel_futures=True)
        self.db_pool.shutdown(wait=True, cancel_futures=True)
        self.store.close()

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            with contextlib.suppress(Exception):
                await self.db(self.store.renew, self.owner, time.time() + self.lease)
            with contextlib.suppress(Exception):
                await self.db(
                    self.store.heartbeat, self.owner, self.owner_url, self.metrics.started, self.connections()
                )

    async def _watch_wanted(self) -> None:
        """Hand over the tables another process behind the same address asks for (its
        players reach it now): between two moves, under the table's lock."""
        while True:
            await asyncio.sleep(0.25)
            try:
                for code in await self.db(self.store.wanted_from, self.owner):
                    await self.hand_over(code)
            except Exception as exc:
                log.warning("handing tables over failed: %s", exc)

    async def hand_over(self, code: str) -> None:
        """Let a table go to the process that asked for it: its bot or timer stops, the
        database says it is free, and its connections close (the pages and ``rallye join``
        reconnect, through the proxy, to the new owner). A move still on its way here is
        refused (``elsewhere``): the commit names the owner."""
        async with self.lock(code):
            self.tables.pop(code, None)
            task = self.tasks.pop(code, None)
            if task is not None:
                task.cancel()
            await self.db(self.store.hand_over, code, self.owner)
        for c in self.conns.pop(code, []):
            c.queue.put_nowait(None)
        log.info("table %s handed over", code)

    def connections(self) -> dict[str, Any]:
        """Who is connected to this process's tables: {code: {"seats": [...], "spectators": n}}."""
        out: dict[str, Any] = {}
        for code, conns in self.conns.items():
            if conns:
                seated = sorted({c.seat for c in conns if c.seat is not None})
                out[code] = {"seats": seated, "spectators": sum(1 for c in conns if c.seat is None)}
        return out

    def metrics_text(self) -> str:
        conns = [c for cs in self.conns.values() for c in cs]
        return render_metrics(
            self.metrics,
            tables=len(self.tables),
            playing=sum(1 for t in self.tables.values() if t.status == "playing"),
            connections=len(conns),
            seats=sum(1 for c in conns if c.seat is not None),
            # the executor's own queue: what waits for a thread (no public counter)
            bot_queue=self.bot_pool._work_queue.qsize(),
            bot_threads=self.bot_pool._max_workers,
            analyses=self.analyses.made,
            analysis_jobs=self.analyses.active(),
            analysis_workers=self.analyses.workers,
        )

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.db_pool, fn, *args)

    # -- tables ------------------------------------------------------------------------
    def lock(self, code: str) -> asyncio.Lock:
        return self.locks.setdefault(code, asyncio.Lock())

    async def get_table(self, code: str) -> AnyTable:
        """The table with this invite code, rebuilt from the database if not in memory."""
        if not isinstance(code, str) or len(code) > 32:
            raise TableError("not-found", "no table has that code", status=404)
        table = self.tables.get(code)
        if table is not None:
            return table
        async with self.lock(code):
            table = self.tables.get(code)
            if table is not None:
                return table
            stored = await self.db(self.store.load, code)
            if stored is None:
                raise TableError("not-found", f"no table has the code {code!r}", status=404)
            if stored.status != "over" and not await self._claim(stored.id, stored.owner_url):
                where = f" at {stored.owner_url}" if stored.owner_url else ""
                raise TableError("elsewhere", f"this table is served by another server process{where}", status=409)
            table = await self.db(lambda: Table.restore(self.store, stored, owner=self.owner))
            self.tables[code] = table
        self.kick(table)
        return table

    async def _claim(self, table_id: int, owner_url: str | None) -> bool:
        """Take a table for this process. When its owner is alive behind the same address
        (a proxy routes the table's players here now), ask for it and wait for the hand-over."""
        claimed = await self.db(self.store.claim, table_id, self.owner, self.owner_url, time.time() + self.lease)
        if claimed or not self.owner_url or owner_url != self.owner_url:
            return claimed
        await self.db(self.store.want, table_id, self.owner)
        deadline = time.monotonic() + self.handoff_wait
        while not claimed and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            claimed = await self.db(self.store.claim, table_id, self.owner, self.owner_url, time.time() + self.lease)
        return claimed

    async def create(self, request: Any) -> tuple[AnyTable, int | None, str | None]:
        table, seat, token = await self.db(
            lambda: Table.create(self.store, request, owner=self.owner, owner_url=self.owner_url, lease=self.lease)
        )
        self.tables[table.code] = table
        self.kick(table)
        return table, seat, token

    async def again(self, table: AnyTable) -> str:
        """Play again: a new table with the same seats (same people, same tokens, same bots)."""
        async with self.lock(table.code):
            if table.next_code:
                return table.next_code
            new = await self.db(
                lambda: Table.open(
                    self.store,
                    table.game,
                    table.settings,
                    table.again_seats(),
                    table.turn_timer,
                    table.timer_bot,
                    owner=self.owner,
                    owner_url=self.owner_url,
                    lease=self.lease,
                    coach=table.coach,
                )
            )
            await self.db(self.store.set_next, table.id, new.code)
            table.next_code = new.code
            self.tables[new.code] = new
        self.kick(new)
        await self.send_all(table, {"type": "again", "code": new.code})
        await self.show(table)
        return new.code

    # -- moves -------------------------------------------------------------------------
    async def act(self, table: AnyTable, seat: int | None, move_no: object, action: object) -> None:
        async with self.lock(table.code):
            await self.submit(table, seat, move_no, action)
            await self.broadcast(table)
        self.kick(table)

    async def submit(self, table: AnyTable, seat: int | None, move_no: object, action: object) -> None:
        """The authority's answer: checked and applied here, committed by the group
        committer (with the moves of other tables that come meanwhile), and only then
        accepted. A table another process has taken over leaves this one's memory (its
        clients reconnect and are sent there). Called under the table's lock."""
        try:
            pending = table.prepare(seat, move_no, action)
            await _through_cancel(self.committer.commit(table, pending))
        except TableError as exc:
            if exc.code == "elsewhere":
                self.tables.pop(table.code, None)
            raise

    async def show(self, table: AnyTable) -> None:
        """Send every connection of the table its state (under the table's lock, so no
        message is built from a move half applied)."""
        async with self.lock(table.code):
            await self.broadcast(table)

    def kick(self, table: AnyTable) -> None:
        """Start whatever must happen next at this table without a person: a bot's move,
        or the turn timer of a person's."""
        old = self.tasks.get(table.code)
        if old is not None and not old.done():
            if getattr(old, "rallye_move", None) == table.move_no:
                return
            old.cancel()
        if table.status != "playing" or table.over:
            return
        seat = table.bot_to_act()
        if seat is not None:
            task = asyncio.create_task(self._bot_move(table, seat, None, self.bot_delay))
        elif table.turn_timer:
            turn = table.current()
            if turn is None:
                return
            task = asyncio.create_task(self._bot_move(table, turn, table.timer_bot or "medium", table.turn_timer))
        else:
            return
        task.rallye_move = table.move_no  # type: ignore[attr-defined]
        self.tasks[table.code] = task

    async def _bot_move(self, table: AnyTable, seat: int, level: str | None, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
            loop = asyncio.get_running_loop()
            async with self.lock(table.code):
                if table.over or table.current() != seat:
                    return
                move_no, action = await loop.run_in_executor(self.bot_pool, table.choose_for, seat, level)
                await self.submit(table, seat, move_no, action)
                await self.broadcast(table)
        except asyncio.CancelledError:
            raise
        except TableError as exc:
            log.warning("table %s: the bot for seat %d was refused: %s", table.code, seat + 1, exc.message)
            return
        except Exception:
            log.exception("table %s: the bot for seat %d failed", table.code, seat + 1)
            return
        finally:
            if self.tasks.get(table.code) is asyncio.current_task():
                del self.tasks[table.code]
        self.kick(table)

    # -- sending -----------------------------------------------------------------------
    def deadline(self, table: AnyTable) -> float | None:
        if not table.turn_timer or table.bot_to_act() is not None or table.over or table.status != "playing":
            return None
        return max(0.0, round(table.turn_timer - (time.monotonic() - table.turn_started), 1))

    async def broadcast(self, table: AnyTable) -> None:
        conns = self.conns.get(table.code, [])
        if not conns:
            return
        deadline = self.deadline(table)
        states = table.broadcast_states([c.seat for c in conns], deadline)
        texts = {seat: encode(msg) for seat, msg in states.items()}  # one a seat, however many devices it has
        for c in conns:
            c.queue.put_nowait(texts[c.seat])

    async def send_all(self, table: AnyTable, msg: dict[str, Any]) -> None:
        for c in self.conns.get(table.code, []):
            c.queue.put_nowait(msg)

    def presence(self, table: AnyTable) -> None:
        table.connected = {c.seat for c in self.conns.get(table.code, []) if c.seat is not None}


class Committer:
    """Group commit: the moves of every table that arrive while one transaction is being
    written go together into the next, one transaction for all of them (each still checked
    on its own: its table's move number and owner). Under load this is one commit for many
    moves; alone, a move is committed at once. A move's table is settled here, on the event
    loop, when its transaction ends, whether or not the one who sent it still waits. Chat
    lines ride along in the same transactions (at people's pace there is one for every
    three moves, each had been a transaction of its own)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.waiting: list[tuple[AnyTable, Pending[Any], asyncio.Future[Accepted]]] = []
        self.chats: list[tuple[ChatLine, asyncio.Future[None]]] = []
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.closing = False

    def start(self) -> None:
        self.task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Write what is waiting, then end."""
        self.closing = True
        self.wake.set()
        if self.task is not None:
            await self.task

    def commit(self, table: AnyTable, pending: Pending[Any]) -> asyncio.Future[Accepted]:
        """The move's outcome: :class:`~rallye.server.table.Accepted` once committed, or the
        refusal (``elsewhere``) or the database's error, with the move taken back."""
        fut: asyncio.Future[Accepted] = asyncio.get_running_loop().create_future()
        if self.closing or self.task is None:
            stopping = TableError("stopping", "the server is stopping; the move was not played", status=503)
            self._settle_one(table, pending, fut, stopping)
        else:
            self.waiting.append((table, pending, fut))
            self.wake.set()
        return fut

    def chat(self, line: ChatLine) -> asyncio.Future[None]:
        """Done once the chat line is committed (or the database's error)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self.closing or self.task is None:
            fut.set_exception(TableError("stopping", "the server is stopping; the line was not sent", status=503))
        else:
            self.chats.append((line, fut))
            self.wake.set()
        return fut

    async def _run(self) -> None:
        while self.waiting or self.chats or not self.closing:
            await self.wake.wait()
            self.wake.clear()
            batch, self.waiting = self.waiting, []
            lines, self.chats = self.chats, []
            if not batch and not lines:
                continue
            try:
                began = time.perf_counter()
                done = await self.server.db(
                    self.server.store.append_many, [p.write for _, p, _ in batch], [line for line, _ in lines]
                )
                self.server.metrics.committed(sum(done), time.perf_counter() - began)
            except asyncio.CancelledError:  # the event loop is going away: nobody may wait forever
                for table, pending, fut in [*batch, *self.waiting]:
                    self._settle_one(table, pending, fut, TableError("stopping", "the server is stopping", status=503))
                for _, said in [*lines, *self.chats]:
                    if not said.done():
                        said.set_exception(TableError("stopping", "the server is stopping", status=503))
                self.waiting, self.chats = [], []
                raise
            except Exception as exc:
                log.error("a commit of %d moves and %d chat lines failed: %s", len(batch), len(lines), exc)
                self.server.metrics.commit_failures += 1
                for table, pending, fut in batch:
                    failed = TableError(
                        "unavailable", "the move could not be saved and was not played; send it again", status=503
                    )
                    self._settle_one(table, pending, fut, failed)
                for _, said in lines:
                    if not said.done():
                        said.set_exception(
                            TableError("unavailable", "the line could not be saved; send it again", status=503)
                        )
                continue
            for (table, pending, fut), ok in zip(batch, done, strict=True):
                error = None if ok else Conflict(f"table {table.code} moved on elsewhere")
                self._settle_one(table, pending, fut, error)
            for _, said in lines:
                if not said.done():
                    said.set_result(None)
            if self.waiting or self.chats:
                self.wake.set()

    @staticmethod
    def _settle_one(
        table: AnyTable, pending: Pending[Any], fut: asyncio.Future[Accepted], error: BaseException | None
    ) -> None:
        try:
            accepted = table.finish(pending, error)
        except BaseException as exc:  # the refusal, or the database's error
            if not fut.done():
                fut.set_exception(exc)
            return
        if not fut.done():
            fut.set_result(accepted)


async def _through_cancel(fut: asyncio.Future[T]) -> T:
    """Wait for ``fut`` to the end even if the waiting task is cancelled meanwhile (a move
    half committed must be settled before its table's lock is let go); the cancellation is
    raised after."""
    cancelled = False
    while not fut.done():
        try:
            await asyncio.shield(fut)
        except asyncio.CancelledError:
            cancelled = cancelled or not fut.cancelled()
        except BaseException:  # fut's own error, raised below
            pass
    if cancelled:
        raise asyncio.CancelledError
    return fut.result()


# -- HTTP --------------------------------------------------------------------------------
def _error(exc: TableError) -> JSONResponse:
    return JSONResponse({"error": exc.to_json()}, status_code=exc.status)


async def _body(request: Request, limit: int = MAX_BODY) -> Any:
    # JSON only: a form or text/plain POST is what any web page may send to any server
    # without asking (a "simple" cross-site request); application/json needs the browser's
    # CORS preflight, which this server never answers yes
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise TableError("unsupported-media-type", "a request body is JSON, sent as application/json", status=415)
    raw = await request.body()
    if len(raw) > limit:
        raise TableError("too-large", f"a request body is at most {limit} bytes", status=413)
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise TableError("bad-json", "the request body is not JSON") from None


def _server(request: Request | WebSocket) -> Server:
    server: Server = request.app.state.server
    return server


async def api_info(request: Request) -> Response:
    return JSONResponse({"protocol": PROTOCOL, "public_url": _server(request).owner_url, **lobby_info()})


async def healthz(request: Request) -> Response:
    """200 while the process serves and reaches its database; 503 otherwise."""
    server = _server(request)
    try:
        await asyncio.wait_for(server.db(server.store.ping), timeout=5)
    except Exception:
        return JSONResponse({"status": "unavailable", "database": False}, status_code=503)
    return JSONResponse({"status": "ok", "database": True, "tables": len(server.tables)})


async def metrics(request: Request) -> Response:
    return PlainTextResponse(_server(request).metrics_text(), media_type="text/plain; version=0.0.4; charset=utf-8")


async def api_pieces(request: Request) -> Response:
    folder = resources.files("rallye.knightrider") / "data"
    return JSONResponse(
        {
            "tiles": json.loads((folder / "tiles.json").read_text(encoding="utf-8")),
            "escape_cards": json.loads((folder / "escape_cards.json").read_text(encoding="utf-8")),
        }
    )


def _limited(request: Request) -> None:
    host = request.client.host if request.client else "?"
    buckets = _server(request).http_buckets
    if buckets is not None and not buckets.take(host):
        raise TableError("rate-limited", "too many requests from your address; wait a minute", status=429)


async def api_create(request: Request) -> Response:
    server = _server(request)
    try:
        _limited(request)
        table, seat, token = await server.create(await _body(request))
    except TableError as exc:
        return _error(exc)
    out: dict[str, Any] = {"code": table.code, "table": table.summary()}
    if token is not None:
        out.update(seat=seat, token=token)
    return JSONResponse(out, status_code=201)


async def api_table(request: Request) -> Response:
    try:
        table = await _server(request).get_table(request.path_params["code"])
    except TableError as exc:
        return _error(exc)
    return JSONResponse({"table": table.summary()})


async def api_join(request: Request) -> Response:
    server = _server(request)
    try:
        _limited(request)
        table = await server.get_table(request.path_params["code"])
        body = await _body(request)
        if not isinstance(body, dict):
            raise TableError("bad-field", "a join request is a JSON object with 'seat' and 'name'")
        async with server.lock(table.code):
            token = await server.db(table.join, body.get("seat"), body.get("name"))
            await server.broadcast(table)
    except TableError as exc:
        return _error(exc)
    server.kick(table)
    return JSONResponse({"seat": body["seat"], "token": token, "table": table.summary()})


async def api_record(request: Request) -> Response:
    try:
        table = await _server(request).get_table(request.path_params["code"])
    except TableError as exc:
        return _error(exc)
    if not table.over:
        return _error(TableError("not-over", "the record is ready when the game is over", status=409))
    return PlainTextResponse(
        table.record_text(),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="rallye-{table.game.key}-{table.code}.jsonl"'},
    )


# -- replays (docs/server.md, "Replays") ----------------------------------------------------
async def _table_replay(request: Request) -> Replay:
    """The replay of a finished table (an unfinished one's would show the hidden cards)."""
    server = _server(request)
    code = request.path_params["code"]
    key = f"t:{code}"
    if server.replays.known(key):
        kept = await server.replays.get(key, None)
        if kept is not None:
            return kept
    table = await server.get_table(code)
    if not table.over:
        raise TableError("not-over", "a game is replayed when it is over: its cards are hidden until then", status=409)
    lines = list(table.match.lines)
    loop = asyncio.get_running_loop()
    replay = await server.replays.get(
        key, lambda: loop.run_in_executor(server.bot_pool, Replay.build, lines, f"table {code}")
    )
    assert replay is not None
    return replay


async def _file_replay(request: Request) -> Replay:
    replay = await _server(request).replays.get(f"f:{request.path_params['id']}", None)
    if replay is None:
        raise TableError("replay-gone", "this record is no longer kept: open the file again", status=404)
    return replay


def _frames(find: Callable[[Request], Awaitable[Replay]]) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint of a replay's frames from ``from`` on (:data:`~rallye.server.replay.CHUNK` of them)."""

    async def frames(request: Request) -> Response:
        raw = request.query_params.get("from", "0")
        try:
            replay = await find(request)
            if not raw.isdigit():
                raise TableError("bad-field", "'from' is a frame number")
            return JSONResponse(replay.frames(int(raw)))
        except ValueError as exc:
            return _error(TableError("bad-field", str(exc)))
        except TableError as exc:
            return _error(exc)

    return frames


async def api_replay(request: Request) -> Response:
    try:
        replay = await _table_replay(request)
    except TableError as exc:
        return _error(exc)
    server = _server(request)
    table = await server.get_table(request.path_params["code"])
    analysis = f"/api/tables/{table.code}/analysis" if server.analyses.enabled else None
    return JSONResponse(dict(replay.summary(), code=table.code, table=table.summary(), analysis=analysis))


# -- analyses (docs/analysis.md, "On the server") -------------------------------------------
def _analysis(answer: tuple[int, Any]) -> Response:
    """The analysis as stored (its JSON text), or ``202`` with its progress."""
    status, body = answer
    if status == 200:
        return Response(body, media_type="application/json")
    return JSONResponse(body, status_code=status, headers={"cache-control": "no-store"})


async def api_analysis(request: Request) -> Response:
    """A finished table's analysis: made at the first request, once however many ask."""
    server = _server(request)
    try:
        table = await server.get_table(request.path_params["code"])
        if not table.over:  # its cards are hidden until then: nothing of it is analysed
            raise TableError(
                "not-over", "a game is analysed when it is over: its cards are hidden till then", status=409
            )
        lines = list(table.match.lines)
        answer = await server.analyses.ask(f"t:{table.code}", table.id, lambda: lines)
    except TableError as exc:
        return _error(exc)
    return _analysis(answer)


async def api_file_analysis(request: Request) -> Response:
    """A record file's analysis (a file sent by a page, or ``rallye replay FILE --web``'s)."""
    server = _server(request)
    try:
        replay = await _file_replay(request)
        answer = await server.analyses.ask(f"f:{request.path_params['id']}", None, lambda: replay.lines)
    except TableError as exc:
        return _error(exc)
    return _analysis(answer)


def _file_analysis_url(server: Server, key: str) -> str | None:
    return f"/api/replays/{key}/analysis" if server.analyses.enabled else None


async def api_replay_upload(request: Request) -> Response:
    """A record file sent by a page (``{"record": text}``): checked by replaying it, kept
    under its hash for its frames."""
    server = _server(request)
    try:
        _limited(request)
        body = await _body(request, 2 * MAX_UPLOAD)  # the file's text, its quotes escaped
        text = body.get("record") if isinstance(body, dict) else None
        if not isinstance(text, str) or not text.strip():
            raise TableError("bad-field", "'record' must be the text of a record file")
        if len(text.encode("utf-8", "surrogatepass")) > MAX_UPLOAD:
            raise TableError("too-large", f"a record file is at most {MAX_UPLOAD // (1 << 20)} MB", status=413)
        key = file_key(text)

        def build() -> Replay:
            return Replay.build(record_lines(text, "the file"), "the file")

        try:
            replay = await server.replays.get(
                f"f:{key}", lambda: asyncio.get_running_loop().run_in_executor(server.bot_pool, build)
            )
        except GameError as exc:
            raise TableError("bad-record", exc.message, exc.rule, status=422) from None
    except TableError as exc:
        return _error(exc)
    assert replay is not None
    return JSONResponse(dict(replay.summary(), id=key, analysis=_file_analysis_url(server, key)), status_code=201)


async def api_file_replay(request: Request) -> Response:
    try:
        replay = await _file_replay(request)
    except TableError as exc:
        return _error(exc)
    key = request.path_params["id"]
    return JSONResponse(dict(replay.summary(), id=key, analysis=_file_analysis_url(_server(request), key)))


async def api_my_games(request: Request) -> Response:
    server = _server(request)
    try:
        body = await _body(request)
        tokens = body.get("tokens") if isinstance(body, dict) else None
        if (
            not isinstance(tokens, list)
            or len(tokens) > 200
            or not all(isinstance(t, str) and len(t) < 200 for t in tokens)
        ):
            raise TableError("bad-field", "'tokens' must be a list of at most 200 seat tokens")
    except TableError as exc:
        return _error(exc)
    found = await server.db(server.store.games_for, [token_hash(t) for t in tokens])
    games = []
    for st, seat in found:
        result = st.result or {}
        games.append(
            {
                "code": st.code,
                "game": st.game,
                "settings": st.settings,
                "seat": seat,
                "status": st.status,
                "names": [s.name or s.level for s in st.seats],
                "seats": [{"kind": s.kind, "level": s.level, "name": s.name} for s in st.seats],
                "coach": split_coach(st.settings, st.seats)[1],
                "totals": result.get("totals"),
                "winners": result.get("winners"),
                "sheets": result.get("sheets"),
                "next": st.next_code,
            }
        )
    return JSONResponse({"games": games})


def _page(name: str) -> Callable[[Request], Any]:
    async def page(request: Request) -> Response:
        path = resources.files("rallye") / "web" / name
        if not path.is_file():
            return PlainTextResponse("rallye: the pages are not installed", status_code=404)
        return FileResponse(str(path), media_type="text/html")

    return page


#: What every HTTP answer carries: scripts, styles, pictures and connections from this server
#: alone (the icon is a data: URL), no inline script or style, no framing, no guessing of
#: types, no address of a table page sent on to another site.
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self';"
        b" font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP response."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


# -- the websocket -----------------------------------------------------------------------
class TableSockets:
    """ASGI middleware, the outermost but Starlette's own error handler: a table's websocket
    (``/ws/{code}``) goes straight to :func:`ws_table`, past the HTTP middleware and the
    router. Each layer is a coroutine frame (and some a copy of the scope) held for as long
    as the connection lives: about 5 KB a connection of the server's memory at people's
    pace (docs/server.md). Every other request goes on as before."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            path: str = scope["path"]
            root: str = scope.get("root_path", "")
            if root and path.startswith(root):
                path = path[len(root) :]
            code = path[4:] if path.startswith("/ws/") else ""
            if code and "/" not in code:
                scope["path_params"] = {"code": code}
                await ws_table(WebSocket(scope, receive, send))
                return
        await self.app(scope, receive, send)


async def _writer(conn: Conn, conns: list[Conn]) -> None:
    """Send what the connection's outbox holds; on an overrun, leave the table's
    connections (``conns``) and close."""
    try:
        while True:
            text = await conn.queue.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await conn.ws.close()
                return
            try:
                await conn.ws.send_text(text)
            except Exception:
                return
            del text  # not held while the writer waits for the next one (a state is a few KB)
    except asyncio.CancelledError:
        if not conn.queue.overrun:
            raise
    if conn in conns:  # no longer sent the table's messages (the reader ends when it closes)
        conns.remove(conn)
    await _close_too_slow(conn.ws)


async def _close_too_slow(ws: WebSocket) -> None:
    """Close a connection whose client read too slowly (its outbox overran): with
    :data:`TOO_SLOW` once the client has read what was already on its way, or, if it has
    not within :data:`CLOSE_SECONDS`, by dropping the connection (the closing frame waits
    behind what the client does not read)."""
    task = asyncio.current_task()
    if task is not None:
        task.uncancel()
    try:
        await asyncio.wait_for(ws.close(code=TOO_SLOW, reason="too-slow"), CLOSE_SECONDS)
        return
    except Exception:
        pass
    # uvicorn's protocol sends with a bound method of its own and holds the socket's transport
    transport = getattr(getattr(ws._send, "__self__", None), "transport", None)
    if transport is not None and hasattr(transport, "abort"):
        transport.abort()


def encode(msg: dict[str, Any]) -> str:
    """A message as compact JSON text (orjson: a state message is built for every seat after
    every move, and the standard library's encoder was a third of the server's time)."""
    return orjson.dumps(msg).decode("utf-8")


async def _receive(ws: WebSocket) -> str | None:
    event = await ws.receive()
    if event["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(event.get("code", 1000))
    text: str | None = event.get("text")
    return text


async def ws_table(ws: WebSocket) -> None:
    server = _server(ws)
    await ws.accept()

    ref: int | str | None = None

    async def refuse(exc: TableError) -> None:
        with contextlib.suppress(Exception):
            await ws.send_text(encode({"type": "error", **exc.to_json(), "ref": ref}))
            await ws.close(code=4000 + min(exc.status, 999) % 1000)

    try:
        raw = await asyncio.wait_for(_receive(ws), HELLO_SECONDS)
        hello = read(raw)
        ref = message_id(hello)
        check(hello)
        if hello["type"] != "hello":
            raise TableError("hello-first", "the first message must be 'hello'")
        if not whole(hello.get("protocol")) or hello["protocol"] != PROTOCOL:
            raise TableError("protocol", f"this server speaks protocol {PROTOCOL}")
        table = await server.get_table(ws.path_params["code"])
        if hello.get("watch") is True:
            seat: int | None = None
            name = "spectator"
        else:
            seat = table.seat_of(hello.get("token"))
            if seat is None:
                raise TableError("bad-token", "that token holds no seat at this table")
            name = table.seats[seat].name or f"seat {seat + 1}"
    except TableError as exc:
        await refuse(exc)
        return
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await ws.close()
        return
    chat = await server.db(server.store.recent_chat, table.id)
    conn = Conn(ws, seat, name, Outbox(server.outbox_messages, server.outbox_bytes))
    writer = conn.queue.writer = asyncio.create_task(_writer(conn, server.conns.setdefault(table.code, [])))
    # welcome first: no await between it and joining the table's connections
    conn.queue.put_nowait(
        {
            "type": "welcome",
            "protocol": PROTOCOL,
            "seat": seat,
            "table": table.summary(),
            "chat": chat,
            "log": list(table.log),
        }
    )
    del chat, hello, raw  # this frame lives as long as the connection: hold only what it needs
    server.conns.setdefault(table.code, []).append(conn)
    server.presence(table)
    await server.show(table)
    try:
        while True:
            raw = await _receive(ws)
            if conn.queue.overrun:  # being closed: what it sends now is not read
                break
            wait = conn.throttle()  # every frame counts, readable or not
            ref = None
            try:
                try:
                    msg = read(raw)
                    ref = message_id(msg)
                finally:
                    if wait > 0:  # a flood: this message is held back, not refused (not an error)
                        await _hold(conn, wait, ref)
                check(msg)
                await _dispatch(server, table, conn, msg)
            except TableError as exc:
                conn.queue.put_nowait({"type": "error", **exc.to_json(), "ref": ref})
            table = server.tables.get(table.code, table)
    except WebSocketDisconnect:
        pass
    finally:
        conns = server.conns.get(table.code, [])
        if conn in conns:
            conns.remove(conn)
        conn.queue.put_nowait(None)
        server.presence(table)
        if not conns and table.over:  # a finished table nobody looks at leaves memory
            server.tables.pop(table.code, None)
            server.conns.pop(table.code, None)
        with contextlib.suppress(Exception):
            await server.show(table)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, CLOSE_SECONDS + 1.0 if conn.queue.overrun else 1.0)
        conn.queue.writer = None


async def _hold(conn: Conn, wait: float, ref: int | str | None) -> None:
    """Hold a flooding client's message back ``wait`` seconds; the first of a flood is
    announced by a ``slow-down`` notice (docs/protocol.md)."""
    if not conn.held:
        conn.queue.put_nowait(
            {
                "type": "slow-down",
                "ref": ref,
                "wait": max(0.001, round(wait, 3)),  # the schema says more than 0
                "message": f"more than {RATE:g} messages a second: yours wait their turn",
            }
        )
    await asyncio.sleep(wait)
    conn.waited()


async def _dispatch(server: Server, table: AnyTable, conn: Conn, msg: dict[str, Any]) -> None:
    kind = msg["type"]
    if kind == "act":  # fields checked by messages.check: a whole 'code', or 'action' text
        action = msg["code"] if "code" in msg else msg["action"]
        await server.act(table, conn.seat, msg["move_no"], action)
    elif kind == "chat":
        text = msg.get("text")
        if not isinstance(text, str) or not 1 <= len(text.strip()) <= CHAT_LENGTH:
            raise TableError("chat-rejected", f"a chat line has 1 to {CHAT_LENGTH} characters")
        now = time.monotonic()
        if now - conn.chat_at < 1.0 / CHAT_RATE:
            raise TableError("chat-rejected", "one chat line a second at most")
        conn.chat_at = now
        clean = "".join(ch if ch.isprintable() else " " for ch in text.strip())
        at = time.time()
        await server.committer.chat(ChatLine(table.id, conn.seat, conn.name, clean, at))
        await server.send_all(table, {"type": "chat", "seat": conn.seat, "name": conn.name, "text": clean, "at": at})
    elif kind == "again":
        if conn.seat is None:
            raise TableError("spectator", "a spectator cannot start a new game")
        if not table.over:
            raise TableError("bad-field", "play again starts when the game is over")
        await server.again(table)
    elif kind == "ping":
        conn.queue.put_nowait({"type": "pong", "ref": message_id(msg)})
    elif kind == "hint":  # answered in a task of its own: the connection reads on meanwhile
        server.coaching.ask(server, table, conn.seat, msg, conn.queue)
    else:  # hello (messages.check knows no other type)
        raise TableError("bad-field", "already said hello")


def trusted_proxies(text: str | None) -> list[str]:
    """``--forwarded-allow-ips``: proxy addresses and networks, comma separated, or ``*``
    (any peer: only when nothing but the proxy can reach the server). A bad entry is a
    :class:`ValueError` naming it (uvicorn would take it silently for a name that never
    matches)."""
    import ipaddress

    if text is None or not text.strip():
        return []
    out = []
    for item in (part.strip() for part in text.split(",")):
        if item == "*":
            return ["*"]
        try:
            ipaddress.ip_network(item, strict=False) if "/" in item else ipaddress.ip_address(item)
        except ValueError:
            raise ValueError(f"{item[:60]!r} is not an IP address or network (e.g. 127.0.0.1 or 10.0.0.0/8)") from None
        out.append(item)
    return out


def create_app(database_url: str, *, forwarded_allow_ips: list[str] | None = None, **options: Any) -> Starlette:
    """The server's ASGI app (``rallye serve`` runs it with uvicorn; tests too); ``options``
    are :class:`Server`'s (``bot_delay``, ``owner_url``, ``bot_threads``, ``lease``, ``owner``,
    ``request_rate``, ``coach_bot``, ``hint_rate``, ``hint_burst``, ``analysis_workers``,
    ``analysis_bot``, ``analysis_seed``, ``analysis_queue``, ``outbox_messages``,
    ``outbox_bytes``). ``forwarded_allow_ips``: the peers
    whose ``X-Forwarded-For`` names the client (a reverse proxy's address); from any other peer
    the header is ignored, so nobody escapes the limits keyed on their address by writing it."""
    server = Server(database_url, **options)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    routes: list[Any] = [
        Route("/", _page("index.html")),
        Route("/t/{code}", _page("table.html")),
        Route("/r/{code}", _page("replay.html")),
        Route("/replay", _page("replay.html")),
        Route("/api/info", api_info),
        Route("/healthz", healthz),
        Route("/metrics", metrics),
        Route("/api/knightrider/pieces", api_pieces),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/api/tables/{code}", api_table),
        Route("/api/tables/{code}/join", api_join, methods=["POST"]),
        Route("/api/tables/{code}/record", api_record),
        Route("/api/tables/{code}/replay", api_replay),
        Route("/api/tables/{code}/replay/frames", _frames(_table_replay)),
        Route("/api/tables/{code}/analysis", api_analysis),
        Route("/api/replays", api_replay_upload, methods=["POST"]),
        Route("/api/replays/{id}", api_file_replay),
        Route("/api/replays/{id}/frames", _frames(_file_replay)),
        Route("/api/replays/{id}/analysis", api_file_analysis),
        Route("/api/my-games", api_my_games, methods=["POST"]),
    ]
    static = resources.files("rallye") / "web" / "static"
    if static.is_dir():
        routes.append(Mount("/static", app=StaticFiles(directory=str(static)), name="static"))
    catalogs = resources.files("rallye") / "i18n" / "catalogs"
    if catalogs.is_dir():  # the pages' words: /i18n/<domain>/<lang>.json
        routes.append(Mount("/i18n", app=StaticFiles(directory=str(catalogs)), name="i18n"))
    # pages, scripts, catalogs and JSON answers compressed for browsers that ask (the table
    # page's first load is then well under 150 KB); the websocket is left as it is
    middleware = [Middleware(TableSockets), Middleware(SecurityHeaders), Middleware(GZipMiddleware, minimum_size=800)]
    if forwarded_allow_ips:  # else the peer is the client (uvicorn's own handling is off)
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        middleware.append(Middleware(ProxyHeadersMiddleware, trusted_hosts=forwarded_allow_ips))
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
    app.state.server = server
    return app


__all__ = ["Server", "TableError", "create_app"]
