"""Mille Bornes as a PettingZoo AEC environment (``rallye.rl.mille_v0``).

>>> from rallye.rl import mille_v0
>>> e = mille_v0.env(edition="hu", players=3)
>>> e.reset(seed=7)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum()) > 0
('player_0', (270,), True)

Arguments: ``edition`` (key, alias or :class:`~rallye.mille.edition.Edition`; default
``"wm2006"``), ``players`` (default 2; team editions put 4 and 6 players in teams),
``episode`` (``"hand"`` default, or ``"match"``), ``reward`` (``"score"`` default, or
``"win"``; both defined in :class:`rallye.rl.mille.adapter.MilleAdapter`), ``render_mode``
(``"ansi"`` or ``"human"``). Observations: ``rallye.rl.mille.encoding`` (version
``OBS_VERSION``); actions: the engine's 70 codes (``rallye.mille.actions``; attack codes
name *absolute* sides).

``raw_env`` raises ``IllegalAction`` on an illegal action; ``env`` wraps it in
:class:`~rallye.rl.pettingzoo_env.RallyeWrapper`, which behaves as PettingZoo's
``TerminateIllegalWrapper`` (penalty ``illegal_reward``, default -1, and the episode ends),
``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper`` stacked, in one layer.
"""

from __future__ import annotations

from typing import Any

from rallye.mille import Action, Edition, MilleState
from rallye.rl.mille.adapter import MilleAdapter
from rallye.rl.pettingzoo_env import RallyeAECEnv, RallyeWrapper


def raw_env(
    edition: str | Edition = "wm2006",
    players: int = 2,
    episode: str = "hand",
    reward: str = "score",
    render_mode: str | None = None,
) -> RallyeAECEnv[MilleState, Action]:
    return RallyeAECEnv(MilleAdapter(edition, players, episode, reward), render_mode=render_mode)


def env(illegal_reward: float = -1.0, **kwargs: Any) -> RallyeWrapper:
    return RallyeWrapper(raw_env(**kwargs), illegal_reward=illegal_reward)
