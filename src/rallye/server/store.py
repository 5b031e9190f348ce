"""Every table in a database: SQLAlchemy 2 (SQLite or PostgreSQL), Alembic migrations.

A table is its game record: one row per record line, written in the same transaction
that moves the table's move counter on. That update names the move number it expects and
the process that owns the table, so an accepted move is committed exactly once, and two
server processes on one database can never both accept a move for the same table (the
second finds the counter moved or the table owned by another and is refused).

Seat tokens are stored as SHA-256 hashes; the token itself exists only in the client.
The calls here are blocking; the server runs them off its event loop.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from sqlalchemy import (
    JSON,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine

from rallye.core.errors import ConfigError

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(16), nullable=False, unique=True),
    Column("game", String(20), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("status", String(10), nullable=False, index=True),  # waiting, playing, over
    Column("move_no", Integer, nullable=False, default=0),
    Column("turn_timer", Integer, nullable=True),
    Column("timer_bot", String(20), nullable=True),
    Column("result", JSON, nullable=True),
    Column("next_code", String(16), nullable=True),
    Column("owner", String(64), nullable=True),
    Column("owner_url", String(200), nullable=True),
    Column("lease_until", Float, nullable=True),
    # another process that the table's players reach asks for it (behind a proxy that routes
    # by table code); the owner hands it over between two moves
    Column("wanted_by", String(64), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(10), nullable=False),  # person, bot
    Column("level", String(20), nullable=True),
    Column("name", String(40), nullable=True),
    Column("token_hash", String(64), nullable=True, index=True),
)

record_lines = Table(
    "record_lines",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("line_no", Integer, primary_key=True),
    Column("text", Text, nullable=False),
)

chat = Table(
    "chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("tables.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("seat", Integer, nullable=True),
    Column("name", String(40), nullable=False),
    Column("text", String(400), nullable=False),
    Column("at", Float, nullable=False),
)

# One row a serving process, written at every lease renewal: who is connected to which of
# its tables ({code: {"seats": [...], "spectators": n}}); ``rallye admin tables`` reads it.
processes = Table(
    "processes",
    metadata,
    Column("owner", String(64), primary_key=True),
    Column("url", String(200), nullable=True),
    Column("started_at", Float, nullable=False),
    Column("heartbeat", Float, nullable=False),
    Column("connections", JSON, nullable=False),
)

# A finished game's analysis (docs/analysis.md, "On the server"): the JSON as served, keyed by
# what it is of ("t:CODE", a table's; "f:HASH", a record file's), the analysis bot's spec, the
# seed and the analyser's version, so that another bot or a new rallye never serves an old one.
analyses = Table(
    "analyses",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("subject", String(40), nullable=False),
    Column("table_id", Integer, ForeignKey("tables.id", ondelete="CASCADE"), nullable=True, index=True),
    Column("bot", String(40), nullable=False),
    Column("seed", Integer, nullable=False),
    Column("analyser", String(60), nullable=False),
    Column("body", Text, nullable=False),
    Column("cpu_seconds", Float, nullable=False),
    Column("made_at", Float, nullable=False),
    UniqueConstraint("subject", "bot", "seed", "analyser", name="uq_analyses_key"),
)

# An analysis being made: the process that claimed it (one process makes it, however many
# are asked for it), its status (queued, running; failed: its error is told until the lease
# ends), its progress, and a lease the process renews while it runs: a dead process's claim
# runs out and another process takes it over. The row goes when the analysis is stored.
analysis_claims = Table(
    "analysis_claims",
    metadata,
    Column("subject", String(40), primary_key=True),
    Column("bot", String(40), primary_key=True),
    Column("seed", Integer, primary_key=True, autoincrement=False),
    Column("analyser", String(60), primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("status", String(10), nullable=False),
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("error", String(400), nullable=True),
    Column("lease_until", Float, nullable=False),
    Column("claimed_at", Float, nullable=False),
)


# The statements of a move, built once (building them costs more than running them).
_INSERT_LINES = insert(record_lines)
_MOVE_ON = (
    update(tables)
    .where(
        tables.c.id == bindparam("tid"),
        tables.c.move_no == bindparam("expected"),
        tables.c.owner == bindparam("me"),
    )
    .values(
        move_no=bindparam("next_move"),
        status=bindparam("new_status"),
        result=bindparam("new_result"),
        updated_at=bindparam("now"),
    )
)


def _claim_is(key: AnalysisKey) -> tuple[Any, ...]:
    """The ``WHERE`` of one analysis's claim."""
    c = analysis_claims.c
    return (c.subject == key.subject, c.bot == key.bot, c.seed == key.seed, c.analyser == key.analyser)


def _line_rows(table_id: int, first: int, lines: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"table_id": table_id, "line_no": first + i, "text": json.dumps(line, ensure_ascii=False)}
        for i, line in enumerate(lines)
    ]


@dataclass
class Move:
    """One accepted move to commit: the table's counter from ``move_no`` to the next, its
    record lines from ``first_line`` on, the status (and result) it leaves, and the process
    that must still own the table."""

    table_id: int
    move_no: int
    first_line: int
    lines: list[dict[str, Any]]
    status: str
    result: dict[str, Any] | None
    owner: str


class ChatLine(NamedTuple):
    """One chat line to commit (the ``chat`` table's columns)."""

    table_id: int
    seat: int | None
    name: str
    text: str
    at: float


class AnalysisKey(NamedTuple):
    """What an analysis is of and what made it (the key of ``analyses`` and ``analysis_claims``)."""

    subject: str
    bot: str
    seed: int
    analyser: str


@dataclass
class AnalysisClaim:
    """Another process's claim on an analysis, as the database holds it."""

    owner: str
    status: str  # queued, running, failed
    done: int
    total: int
    error: str | None
    lease_until: float

    @classmethod
    def of(cls, row: Any) -> AnalysisClaim:
        return cls(row.owner, row.status, row.done, row.total, row.error, row.lease_until)


class Conflict(Exception):
    """The table moved on elsewhere (another process owns it, or accepted this move)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def normalise_url(url: str) -> str:
    """A database URL SQLAlchemy can open; ``postgresql://`` uses psycopg (version 3)."""
    if not isinstance(url, str) or "://" not in url:
        raise ConfigError(
            f"--database must be a URL such as sqlite:///path/to/file.db or postgresql://user@host/db, not {url!r}",
            rule="database",
        )
    scheme, rest = url.split("://", 1)
    if scheme in ("postgres", "postgresql"):
        return f"postgresql+psycopg://{rest}"
    if scheme.split("+")[0] not in ("sqlite", "postgresql"):
        raise ConfigError(f"unsupported database {scheme!r}: use sqlite or postgresql", rule="database")
    return url


@dataclass
class StoredSeat:
    seat: int
    kind: str
    level: str | None
    name: str | None
    token_hash: str | None


@dataclass
class StoredTable:
    id: int
    code: str
    game: str
    settings: dict[str, Any]
    status: str
    move_no: int
    turn_timer: int | None
    timer_bot: str | None
    result: dict[str, Any] | None
    next_code: str | None
    owner: str | None
    owner_url: str | None
    lease_until: float | None
    seats: list[StoredSeat]
    lines: list[dict[str, Any]]


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")  # readers never wait for the writer
    cur.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a killed process loses no commit
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


class Store:
    """The server's database."""

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        if self.url.startswith("sqlite:///") and self.url != "sqlite:///:memory:":
            Path(self.url[len("sqlite:///") :]).parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = create_engine(self.url, pool_pre_ping=True, future=True)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)

    def upgrade(self) -> None:
        """Bring the schema to the newest version (Alembic ``upgrade head``)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", "rallye.server:migrations")
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> None:
        """Reach the database (``/healthz``); raises when it cannot."""
        with self.engine.connect() as conn:
            conn.execute(select(1)).scalar_one()

    # -- writing -----------------------------------------------------------------------
    def create(
        self,
        *,
        code: str,
        game: str,
        settings: dict[str, Any],
        status: str,
        turn_timer: int | None,
        timer_bot: str | None,
        seat_rows: Sequence[StoredSeat],
        lines: Sequence[dict[str, Any]],
        owner: str,
        owner_url: str | None,
        lease_until: float,
    ) -> int:
        now = time.time()
        with self.engine.begin() as conn:
            table_id = conn.execute(
                insert(tables).values(
                    code=code,
                    game=game,
                    settings=settings,
                    status=status,
                    move_no=0,
                    turn_timer=turn_timer,
                    timer_bot=timer_bot,
                    owner=owner,
                    owner_url=owner_url,
                    lease_until=lease_until,
                    created_at=now,
                    updated_at=now,
                )
            ).inserted_primary_key
            assert table_id is not None  # an insert returns its key
            table_id = table_id[0]
            conn.execute(
                insert(seats),
                [
                    {
                        "table_id": table_id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "level": s.level,
                        "name": s.name,
                        "token_hash": s.token_hash,
                    }
                    for s in seat_rows
                ],
            )
            self._insert_lines(conn, table_id, 0, lines)
        return int(table_id)

    @staticmethod
    def _insert_lines(conn: Connection, table_id: int, first: int, lines: Sequence[dict[str, Any]]) -> None:
        if lines:
            conn.execute(_INSERT_LINES, _line_rows(table_id, first, lines))

    def append(
        self,
        table_id: int,
        *,
        move_no: int,
        first_line: int,
        lines: Sequence[dict[str, Any]],
        status: str,
        result: dict[str, Any] | None,
        owner: str,
    ) -> None:
        """Commit one accepted move: its record lines and the counter, or :class:`Conflict`."""
        move = Move(table_id, move_no, first_line, list(lines), status, result, owner)
        if not self.append_many([move])[0]:
            raise Conflict(f"table {table_id} moved on or is owned by another process")

    def append_many(self, moves: Sequence[Move], chats: Sequence[ChatLine] = ()) -> list[bool]:
        """Commit accepted moves of different tables in one transaction (a group commit):
        each moves its table's counter on only if the counter and the owner are still what
        it expects, and writes its lines only then. Returns, for each, whether it committed
        (``False``: its table moved on or belongs to another process; nothing of it written).
        The chat lines are written in the same transaction. An error of the database
        commits none of them."""
        ok: list[bool] = []
        rows: list[dict[str, Any]] = []
        now = time.time()
        with self.engine.begin() as conn:
            for m in moves:
                done = (
                    conn.execute(
                        _MOVE_ON,
                        {
                            "tid": m.table_id,
                            "expected": m.move_no,
                            "me": m.owner,
                            "next_move": m.move_no + 1,
                            "new_status": m.status,
                            "new_result": m.result,
                            "now": now,
                        },
                    ).rowcount
                    == 1
                )
                ok.append(done)
                if done:
                    rows.extend(_line_rows(m.table_id, m.first_line, m.lines))
            if rows:
                conn.execute(_INSERT_LINES, rows)
            if chats:
                conn.execute(insert(chat), [line._asdict() for line in chats])
        return ok

    def take_seat(self, table_id: int, seat: int, name: str, thash: str, status: str) -> bool:
        with self.engine.begin() as conn:
            done = conn.execute(
                update(seats)
                .where(
                    seats.c.table_id == table_id,
                    seats.c.seat == seat,
                    seats.c.kind == "person",
                    seats.c.token_hash.is_(None),
                )
                .values(name=name, token_hash=thash)
            ).rowcount
            if done == 1:
                conn.execute(update(tables).where(tables.c.id == table_id).values(status=status))
            return bool(done == 1)

    def set_next(self, table_id: int, code: str) -> bool:
        with self.engine.begin() as conn:
            done = conn.execute(
                update(tables).where(tables.c.id == table_id, tables.c.next_code.is_(None)).values(next_code=code)
            ).rowcount
            return bool(done == 1)

    def add_chat(self, table_id: int, seat: int | None, name: str, text: str, at: float) -> None:
        self.append_many((), [ChatLine(table_id, seat, name, text, at)])

    # -- analyses ----------------------------------------------------------------------
    def analysis(self, subject: str, bot: str, seed: int, analyser: str) -> str | None:
        """The stored analysis of ``subject`` by this bot, seed and analyser (its JSON text)."""
        with self.engine.connect() as conn:
            body = conn.execute(
                select(analyses.c.body).where(
                    analyses.c.subject == subject,
                    analyses.c.bot == bot,
                    analyses.c.seed == seed,
                    analyses.c.analyser == analyser,
                )
            ).scalar()
        return None if body is None else str(body)

    def put_analysis(
        self, subject: str, table_id: int | None, bot: str, seed: int, analyser: str, body: str, cpu_seconds: float
    ) -> bool:
        """Store an analysis, and end the claim on it in the same transaction (whoever holds
        it: it is made); ``False`` when one with the same key is there already (another
        process made it meanwhile: the same bot and seed give the same analysis)."""
        from sqlalchemy.exc import IntegrityError

        key = AnalysisKey(subject, bot, seed, analyser)
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(analyses).values(
                        subject=subject,
                        table_id=table_id,
                        bot=bot,
                        seed=seed,
                        analyser=analyser,
                        body=body,
                        cpu_seconds=cpu_seconds,
                        made_at=time.time(),
                    )
                )
                conn.execute(delete(analysis_claims).where(*_claim_is(key)))
        except IntegrityError:
            with self.engine.begin() as conn:
                conn.execute(delete(analysis_claims).where(*_claim_is(key)))
            return False
        return True

    def claim_analysis(self, key: AnalysisKey, owner: str, lease_until: float, total: int) -> AnalysisClaim | None:
        """Claim the making of an analysis for ``owner``: ``None`` when it is ours now (no
        claim on it, ours already, or the holder's lease ran out), else the claim that holds
        it. Two processes claiming at once: the database's key lets one in."""
        from sqlalchemy.exc import IntegrityError

        values = {"owner": owner, "status": "queued", "done": 0, "total": total, "error": None}
        for _ in range(3):  # the holder may end its claim between our insert and our update
            now = time.time()
            try:
                with self.engine.begin() as conn:
                    conn.execute(
                        insert(analysis_claims).values(
                            **key._asdict(), **values, lease_until=lease_until, claimed_at=now
                        )
                    )
                return None
            except IntegrityError:
                pass
            with self.engine.begin() as conn:
                taken = conn.execute(
                    update(analysis_claims)
                    .where(
                        *_claim_is(key),
                        (analysis_claims.c.owner == owner) | (analysis_claims.c.lease_until < now),
                    )
                    .values(**values, lease_until=lease_until, claimed_at=now)
                ).rowcount
                if taken == 1:
                    return None
                row = conn.execute(select(analysis_claims).where(*_claim_is(key))).first()
            if row is not None:
                return AnalysisClaim.of(row)
        raise RuntimeError(f"the claim on the analysis of {key.subject} keeps changing hands")

    def analysis_claim(self, key: AnalysisKey) -> AnalysisClaim | None:
        """The live claim on an analysis (its lease not run out), if any."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(analysis_claims).where(*_claim_is(key), analysis_claims.c.lease_until >= time.time())
            ).first()
        return None if row is None else AnalysisClaim.of(row)

    def hold_analysis(
        self,
        key: AnalysisKey,
        owner: str,
        lease_until: float,
        *,
        status: str,
        done: int,
        total: int,
        error: str | None = None,
    ) -> bool:
        """Renew ``owner``'s claim with its progress (or its failure: ``status`` failed and
        the error, told until ``lease_until``); ``False`` when the claim is no longer
        ``owner``'s (its lease ran out and another process took it over)."""
        with self.engine.begin() as conn:
            held = conn.execute(
                update(analysis_claims)
                .where(*_claim_is(key), analysis_claims.c.owner == owner)
                .values(status=status, done=done, total=total, error=error, lease_until=lease_until)
            ).rowcount
        return bool(held == 1)

    def release_analysis(self, key: AnalysisKey, owner: str) -> None:
        """End ``owner``'s claim without an analysis (stopped, or its worker died): the next
        process asked for it takes it at once."""
        with self.engine.begin() as conn:
            conn.execute(delete(analysis_claims).where(*_claim_is(key), analysis_claims.c.owner == owner))

    # -- ownership ---------------------------------------------------------------------
    def claim(self, table_id: int, owner: str, owner_url: str | None, lease_until: float) -> bool:
        """Take a table for this process: free, ours already, or its owner's lease ran out."""
        now = time.time()
        with self.engine.begin() as conn:
            done = conn.execute(
                update(tables)
                .where(
                    tables.c.id == table_id,
                    (tables.c.owner.is_(None)) | (tables.c.owner == owner) | (tables.c.lease_until < now),
                )
                .values(owner=owner, owner_url=owner_url, lease_until=lease_until, wanted_by=None)
            ).rowcount
            return bool(done == 1)

    def want(self, table_id: int, owner: str) -> None:
        """Ask the table's owner to hand it over to ``owner`` (see :meth:`wanted_from`)."""
        with self.engine.begin() as conn:
            conn.execute(update(tables).where(tables.c.id == table_id, tables.c.owner != owner).values(wanted_by=owner))

    def wanted_from(self, owner: str) -> list[str]:
        """The codes of this owner's tables that another process asks for."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables.c.code).where(
                    tables.c.owner == owner, tables.c.wanted_by.is_not(None), tables.c.wanted_by != owner
                )
            ).all()
        return [r.code for r in rows]

    def hand_over(self, code: str, owner: str) -> None:
        """Let a table go (its lease ends now), so the process that asked for it takes it."""
        with self.engine.begin() as conn:
            conn.execute(
                update(tables)
                .where(tables.c.code == code, tables.c.owner == owner)
                .values(owner=None, owner_url=None, lease_until=None)
            )

    def renew(self, owner: str, lease_until: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(tables).where(tables.c.owner == owner).values(lease_until=lease_until))

    def release(self, owner: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(tables).where(tables.c.owner == owner).values(owner=None, lease_until=None))

    # -- reading -----------------------------------------------------------------------
    def _read(self, conn: Connection, row: Any, *, with_lines: bool = True) -> StoredTable:
        """A table row with its seats and (``with_lines``) its record."""
        seat_rows = conn.execute(select(seats).where(seats.c.table_id == row.id).order_by(seats.c.seat)).all()
        line_rows = (
            conn.execute(
                select(record_lines.c.text).where(record_lines.c.table_id == row.id).order_by(record_lines.c.line_no)
            ).all()
            if with_lines
            else []
        )
        return StoredTable(
            id=row.id,
            code=row.code,
            game=row.game,
            settings=row.settings,
            status=row.status,
            move_no=row.move_no,
            turn_timer=row.turn_timer,
            timer_bot=row.timer_bot,
            result=row.result,
            next_code=row.next_code,
            owner=row.owner,
            owner_url=row.owner_url,
            lease_until=row.lease_until,
            seats=[StoredSeat(s.seat, s.kind, s.level, s.name, s.token_hash) for s in seat_rows],
            lines=[json.loads(t.text) for t in line_rows],
        )

    def load(self, code: str) -> StoredTable | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.code == code)).first()
            return None if row is None else self._read(conn, row)

    def unfinished_codes(self) -> list[str]:
        with self.engine.connect() as conn:
            return [r.code for r in conn.execute(select(tables.c.code).where(tables.c.status != "over")).all()]

    def owner_of(self, code: str) -> tuple[str | None, str | None, float | None]:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(tables.c.owner, tables.c.owner_url, tables.c.lease_until).where(tables.c.code == code)
            ).first()
            return (None, None, None) if row is None else (row.owner, row.owner_url, row.lease_until)

    def recent_chat(self, table_id: int, limit: int = 50) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(chat).where(chat.c.table_id == table_id).order_by(chat.c.id.desc()).limit(limit)
            ).all()
        return [{"seat": r.seat, "name": r.name, "text": r.text, "at": r.at} for r in reversed(rows)]

    def games_for(self, hashes: Iterable[str]) -> list[tuple[StoredTable, int]]:
        """The tables (without their record lines) where these token hashes hold a seat."""
        wanted = list(hashes)
        if not wanted:
            return []
        out: list[tuple[StoredTable, int]] = []
        with self.engine.connect() as conn:
            found = conn.execute(select(seats.c.table_id, seats.c.seat).where(seats.c.token_hash.in_(wanted))).all()
            for table_id, seat in found:
                row = conn.execute(select(tables).where(tables.c.id == table_id)).first()
                if row is not None:
                    out.append((self._read(conn, row, with_lines=False), seat))
        out.sort(key=lambda p: -p[0].id)
        return out

    # -- the processes and day-two care (``rallye admin``) -----------------------------
    def heartbeat(self, owner: str, url: str | None, started_at: float, connections: dict[str, Any]) -> None:
        """This process is alive; who is connected to its tables (one row a process)."""
        now = time.time()
        with self.engine.begin() as conn:
            done = conn.execute(
                update(processes)
                .where(processes.c.owner == owner)
                .values(url=url, heartbeat=now, connections=connections)
            ).rowcount
            if done == 0:
                conn.execute(
                    insert(processes).values(
                        owner=owner, url=url, started_at=started_at, heartbeat=now, connections=connections
                    )
                )

    def forget_process(self, owner: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(processes).where(processes.c.owner == owner))

    def live_processes(self, since: float) -> list[dict[str, Any]]:
        """The processes whose last heartbeat is at or after ``since``."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(processes).where(processes.c.heartbeat >= since).order_by(processes.c.owner)
            ).all()
        return [
            {
                "owner": r.owner,
                "url": r.url,
                "started_at": r.started_at,
                "heartbeat": r.heartbeat,
                "connections": r.connections or {},
            }
            for r in rows
        ]

    def table_rows(
        self, *, status: str | None = None, finished_since: float | None = None, finished_before: float | None = None
    ) -> list[StoredTable]:
        """Tables without their record lines, oldest first: all, or of one status; with
        ``finished_since``/``finished_before`` only finished ones whose last move is in that range."""
        q = select(tables).order_by(tables.c.id)
        if status is not None:
            q = q.where(tables.c.status == status)
        if finished_since is not None or finished_before is not None:
            q = q.where(tables.c.status == "over")
            if finished_since is not None:
                q = q.where(tables.c.updated_at >= finished_since)
            if finished_before is not None:
                q = q.where(tables.c.updated_at < finished_before)
        with self.engine.connect() as conn:
            return [self._read(conn, row, with_lines=False) for row in conn.execute(q).all()]

    def record_lines_of(self, table_id: int) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(record_lines.c.text).where(record_lines.c.table_id == table_id).order_by(record_lines.c.line_no)
            ).all()
        return [json.loads(r.text) for r in rows]

    def remove_finished(self, before: float) -> int:
        """Delete the finished tables whose last move came before ``before`` (epoch seconds),
        with their seats, record lines, chat and analyses (and the analyses of record files
        made before then); returns how many tables."""
        with self.engine.begin() as conn:
            ids = [
                r.id
                for r in conn.execute(
                    select(tables.c.id).where(tables.c.status == "over", tables.c.updated_at < before)
                ).all()
            ]
            for chunk in range(0, len(ids), 500):
                part = ids[chunk : chunk + 500]
                # explicit, so it holds where the database does not cascade (SQLite without
                # foreign keys switched on)
                for child in (record_lines, seats, chat, analyses):
                    conn.execute(delete(child).where(child.c.table_id.in_(part)))
                conn.execute(delete(tables).where(tables.c.id.in_(part)))
            conn.execute(delete(analyses).where(analyses.c.table_id.is_(None), analyses.c.made_at < before))
            conn.execute(delete(analysis_claims).where(analysis_claims.c.lease_until < before))
        return len(ids)

    def backup(self, target: Path) -> None:
        """A consistent copy of an SQLite database in ``target`` (SQLite's online backup: the
        server may go on writing meanwhile). PostgreSQL: use ``pg_dump`` (docs/hosting.md)."""
        if self.engine.dialect.name != "sqlite":
            raise ConfigError("backup copies SQLite databases; for PostgreSQL use pg_dump (docs/hosting.md)")
        import sqlite3

        target = Path(target)
        if target.exists():
            raise ConfigError(f"{target} exists already; a backup never overwrites a file")
        target.parent.mkdir(parents=True, exist_ok=True)
        raw = self.engine.raw_connection()
        try:
            source = raw.driver_connection
            assert isinstance(source, sqlite3.Connection)  # the sqlite dialect's own driver
            dest = sqlite3.connect(str(target))
            try:
                source.backup(dest)
            finally:
                dest.close()
        finally:
            raw.close()
