"""Knight Rider as a PettingZoo AEC environment (``rallye.rl.knightrider_v0``).

>>> from rallye.rl import knightrider_v0
>>> e = knightrider_v0.env(players=3, turn_limit=50)
>>> e.reset(seed=7)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].shape, int(obs["action_mask"].sum()) > 0
((67005,), (15753,), True)

Arguments: ``players`` (2..5, default 2), ``reward`` (``"win"``, defined in
:class:`rallye.rl.knightrider.adapter.KnightRiderAdapter`), ``render_mode`` (``"ansi"`` or ``"human"``)
and any :class:`rallye.knightrider.Options` field as a keyword: ``quick_build`` (default
``True`` here: the engine lays the track and the episode is the chase), ``turn_limit``
(default 200 here; ``None`` plays until someone wins), ``rolled_start``, ``tour``,
``deal_spares``, ``shuffle_cards``, ``tiles_path``, ``escape_path``. With
``quick_build=False`` the players lay the tiles themselves (``place`` actions).

Observations: ``rallye.rl.knightrider.encoding`` (version 1: 29 planes of 48 × 48 cells and 189
scalars); with ``obs_version=2``, ``rallye.rl.knightrider.compact`` (the same values on the 16 × 16
squares: 96 planes and the same scalars, 24,765 floats); actions: ``rallye.rl.knightrider.encoding``'s compact
codes (``NUM_ACTIONS`` = 15,753), one per legal engine action in every state.
``reset(seed=s)`` plays the game ``rallye`` plays from seed ``s`` (with a quick build, the
track is laid from that seed too); it rebuilds nothing but the game state.

``raw_env`` raises ``IllegalAction`` on an illegal action; ``env`` wraps it in
:class:`~rallye.rl.pettingzoo_env.RallyeWrapper`, which behaves as PettingZoo's
``TerminateIllegalWrapper`` (penalty ``illegal_reward``, default -1, and the episode ends),
``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper`` stacked, in one layer.
"""

from __future__ import annotations

from typing import Any

from rallye.knightrider import Action, State
from rallye.rl.knightrider.adapter import KnightRiderAdapter
from rallye.rl.pettingzoo_env import RallyeAECEnv, RallyeWrapper


def raw_env(
    players: int = 2, reward: str = "win", render_mode: str | None = None, **options: Any
) -> RallyeAECEnv[State, Action]:
    return RallyeAECEnv(KnightRiderAdapter(players, reward, **options), render_mode=render_mode)


def env(illegal_reward: float = -1.0, **kwargs: Any) -> RallyeWrapper:
    return RallyeWrapper(raw_env(**kwargs), illegal_reward=illegal_reward)
