"""The coach at the table (issue #61): a seated player's hint for their own decision.

A ``hint`` message (docs/protocol.md) is checked by the table (:meth:`Table.hint_position
<rallye.server.table.Table.hint_position>`: who, the table's permission, the table, whose
turn, the move number), then limited per seat, then answered by the process's
:class:`~rallye.analysis.coach.Coach` of that game, off the event loop in the bots' pool,
from the seat's view and legal actions only. An answer that comes after the table moved on is
dropped (the new ``state`` makes it moot). The answer goes to the connection that asked,
nobody else.

One :class:`Coach` a game for the whole process, built when first asked and reused: it holds
the analysis bot (its search, its tables), and it answers one hint at a time. A second hint
of the same game waits for the first on the event loop, not in a pool thread, so the bots'
threads stay free for the bots; a hint whose table moved on while it waited is not searched.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rallye.core.game import Game
from rallye.server.table import AnyTable, TableError

if TYPE_CHECKING:  # pragma: no cover - for the types only
    from rallye.analysis.coach import Coach
    from rallye.server.app import Buckets, Server

log = logging.getLogger("rallye.server")

#: hint requests a minute from one seat, and the burst allowed (``rallye serve --hint-rate``)
HINT_RATE = 20.0
HINT_BURST = 5.0
#: the analysis bot behind the hints (``rallye serve --coach-bot``)
COACH_BOT = "expert"


class Coaches:
    """The process's coaches, one a game, each used by one thread at a time."""

    def __init__(self, spec: str = COACH_BOT) -> None:
        self.spec = spec
        self.coaches: dict[str, Coach] = {}
        self.locks: dict[str, threading.Lock] = {}
        self.guard = threading.Lock()
        self.built = 0  # coaches built (a test counts one a game)

    def hint(
        self, game: Game[Any, Any, Any], view: Any, legal: Sequence[Any], history: Sequence[Any] = ()
    ) -> dict[str, Any]:
        """The hint for this view (and the seat's earlier ones, ``history``) as the protocol
        sends it: the coach's JSON and the preferred action's ``code``. Blocking (a search of
        up to a second): run it in a pool."""
        with self.guard:
            lock = self.locks.setdefault(game.key, threading.Lock())
        with lock:
            coach = self.coaches.get(game.key)
            if coach is None:
                from rallye.analysis.coach import Coach

                coach = self.coaches[game.key] = Coach(game.key, self.spec)
                self.built += 1
            hint = coach.hint(view, legal, history)
        return {"code": game.encode_action(hint.best), "hint": hint.to_json()}


class Coaching:
    """The server's side of hints: the limit per seat, the answers in the making (two asks of
    one seat at one move share one search), the last answer of each seat (asked again, it is
    sent again, not searched again)."""

    def __init__(self, spec: str, buckets: Buckets | None) -> None:
        self.coaches = Coaches(spec)
        self.buckets = buckets  # hint requests by "code:seat" (None: no limit)
        # (table code, seat) -> (move number, the answer being made or made; None: moot)
        self.answers: dict[tuple[str, int], tuple[int, asyncio.Future[dict[str, Any] | None]]] = {}
        # one search of a game at a time, waited for here rather than in a pool thread (the
        # bots' threads stay free for the bots)
        self.searching: dict[str, asyncio.Lock] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def forget(self) -> None:
        """Forget the answers made (the next ask searches again)."""
        self.answers.clear()

    async def answer(self, server: Server, table: AnyTable, seat: int | None, move_no: object) -> dict[str, Any] | None:
        """The ``hint`` message for ``seat`` at ``move_no``, ``None`` when the table moved on
        meanwhile (dropped), or a :class:`TableError` refusing it."""
        async with server.lock(table.code):
            n, view, legal, history = table.hint_position(seat, move_no)
        assert seat is not None  # hint_position refuses a spectator
        if self.buckets is not None and not self.buckets.take(f"{table.code}:{seat}"):
            raise TableError("rate-limited", "too many hints asked: wait a little", status=429)
        key = (table.code, seat)
        kept = self.answers.get(key)
        if kept is None or kept[0] != n or _failed(kept[1]):
            if len(self.answers) >= 10_000:
                self.answers.clear()  # a bounded memory
            kept = self.answers[key] = (n, asyncio.ensure_future(self._search(server, table, n, view, legal, history)))
        try:
            made = await asyncio.shield(kept[1])
        except Exception:
            log.exception("table %s: the coach failed for seat %d", table.code, seat + 1)
            raise TableError("unavailable", "the coach could not answer; ask again", status=503) from None
        if made is None or table.move_no != n or server.tables.get(table.code) is not table:
            return None  # the table moved on: this hint answers a decision that is gone
        return {"type": "hint", "move_no": n, **made}

    async def _search(
        self, server: Server, table: AnyTable, n: int, view: Any, legal: Sequence[Any], history: Sequence[Any]
    ) -> dict[str, Any] | None:
        """The coach's answer, searched in the bots' pool when this game's coach is free
        (``None``, unsearched, when the table moved on meanwhile)."""
        async with self.searching.setdefault(table.game.key, asyncio.Lock()):
            if table.move_no != n:
                return None
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(server.bot_pool, self.coaches.hint, table.game, view, legal, history)

    def ask(self, server: Server, table: AnyTable, seat: int | None, msg: dict[str, Any], queue: Any) -> None:
        """Answer a ``hint`` message in a task of its own: the connection reads on meanwhile
        (its move may come before the hint, which is then dropped)."""
        from rallye.server.messages import message_id

        ref = message_id(msg)

        async def run() -> None:
            try:
                out = await self.answer(server, table, seat, msg.get("move_no"))
            except TableError as exc:
                queue.put_nowait({"type": "error", **exc.to_json(), "ref": ref})
                return
            if out is not None:
                queue.put_nowait({**out, "ref": ref})

        task = asyncio.create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()


def _failed(future: asyncio.Future[Any]) -> bool:
    return future.done() and (future.cancelled() or future.exception() is not None)


__all__ = ["COACH_BOT", "HINT_BURST", "HINT_RATE", "Coaches", "Coaching"]
