"""Elo (Bradley-Terry) fits and their bootstrap intervals."""

from __future__ import annotations

import random

import pytest

from rallye.sim.ratings import bootstrap_elo, fit_elo, pairwise


def _synthetic(true: dict[str, float], games: int, seed: int) -> list[tuple[str, str, float]]:
    rng = random.Random(seed)
    names = sorted(true)
    out = []
    for _ in range(games):
        a, b = rng.sample(names, 2)
        p = 1.0 / (1.0 + 10 ** ((true[b] - true[a]) / 400.0))
        out.append((a, b, 1.0 if rng.random() < p else 0.0))
    return out


def test_fit_orders_players_by_true_strength_and_recovers_gaps() -> None:
    true = {"a": 300.0, "b": 100.0, "c": 0.0, "d": -400.0}
    fit = fit_elo(_synthetic(true, 6000, seed=3))
    assert sorted(fit, key=fit.__getitem__, reverse=True) == ["a", "b", "c", "d"]
    assert sum(fit.values()) == pytest.approx(0.0, abs=1e-9)
    centre = sum(true.values()) / 4
    for name, elo in true.items():
        assert fit[name] == pytest.approx(elo - centre, abs=40)


def test_draws_count_half_and_equal_records_rate_equal() -> None:
    fit = fit_elo([("a", "b", 0.5)] * 10 + [("b", "c", 1.0), ("c", "b", 1.0)])
    assert fit["a"] == pytest.approx(fit["b"], abs=1e-6)
    assert fit["b"] == pytest.approx(fit["c"], abs=1e-6)


def test_prior_keeps_a_perfect_record_finite() -> None:
    fit = fit_elo([("a", "b", 1.0)] * 500)
    assert 0 < fit["a"] < 2000


def test_unknown_player_and_bad_scores_are_rejected() -> None:
    with pytest.raises(ValueError, match="unknown player"):
        fit_elo([("a", "z", 1.0)], ["a", "b"])
    with pytest.raises(ValueError, match="score"):
        fit_elo([("a", "b", 2.0)])
    with pytest.raises(ValueError, match="itself"):
        fit_elo([("a", "a", 1.0)])


def test_bootstrap_is_seeded_and_brackets_the_fit() -> None:
    true = {"x": 150.0, "y": 0.0, "z": -150.0}
    res = _synthetic(true, 900, seed=5)
    blocks = [res[i : i + 3] for i in range(0, len(res), 3)]
    one = bootstrap_elo(blocks, ["x", "y", "z"], reps=60, seed=11)
    two = bootstrap_elo(blocks, ["x", "y", "z"], reps=60, seed=11)
    assert one == two
    fit = fit_elo(res, ["x", "y", "z"])
    for name, (lo, hi) in one.items():
        assert lo < fit[name] < hi
    assert one["x"][0] > one["z"][1]  # 300 Elo apart over 900 games: intervals do not overlap


def test_pairwise_results_of_a_multi_side_match() -> None:
    assert pairwise(["a", "b"], [0.0, 1.0]) == [("a", "b", 0.0)]
    assert pairwise(["a", "a", "b"], [0.5, 0.5, 0.0]) == [("a", "b", 1.0), ("a", "b", 1.0)]
