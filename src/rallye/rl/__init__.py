"""Research environments for the rallye games (needs ``pip install rallye[rl]``).

* ``rallye.rl.mille_v0``, ``rallye.rl.knightrider_v0`` — PettingZoo AEC environments
  (``env()``, ``raw_env()``);
* ``gymnasium.make("rallye/Mille-v0", ...)``, ``gymnasium.make("rallye/KnightRider-v0", ...)``
  — one learner against rallye bots (registered when this package is imported;
  ``rallye.rl.gym_env``);
* ``rallye.rl.mille.spiel``, ``rallye.rl.knightrider.spiel`` — the games for OpenSpiel
  (``python_rallye_mille``, ``python_rallye_knightrider``);
* ``rallye.rl.mille.encoding``, ``rallye.rl.knightrider.encoding`` — the observation encodings,
  action masks and oracle encodings;
* ``rallye.rl.games`` — the adapter the environments are written against (a game's face
  plus episodes, rewards and encodings); each game's in ``rallye.rl.mille.adapter``,
  ``rallye.rl.knightrider.adapter``.

Importing ``rallye`` or a game never imports this package, NumPy or the frameworks.
"""

from __future__ import annotations

import gymnasium as _gym

if "rallye/Mille-v0" not in _gym.registry:
    _gym.register(id="rallye/Mille-v0", entry_point="rallye.rl.gym_env:make_mille")
if "rallye/KnightRider-v0" not in _gym.registry:
    _gym.register(id="rallye/KnightRider-v0", entry_point="rallye.rl.gym_env:make_knightrider")
