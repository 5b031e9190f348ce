"""``benchmarks/env_speed.py --floor``: the rows without the observation play the same games."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "env_speed.py"


@pytest.fixture(scope="module")
def env_speed() -> ModuleType:
    spec = importlib.util.spec_from_file_location("env_speed", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["env_speed"] = module
    spec.loader.exec_module(module)
    return module


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
    from rallye.rl import mille_encoding as menc

    before = (mille.legal_actions, mille.apply, kr.view_for, menc.ViewEncoder.encode)
    for game, parts in (("mille", {"mask", "view", "encoding"}), ("knightrider", {"action codes", "encoding"})):
        table = env_speed.phases(game, 2)
        engine, adapter = table["engine"], table["pettingzoo raw_env"]
        assert {"legal_actions", "apply"} <= set(engine) and parts <= set(adapter)
        for per in (engine, adapter):
            assert all(v > 0 for k, v in per.items() if k != "the rest")
            assert sum(v for k, v in per.items() if k != "total") == pytest.approx(per["total"])
    assert (mille.legal_actions, mille.apply, kr.view_for, menc.ViewEncoder.encode) == before
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
