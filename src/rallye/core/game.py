"""The contract every rallye game implements.

A game is a set of pure functions over immutable states:

* ``legal_actions(state)`` – every action the player to act may take, in a fixed,
  documented order (the single source of truth for legality, RL masks and bots);
* ``apply(state, action)`` – the next state; the input state is never changed, and an
  illegal action raises :class:`~rallye.core.errors.IllegalAction` naming the rule;
* ``view_for(state, player)`` – what that player may see; the only way secrets leave;
* ``current_player(state)`` / ``is_over(state)``.

Actions are small hashable values with a text notation (``str(action)``), a parser
(``parse_action``), and an integer code for RL (``encode_action`` / ``decode_action``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V", covariant=True)


class GameRules(Protocol[S, A, V]):  # pragma: no cover - a protocol
    """The functions a game module provides (structural, checked by mypy)."""

    def legal_actions(self, state: S, /) -> Sequence[A]: ...

    def apply(self, state: S, action: A, /) -> S: ...

    def view_for(self, state: S, player: int, /) -> V: ...

    def current_player(self, state: S, /) -> int | None: ...

    def is_over(self, state: S, /) -> bool: ...


class Agent(Protocol[A]):  # pragma: no cover - a protocol
    """A bot: chooses one of the legal actions from a view (never from a state)."""

    name: str

    def choose(self, view: object, legal: Sequence[A], /) -> A: ...
