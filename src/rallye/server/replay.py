"""A finished game's replay for the browser (``/r/{code}``, docs/server.md "Replays").

A record is small (a Mille Bornes match: a few KB a hundred moves); the pictures of every
move are not (about 4 KB each, a match of 1,200 moves is 5 MB of JSON). So the page is sent
the record's moves and, on demand, the frames of one stretch of :data:`CHUNK` moves: each
frame is the whole state as a picture (every hand open: a finished game hides nothing),
built through the game's face (``GAME.replay(lines)``, then ``apply`` move by move) and
:meth:`~rallye.server.games.GameJson.full_json`.

:class:`Replays` keeps the replays last asked for (a table's, or a file's sent by a page or
by ``rallye replay FILE --web``), each built once however many people open it at once:
its ``built`` counter counts the replays computed.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rallye.core.errors import GameError, RecordError
from rallye.core.game import Game
from rallye.core.jsonio import MAX_RECORD_BYTES
from rallye.core.record import Line, iter_jsonl
from rallye.games import game_for
from rallye.server.games import JSON

#: frames in one answer of ``/frames`` (about 200 KB of JSON, 10 KB compressed)
CHUNK = 50
#: replays kept in memory
KEEP = 32
#: states a replay keeps (one every CHUNK moves, or more moves apart in a longer game)
CHECKPOINTS = 200
#: stretches of frames a replay keeps (the last asked for)
KEEP_CHUNKS = 8
#: the largest record file a page may send: as large as ``rallye replay`` reads (a Knight
#: Rider game of easy bots may run to a hundred thousand moves, over 10 MB)
MAX_UPLOAD = MAX_RECORD_BYTES


@dataclass
class Replay:
    """A verified record ready to be shown: its moves, and its frames by stretches."""

    game: Game[Any, Any, Any]
    header: dict[str, Any]
    actions: list[tuple[int, Any]]  # (seat, action), in order
    every: int  # a state is kept every this many moves (a multiple of CHUNK)
    checkpoints: list[Any]  # the state before move every * i
    final: Any
    stages: list[int]  # the frames where a hand (a turn) begins
    chunks: OrderedDict[int, dict[str, Any]] = field(default_factory=OrderedDict)
    lines: list[Any] = field(default_factory=list)  # the record itself (for its analysis)

    @classmethod
    def build(cls, lines: Sequence[Line] | Sequence[tuple[int, Line]], source: str) -> Replay:
        """The replay of record ``lines`` (a :class:`RecordError` naming the line if broken)."""
        first = lines[0] if lines else None
        head = first[1] if isinstance(first, tuple) else first
        if not isinstance(head, dict):
            raise RecordError(f"{source}: the record is empty", rule="record-format")
        try:
            game = game_for(head.get("game"))
        except GameError:
            raise RecordError(
                f"{source}: line 1: the header names no known game; expected 'mille' or 'knightrider'",
                rule="record-format",
            ) from None
        replayed = game.replay(lines, source)
        # at most CHECKPOINTS states kept, however long the game (a stretch is then rebuilt
        # from the one before it: a few hundred moves at most)
        every = CHUNK * max(1, -(-len(replayed.moves) // (CHUNK * CHECKPOINTS)))
        state = replayed.initial
        checkpoints = []
        stage = JSON[game.key].stage
        stages = [0]
        for i, (seat, action) in enumerate(replayed.moves):
            if i % every == 0:
                checkpoints.append(state)
            before = stage(state)
            state = game.apply(state, action, seat)
            if stage(state) != before:
                stages.append(i + 1)
        if len(replayed.moves) % every == 0:
            checkpoints.append(state)
        return cls(
            game, dict(head), list(replayed.moves), every, checkpoints, replayed.final, stages, lines=list(lines)
        )

    @property
    def over(self) -> bool:
        return self.game.is_over(self.final)

    def summary(self) -> dict[str, Any]:
        """What the page needs first: the game, its sides, how many frames and how they are
        fetched, where each hand (turn) begins, the result."""
        json = JSON[self.game.key]
        start = json.full_json(self.checkpoints[0])
        return {
            "game": self.game.key,
            "players": len(start["hands"]),
            "edition": start.get("edition"),
            "frames": len(self.actions) + 1,
            "chunk": CHUNK,
            "stages": self.stages,
            "over": self.over,
            "result": json.result_json(self.final) if self.over else None,
        }

    def frames(self, start: int) -> dict[str, Any]:
        """The frames ``start`` .. ``start + CHUNK - 1`` (frame ``n``: after ``n`` moves) and
        the move that led to each (``None`` before the first), ``start`` a multiple of
        :data:`CHUNK`; the last few asked for are kept."""
        if start % CHUNK or not 0 <= start <= len(self.actions):
            raise ValueError(f"'from' is a multiple of {CHUNK} from 0 to {len(self.actions)}")
        kept = self.chunks.get(start)
        if kept is not None:
            self.chunks.move_to_end(start)
            return kept
        json, game = JSON[self.game.key], self.game
        state = self.checkpoints[start // self.every]
        for seat, action in self.actions[start // self.every * self.every : start]:
            state = game.apply(state, action, seat)
        frames = [json.full_json(state)]
        for seat, action in self.actions[start : start + CHUNK - 1]:
            state = game.apply(state, action, seat)
            frames.append(json.full_json(state))
        moves = [None if n == 0 else self.move(n) for n in range(start, start + len(frames))]
        out = {"from": start, "frames": frames, "moves": moves}
        self.chunks[start] = out
        while len(self.chunks) > KEEP_CHUNKS:
            self.chunks.popitem(last=False)
        return out

    def move(self, n: int) -> dict[str, Any]:
        """Move ``n`` (1-based): who played what, in the game's notation."""
        seat, action = self.actions[n - 1]
        return {"n": n, "seat": seat, "action": self.game.format_action(action)}


def record_lines(text: str, source: str) -> list[tuple[int, Line]]:
    """A record file's text as numbered lines (a :class:`RecordError` if it is not one)."""
    return list(iter_jsonl(text, source=source))


def file_key(text: str) -> str:
    """A record file's name in :class:`Replays`: a hash of its text."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:24]


class Replays:
    """The replays last asked for, by key (``t:CODE`` or ``f:HASH``), each built once: the
    first request builds it off the event loop, the others wait for the same result."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self.kept: OrderedDict[str, asyncio.Future[Replay]] = OrderedDict()
        self.pinned: dict[str, Replay] = {}  # a file served by rallye replay --web
        self.built = 0

    def pin(self, key: str, replay: Replay) -> None:
        self.pinned[key] = replay

    def known(self, key: str) -> bool:
        return key in self.pinned or key in self.kept

    async def get(self, key: str, build: Callable[[], Awaitable[Replay]] | None) -> Replay | None:
        """The replay kept under ``key``, else built by ``build`` (``None``: not kept, and
        nothing to build it from). A failed build is not kept."""
        if key in self.pinned:
            return self.pinned[key]
        fut = self.kept.get(key)
        if fut is None:
            if build is None:
                return None
            fut = asyncio.get_running_loop().create_future()
            self.kept[key] = fut
            while len(self.kept) > self.keep:
                self.kept.popitem(last=False)
            try:
                replay = await build()
            except BaseException as exc:
                self.kept.pop(key, None)
                fut.set_exception(exc)
                fut.exception()  # retrieved: nobody else may be waiting
                raise
            self.built += 1
            fut.set_result(replay)
            return replay
        self.kept.move_to_end(key)
        return await asyncio.shield(fut)


def local_app(path: str, database_url: str, **options: Any) -> tuple[Any, str]:
    """``rallye replay FILE --web``: the server's app holding the file's replay (checked
    first: a :class:`RecordError` if it does not replay), and the page's path; ``options``
    are the server's (``analysis_bot``: the bot that analyses the file)."""
    from rallye.core.record import read_text
    from rallye.server.app import create_app

    text = read_text(path)
    replay = Replay.build(record_lines(text, str(path)), str(path))
    key = file_key(text)
    app = create_app(database_url, bot_delay=0, owner="replay-web", request_rate=0, **options)
    app.state.server.replays.pin(f"f:{key}", replay)
    return app, f"/replay?file={key}"


def serve_file(args: Any) -> int:
    """Serve the replay of ``args.file`` on 127.0.0.1, on a free port, until Ctrl-C."""
    import socket
    import sys
    import tempfile

    import uvicorn

    with tempfile.TemporaryDirectory(prefix="rallye-replay-") as tmp:
        try:
            app, page = local_app(args.file, f"sqlite:///{tmp}/replay.db")
        except GameError as exc:
            print(f"rallye replay: {exc}", file=sys.stderr)
            return 2
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        print(f"rallye: the replay of {args.file} is at http://127.0.0.1:{port}{page}", flush=True)
        print("rallye: Ctrl-C stops it", flush=True)
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
        uvicorn.Server(config).run()
    return 0


__all__ = ["CHUNK", "MAX_UPLOAD", "Replay", "Replays", "file_key", "local_app", "record_lines", "serve_file"]
