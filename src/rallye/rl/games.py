"""What an environment needs to know about a game: the game's face, and what is the
environments' own.

The PettingZoo and Gymnasium environments in this package are written against
:class:`GameAdapter` (states in, numbers out), never against one game's engine. An adapter
takes everything that is the game's from its face (:class:`rallye.core.game.Game`: a new
game, whose turn, the legal actions, applying one, a seat's view, the end) and adds what
is the environments' own:

* the *episode* (one hand or a whole match; ``episode_over``),
* the *reward* (``rewards``, ``transition``; documented on each adapter),
* the *encoding*: a view-only observation (``observe``), a legal-action mask (``mask``) and
  the action codes a policy picks (``decode``, ``encode``),
* a text picture of the table (``render``).

So a new game is its face, an encoding module and one adapter class (``rl/<game>/``), and
a thin module naming it. States stay the engine's immutable values; the environments hold
the current one. ``decode`` and ``encode`` take the state the code is meant for: a game
whose compact action codes depend on the position (Knight Rider's moves) needs it; Mille
Bornes ignores it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import numpy as np

from rallye.core.game import Game, Settings

S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V")

EPISODES = ("hand", "match")
REWARDS = ("score", "win")

#: per-seat rewards of one step (``None``: zero for everyone, the usual step)
Rewards = list[float] | None


class GameAdapter(ABC, Generic[S, A, V]):
    """The game-specific half of every environment: the game's face (``face``) with one
    table's settings, and the environments' episode, reward and encoding.

    ``S``, ``A``, ``V`` are the game's state, action and view types (its face's).
    """

    #: the game's key (``face.key``: "mille", "knightrider"), also the bots' game
    game: str
    n_players: int
    #: the size of the action codes' space (the mask's length)
    num_actions: int
    #: the observation's length and the bounds of its values
    obs_size: int
    obs_low: float
    obs_high: float

    def __init__(self, face: Game[S, A, V], settings: Settings) -> None:
        self.face = face
        self.settings = settings
        self.game = face.key
        self.n_players = face.players(settings)

    # -- the game's, from its face -------------------------------------------------------
    def new_state(self, seed: int) -> S:
        """The game the engine deals from ``seed`` (the same as ``rallye play … --seed``)."""
        return self.face.new(self.settings, seed)

    def current_player(self, state: S) -> int | None:
        return self.face.current_player(state)

    def legal_actions(self, state: S) -> Sequence[A]:
        return self.face.legal_actions(state)

    def view(self, state: S, seat: int) -> V:
        return self.face.view_for(state, seat)

    def apply(self, state: S, action: A) -> S:
        return self.face.apply(state, action)

    def episode_over(self, first: S, state: S) -> bool:
        """Whether the episode that started at ``first`` is over at ``state`` (by default:
        the game is)."""
        return self.face.is_over(state)

    # -- the environments' own -----------------------------------------------------------
    @abstractmethod
    def mask(self, state: S) -> np.ndarray:
        """The legal-action mask (int8, ``num_actions``) of the player to act."""

    @abstractmethod
    def observe(self, state: S, seat: int) -> np.ndarray:
        """``seat``'s observation (float32, ``obs_size``), from its view only."""

    @abstractmethod
    def decode(self, state: S, code: int) -> A:
        """The action of the player to act in ``state`` that ``code`` stands for."""

    @abstractmethod
    def encode(self, state: S, action: A) -> int:
        """``action``'s code in ``state`` (``decode`` reads it back)."""

    @abstractmethod
    def rewards(self, first: S, before: S, after: S) -> Rewards:
        """Per-seat rewards earned by the step ``before -> after`` (``None``: all zero)."""

    @abstractmethod
    def transition(self, first: S, before: S, after: S) -> tuple[Rewards, int]:
        """``(rewards(first, before, after), seat to act)`` of one step, the seat ``-1``
        when ``episode_over(first, after)``: what the environments need after each
        ``apply``, in one call."""

    @abstractmethod
    def render(self, state: S, seat: int | None) -> str:
        """A short text picture of the table from ``seat``'s view (``None``: the acting seat's)."""


def check_choice(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}")


def check_players(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be an integer, not {players!r}")
    return players


def _adapters() -> dict[str, Callable[..., GameAdapter[Any, Any, Any]]]:
    # imported here: each adapter module imports this one
    from rallye.rl.knightrider.adapter import KnightRiderAdapter
    from rallye.rl.mille.adapter import MilleAdapter

    return {"mille": MilleAdapter, "knightrider": KnightRiderAdapter}


def make_adapter(game: str | Game[Any, Any, Any], **options: Any) -> GameAdapter[Any, Any, Any]:
    """The adapter for ``game`` (a key of :data:`rallye.games.GAMES`, "mille" or
    "knightrider", or its face), with that adapter's keyword ``options``."""
    adapters = _adapters()
    key = game if isinstance(game, str) else game.key
    if key not in adapters:
        raise ValueError(f"no environment adapter for game {key!r}; adapters exist for: {', '.join(adapters)}")
    return adapters[key](**options)
