"""What the two OpenSpiel games share: Python shortcuts at decision nodes.

Called from Python, pyspiel's ``legal_actions`` and ``observation_tensor`` go through C++
and back into the Python state four or five times (``current_player``, ``is_terminal``,
...), and ``observation_tensor`` also builds a new initial state to learn the tensor's
size. :class:`DecisionShortcuts`, put before ``pyspiel.State`` in a Python game state's
bases, returns the same values directly at a decision node; anything else (chance and
terminal nodes, other players, bad seats) is left to pyspiel, with its own errors. C++
callers never see the shortcuts (they use the C++ methods, which give the same values;
the tests compare both over whole games).
"""

from __future__ import annotations

from typing import Any

import pyspiel


class DecisionShortcuts:
    """Mixin for a Python ``pyspiel.State`` that defines ``current_player`` and
    ``_legal_actions`` (and whose game has ``py_observer``)."""

    def legal_actions(self, player: int | None = None) -> list[int]:
        me: Any = self
        seat = me.current_player()
        if seat >= 0 and (player is None or player == seat):
            return me._legal_actions(seat)  # type: ignore[no-any-return]
        base: Any = super()
        return base.legal_actions() if player is None else base.legal_actions(player)  # type: ignore[no-any-return]

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return self._tensor(player, perfect_recall=False)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return self._tensor(player, perfect_recall=True)

    def _tensor(self, player: int | None, perfect_recall: bool) -> list[float]:
        me: Any = self
        p = player
        if p is None:
            seat = me.current_player()
            p = seat if seat >= 0 else None
        if p is None or not 0 <= p < me.num_players():  # pyspiel's own error (or chance/terminal player)
            base = pyspiel.State.information_state_tensor if perfect_recall else pyspiel.State.observation_tensor
            return base(self) if player is None else base(self, player)  # type: ignore[no-any-return]
        obs = me.get_game().py_observer(perfect_recall)
        obs.set_from(self, p)
        return obs.tensor.tolist()  # type: ignore[no-any-return]


class ObserverCache:
    """Mixin for a Python ``pyspiel.Game`` with ``make_py_observer``: one observer of each
    kind per game, made on first use, for the :class:`DecisionShortcuts` to fill."""

    def py_observer(self, perfect_recall: bool) -> Any:
        """This game's own observer of that kind (made once): what ``observation_tensor``
        and ``information_state_tensor`` called from Python fill."""
        observers = self.__dict__.setdefault("_py_observers", {})
        obs = observers.get(perfect_recall)
        if obs is None:
            me: Any = self
            obs = observers[perfect_recall] = me.make_py_observer(
                pyspiel.IIGObservationType(perfect_recall=perfect_recall)
            )
        return obs
