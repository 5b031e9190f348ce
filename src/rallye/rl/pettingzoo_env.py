"""A PettingZoo AEC environment over any :class:`~rallye.rl.games.GameAdapter`.

Agents are ``player_0 … player_{n-1}`` (seats). Observations are dicts
``{"observation": float32 Box, "action_mask": int8 Box}``; the mask is all zeros for an
agent that is not to act. ``reset(seed=s)`` starts the game the engine starts from seed
``s`` (the same deal as ``rallye play … --seed s``) and re-seeds the stream of seeds that
later ``reset()`` calls without a seed draw from; it rebuilds nothing but the game state.

``step`` with an illegal action raises the engine's ``IllegalAction`` (the raw env keeps
no illegal-action policy); ``env()`` in the game modules wraps it in PettingZoo's
``TerminateIllegalWrapper`` (illegal move: that agent gets the wrapper's penalty and the
episode ends) — the usual PettingZoo classic-games policy.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from rallye.rl.games import GameAdapter


class RallyeAECEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "is_parallelizable": False}  # noqa: RUF012 - replaced per instance

    def __init__(self, adapter: GameAdapter, render_mode: str | None = None) -> None:
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
        self._state: Any = None
        self._first: Any = None
        self._zero_mask = np.zeros(adapter.num_actions, dtype=np.int8)

    # -- PettingZoo API ----------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def state_value(self) -> Any:
        """The engine state (for tests, oracles and debugging; never for a policy)."""
        return self._state

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
        self.agent_selection = self.possible_agents[self._current()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        ad = self.adapter
        acting = not self.terminations[agent] and ad.current_player(self._state) == seat
        mask = ad.mask(self._state) if acting else self._zero_mask.copy()
        return {"observation": ad.observe(self._state, seat), "action_mask": mask}

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
        self._cumulative_rewards[agent] = 0.0
        gained = ad.rewards(self._first, before, after)
        for a, seat in self._seat.items():
            self.rewards[a] = gained[seat] if gained else 0.0
        if ad.episode_over(self._first, after):
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self._current()]
        self._accumulate_rewards()
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
        self._state = None

    def _current(self) -> int:
        seat = self.adapter.current_player(self._state)
        if seat is None:  # pragma: no cover - episode_over covers a finished match
            raise RuntimeError("no player to act in a running episode")
        return int(seat)


def observation_space(adapter: GameAdapter) -> spaces.Dict:
    """``{"observation": Box(float32), "action_mask": Box(int8)}`` for this game."""
    return spaces.Dict(
        {
            "observation": spaces.Box(adapter.obs_low, adapter.obs_high, (adapter.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (adapter.num_actions,), np.int8),
        }
    )
