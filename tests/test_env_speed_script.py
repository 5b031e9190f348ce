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
    env_speed.main(["--game", "mille", "--seconds", "0.3", "--rounds", "1", "--floor"])
    out = capsys.readouterr().out
    assert "pettingzoo raw_env, no observation (floor)" in out
    assert "pettingzoo env(), no observation (floor)" in out
    ratios = [float(line.split()[-1]) for line in out.splitlines() if "(floor)" in line]
    assert len(ratios) == 2 and np.isfinite(ratios).all()


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
