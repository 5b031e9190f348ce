"""The PettingZoo AEC environment rallye.rl.knightrider_v0 (what both games' environments
do: ``tests/rl/test_pettingzoo.py``)."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import seed_test

from rallye import knightrider as kr
from rallye.core.errors import ConfigError
from rallye.rl import knightrider_v0
from rallye.rl.knightrider import encoding as ke

from ..helpers import api_test_quietly, play_aec


@pytest.mark.parametrize(
    "kwargs",
    [
        {"turn_limit": 30},
        {"players": 3, "turn_limit": 20, "shuffle_cards": True},
        {"players": 5, "turn_limit": 10, "tour": 1, "rolled_start": True},
    ],
)
def test_api_test(kwargs):
    api_test_quietly(knightrider_v0.env(**kwargs), 120)


def test_raw_env_api_test_with_the_players_building_the_track():
    api_test_quietly(knightrider_v0.raw_env(players=4, quick_build=False, turn_limit=5), 100)


def test_seed_test():
    seed_test(lambda: knightrider_v0.env(turn_limit=20), num_cycles=60)
    seed_test(lambda: knightrider_v0.raw_env(players=3, quick_build=False, turn_limit=5), num_cycles=40)


def test_the_winner_gets_one_and_the_others_share_minus_one():
    rng = np.random.default_rng(0)
    e = knightrider_v0.raw_env(players=3, turn_limit=60)
    results = set()
    for seed in range(6):
        totals = play_aec(e, seed, rng)
        w = e.state_value.winner
        assert sum(totals.values()) == pytest.approx(0.0)
        if w is None:
            assert set(totals.values()) == {0.0}
        else:
            assert totals[f"player_{w}"] == 1.0
            assert all(v == -0.5 for a, v in totals.items() if a != f"player_{w}")
        results.add(w is None)
    assert False in results  # at least one game was won


def test_the_mask_and_the_codes_follow_the_acting_players_view():
    e = knightrider_v0.raw_env(players=3, turn_limit=10)
    e.reset(seed=2)
    rng = np.random.default_rng(3)
    for _ in range(30):
        agent = e.agent_selection
        s = e.state_value
        obs = e.observe(agent)
        other = e.possible_agents[(e.possible_agents.index(agent) + 1) % 3]
        assert not e.observe(other)["action_mask"].any()
        codes = np.flatnonzero(obs["action_mask"])
        table = ke.legal_table(kr.view_for(s, s.current), kr.legal_actions(s))
        assert sorted(table) == codes.tolist()
        code = int(rng.choice(codes))
        e.step(code)
        assert e.state_value == kr.apply(s, table[code])
        if all(e.terminations.values()):
            break


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="reward must be one of"):
        knightrider_v0.raw_env(reward="score")
    with pytest.raises(ConfigError, match="2 to 5 players"):
        knightrider_v0.raw_env(players=6)
    with pytest.raises(ConfigError, match="unknown option"):
        knightrider_v0.raw_env(quickbuild=True)
    with pytest.raises(ConfigError, match="turn_limit"):
        knightrider_v0.raw_env(turn_limit=0)
    with pytest.raises(ValueError, match="render_mode"):
        knightrider_v0.raw_env(render_mode="rgb_array")


def test_ansi_render_shows_the_map_and_the_acting_players_hand():
    e = knightrider_v0.raw_env(render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    s = e.state_value
    assert f"P{s.current + 1} to act" in text and f"P{s.current + 1} holds:" in text
    assert "~~~~~~" in text  # the centre
