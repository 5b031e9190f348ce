"""A PettingZoo AEC environment over any :class:`~rallye.rl.games.GameAdapter`.

Agents are ``player_0 … player_{n-1}`` (seats). Observations are dicts
``{"observation": float32 Box, "action_mask": int8 Box}``; the mask is all zeros for an
agent that is not to act. ``reset(seed=s)`` starts the game the engine starts from seed
``s`` (the same deal as ``rallye play … --seed s``) and re-seeds the stream of seeds that
later ``reset()`` calls without a seed draw from; it rebuilds nothing but the game state.

``step`` with an illegal action raises the engine's ``IllegalAction`` (the raw env keeps
no illegal-action policy); ``env()`` in the game modules wraps it in :class:`RallyeWrapper`,
which does what PettingZoo's classic games get from ``TerminateIllegalWrapper``,
``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper`` (an illegal move: that agent gets
the penalty and the episode ends), in one layer instead of three.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Generic, TypeVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from rallye.rl.games import GameAdapter

S = TypeVar("S")
A = TypeVar("A")


class RallyeAECEnv(AECEnv, Generic[S, A]):  # type: ignore[misc]  # PettingZoo ships no type information
    """The environment of one game's adapter (``S``, ``A``: the game's state and action)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "is_parallelizable": False}  # noqa: RUF012 - replaced per instance

    def __init__(self, adapter: GameAdapter[S, A, Any], render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.adapter = adapter
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"rallye_{adapter.game}_v0"}
        self.possible_agents = [f"player_{i}" for i in range(adapter.n_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        # One space object per agent, built once (api_test checks they are cached).
        self.observation_spaces = {a: observation_space(adapter) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(adapter.num_actions) for a in self.possible_agents}
        self._seeds = np.random.default_rng()
        # the game's state and the episode's first (None until reset() and after close())
        self._state: S = None  # type: ignore[assignment]
        self._first: S = None  # type: ignore[assignment]
        self._zero_mask = np.zeros(adapter.num_actions, dtype=np.int8)
        self._to_act = -1  # the seat to act, -1 once the episode is over
        self._paid = False  # the last step paid a reward (self.rewards holds non-zeros)

    # -- PettingZoo API ----------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def state_value(self) -> S | None:
        """The engine state (for tests, oracles and debugging; never for a policy)."""
        return self._state

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """PettingZoo's ``AECIterable`` as a generator (the same checks, a cheaper step)."""
        return _agent_iter(self, max_iter)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeds.integers(2**63))
        self._state = self._first = self.adapter.new_state(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._to_act = self._current()
        self._paid = False
        self.agent_selection = self.possible_agents[self._to_act]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        ad = self.adapter
        state = self._state
        acting = seat == self._to_act and not self.terminations[agent]
        mask = ad.mask(state) if acting else self._zero_mask.copy()
        return {"observation": ad.observe(state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: step(None) is only for agents whose episode is over")
        ad = self.adapter
        before = self._state
        after = ad.apply(before, ad.decode(before, int(action)))
        self._state = after
        cumulative = self._cumulative_rewards
        cumulative[agent] = 0.0
        gained, to_act = ad.transition(self._first, before, after)
        if gained:  # (the usual step pays nothing and leaves the dicts as they are)
            rewards = self.rewards
            for a, seat in self._seat.items():
                rewards[a] = r = gained[seat]
                cumulative[a] += r
            self._paid = True
        elif self._paid:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._paid = False
        self._to_act = to_act
        if to_act < 0:  # the episode is over
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[to_act]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = self.adapter.render(self._state, None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._state = None  # type: ignore[assignment]

    def _current(self) -> int:
        seat = self.adapter.current_player(self._state)
        if seat is None:  # pragma: no cover - episode_over covers a finished match
            raise RuntimeError("no player to act in a running episode")
        return int(seat)


def _agent_iter(env: RallyeAECEnv[Any, Any], max_iter: int) -> Iterator[str]:
    while env.agents and max_iter > 0:
        max_iter -= 1
        yield env.agent_selection


def observation_space(adapter: GameAdapter[Any, Any, Any]) -> spaces.Dict:
    """``{"observation": Box(float32), "action_mask": Box(int8)}`` for this game."""
    return spaces.Dict(
        {
            "observation": spaces.Box(adapter.obs_low, adapter.obs_high, (adapter.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (adapter.num_actions,), np.int8),
        }
    )


class RallyeWrapper(OrderEnforcingWrapper):  # type: ignore[misc]  # PettingZoo ships no type information
    """PettingZoo's three classic-game wrappers in one layer over a :class:`RallyeAECEnv`.

    * ``OrderEnforcingWrapper`` (this class is one): calls before ``reset`` are errors, a
      step after the episode is a warning, ``agent_iter`` checks that every agent stepped;
    * ``AssertOutOfBoundsWrapper``: an action outside the action space (or ``None`` for an
      agent still playing) is an ``AssertionError``, as there;
    * ``TerminateIllegalWrapper``: an action whose ``action_mask`` entry is 0 ends the
      episode for everyone, the mover gets ``illegal_reward`` (PettingZoo logs a warning).

    The same behaviour, without three ``__getattr__`` hops on every attribute read.
    """

    def __init__(self, env: RallyeAECEnv[Any, Any], illegal_reward: float = -1.0) -> None:
        super().__init__(env)
        self._raw = env
        self._illegal_value = float(illegal_reward)
        self._n_actions = env.adapter.num_actions
        self._prev_mask: np.ndarray | None = None
        self._terminated = False  # ended by an illegal move

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._terminated = False
        self._prev_mask = None
        super().reset(seed=seed, options=options)

    # ``agents`` and ``agent_selection`` read on every step of ``agent_iter``: read from the
    # raw env directly instead of through two ``__getattr__`` fallbacks (before ``reset`` the
    # AttributeError falls back to OrderEnforcingWrapper's, which names the attribute).
    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self._raw.agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self._raw.agent_selection

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """OrderEnforcingWrapper's iterable as a generator (the same checks, a cheaper step)."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return self._ordered_iter(max_iter)

    def _ordered_iter(self, max_iter: int) -> Iterator[str]:
        raw = self._raw
        while raw.agents and max_iter > 0:
            max_iter -= 1
            assert self._has_updated, "need to call step() or reset() in a loop over `agent_iter`"  # type: ignore[has-type]
            self._has_updated = False
            yield raw.agent_selection

    def observe(self, agent: str) -> dict[str, np.ndarray] | None:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        raw = self._raw
        obs = raw.observe(agent)
        if agent == raw.agent_selection:
            self._prev_mask = obs["action_mask"]
        return obs

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        raw = self._raw
        agent = raw.agent_selection
        obs = self.observe(agent) if observe else None
        return obs, raw._cumulative_rewards[agent], raw.terminations[agent], raw.truncations[agent], raw.infos[agent]

    def step(self, action: Any) -> None:
        raw = self._raw
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not raw.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = raw.agent_selection
        dead = raw.terminations[agent] or raw.truncations[agent]
        if not (action is None and dead):
            in_space = (
                0 <= action < self._n_actions if type(action) is int else raw.action_space(agent).contains(action)
            )
            assert in_space, "action is not in action space"
        mask = self._prev_mask
        if mask is None:
            mask = raw.observe(agent)["action_mask"]
        self._prev_mask = None
        if self._terminated and dead:
            raw._was_dead_step(action)
        elif not dead and not mask[action]:
            EnvLogger.warn_on_illegal_move()
            raw._cumulative_rewards[agent] = 0
            raw.terminations = dict.fromkeys(raw.agents, True)
            raw.truncations = dict.fromkeys(raw.agents, True)
            raw.rewards = dict.fromkeys(raw.truncations, 0)
            raw.rewards[agent] = self._illegal_value
            raw._accumulate_rewards()
            raw._deads_step_first()
            self._terminated = True
        else:
            raw.step(action)
