"""One controller for every terminal game, on the game face (:class:`rallye.core.game.Game`).

A :class:`GameSession` holds one game played at this keyboard: its state and its record
(``GAME.record_start`` / ``GAME.record_move``), the people's seats and the bots. It hands
the terminal the view of the person at the keyboard only (``GAME.view_for``) and asks each
bot with that bot's own view and the legal actions of the seat to act. A game's terminal
loop (:mod:`rallye.tui.mille.app`, :mod:`rallye.tui.knightrider.app`) keeps only its
screens; it talks to a :class:`Session`, which an online table is as well
(:mod:`rallye.tui.online`).

A save file is the game record so far. Its header carries, besides the game's own fields,
a ``"tui"`` object ``{"human_seat": 0, "bots": [null, "random"]}`` (0-based seat; a bot
name per seat, ``null`` for a person; with several people at one keyboard also
``"human_seats": [0, 2]``) so ``--resume`` continues with the same seats; ``rallye replay``
verifies the game without that field (it names the seats from it).

>>> from rallye.mille import GAME
>>> s = GameSession.start(GAME, {"edition": "wm2006", "players": 2}, 7, 0, ["random"])
>>> s.human_to_act, s.lines[0]["tui"], s.actions_played
(True, {'human_seat': 0, 'bots': [None, 'random']}, 0)
>>> played = s.play(s.legal()[0])
>>> played.seat, s.actions_played
(0, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, Self, TypeVar

from rallye.agents.base import Agent, make_agent
from rallye.core.game import Game, Settings
from rallye.core.record import Line, read_jsonl, write_jsonl
from rallye.tui.loop import (
    HEADER_FIELD,
    bot_seed,
    people,
    resumed_seats,
    seat_names,
    seat_options,
    session_seats,
)

S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V")
A_co = TypeVar("A_co", covariant=True)
V_co = TypeVar("V_co", covariant=True)


@dataclass(frozen=True, slots=True)
class Played(Generic[A_co, V_co]):
    """One move as the person at the keyboard may learn of it: who played what, and their
    view before and after it (a game's screen tells the move's public events from the two)."""

    seat: int
    action: A_co
    before: V_co
    after: V_co


class Session(Protocol[A, V_co]):
    """What a game's terminal loop asks of a game: one played here (:class:`GameSession`) or
    at an online table (:class:`rallye.tui.online.RemoteSession`)."""

    @property
    def human_seats(self) -> tuple[int, ...]:
        """The seats people play at this keyboard."""

    @property
    def viewer(self) -> int:
        """The person at the keyboard: the one to act, else the last one who did."""

    @property
    def bot_names(self) -> tuple[str | None, ...]:
        """Who plays each seat: a bot's (or an online player's) name, ``None`` for a person here."""

    @property
    def kept_by_server(self) -> bool:
        """An online game: leaving loses nothing."""

    @property
    def over(self) -> bool: ...

    @property
    def human_to_act(self) -> bool: ...

    @property
    def actions_played(self) -> int: ...

    @property
    def seed(self) -> int | None:
        """The deal's seed (an online table tells it once the game is over)."""

    def view(self) -> V_co:
        """The view of the person at the keyboard: the only window the terminal has on the game."""

    def legal(self) -> tuple[A, ...]:
        """The legal actions of the person at the keyboard (empty when it is not their turn)."""

    def seat_tags(self) -> dict[int, str]: ...

    def play(self, action: A) -> Played[A, V_co]:
        """The action of the person at the keyboard; an illegal one raises the engine's error
        and changes nothing."""

    def bot_move(self) -> Played[A, V_co]:
        """The next move by a seat that is not at this keyboard."""

    def save(self, path: str | Path) -> Path: ...

    def deal_options(self) -> list[str]:
        """The ``rallye play GAME`` options (but ``--seed``) that deal this game again."""


class GameSession(Generic[S, A, V]):
    """The controller of one terminal game: the state and its record, the bots, the people's
    seats; everything through the game face ``game``.

    Several people may play at one keyboard (``human_seats``); the terminal shows the view
    of the one at the keyboard (:attr:`viewer`: the person to act, else the last one who did).
    A game's subclass adds its ``new`` (the game's own settings as arguments), its
    ``resume`` and :meth:`deal_options`.
    """

    #: the game is kept here (a save file keeps it after the program ends)
    kept_by_server = False

    def __init__(
        self,
        game: Game[S, A, V],
        lines: list[Line],
        state: S,
        human_seat: int | Sequence[int],
        bot_names: Sequence[str | None],
    ) -> None:
        self.game = game
        self._lines = lines
        self._state = state
        humans, self.bot_names = session_seats(self.players, human_seat, bot_names)
        self.human_seats: tuple[int, ...] = humans
        self.viewer = humans[0]
        ply = self.actions_played
        self._bots: dict[int, Agent] = {
            seat: make_agent(game.key, name, bot_seed(self.seed, seat, ply))
            for seat, name in enumerate(self.bot_names)
            if name is not None
        }
        tui: dict[str, object] = {"human_seat": humans[0], "bots": list(self.bot_names)}
        if len(humans) > 1:
            tui["human_seats"] = list(humans)
        lines[0][HEADER_FIELD] = tui
        self._follow()

    # -- building --------------------------------------------------------------------------
    @classmethod
    def start(
        cls, game: Game[S, A, V], settings: Settings, seed: int, human_seat: int | Sequence[int], bots: Sequence[str]
    ) -> Self:
        """A fresh game; ``bots`` names the bots of the other seats, in seat order."""
        state = game.new(settings, seed)
        players = game.players(settings)
        humans = people(human_seat, players)
        return cls(game, game.record_start(state), state, humans, seat_names(players, humans, bots))

    @classmethod
    def load(
        cls,
        game: Game[S, A, V],
        path: str | Path,
        human_seat: int | Sequence[int] | None = None,
        bots: Sequence[str] | None = None,
    ) -> Self:
        """Replay (and verify) a save file and continue it, its record written anew. The
        seats come from the file's header unless given; a
        :class:`~rallye.core.errors.RecordError` names a bad line."""
        numbered = read_jsonl(path)
        replayed = game.replay(numbered, str(path))
        state = replayed.initial
        lines = game.record_start(state)
        for seat, action in replayed.moves:
            state = game.record_move(lines, state, seat, action)
        humans, names = resumed_seats(numbered[0][1], _header_int(lines, "players"), human_seat, bots, path)
        return cls(game, lines, state, humans, names)

    # -- what the terminal may ask -----------------------------------------------------------
    @property
    def players(self) -> int:
        return _header_int(self._lines, "players")

    @property
    def seed(self) -> int:
        return _header_int(self._lines, "seed")

    @property
    def human_seat(self) -> int:
        """The first person's seat (the only one in a game against bots)."""
        return self.human_seats[0]

    @property
    def state(self) -> S:
        """The whole state, secrets and all: for tests and tools, never for a screen."""
        return self._state

    @property
    def lines(self) -> list[Line]:
        """The record so far, its header carrying the seats (``"tui"``)."""
        return self._lines

    @property
    def actions_played(self) -> int:
        return sum(1 for line in self._lines if line.get("type") == "action")

    def _follow(self) -> None:
        """The keyboard passes to the person whose turn it is."""
        seat = self.game.current_player(self._state)
        if seat is not None and seat in self.human_seats:
            self.viewer = seat

    def view(self) -> V:
        """The view of the person at the keyboard: the only window the terminal has on the game."""
        return self.game.view_for(self._state, self.viewer)

    def legal(self) -> tuple[A, ...]:
        """The legal actions of the person at the keyboard (empty when it is not their turn)."""
        return tuple(self.game.legal_actions(self._state)) if self.human_to_act else ()

    @property
    def over(self) -> bool:
        return self.game.is_over(self._state)

    @property
    def human_to_act(self) -> bool:
        return self.game.current_player(self._state) == self.viewer

    def seat_tags(self) -> dict[int, str]:
        person = "you" if len(self.human_seats) == 1 else "human"
        return {s: (person if n is None else n) for s, n in enumerate(self.bot_names)}

    # -- moves ---------------------------------------------------------------------------------
    def _step(self, seat: int, action: A) -> Played[A, V]:
        before = self.view()
        self._state = self.game.record_move(self._lines, self._state, seat, action)
        after = self.view()
        self._follow()
        return Played(seat, action, before, after)

    def play(self, action: A) -> Played[A, V]:
        """The action of the person at the keyboard; an illegal one (or one out of turn)
        raises the engine's error and changes nothing."""
        return self._step(self.viewer, action)

    def bot_move(self) -> Played[A, V]:
        """Let the bot whose turn it is choose, from its own view and the legal actions."""
        seat = self.game.current_player(self._state)
        if seat is None:
            raise RuntimeError("the game is over")
        bot = self._bots.get(seat)
        if bot is None:
            raise RuntimeError(f"P{seat + 1} is a person's seat, not a bot's")
        legal = self.game.legal_actions(self._state)  # the seat's own: the same as from its view
        action: A = bot.choose(self.game.view_for(self._state, seat), legal)
        return self._step(seat, action)

    def seat_options(self) -> list[str]:
        """The ``rallye play`` options that seat the people and the bots as here."""
        return seat_options(self.human_seats, self.bot_names)

    def deal_options(self) -> list[str]:
        """The ``rallye play GAME`` options (but ``--seed``) that deal this game again; a
        game's subclass adds its settings to the seats."""
        return self.seat_options()

    def save(self, path: str | Path) -> Path:
        p = Path(path)
        write_jsonl(p, self._lines)
        return p


def _header_int(lines: Sequence[Line], name: str) -> int:
    value: Any = lines[0][name]  # a record header written by the game itself
    return int(value)


__all__ = ["GameSession", "Played", "Session"]
