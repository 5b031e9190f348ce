"""Group commit (docs/server.md, "Load"): the moves of many tables that arrive together are
committed in one transaction, each still checked on its own, and nobody is told of a move
before its transaction has committed; a move whose commit fails is taken back and refused."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from sqlalchemy import update

from rallye.server.app import Server, _through_cancel
from rallye.server.store import ChatLine, Move, Store, tables
from rallye.server.table import Table, TableError

TWO_PEOPLE = {"game": "mille", "players": 2, "seats": [{"kind": "person"}, {"kind": "person"}]}


def _playing(table: Table) -> Table:
    for s in table.seats:
        s.token_hash = f"token-{s.seat}"
    table.status = "playing"
    return table


def _before_commits(server: Server, hook: Callable[[Sequence[Move], Sequence[ChatLine]], None]) -> None:
    """Run ``hook(moves, chat_lines)`` before each of the server's group commits (it may
    raise: the commit then fails as the database's error would)."""
    append_many = server.store.append_many

    def watched(moves: Sequence[Move], chats: Sequence[ChatLine] = ()) -> list[bool]:
        hook(moves, chats)
        return append_many(moves, chats)

    server.store.append_many = watched  # type: ignore[method-assign]


def _fail_once(error: Exception) -> Callable[[Sequence[Move], Sequence[ChatLine]], None]:
    failures = [error]

    def hook(moves: Sequence[Move], chats: Sequence[ChatLine]) -> None:
        if failures:
            raise failures.pop()

    return hook


def _first_legal(table: Table) -> str:
    return str(table.game.legal_actions(table.match.state)[0])


def test_a_batch_commits_each_move_that_still_fits_and_nothing_of_one_that_does_not(database_url: str) -> None:
    store = Store(database_url)
    store.upgrade()
    made = [Table.create(store, TWO_PEOPLE, owner="me")[0] for _ in range(3)]
    line = {"type": "action", "hand": 0, "player": 0, "action": "discard D25"}
    moves = [
        Move(made[0].id, 0, 2, [line], "playing", None, "me"),
        Move(made[1].id, 5, 2, [line], "playing", None, "me"),  # a stale move number
        Move(made[2].id, 0, 2, [line, line], "playing", None, "someone else"),  # not the owner
    ]
    assert store.append_many(moves) == [True, False, False]
    first, second, third = (store.load(t.code) for t in made)
    assert first is not None and first.move_no == 1 and first.lines[2:] == [line]
    assert second is not None and second.move_no == 0 and len(second.lines) == 2
    assert third is not None and third.move_no == 0 and len(third.lines) == 2
    store.close()


def test_moves_at_many_tables_at_once_share_commits_and_each_is_saved(sqlite_url: str) -> None:
    async def scenario() -> None:
        server = Server(sqlite_url, bot_delay=0, owner="me")
        await server.start()
        batches: list[int] = []
        _before_commits(server, lambda moves, chats: batches.append(len(moves)))
        try:
            made = [_playing((await server.create(TWO_PEOPLE))[0]) for _ in range(12)]
            for _ in range(5):
                await asyncio.gather(*(server.act(t, t.current(), t.move_no, _first_legal(t)) for t in made))
            assert sum(batches) == 60 and len(batches) < 60  # moves waited together for a commit
            for t in made:
                stored = server.store.load(t.code)
                assert stored is not None and stored.move_no == t.move_no == 5
                assert stored.lines == t.match.lines
        finally:
            await server.stop()

    asyncio.run(scenario())


def test_chat_lines_ride_in_the_moves_transactions_and_each_is_saved_before_it_is_sent(sqlite_url: str) -> None:
    async def scenario() -> None:
        server = Server(sqlite_url, bot_delay=0, owner="me")
        await server.start()
        commits: list[tuple[int, int]] = []
        writing, first_held = threading.Event(), threading.Event()

        def counting(moves: Sequence[Move], chats: Sequence[ChatLine]) -> None:
            if not commits:
                writing.set()
                first_held.wait(30)  # the first transaction is slow: what arrives meanwhile waits
            commits.append((len(moves), len(chats)))

        _before_commits(server, counting)
        try:
            made = [_playing((await server.create(TWO_PEOPLE))[0]) for _ in range(6)]
            first = asyncio.ensure_future(server.committer.chat(ChatLine(made[0].id, 0, "ann", "first", 1.0)))
            assert await asyncio.to_thread(writing.wait, 30)  # the committer is writing the first line
            together = asyncio.gather(
                *(server.act(t, t.current(), t.move_no, _first_legal(t)) for t in made),
                *(server.committer.chat(ChatLine(t.id, 1, "bob", "gg", 2.0)) for t in made),
            )
            for _ in range(3000):  # every move has reached the committer (bounded: 30 s)
                if len(server.committer.waiting) == 6:
                    break
                await asyncio.sleep(0.01)
            assert not first.done()  # not sent before it is saved
            first_held.set()
            await first
            await together
            assert commits == [(0, 1), (6, 6)]  # six moves and six lines in one transaction
            for t in made:
                said = [line["text"] for line in server.store.recent_chat(t.id)]
                assert said == (["first", "gg"] if t is made[0] else ["gg"])
        finally:
            first_held.set()
            await server.stop()

    asyncio.run(scenario())


def test_a_chat_line_whose_commit_fails_is_refused_and_nothing_is_half_written(sqlite_url: str) -> None:
    async def scenario() -> None:
        server = Server(sqlite_url, bot_delay=0, owner="me")
        await server.start()
        _before_commits(server, _fail_once(RuntimeError("disk I/O error")))
        try:
            table = (await server.create(TWO_PEOPLE))[0]
            with pytest.raises(TableError) as refused:
                await server.committer.chat(ChatLine(table.id, 0, "ann", "hello", 1.0))
            assert refused.value.code == "unavailable"
            assert server.store.recent_chat(table.id) == []
            await server.committer.chat(ChatLine(table.id, 0, "ann", "hello", 1.0))
            assert [line["text"] for line in server.store.recent_chat(table.id)] == ["hello"]
        finally:
            await server.stop()
        with pytest.raises(TableError) as stopped:
            await server.committer.chat(ChatLine(table.id, 0, "ann", "late", 1.0))
        assert stopped.value.code == "stopping"

    asyncio.run(scenario())


def test_a_move_whose_commit_fails_is_taken_back_and_can_be_sent_again(sqlite_url: str) -> None:
    async def scenario() -> None:
        server = Server(sqlite_url, bot_delay=0, owner="me")
        await server.start()
        _before_commits(server, _fail_once(RuntimeError("disk I/O error")))
        try:
            table = _playing((await server.create(TWO_PEOPLE))[0])
            before = (table.match.state, list(table.match.lines), list(table.log))
            turn, action = table.current(), _first_legal(table)
            with pytest.raises(TableError) as refused:
                await server.act(table, turn, 0, action)
            assert refused.value.code == "unavailable"
            assert (table.match.state, table.match.lines, table.log) == before and table.move_no == 0
            await server.act(table, turn, 0, action)  # the same move again: saved this time
            stored = server.store.load(table.code)
            assert stored is not None and stored.move_no == table.move_no == 1
            assert stored.lines == table.match.lines
        finally:
            await server.stop()

    asyncio.run(scenario())


def test_a_move_from_a_process_that_lost_the_table_is_refused_in_a_batch_with_others(sqlite_url: str) -> None:
    async def scenario() -> None:
        server = Server(sqlite_url, bot_delay=0, owner="me")
        await server.start()
        try:
            kept = _playing((await server.create(TWO_PEOPLE))[0])
            lost = _playing((await server.create(TWO_PEOPLE))[0])
            with server.store.engine.begin() as conn:  # another process took one table over
                conn.execute(update(tables).where(tables.c.id == lost.id).values(owner="other"))
            results: list[Any] = await asyncio.gather(
                *(server.act(t, t.current(), 0, _first_legal(t)) for t in (kept, lost)), return_exceptions=True
            )
            assert results[0] is None and kept.move_no == 1
            assert isinstance(results[1], TableError) and results[1].code == "elsewhere"
            assert lost.move_no == 0 and len(lost.match.lines) == 2 and lost.code not in server.tables
        finally:
            await server.stop()

    asyncio.run(scenario())


def test_a_waiter_cancelled_during_its_commit_waits_for_the_commit_to_end() -> None:
    """A bot's move cancelled while its transaction is written still holds the table's lock
    until the move is settled; the cancellation comes after."""

    async def scenario() -> None:
        commit: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        waiter = asyncio.create_task(_through_cancel(commit))
        await asyncio.sleep(0)
        waiter.cancel()
        await asyncio.sleep(0.01)
        assert not waiter.done()  # still waiting for the commit
        commit.set_result("committed")
        with pytest.raises(asyncio.CancelledError):
            await waiter

    asyncio.run(scenario())


def test_a_server_stopping_writes_the_moves_it_has_accepted(sqlite_url: str) -> None:
    async def scenario() -> None:
        server = Server(sqlite_url, bot_delay=0, owner="me")
        await server.start()
        table = _playing((await server.create(TWO_PEOPLE))[0])
        move = asyncio.create_task(server.act(table, table.current(), 0, _first_legal(table)))
        await asyncio.sleep(0)  # the move is prepared and waits for its commit
        await server.stop()
        await move
        store = Store(sqlite_url)
        stored = store.load(table.code)
        assert stored is not None and stored.move_no == 1 == table.move_no
        store.close()

    asyncio.run(scenario())
