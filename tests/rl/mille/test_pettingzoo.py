"""The PettingZoo AEC environment rallye.rl.mille_v0 (what both games' environments do:
``tests/rl/test_pettingzoo.py``)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import seed_test

from rallye.rl import mille_v0

from ..helpers import api_test_quietly, play_aec


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"edition": "hu", "players": 3, "reward": "win"}, {"edition": "fxschmid", "players": 4, "episode": "match"}],
)
def test_api_test(kwargs):
    api_test_quietly(mille_v0.env(**kwargs), 150)


def test_raw_env_api_test():
    api_test_quietly(mille_v0.raw_env(edition="meilen", players=5), 100)


def test_seed_test():
    seed_test(lambda: mille_v0.env(), num_cycles=60)
    seed_test(lambda: mille_v0.raw_env(players=3, edition="wm2006"), num_cycles=40)


def test_hand_score_rewards_sum_to_zero_and_follow_the_score_sheet():
    e = mille_v0.raw_env(edition="wm2006", players=2)
    totals = play_aec(e, 12, np.random.default_rng(0))
    sheet = e.state_value.sheets[0]
    diff = (sheet.hand_totals[0] - sheet.hand_totals[1]) / 1000.0
    assert totals["player_0"] == pytest.approx(diff)
    assert totals["player_1"] == pytest.approx(-diff)


def test_team_mates_share_their_side_reward():
    e = mille_v0.raw_env(edition="hu", players=4, reward="win")
    totals = play_aec(e, 5, np.random.default_rng(1))
    assert totals["player_0"] == totals["player_2"] and totals["player_1"] == totals["player_3"]
    assert {totals["player_0"], totals["player_1"]} in ({1.0, -1.0}, {0.0})


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="episode must be one of"):
        mille_v0.raw_env(episode="game")
    with pytest.raises(ValueError, match="reward must be one of"):
        mille_v0.raw_env(reward="points")
    with pytest.raises(Exception, match="not 5"):
        mille_v0.raw_env(edition="wm2006", players=5)
    with pytest.raises(ValueError, match="render_mode"):
        mille_v0.raw_env(render_mode="rgb_array")


def test_ansi_render_shows_the_acting_players_view():
    e = mille_v0.raw_env(render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    assert "P1 to act" in text and "P1 holds:" in text


def test_wrapped_env_keeps_pettingzoos_wrapper_contracts():
    """env() is one RallyeWrapper layer doing what TerminateIllegal + AssertOutOfBounds +
    OrderEnforcing did: an OrderEnforcingWrapper, out-of-space actions assert, order checks."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    e = mille_v0.env()
    assert isinstance(e, OrderEnforcingWrapper) and isinstance(e.unwrapped, type(mille_v0.raw_env()))
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agent_selection
    e.reset(seed=3)
    for bad in (70, -1, None, 2.5):
        with pytest.raises(AssertionError, match="action space"):
            e.step(bad)
    legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
    e.step(np.int64(legal[0]))  # NumPy integers are in the space
    assert not any(e.terminations.values())


def test_agent_iter_keeps_pettingzoos_checks():
    """agent_iter (a generator on both envs): max_iter, stops when no agent is left, and the
    wrapper asserts a step between two agents and refuses to start before reset."""
    raw = mille_v0.raw_env()
    raw.reset(seed=1)
    assert list(raw.agent_iter(0)) == []
    it = raw.agent_iter(3)
    seen = []
    for agent in it:
        seen.append(agent)
        raw.step(int(np.flatnonzero(raw.observe(agent)["action_mask"])[0]))
    assert len(seen) == 3 and seen[0] == "player_0"
    e = mille_v0.env()
    with pytest.raises(AttributeError, match="agents cannot be accessed before reset"):
        _ = e.agents
    with pytest.raises(Exception, match="reset"):
        e.agent_iter()
    e.reset(seed=1)
    it = iter(e.agent_iter())
    next(it)
    with pytest.raises(AssertionError, match="need to call step"):
        next(it)
    e.reset(seed=1)
    n = 0
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        n += 1
    assert n > 2 and not e.agents


def test_wrapped_and_raw_env_play_the_same_game():
    def play(e):
        e.reset(seed=21)
        rng = np.random.default_rng(4)
        seen = []
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            seen.append((agent, reward, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return seen

    assert play(mille_v0.env()) == play(mille_v0.raw_env())


def test_after_an_illegal_move_nobody_has_a_legal_action():
    e = mille_v0.env()
    e.reset(seed=1)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(int(np.flatnonzero(mask == 0)[0]))
    assert not e.observe(agent)["action_mask"].any()
