"""``benchmarks/env_speed.py``: the rows without the observation (``--floor``) and those that keep their
observations (``--keep``) play the same games; the phases and the round-by-round ratios."""

from __future__ import annotations

from collections import deque
from types import ModuleType

import numpy as np
import pytest

from benchmark_modules import load


@pytest.fixture(scope="module")
def env_speed() -> ModuleType:
    return load("env_speed")


def test_floor_loops_play_the_same_decisions_without_encoding(env_speed: ModuleType) -> None:
    # The random picks read only the mask, so a loop whose observation is a constant plays
    # exactly the games of the full loop: the same number of decisions, episode by episode.
    for make in (env_speed.pettingzoo_loop, env_speed.kr_pettingzoo_loop):
        full, floor = make(wrapped=False), make(wrapped=False, floor=True)
        for _ in range(2):
            assert next(full)[0] == next(floor)[0] > 0
    from rallye.rl import mille_v0

    env = env_speed._without_observation(mille_v0.env())
    env.reset(seed=3)
    obs, *_ = env.last()
    assert not obs["observation"].any()  # the constant stands in for the encoding
    assert obs["action_mask"].any()  # the mask is still the real one


def test_floor_rows_are_printed(env_speed: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    env_speed.main(["--game", "mille", "--seconds", "0.3", "--rounds", "2", "--floor"])
    out = capsys.readouterr().out
    assert "pettingzoo raw_env, no observation (floor)" in out
    assert "pettingzoo env(), no observation (floor)" in out
    lines = [line.split("(floor)")[1].split() for line in out.splitlines() if "(floor)" in line]
    # decisions/s, us/decision, x engine, then by round: median [min, max]
    assert len(lines) == 2 and all(len(cols) == 6 for cols in lines)
    ratios = [float(cols[2]) for cols in lines]
    medians = [float(cols[3]) for cols in lines]
    assert np.isfinite(ratios).all() and np.isfinite(medians).all()


def test_phases_account_for_every_part_and_restore_the_functions(
    env_speed: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    from rallye import knightrider as kr
    from rallye import mille
    from rallye.rl.mille import encoding as menc

    before = (mille.legal_actions, mille.apply, kr.view_for, menc.ViewEncoder.encode)
    faces = (dict(vars(mille.GAME)), dict(vars(kr.GAME)))
    for game, parts in (("mille", {"mask", "view", "encoding"}), ("knightrider", {"action codes", "encoding"})):
        table = env_speed.phases(game, 2)
        engine, adapter = table["engine"], table["pettingzoo raw_env"]
        assert {"legal_actions", "apply"} <= set(engine) and parts <= set(adapter)
        for per in (engine, adapter):
            assert all(v > 0 for k, v in per.items() if k != "the rest")
            assert sum(v for k, v in per.items() if k != "total") == pytest.approx(per["total"])
    assert (mille.legal_actions, mille.apply, kr.view_for, menc.ViewEncoder.encode) == before
    assert (dict(vars(mille.GAME)), dict(vars(kr.GAME))) == faces  # the faces' methods are their own again
    env_speed.main(["--game", "mille", "--phases", "1"])
    out = capsys.readouterr().out
    assert "pettingzoo raw_env" in out and "encoding" in out
    with pytest.raises(SystemExit):
        env_speed.main(["--phases", "0"])


def test_ratios_by_round_pair_each_loop_with_the_engines_turn_of_that_round(env_speed: ModuleType) -> None:
    base = ("engine", 10, 1.0, "", [1.0, 2.0, 4.0])
    row = ("adapter", 10, 1.0, "", [2.0, 3.0, 4.0])
    assert env_speed.round_ratios(row, base) == [2.0, 1.5, 1.0]
    rows = env_speed.run_interleaved(
        [("a", env_speed.engine_loop(), ""), ("b", env_speed.pettingzoo_loop(wrapped=False), "")], 0.2, 2
    )
    assert [len(r[4]) for r in rows] == [2, 2] and all(t > 0 for r in rows for t in r[4])


def test_kept_loops_store_their_observations_and_play_the_same_games(
    env_speed: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --keep N: each observing loop keeps its last N observations (as a replay buffer would),
    # new objects each (a reused buffer is copied), and plays the same games as without it.
    assert env_speed._keeper(0) is None
    append = env_speed._keeper(2)
    for k in range(3):
        append(k)
    assert list(append.__self__) == [1, 2]
    buffers: list[deque[object]] = []

    def recording(keep: int) -> object:
        buffers.append(deque(maxlen=keep))
        return buffers[-1].append

    monkeypatch.setattr(env_speed, "_keeper", recording)
    pairs = [
        (env_speed.pettingzoo_loop(wrapped=False), env_speed.pettingzoo_loop(wrapped=False, keep=4)),
        (env_speed.gymnasium_loop(), env_speed.gymnasium_loop(keep=4)),
        (env_speed.openspiel_loop("observer"), env_speed.openspiel_loop("observer", keep=4)),
        (env_speed.openspiel_loop("tensor"), env_speed.openspiel_loop("tensor", keep=4)),
        (env_speed.kr_pettingzoo_loop(obs_version=2), env_speed.kr_pettingzoo_loop(obs_version=2, keep=4)),
    ]
    for plain, kept in pairs:
        assert next(plain)[0] == next(kept)[0] > 0
    kept_buffers = [b for b in buffers if b.maxlen == 4]
    assert len(kept_buffers) == len(pairs)
    for buf in kept_buffers:
        assert len(buf) == 4
        vectors = [x["observation"] if isinstance(x, dict) else x for x in buf]
        assert len({id(x) for x in vectors}) == 4  # four distinct vectors, not one buffer four times
    set_from = kept_buffers[2]
    assert not all(np.array_equal(set_from[0], x) for x in list(set_from)[1:])  # copies, not the live buffer


def test_keep_is_checked_and_named_in_the_rows(env_speed: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        env_speed.main(["--keep", "-1"])
    env_speed.main(["--game", "mille", "--seconds", "0.3", "--rounds", "1", "--keep", "5"])
    out = capsys.readouterr().out
    assert "pettingzoo raw_env (last + step), 5 kept" in out
    assert "engine (legal_actions + apply) " in out and "engine (legal_actions + apply), 5 kept" not in out
