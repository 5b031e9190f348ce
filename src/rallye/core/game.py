"""The one face every rallye game shows the layers above it.

A game is a set of pure functions over immutable states, gathered in one descriptor
object, :class:`Game`: each game package exports one (``rallye.mille.GAME``,
``rallye.knightrider.GAME``) and :mod:`rallye.games` lists them by key. Everything that
serves both games — the server's tables, the research environments, simulation and
tournaments, the terminal sessions — goes through this face and keeps only what is its own
(JSON and messages; rewards and encodings; statistics; screens).

* ``legal_actions(state)`` – every action the player to act may take, in a fixed,
  documented order (the single source of truth for legality, RL masks and bots);
  ``legal_from_view(view)`` gives the same from the acting player's view alone;
* ``apply(state, action, seat=None)`` – the next state; the input state is never changed,
  and an illegal action (or a move out of turn by ``seat``) raises
  :class:`~rallye.core.errors.IllegalAction` naming the rule;
* ``view_for(state, seat)`` – what that seat may see; the only way secrets leave a state;
* ``current_player(state)`` / ``is_over(state)`` / ``outcome(state)``;
* settings: ``settings(raw)`` checks a table's settings from untrusted JSON, ``new(settings,
  seed)`` deals a new game, ``sides(settings)`` names the seats of each side;
* notation and codes: ``parse_action`` / ``format_action`` (the text notation of records
  and the terminal), ``encode_action`` / ``decode_action`` (integer codes, ``num_actions``);
* records: ``record_start`` / ``record_move`` write a game's record (JSON lines),
  ``replay`` rebuilds and verifies one.

Actions are small hashable values; views are immutable values with ``to_json()``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from rallye.core.record import Line, Lines

S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V")

#: A table's settings as JSON: ``{"players": n, ...}`` plus the game's own fields. JSON is
#: untyped by nature, hence ``Any`` for the values.
Settings = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game stands at its end: the sides (seats of each), the winning sides (several
    share a win; none: no result, such as a turn limit) and, where the game keeps score,
    each side's points."""

    sides: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]
    totals: tuple[int, ...] = ()

    def side_of(self, seat: int) -> int:
        """The side ``seat`` plays for."""
        for side, seats in enumerate(self.sides):
            if seat in seats:
                return side
        raise ValueError(f"seat {seat} is at no side of {self.sides}")

    def to_json(self) -> dict[str, Any]:
        return {"sides": [list(s) for s in self.sides], "winners": list(self.winners), "totals": list(self.totals)}


@dataclass(frozen=True, slots=True)
class Replayed(Generic[S, A]):
    """A record rebuilt and verified: the state before the first move, every move as
    ``(seat, action)`` in order, and the final state."""

    initial: S
    moves: tuple[tuple[int, A], ...]
    final: S


class Game(ABC, Generic[S, A, V]):
    """A game's descriptor: one object per game, its methods the game's rules.

    ``S`` is the game's (immutable) state, ``A`` its action, ``V`` a seat's view.
    """

    #: the game's key in settings, records and URLs ("mille", "knightrider")
    key: ClassVar[str]
    #: its name, as a title
    title: ClassVar[str]

    def __repr__(self) -> str:
        return f"<game {self.key}>"

    # -- settings and a new game ---------------------------------------------------------
    @abstractmethod
    def settings(self, raw: Mapping[str, object]) -> dict[str, Any]:
        """A table's settings from untrusted JSON, checked and normalised (never naming a
        file), or a :class:`~rallye.core.errors.ConfigError` saying what is wrong."""

    def players(self, settings: Settings) -> int:
        """How many seats the settings have."""
        return int(settings["players"])

    @abstractmethod
    def sides(self, settings: Settings) -> tuple[tuple[int, ...], ...]:
        """The seats of each side (a player alone is a side of one)."""

    @abstractmethod
    def new(self, settings: Settings, seed: int) -> S:
        """A new game with these settings, its chance drawn from ``seed``."""

    # -- play ----------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self, state: S) -> Sequence[A]:
        """The actions of the player to act, in the game's fixed order (empty when over)."""

    @abstractmethod
    def legal_from_view(self, view: V) -> Sequence[A]:
        """The same actions, from the acting seat's view alone (empty for any other seat)."""

    @abstractmethod
    def apply(self, state: S, action: A, seat: int | None = None) -> S:
        """The state after ``action``; with ``seat``, the move is refused unless that seat
        is to act."""

    @abstractmethod
    def view_for(self, state: S, seat: int) -> V:
        """What ``seat`` may see of ``state``."""

    @abstractmethod
    def current_player(self, state: S) -> int | None:
        """The seat to act (``None`` once the game is over)."""

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def outcome(self, state: S) -> Outcome:
        """The sides, winners and totals (winners empty while the game runs)."""

    # -- notation and codes --------------------------------------------------------------
    @abstractmethod
    def parse_action(self, text: str) -> A:
        """The action written ``text`` in the game's notation (an error naming the
        notation otherwise)."""

    def format_action(self, action: A) -> str:
        """The action in the game's notation (``parse_action`` reads it back)."""
        return str(action)

    #: the size of the integer action space
    num_actions: int

    @abstractmethod
    def encode_action(self, action: A) -> int: ...

    @abstractmethod
    def decode_action(self, code: int) -> A: ...

    # -- records -------------------------------------------------------------------------
    @abstractmethod
    def record_start(self, state: S, extra: Mapping[str, Any] | None = None) -> list[Line]:
        """The first lines of a record of a game that starts at ``state`` (``extra``: more
        header fields, which a replay ignores)."""

    @abstractmethod
    def record_move(self, lines: list[Line], state: S, seat: int, action: A) -> S:
        """Apply ``action`` by ``seat`` (checked) and append its lines to the record."""

    @abstractmethod
    def replay(self, lines: Lines, source: str = "<record>") -> Replayed[S, A]:
        """Rebuild a game from its record lines (bare, or with their line numbers in the
        file: ``read_jsonl``'s pairs), verifying each, or a
        :class:`~rallye.core.errors.RecordError` naming the line and what is wrong."""


class Agent(Protocol[A]):  # pragma: no cover - a protocol
    """A bot: chooses one of the legal actions from a view (never from a state)."""

    name: str

    def choose(self, view: object, legal: Sequence[A], /) -> A: ...
