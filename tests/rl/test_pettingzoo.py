"""What the PettingZoo environments of both games do alike (each game's own behaviour:
``tests/rl/mille/test_pettingzoo.py``, ``tests/rl/knightrider/test_pettingzoo.py``), and
that an environment runs each game of ``rallye.games`` through its face alone (issue #60)."""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from rallye import knightrider as kr
from rallye import mille
from rallye.core.errors import IllegalAction
from rallye.games import GAMES
from rallye.rl import knightrider_v0, mille_v0
from rallye.rl.games import make_adapter
from rallye.rl.pettingzoo_env import RallyeAECEnv

from .helpers import play_aec

MODULES: dict[str, ModuleType] = {"mille": mille_v0, "knightrider": knightrider_v0}
#: the game ``raw_env()`` starts from seed 3 with its default arguments
FIRST: dict[str, Callable[[], object]] = {
    "mille": lambda: mille.new_match(mille.get_edition("wm2006"), 2, 3),
    "knightrider": lambda: kr.new_game(2, 3, kr.Options(quick_build=True, turn_limit=200)),
}
#: what the engine's refusal of an illegal action says, in part
REFUSAL = {"mille": "illegal 'play", "knightrider": "not legal now"}


def _first_obs(e: Any, seed: int) -> np.ndarray:
    e.reset(seed=seed)
    return e.observe(e.agent_selection)["observation"].copy()


@pytest.mark.parametrize("game", list(MODULES))
def test_reset_reseeds_without_rebuilding(game: str) -> None:
    e = MODULES[game].raw_env()
    spaces_before = e.observation_space("player_0")
    a = _first_obs(e, 3)
    assert e.state_value == FIRST[game]()
    b = _first_obs(e, 4)
    assert not np.array_equal(a, b)
    assert np.array_equal(_first_obs(e, 3), a)
    assert e.observation_space("player_0") is spaces_before
    # reset() without a seed continues the stream the last seed started
    e.reset(seed=8)
    e.reset()
    c = e.observe(e.agent_selection)["observation"].copy()
    e.reset(seed=8)
    e.reset()
    assert np.array_equal(e.observe(e.agent_selection)["observation"], c)


@pytest.mark.parametrize("game", list(MODULES))
def test_raw_env_raises_on_an_illegal_action(game: str) -> None:
    e = MODULES[game].raw_env()
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalAction, match=REFUSAL[game]):
        e.step(illegal)


@pytest.mark.parametrize("game", list(MODULES))
def test_wrapped_env_ends_the_episode_with_a_penalty_on_an_illegal_action(game: str) -> None:
    e = MODULES[game].env(illegal_reward=-1.0)
    e.reset(seed=1)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo logs the illegal move
        e.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0


#: an episode that is the whole game: Mille's match; Knight Rider's game (a winner or the
#: turn limit ends it; with seed 7 and three players, a winner)
WHOLE_GAME: dict[str, dict[str, Any]] = {"mille": {"episode": "match", "reward": "win"}, "knightrider": {"players": 3}}
FACE_PLAY = ("new", "current_player", "legal_actions", "apply", "view_for", "is_over", "outcome")


@pytest.mark.parametrize("key", list(GAMES))
def test_a_pettingzoo_environment_runs_each_game_through_its_face(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment is built for a game of ``rallye.games.GAMES`` and plays a random game
    to its end; the game's rules reach it through the face only: every new game, legal
    action list, move and view it uses is the face's (counted here), and its rewards follow
    the face's outcome."""
    face = GAMES[key]
    calls: Counter[str] = Counter()
    for name in FACE_PLAY:
        method = getattr(face, name)

        def counted(*args: Any, _method: Any = method, _name: str = name) -> Any:
            calls[_name] += 1
            return _method(*args)

        monkeypatch.setattr(face, name, counted)
    adapter = make_adapter(face, **WHOLE_GAME[key])
    assert adapter.face is face
    env = RallyeAECEnv(adapter)
    decisions = 0
    step = env.step

    def counted_step(action: int | None) -> None:
        nonlocal decisions
        decisions += action is not None
        step(action)

    env.step = counted_step  # type: ignore[method-assign]
    totals = play_aec(env, 7, np.random.default_rng(7))  # (its masks are the face's legal actions)
    final = env.state_value
    assert face.is_over(final) and face.current_player(final) is None
    assert calls["new"] == 1 and calls["apply"] == decisions > 0 and calls["view_for"] >= decisions
    out = face.outcome(final)
    won = {seat for side in out.winners for seat in out.sides[side]}
    assert won  # (these games have a winner, so the rewards below have something to follow)
    for agent, total in totals.items():
        seat = int(agent.removeprefix("player_"))
        assert (total > 0) == (seat in won), (agent, totals, out)
    assert sum(totals.values()) == pytest.approx(0.0)
