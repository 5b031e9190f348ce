"""``benchmarks/batch_speed.py``: one run measures the batch, its Python loop, OpenSpiel's
C++ loop and the rollouts, and ``--json`` prints the figures a program checks."""

from __future__ import annotations

import json
from types import ModuleType

import pytest

from benchmark_modules import load

pytest.importorskip("numba")
pytest.importorskip("pyspiel")


@pytest.fixture(scope="module")
def batch_speed() -> ModuleType:
    return load("batch_speed")


def test_json_has_the_checked_figures(batch_speed: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--seconds", "0.04", "--rounds", "2", "--size", "8", "--sizes", "1,4", "--games", "hearts"]
    assert batch_speed.main([*argv, "--rollouts", "4", "--no-compile-time", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["batch_decisions_per_s"] > 0 and out["openspiel_cpp_decisions_per_s"]["hearts"] > 0
    assert out["ratio"] == pytest.approx(out["batch_decisions_per_s"] / out["openspiel_cpp_decisions_per_s"]["hearts"])
    assert 0 < out["vector_env_learner_steps_per_s"] < out["vector_env_decisions_per_s"]
    assert set(out["decisions_per_s_by_size"]) == {"1", "4"} and out["memory_bytes_per_game"] > 0
    assert 40 < out["openspiel_decisions_per_game"]["hearts"] < 70
    assert out["rollouts"]["playout_rollouts_per_s"] > 0 and out["rollouts"]["batch_decisions_per_rollout"] > 0


def test_table_and_bad_arguments(batch_speed: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--seconds", "0.02", "--rounds", "1", "--size", "4", "--sizes", "", "--games", "spades"]
    assert batch_speed.main([*argv, "--rollouts", "0", "--no-compile-time"]) == 0
    out = capsys.readouterr().out
    assert "openspiel C++ spades" in out and "ratio batch / best OpenSpiel" in out
    with pytest.raises(SystemExit):
        batch_speed.main(["--seconds", "0"])
    with pytest.raises(Exception, match="not 5"):
        batch_speed.main(["--players", "5", "--seconds", "0.01"])


def test_positions_are_mid_hand_and_rollouts_reach_the_end(batch_speed: ModuleType) -> None:
    positions = batch_speed.sample_positions(6, seed=3)
    assert all(s.phase == "play" and not s.sheets for s in positions)
    rates = batch_speed.rollout_rates(positions, 0.01)
    assert rates["batch_rollouts_per_s"] > 0 and rates["batch_load_us_per_state"] > 0
