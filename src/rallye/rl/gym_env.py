"""A single-agent Gymnasium environment over any :class:`~rallye.rl.games.GameAdapter`:
the learner holds one seat, rallye bots (``rallye.agents.base.make_agent``) hold the others.

Registered as ``rallye/Mille-v0`` and ``rallye/KnightRider-v0`` when ``rallye.rl`` is
imported::

    import gymnasium as gym, rallye.rl
    env = gym.make("rallye/Mille-v0", edition="hu", players=3, opponents="random")
    env = gym.make("rallye/KnightRider-v0", players=3, turn_limit=100, opponents="heuristic")

Keyword arguments: the game's (Mille: ``edition``, ``players``, ``episode``, ``reward``, see
:class:`rallye.rl.mille.adapter.MilleAdapter`; Knight Rider: ``players``, ``reward``, ``obs_version``
(1 or 2) and any ``Options`` field, see :class:`rallye.rl.knightrider.adapter.KnightRiderAdapter`),
``seat`` (the learner's seat, default 0),
``opponents`` (a bot name for every other seat, or a comma-separated list in seat order;
default ``"random"``; the search levels play their whole count budgets here, as in
tournaments, so a seed gives the same episode on any machine), ``illegal`` (the
illegal-action policy, below) and ``render_mode``.

Observation: ``{"observation": float32 Box, "action_mask": int8 Box}``; ``info`` also holds
``"action_mask"``. One ``step`` is the learner's decision followed by the bots' decisions
until the learner is to act again or the episode ends; ``reward`` is the learner's (its
side's) reward summed over those decisions.

**Illegal actions.** :class:`MilleEnv` (:class:`KnightRiderEnv`) itself raises the engine's ``IllegalAction``.
The policy lives in wrappers (``rallye.rl.wrappers``): ``gym.make`` applies
:class:`~rallye.rl.wrappers.IllegalActionPenalty` when ``illegal="penalty"`` (the default:
the move is refused, the episode ends, reward -1, ``info["illegal_action"] = True``), and
nothing when ``illegal="raise"``.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import gymnasium as gym
import numpy as np

from rallye.agents.base import Agent, make_agent
from rallye.knightrider import Action as KRAction
from rallye.knightrider import State as KRState
from rallye.mille import Action as MilleAction
from rallye.mille import Edition, MilleState
from rallye.rl.games import GameAdapter
from rallye.rl.knightrider.adapter import KnightRiderAdapter
from rallye.rl.mille.adapter import MilleAdapter
from rallye.rl.pettingzoo_env import observation_space

S = TypeVar("S")
A = TypeVar("A")


class RallyeGymEnv(gym.Env[dict[str, np.ndarray], np.int64], Generic[S, A]):
    """One learner against bots in the game of ``adapter`` (``S``, ``A``: its state and action)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012 - gymnasium declares it an instance attribute

    def __init__(
        self,
        adapter: GameAdapter[S, A, Any],
        seat: int = 0,
        opponents: str | list[str] = "random",
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        n = adapter.n_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be a seat number 0..{n - 1}, not {seat!r}")
        names = [s.strip() for s in opponents.split(",")] if isinstance(opponents, str) else list(opponents)
        if not names or not all(names):
            raise ValueError(f"opponents must name a bot, not {opponents!r}")
        while len(names) < n - 1:
            names.append(names[-1])
        if len(names) != n - 1:
            raise ValueError(f"{len(names)} opponents named for {n - 1} other seats")
        self.adapter = adapter
        self.seat = seat
        self.render_mode = render_mode
        self.opponent_names = names
        self.others = [p for p in range(n) if p != seat]
        self.bots: dict[int, Agent] = {
            p: make_agent(adapter.game, nm, 0, exact=True) for p, nm in zip(self.others, names, strict=True)
        }
        self.observation_space = observation_space(adapter)  # type: ignore[assignment]
        self.action_space = gym.spaces.Discrete(adapter.num_actions)
        # the game's state and the episode's first (None until reset())
        self._state: S = None  # type: ignore[assignment]
        self._first: S = None  # type: ignore[assignment]
        self._to_act = -1  # the seat to act, -1 once the episode is over

    @property
    def state_value(self) -> S | None:
        """The engine state (for tests, oracles and debugging; never for a policy)."""
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = int(rng.integers(2**63))
        # Fresh bots seeded from the same stream: a seeded reset replays the same episode.
        self.bots = {
            p: make_agent(self.adapter.game, nm, int(rng.integers(2**31)), exact=True)
            for p, nm in zip(self.others, self.opponent_names, strict=True)
        }
        ad = self.adapter
        self._state = self._first = state = ad.new_state(game_seed)
        seat = ad.current_player(state)
        self._to_act = -1 if seat is None or ad.episode_over(state, state) else seat
        # The bots seated before the learner move first (nothing is scored that early).
        self._play_others()
        return self._observation()

    def step(self, action: int | np.int64) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._state is None:
            raise RuntimeError("call reset() before step()")
        if self._to_act < 0:
            raise RuntimeError("the episode is over: call reset()")
        ad = self.adapter
        before = self._state
        self._state = after = ad.apply(before, ad.decode(before, int(action)))
        gained, self._to_act = ad.transition(self._first, before, after)
        reward = float(gained[self.seat]) if gained else 0.0
        reward += self._play_others()
        if self.render_mode == "human":
            print(self.render_text())
        obs, info = self._observation()
        return obs, reward, self._to_act < 0, False, info

    def render(self) -> str | None:
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = self.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def render_text(self) -> str:
        return self.adapter.render(self._state, self.seat)

    # -- helpers -----------------------------------------------------------------------
    def _play_others(self) -> float:
        """The bots' decisions until the learner is to act or the episode ends; their sum of
        the learner's rewards."""
        ad = self.adapter
        seat, bots, first = self.seat, self.bots, self._first
        total = 0.0
        p = self._to_act
        state = self._state
        while p >= 0 and p != seat:
            action = bots[p].choose(ad.view(state, p), ad.legal_actions(state))
            self._state = after = ad.apply(state, action)
            gained, self._to_act = ad.transition(first, state, after)
            if gained:
                total += float(gained[seat])
            state, p = after, self._to_act
        return total

    def _mask(self) -> np.ndarray:
        if self._to_act < 0:
            return np.zeros(self.adapter.num_actions, dtype=np.int8)
        return self.adapter.mask(self._state)

    def _observation(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """The learner's observation and the info dict (the mask computed once, a copy in ``info``)."""
        mask = self._mask()
        return {"observation": self.adapter.observe(self._state, self.seat), "action_mask": mask}, {
            "action_mask": mask.copy()
        }


class MilleEnv(RallyeGymEnv[MilleState, MilleAction]):
    """Mille Bornes, one learner against rallye bots (see the module docstring)."""

    def __init__(
        self,
        edition: str | Edition = "wm2006",
        players: int = 2,
        episode: str = "hand",
        reward: str = "score",
        seat: int = 0,
        opponents: str | list[str] = "random",
        render_mode: str | None = None,
    ) -> None:
        super().__init__(MilleAdapter(edition, players, episode, reward),
                         seat=seat, opponents=opponents, render_mode=render_mode)  # fmt: skip


class KnightRiderEnv(RallyeGymEnv[KRState, KRAction]):
    """Knight Rider, one learner against rallye bots (``rallye/KnightRider-v0``).

    ``players`` (2..5), ``reward``, ``seat``, ``opponents``, ``render_mode`` as above;
    ``obs_version`` 1 (default, :mod:`rallye.rl.knightrider.encoding`) or 2 (:mod:`rallye.rl.knightrider.compact`);
    every other keyword is a :class:`rallye.knightrider.Options` field (defaults
    ``quick_build=True``, ``turn_limit=200``; see :class:`rallye.rl.knightrider.adapter.KnightRiderAdapter`).
    """

    def __init__(
        self,
        players: int = 2,
        reward: str = "win",
        seat: int = 0,
        opponents: str | list[str] = "random",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__(KnightRiderAdapter(players, reward, **options),
                         seat=seat, opponents=opponents, render_mode=render_mode)  # fmt: skip


def make_mille(illegal: str = "penalty", illegal_reward: float = -1.0, **kwargs: Any) -> gym.Env[Any, Any]:
    """The ``rallye/Mille-v0`` entry point: :class:`MilleEnv` under the chosen illegal-action policy."""
    return _under_policy(MilleEnv, illegal, illegal_reward, kwargs)


def make_knightrider(illegal: str = "penalty", illegal_reward: float = -1.0, **kwargs: Any) -> gym.Env[Any, Any]:
    """The ``rallye/KnightRider-v0`` entry point: :class:`KnightRiderEnv` under the chosen
    illegal-action policy (as ``make_mille``)."""
    return _under_policy(KnightRiderEnv, illegal, illegal_reward, kwargs)


def _under_policy(
    make: type[RallyeGymEnv[Any, Any]], illegal: str, illegal_reward: float, kwargs: dict[str, Any]
) -> gym.Env[Any, Any]:
    from rallye.rl.wrappers import IllegalActionPenalty

    if illegal not in ("penalty", "raise"):
        raise ValueError(f"illegal must be 'penalty' or 'raise', not {illegal!r}")
    env: gym.Env[Any, Any] = make(**kwargs)
    if illegal == "penalty":
        env = IllegalActionPenalty(env, penalty=illegal_reward)
    return env
