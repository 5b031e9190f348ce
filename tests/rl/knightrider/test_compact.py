"""The compact Knight Rider observation (encoding version 2, rallye.rl.knightrider.compact)."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import rallye.rl  # noqa: F401  (registers rallye/KnightRider-v0)
from rallye import knightrider as kr
from rallye.knightrider import geometry as g
from rallye.rl import knightrider_v0
from rallye.rl.knightrider import compact as kc
from rallye.rl.knightrider import encoding as ke
from rallye.rl.knightrider.adapter import KnightRiderAdapter

from .test_encoding import CONFIGS, _hide, _states


@pytest.fixture(scope="module")
def games():
    return [(opts, _states(n, opts, seed)) for seed, (n, opts) in enumerate(CONFIGS)]


def test_size_layout_and_bounds(games):
    assert kc.OBS_VERSION == 2
    assert kc.N_CHANNELS == 17 * 5 + 11 == len(set(kc.CHANNELS))
    assert kc.OBS_SIZE == kc.PLANES_SIZE + ke.SCALARS_SIZE == 96 * 256 + ke.SCALARS_SIZE
    assert kc.OBS_SIZE * 4 < ke.OBS_SIZE * 4 / 2.5  # under 100 KB against 268 KB
    opts, states = games[0]
    for s in states[::7]:
        x = kc.encode_view(kr.view_for(s, s.current), opts)
        assert x.dtype == np.float32 and x.shape == (kc.OBS_SIZE,)
        assert x.min() >= kc.OBS_LOW and x.max() <= kc.OBS_HIGH


def test_it_is_version_1_selected_bit_for_bit(games):
    """Every seat of every state of four configurations: the direct encoder equals the
    selection of version 1's vector (``from_v1``), and ``encode_view_into`` the same."""
    out = np.full(kc.OBS_SIZE, 7.0, np.float32)  # a used buffer: written in place
    strided = np.full(2 * kc.OBS_SIZE, 5.0, np.float32)[::2]  # not contiguous: written by copy
    checked = 0
    for opts, states in games:
        for s in states:
            for p in range(s.players):
                v = kr.view_for(s, p)
                want = kc.from_v1(ke.encode_view(v, opts))
                assert kc.encode_view(v, opts).tobytes() == want.tobytes()
                assert kc.encode_view_into(v, out, opts) is out and out.tobytes() == want.tobytes()
                if checked % 50 == 0:
                    assert kc.encode_view_into(v, strided, opts) is strided
                    assert strided.tobytes() == want.tobytes()
                checked += 1
    assert checked > 900  # (980 in the random games of rules 2)


def test_it_drops_only_built_up_and_the_repeated_cells_of_square_planes(games):
    """Lossless against version 1 but for ``built_up`` (derivable: a laid tile's cells off
    the road): every value version 1 puts outside the selection is a built-up cell, or a
    square-level plane's cell whose square's middle (selected) holds the same value."""
    selected = np.zeros(ke.PLANES_SIZE, bool)
    selected[kc.FROM_V1] = True
    square_planes = {ke.PLANE[p] for p in kc.SQUARE_PLANES}
    cells = ke.GRID * ke.GRID
    seen_planes = set()
    for opts, states in games:
        for s in states[::3]:
            x = ke.encode_view(kr.view_for(s, s.current), opts)[: ke.PLANES_SIZE]
            for i in np.flatnonzero((x != 0) & ~selected):
                plane, cell = divmod(int(i), cells)
                seen_planes.add(ke.PLANES[plane])
                if plane == ke.PLANE["built_up"]:
                    continue
                assert plane in square_planes, ke.PLANES[plane]
                row, col = divmod(cell, ke.GRID)
                middle = plane * cells + (3 * (row // 3) + 1) * ke.GRID + 3 * (col // 3) + 1
                assert x[middle] == x[i]
    assert {"built_up", "target", "flee", "centre"} <= seen_planes


def test_it_ignores_hidden_information(games):
    for opts, states in games:
        for s in states[::5]:
            for p in range(s.players):
                other = _hide(s, p, seed=len(states) + p)
                a = kc.encode_view(kr.view_for(s, p), opts)
                assert np.array_equal(a, kc.encode_view(kr.view_for(other, p), opts))


def test_planes_describe_and_field_slice(games):
    opts, states = games[0]
    s = states[len(states) // 2]
    v = kr.view_for(s, s.current)
    x = kc.encode_view(v, opts)
    grid = kc.planes(x)
    assert grid.shape == (kc.N_CHANNELS, 16, 16) and np.shares_memory(grid, x)
    d = kc.describe(x)
    assert d["road_mid"].shape == (16, 16) and d["pips"].shape == (7,)
    # a car's field and heading: the middle of its square or one arm, row y + 8, column x + 8
    cars = 0
    for game_opts, st in games:
        for s2 in st[::9]:
            v2 = kr.view_for(s2, s2.current)
            d2 = kc.describe(kc.encode_view(v2, game_opts))
            for c in v2.cars:
                if c.field is None:
                    continue
                sx, sy = c.field[0] // 3, c.field[1] // 3
                pos = kc.POSITIONS[g.LOCAL_POS.index((c.field[0] - 3 * sx, c.field[1] - 3 * sy))]
                who = "me" if c.player == v2.me else "other"
                assert d2[f"{who}_{'nesw'[c.heading]}_{pos}"][sy + 8, sx + 8] >= 1.0
                cars += 1
    assert cars > 20
    assert x[kc.field_slice("pips")].tolist() == ke.encode_view(v, opts)[ke.field_slice("pips")].tolist()
    with pytest.raises(KeyError, match="no observation block"):
        kc.field_slice("nope")
    with pytest.raises(ValueError, match="version 2 observation has"):
        kc.planes(np.zeros(5, np.float32))
    with pytest.raises(ValueError, match="version 1 observation has"):
        kc.from_v1(np.zeros(5, np.float32))
    with pytest.raises(ValueError, match="out must have shape"):
        kc.encode_view_into(v, np.zeros(5, np.float32), opts)


def test_the_environments_take_obs_version_2():
    ad = KnightRiderAdapter(2, obs_version=2, turn_limit=20)
    s = ad.new_state(4)
    assert ad.obs_size == kc.OBS_SIZE
    assert np.array_equal(ad.observe(s, 1), kc.encode_view(kr.view_for(s, 1), ad.options))
    with pytest.raises(ValueError, match="obs_version must be 1 or 2"):
        KnightRiderAdapter(2, obs_version=3)
    env = knightrider_v0.env(players=3, turn_limit=15, obs_version=2)
    env.reset(seed=2)
    obs, *_ = env.last()
    assert obs["observation"].shape == (kc.OBS_SIZE,)
    assert env.observation_space(env.agent_selection)["observation"].shape == (kc.OBS_SIZE,)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for text in ("Observation space for each agent probably", "Observation is not a NumPy array"):
            warnings.filterwarnings("ignore", message=text, category=UserWarning)
        api_test(knightrider_v0.env(turn_limit=20, obs_version=2), num_cycles=60)
    g = gym.make("rallye/KnightRider-v0", turn_limit=20, obs_version=2)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*different from the unwrapped", category=UserWarning)
        check_env(g, skip_render_check=True)
    o, _ = g.reset(seed=1)
    assert o["observation"].shape == (kc.OBS_SIZE,)


def test_openspiel_takes_obs_version_2():
    import pyspiel
    from open_spiel.python.observation import make_observation

    import rallye.rl.knightrider.spiel as ks

    game = pyspiel.load_game(ks.SHORT_NAME + "(players=3,turn_limit=6,obs_version=2)")
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    rng = np.random.default_rng(3)
    s = game.new_initial_state()
    observer = make_observation(game)
    compared = 0
    while not s.is_terminal() and compared < 12:
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        p = s.current_player()
        want = kc.encode_view(kr.view_for(s._d.state, p), game.options)
        assert np.array_equal(np.asarray(s.observation_tensor(p), dtype=np.float32), want)
        observer.set_from(s, p)
        assert np.array_equal(observer.tensor, want)
        info = np.asarray(s.information_state_tensor(p), dtype=np.float32)
        assert info.shape == (kc.OBS_SIZE + ks.HISTORY_SIZE,) and np.array_equal(info[: kc.OBS_SIZE], want)
        compared += 1
        s.apply_action(int(rng.choice(s.legal_actions())))
    assert compared == 12
    with pytest.raises(ValueError, match="obs_version must be 1 or 2"):
        pyspiel.load_game(ks.SHORT_NAME + "(obs_version=3)")
