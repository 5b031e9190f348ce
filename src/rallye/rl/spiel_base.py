"""What the two OpenSpiel games share: their game type's shape (:func:`game_type`), the
terminal returns (:class:`DecisionShortcuts`), the observer (:class:`SpielObserver`) and
Python shortcuts at decision nodes.

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

from typing import Any, Protocol

import numpy as np
import pyspiel


def game_type(short_name: str, long_name: str, max_players: int, parameters: dict[str, Any]) -> pyspiel.GameType:
    """A rallye game for OpenSpiel: sequential, every chance event an explicit chance node,
    imperfect information, zero-sum returns at the end only, 2 to ``max_players`` players,
    the observation and information-state tensors and strings of one player's view."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class DecisionShortcuts:
    """Mixin for a Python ``pyspiel.State`` that defines ``current_player`` and
    ``_legal_actions`` (and whose game has ``py_observer``), and holds its data in ``_d``
    with ``_d.returns`` (``None`` until the game ends, then the returns by seat)."""

    def is_terminal(self) -> bool:
        return self._d.returns is not None  # type: ignore[attr-defined]

    def returns(self) -> list[float]:
        r = self._d.returns  # type: ignore[attr-defined]
        me: Any = self
        return list(r) if r is not None else [0.0] * me.num_players()

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


class Observed(Protocol):
    """A game state as :class:`SpielObserver` reads it."""

    def fill_tensor(self, player: int, out: np.ndarray, history: bool) -> None: ...

    def info_string(self, player: int) -> str: ...

    def obs_string(self, player: int) -> str: ...


class SpielObserver:
    """Observation and information-state tensors and strings (OpenSpiel's PyObserver
    interface) of one player's view: ``dict["observation"]`` (``obs_size`` floats) and,
    for the information state, a summary of the history after it (``history``: its name
    in ``dict`` and its shape). The state fills them (``fill_tensor``) and writes the
    strings (``info_string``, ``obs_string``)."""

    def __init__(
        self, iig_obs_type: Any, params: Any, short_name: str, obs_size: int, history: tuple[str, tuple[int, ...]]
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError(f"{short_name} observes one player's view only (private_info=SINGLE_PLAYER)")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        name, shape = history
        size = obs_size + (int(np.prod(shape)) if self.perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:obs_size]}
        if self.perfect_recall:
            self.dict[name] = self.tensor[obs_size:].reshape(shape)

    def set_from(self, state: Observed, player: int) -> None:
        state.fill_tensor(player, self.tensor, self.perfect_recall)

    def string_from(self, state: Observed, player: int) -> str:
        return state.info_string(player) if self.perfect_recall else state.obs_string(player)
