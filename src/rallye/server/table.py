"""The authority of one table, transport-free.

A :class:`Table` owns a match (its record and state), its seats and their tokens, and
answers :meth:`Table.submit` in a fixed order: who (the seat the connection holds), the
table (waiting for players, over), whose turn, a fresh move number, a legal action. An
accepted action is committed to the store before :meth:`submit` returns, so nobody is told
of a move the database does not hold. What each seat may see is :meth:`Table.state_for`:
built from that seat's view, the legal actions and the public move log only.

The websocket layer (:mod:`rallye.server.app`) and the tests call the same object; none
of them knows a rule.
"""

from __future__ import annotations

import secrets
import time
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from rallye.agents.base import Agent, levels_for, make_agent
from rallye.core.errors import ConfigError, GameError
from rallye.core.game import Game
from rallye.core.rng import derive_seed, new_seed
from rallye.games import game_for
from rallye.server.games import DEFAULT_GAME, JSON, GameJson, JsonView, Match
from rallye.server.store import Conflict, Move, Store, StoredSeat, StoredTable, token_hash

if TYPE_CHECKING:  # pragma: no cover - for the types only
    from rallye.analysis.analyse import DecisionViews

PROTOCOL = 1
#: an invite code's letters: no 0/o, 1/l/i, so a code read aloud is a code typed right
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
CODE_LENGTH = 10
LOG_LENGTH = 30
NAME_LENGTH = 24
LEASE_SECONDS = 30.0
TIMER_RANGE = (10, 3600)

S = TypeVar("S")  # the game's state
A = TypeVar("A")  # its action
V = TypeVar("V", bound=JsonView)  # a seat's view


class TableError(Exception):
    """A request the table refuses: ``code`` (docs/protocol.md), a message, the rule."""

    def __init__(self, code: str, message: str, rule: str | None = None, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.status = status

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "rule": self.rule}


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    return secrets.token_urlsafe(24)


def clean_name(raw: object) -> str:
    """A display name: 1 to 24 printable characters (stored as text; pages escape it)."""
    if not isinstance(raw, str):
        raise TableError("bad-field", "'name' must be text")
    name = " ".join(raw.split())
    if not name or len(name) > NAME_LENGTH:
        raise TableError("bad-field", f"a display name has 1 to {NAME_LENGTH} characters")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise TableError("bad-field", "a display name cannot hold control characters")
    return name


@dataclass
class Seat:
    seat: int
    kind: str  # person, bot
    level: str | None
    name: str | None
    token_hash: str | None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None


@dataclass
class Pending(Generic[S]):
    """An action applied in memory but not yet committed: what to write, and what to put
    back if the commit fails."""

    write: Move
    seat: int
    action: str
    over: bool
    before: tuple[S, int, int]  # the match's state, its number of lines, its actions


@dataclass
class Accepted:
    """What one accepted action changed."""

    seat: int
    action: str
    move_no: int  # the new move number
    over: bool


@dataclass
class Table(Generic[S, A, V]):
    """A table of one game: ``S``, ``A``, ``V`` are the game's state, action and view."""

    id: int
    code: str
    game: Game[S, A, V]  # the rules (rallye.games): the one thing a table plays by
    settings: dict[str, Any]
    seats: list[Seat]
    match: Match[S]
    store: Store
    owner: str
    status: str
    turn_timer: int | None = None
    timer_bot: str | None = None
    next_code: str | None = None
    #: the coach may give this table's people hints (docs/server.md, "The coach")
    coach: bool = False
    connected: set[int] = field(default_factory=set)
    log: list[dict[str, Any]] = field(default_factory=list)
    told: int = 0  # the move number of the last broadcast: its states' logs start after it
    _agents: dict[tuple[int, str], Agent] = field(default_factory=dict)
    turn_started: float = field(default_factory=time.monotonic)
    #: the game's JSON for the messages (the only per-game part of a table)
    json: GameJson[S, A, V] = field(init=False, repr=False)
    #: the coach's history: the seats' views at their decisions, followed along the record
    #: from one hint to the next (made at the first hint; a table restored reads its record then)
    _coach_views: DecisionViews | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.json = JSON[self.game.key]

    # -- building ----------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        store: Store,
        request: dict[str, Any],
        *,
        owner: str,
        owner_url: str | None = None,
        lease: float = LEASE_SECONDS,
    ) -> tuple[AnyTable, int | None, str | None]:
        """A new table from a client's request (docs/protocol.md, ``POST /api/tables``).

        Returns the table and, when the request sits its creator (``sit``), that seat and
        its token. Bad settings raise :class:`TableError` naming the field.
        """
        if not isinstance(request, dict):
            raise TableError("bad-field", "a table request is a JSON object")
        game = game_for_request(request.get("game", DEFAULT_GAME))
        try:
            settings = game.settings(request)
        except GameError as exc:
            raise TableError("bad-field", exc.message, exc.rule) from None
        players = game.players(settings)
        levels = levels_for(game.key)
        seat_specs = request.get("seats")
        if seat_specs is None:
            seat_specs = [{"kind": "person"}] + [{"kind": "bot", "level": "medium"}] * (players - 1)
        if not isinstance(seat_specs, list) or len(seat_specs) != players:
            raise TableError("bad-field", f"'seats' must list the {players} seats")
        seats = []
        for n, spec in enumerate(seat_specs):
            if not isinstance(spec, dict) or spec.get("kind") not in ("person", "bot"):
                raise TableError("bad-field", f"seat {n + 1}: 'kind' must be 'person' or 'bot'")
            level = spec.get("level") if spec["kind"] == "bot" else None
            if spec["kind"] == "bot" and level not in levels:
                raise TableError("bad-field", f"seat {n + 1}: a bot's 'level' is one of {', '.join(levels)}")
            name = clean_name(spec["name"]) if spec.get("name") is not None and spec["kind"] == "person" else None
            seats.append(Seat(n, spec["kind"], level, name if spec["kind"] == "person" else None, None))
        timer = request.get("turn_timer")
        if timer is not None and (
            not isinstance(timer, int) or isinstance(timer, bool) or not TIMER_RANGE[0] <= timer <= TIMER_RANGE[1]
        ):
            raise TableError(
                "bad-field", f"'turn_timer' is a number of seconds from {TIMER_RANGE[0]} to {TIMER_RANGE[1]}"
            )
        timer_bot = request.get("timer_bot", "medium")
        if timer_bot not in levels:
            raise TableError("bad-field", f"'timer_bot' is one of {', '.join(levels)}")
        coach = coach_setting(request.get("coach"), seats)
        sit = request.get("sit")
        token = None
        if sit is not None:
            if (
                not isinstance(sit, int)
                or isinstance(sit, bool)
                or not 0 <= sit < players
                or seats[sit].kind != "person"
            ):
                raise TableError("bad-field", "'sit' must be the number of a seat open for a person")
            token = new_token()
            seats[sit].name = clean_name(request.get("name", "Player"))
            seats[sit].token_hash = token_hash(token)
        table = cls.open(
            store, game, settings, seats, timer, timer_bot, owner=owner, owner_url=owner_url, lease=lease, coach=coach
        )
        return table, sit, token

    @classmethod
    def open(
        cls,
        store: Store,
        game: Game[S, A, V],
        settings: dict[str, Any],
        seats: list[Seat],
        turn_timer: int | None,
        timer_bot: str | None,
        *,
        owner: str,
        owner_url: str | None,
        lease: float = LEASE_SECONDS,
        coach: bool = False,
    ) -> Table[S, A, V]:
        match = Match.new(game, settings, new_seed())  # 128 bits: no player can search for it
        status = "playing" if all(s.taken for s in seats) else "waiting"
        code = new_code()
        table_id = store.create(
            code=code,
            game=game.key,
            settings={**settings, COACH: coach},  # the table's own option beside the game's settings
            status=status,
            turn_timer=turn_timer,
            timer_bot=timer_bot,
            seat_rows=[StoredSeat(s.seat, s.kind, s.level, s.name, s.token_hash) for s in seats],
            lines=match.lines,
            owner=owner,
            owner_url=owner_url,
            lease_until=time.time() + lease,
        )
        return cls(
            table_id, code, game, settings, seats, match, store, owner, status, turn_timer, timer_bot, coach=coach
        )

    @classmethod
    def restore(cls, store: Store, stored: StoredTable, *, owner: str) -> AnyTable:
        """Rebuild a table from the database by replaying (and verifying) its record."""
        game = game_for(stored.game)
        match = Match.restore(game, stored.lines, source=f"table {stored.code}")
        if match.actions != stored.move_no:
            raise ConfigError(
                f"table {stored.code}: the record holds {match.actions} moves, the table says {stored.move_no}",
                rule="record-format",
            )
        seats = [Seat(s.seat, s.kind, s.level, s.name, s.token_hash) for s in stored.seats]
        settings, coach = split_coach(stored.settings, seats)
        table = cls(
            stored.id,
            stored.code,
            game,
            settings,
            seats,
            match,
            store,
            owner,
            stored.status,
            stored.turn_timer,
            stored.timer_bot,
            stored.next_code,
            coach,
        )
        table.log = public_log(stored.lines)[-LOG_LENGTH:]
        table.told = table.move_no
        return table

    # -- who ---------------------------------------------------------------------------
    def seat_of(self, token: object) -> int | None:
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        h = token_hash(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s.seat
        return None

    def join(self, seat: object, name: object) -> str:
        """Take a free person's seat; returns its token (never stored, never sent again)."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise TableError("bad-field", f"'seat' must be a seat number from 0 to {len(self.seats) - 1}")
        display = clean_name(name)
        s = self.seats[seat]
        if s.kind != "person":
            raise TableError("seat-taken", f"seat {seat + 1} is played by a bot", status=409)
        if s.token_hash is not None:
            raise TableError("seat-taken", f"seat {seat + 1} is taken", status=409)
        token = new_token()
        thash = token_hash(token)
        status = "playing" if all(x.taken or x.seat == seat for x in self.seats) else "waiting"
        if self.status == "over":
            status = "over"
        if not self.store.take_seat(self.id, seat, display, thash, status):
            raise TableError("seat-taken", f"seat {seat + 1} is taken", status=409)
        s.name, s.token_hash = display, thash
        self.status = status
        self.turn_started = time.monotonic()
        return token

    # -- moves -------------------------------------------------------------------------
    @property
    def move_no(self) -> int:
        return self.match.actions

    @property
    def over(self) -> bool:
        return self.game.is_over(self.match.state)

    def current(self) -> int | None:
        return None if self.over else self.game.current_player(self.match.state)

    def submit(self, seat: int | None, move_no: object, action: object) -> Accepted:
        """One action for ``seat``: checked in the fixed order, committed, or refused."""
        pending = self.prepare(seat, move_no, action)
        try:
            committed = self.store.append_many([pending.write])[0]
        except BaseException as exc:
            return self.finish(pending, exc)
        return self.finish(pending, None if committed else Conflict(f"table {self.code} moved on elsewhere"))

    def prepare(self, seat: int | None, move_no: object, action: object) -> Pending[S]:
        """Check an action in the fixed order and apply it in memory; what to commit before
        anyone is told (then :meth:`finish`). A refusal is a :class:`TableError` and changes
        nothing. Until :meth:`finish`, no other action may be prepared at this table."""
        if seat is None:
            raise TableError("spectator", "a spectator cannot act")
        self._check_turn(seat, move_no)
        chosen = self._action(action)
        match = self.match
        before = (match.state, len(match.lines), match.actions)
        try:
            match.step(self.game, seat, chosen)
        except GameError as exc:
            raise TableError("illegal", f"illegal '{chosen}': {exc.message}", exc.rule) from None
        over = self.game.is_over(match.state)
        write = Move(
            self.id,
            move_no=before[2],
            first_line=before[1],
            lines=match.lines[before[1] :],
            status="over" if over else self.status,
            result=self.json.result_json(match.state) if over else None,
            owner=self.owner,
        )
        return Pending(write, seat, self.game.format_action(chosen), over, before)

    def _check_turn(self, seat: int, move_no: object) -> None:
        """The table plays, it is ``seat``'s turn, and ``move_no`` is the current move number
        (a move's checks after who; a hint's too)."""
        if self.over:
            raise TableError("game-over", "the game is over")
        if self.status == "waiting":
            raise TableError("waiting", "the table is waiting for players to take their seats")
        turn = self.current()
        if turn != seat:
            who = "nobody" if turn is None else self.seat_label(turn)
            raise TableError("not-your-turn", f"it is not your turn: {who} is to act", "turn-order")
        if not isinstance(move_no, int) or isinstance(move_no, bool):
            raise TableError("bad-field", "'move_no' must be the move number of the state you answer")
        if move_no < self.move_no:
            raise TableError("stale", f"move {move_no} was already played; the current move is {self.move_no}")
        if move_no > self.move_no:
            raise TableError("future-move", f"move {move_no} has not come yet; the current move is {self.move_no}")

    def finish(self, pending: Pending[S], error: BaseException | None = None) -> Accepted:
        """After the commit of :meth:`prepare`'s move: it stands (``error`` is ``None``), or it is
        taken back from memory and refused (:class:`~rallye.server.store.Conflict`: the table
        moved on in another process, ``elsewhere``; any other error is raised again)."""
        match = self.match
        if error is not None:
            state, lines, actions = pending.before
            match.state, match.actions = state, actions
            del match.lines[lines:]
            if isinstance(error, Conflict):
                raise TableError("elsewhere", "this table is now served by another server process; reconnect") from None
            raise error
        if pending.over:
            self.status = "over"
        self.log.append({"n": match.actions, "seat": pending.seat, "action": pending.action})
        del self.log[:-LOG_LENGTH]
        self.turn_started = time.monotonic()
        return Accepted(pending.seat, pending.action, match.actions, pending.over)

    def _action(self, raw: object) -> A:
        legal = self.game.legal_actions(self.match.state)
        if isinstance(raw, int) and not isinstance(raw, bool):
            for a in legal:
                if self.game.encode_action(a) == raw:
                    return a
            raise TableError("illegal", f"action code {raw} is not a legal action now", "legal-actions")
        if not isinstance(raw, str) or not raw.strip() or len(raw) > 200:
            raise TableError("bad-field", "'action' must be an action's notation (or 'code' its number)")
        try:
            return self.game.parse_action(raw)
        except GameError as exc:
            raise TableError("illegal", exc.message, exc.rule or "notation") from None

    # -- bots --------------------------------------------------------------------------
    def bot_to_act(self) -> int | None:
        """The seat a bot plays now, if any."""
        if self.status != "playing":
            return None
        turn = self.current()
        if turn is not None and self.seats[turn].kind == "bot":
            return turn
        return None

    def choose_for(self, seat: int, level: str | None = None) -> tuple[int, str]:
        """A bot's move for ``seat`` (its own level, or ``level`` standing in for an absent
        person): it sees that seat's view and legal actions only. Returns the move number
        it answers and the action's notation. Blocking: run it off the event loop."""
        name = level or self.seats[seat].level or "medium"
        move_no = self.move_no
        view = self.game.view_for(self.match.state, seat)
        legal = self.game.legal_actions(self.match.state)
        agent = self._agents.get((seat, name))
        if agent is None:
            # a keyed hash of the deal's seed: what a bot plays tells nothing of the seed
            seed = int(self.match.lines[0].get("seed", 0))
            agent = make_agent(self.game.key, name, derive_seed("server-bot", seed, seat, move_no))
            self._agents[(seat, name)] = agent
        return move_no, self.game.format_action(agent.choose(view, legal))

    # -- the coach ---------------------------------------------------------------------
    def hint_position(self, seat: int | None, move_no: object) -> tuple[int, V, Sequence[A], tuple[V, ...]]:
        """What the coach may see for ``seat``'s hint: the move number, the seat's view, its
        legal actions and its views at its earlier decisions (``decision_views``: what that
        player saw before; nothing else of the state; kept from the last hint, so only the
        moves since are read), after the checks in a fixed order (who, the table's
        permission, the table, whose turn, the move number). A refusal is a
        :class:`TableError`."""
        from rallye.analysis.analyse import DecisionViews

        if seat is None:
            raise TableError("spectator", "a spectator gets no hints")
        if not self.coach:
            raise TableError("coach-off", "the coach is off at this table: its creator did not allow hints")
        self._check_turn(seat, move_no)
        view = self.game.view_for(self.match.state, seat)
        if self._coach_views is None:
            self._coach_views = DecisionViews(self.game)
        history = self._coach_views.of(self.match.lines, seat)
        return self.move_no, view, self.game.legal_from_view(view), history

    # -- what is sent ------------------------------------------------------------------
    def seat_label(self, seat: int) -> str:
        s = self.seats[seat]
        return f"seat {seat + 1} ({s.name or s.level or 'open'})"

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "game": self.game.key,
            "players": len(self.seats),
            "sides": [list(side) for side in self.game.sides(self.settings)],
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "level": s.level,
                    "name": s.name,
                    "taken": s.taken,
                    "connected": s.kind == "bot" or s.seat in self.connected,
                }
                for s in self.seats
            ],
            "status": self.status,
            "move_no": self.move_no,
            "turn_timer": self.turn_timer,
            "next": self.next_code,
            "coach": self.coach,
        }
        out.update(self.json.settings_json(self.settings))
        return out

    def state_for(
        self,
        seat: int | None,
        deadline: float | None = None,
        summary: dict[str, Any] | None = None,
        since: int | None = None,
    ) -> dict[str, Any]:
        """The ``state`` message for a seat (``None``: a spectator); ``summary``: the table's,
        when the caller has it already."""
        return self.states_for([seat], deadline, summary, since)[seat]

    def states_for(
        self,
        seats: Iterable[int | None],
        deadline: float | None = None,
        summary: dict[str, Any] | None = None,
        since: int | None = None,
    ) -> dict[int | None, dict[str, Any]]:
        """The ``state`` messages of a broadcast, one a seat (``None``: a spectator), each
        built from that seat's view alone. ``since``: the log holds only the moves after that
        move number (a broadcast's: those since the one before; ``None``: the last 30)."""
        state = self.match.state
        turn = self.current()
        wanted = list(dict.fromkeys(seats))
        views = self.json.views_json(state, wanted)
        table = summary if summary is not None else self.summary()
        log = list(self.log) if since is None else [e for e in self.log if e["n"] > since]
        out: dict[int | None, dict[str, Any]] = {}
        for seat in wanted:
            legal: list[dict[str, Any]] = []
            if seat is not None and turn == seat and self.status == "playing":
                legal = self.json.legal_json(self.game.view_for(state, seat), self.game.legal_actions(state))
            out[seat] = {
                "type": "state",
                "move_no": self.move_no,
                "view": views[seat],
                "legal": legal,
                "turn": turn,
                "log": log,
                "table": table,
                "deadline": deadline,
            }
        return out

    def broadcast_states(
        self, seats: Iterable[int | None], deadline: float | None = None
    ) -> dict[int | None, dict[str, Any]]:
        """The ``state`` messages of a broadcast to every connection: their log holds the
        moves since the broadcast before (each connection was sent that one, or a welcome
        with the last 30 after it), a few dozen bytes where the last 30 moves were a fifth
        of a state (docs/server.md, "Bytes a move")."""
        states = self.states_for(seats, deadline, since=self.told)
        self.told = self.move_no
        return states

    def record_text(self) -> str:
        from rallye.core.record import dumps_line

        return "".join(dumps_line(line) + "\n" for line in self.match.lines)

    def again_seats(self) -> list[Seat]:
        return [Seat(s.seat, s.kind, s.level, s.name, s.token_hash) for s in self.seats]


#: a table of any game: the server holds the tables of every game side by side
AnyTable = Table[Any, Any, Any]


#: the key of the table's coach option in the stored settings (beside the game's own)
COACH = "coach"


def coach_default(seats: Sequence[Seat | StoredSeat]) -> bool:
    """The coach is on by default at a table of one person with bots, off where several
    people play (a hint would help one of them against the others)."""
    return sum(1 for s in seats if s.kind == "person") == 1


def coach_setting(raw: object, seats: Sequence[Seat | StoredSeat]) -> bool:
    """A new table's ``coach`` option: ``true`` or ``false`` as its creator chose, or left out
    for :func:`coach_default`."""
    if raw is None:
        return coach_default(seats)
    if not isinstance(raw, bool):
        raise TableError("bad-field", "'coach' is true (hints allowed) or false")
    return raw


def split_coach(stored: dict[str, Any], seats: Sequence[Seat | StoredSeat]) -> tuple[dict[str, Any], bool]:
    """The game's settings and the coach option of a stored table (one stored before the
    option existed gets :func:`coach_default`)."""
    settings = dict(stored)
    raw = settings.pop(COACH, None)
    return settings, raw if isinstance(raw, bool) else coach_default(seats)


def game_for_request(raw: object) -> Game[Any, Any, Any]:
    try:
        return game_for(raw)
    except GameError as exc:
        raise TableError("bad-field", exc.message, exc.rule) from None


def public_log(lines: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The public move log of a record: who played what (every action of both games is
    played face up: a card laid or discarded, a tile, a move)."""
    out: list[dict[str, Any]] = []
    for line in lines:
        if line.get("type") == "action":
            out.append({"n": len(out) + 1, "seat": line["player"], "action": line["action"]})
    return out
