"""The analysis's scripts on tiny budgets: ``benchmarks/analysis_speed.py`` times a whole
match's analysis, ``research/mille_win_model.py`` fits and measures the win model, and
``research/ladder.py`` plays the analysis bot (``analysis:SPEC``), and
``research/kr_win_model.py`` plays, fits and measures Knight Rider's."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from benchmark_modules import load
from rallye.analysis import Analyst
from rallye.analysis.krwinmodel import FEATURES as KR_FEATURES
from rallye.analysis.krwinmodel import calibrate as kr_calibrate
from rallye.analysis.krwinmodel import calibrate_leader as kr_calibrate_leader
from rallye.analysis.winmodel import FEATURES, win_chances
from rallye.games import game_for


def test_the_speed_benchmark_times_a_whole_match(capsys: pytest.CaptureFixture[str]) -> None:
    speed = load("analysis_speed")
    lines = speed.match_record(3, ("medium", "easy"), edition="meilen")
    spent, moves, decisions, worst = speed.time_analysis(lines, "hard", 0)
    assert moves == len(game_for("mille").replay(lines).moves) > 10
    assert 0 < decisions <= moves and 0 <= worst <= spent


def test_the_win_model_script_fits_and_measures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = load("mille_win_model")
    out = tmp_path / "w.json"
    assert model.main(["--matches", "6", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["features"] == list(FEATURES) and len(data["weights"]) == len(FEATURES)
    held = data["held_out"]
    assert sum(b["positions"] for b in held["bins"]) == held["positions"] > 0
    assert 0.0 <= held["brier"] <= 1.0
    assert "Brier" in capsys.readouterr().out
    # the model reads a view: a fresh match is even, a lead is worth more than nothing
    game = game_for("mille")
    state = game.new(game.settings({"edition": "wm2006", "players": 2}), 1)
    assert win_chances(game.view_for(state, 0)) == pytest.approx([0.5, 0.5])
    assert abs(sum(win_chances(state, data["weights"])) - 1.0) < 1e-12


def test_the_ladder_plays_the_analysis_bot() -> None:
    ladder = load("ladder")
    assert ladder.split_pair("analysis:expert*2:expert") == ("analysis:expert*2", "expert")
    bot = ladder.build("analysis:hard", 4)
    assert isinstance(bot, Analyst) and bot.name == "analysis:hard"


def test_the_prefilter_script_ranks_the_candidates_by_random_rollouts(capsys: pytest.CaptureFixture[str]) -> None:
    prefilter = load("analysis_prefilter")
    args = ["--bot", "hard", "--edition", "meilen", "--deals", "2", "--rollouts", "2"]
    assert prefilter.main(args) == 0
    out = capsys.readouterr().out
    rows = [line.split("|") for line in out.splitlines() if line.startswith("| ") and "%" in line]
    assert [int(r[1]) for r in rows] == [1, 2, 3, 4]
    found = [float(r[2].strip(" %")) for r in rows]
    assert found == sorted(found) and found[0] >= 0.0 and found[-1] <= 100.0  # more kept, more found


def test_the_knightrider_win_model_script_plays_fits_and_measures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load("kr_win_model")
    data = tmp_path / "kr.jsonl"
    for players in (2, 3):
        assert script.main(["play", "--players", str(players), "--games", "4", "--data", str(data)]) == 0
    games = [json.loads(line) for line in data.read_text().splitlines()]
    assert [g["players"] for g in games] == [2] * 4 + [3] * 4
    positions = [p for g in games for p in g["positions"]]
    assert positions and all(len(rows) in (0, g["players"]) for g in games for _, _, _, rows in g["positions"])
    out = tmp_path / "w.json"
    assert script.main(["fit", str(data), "--out", str(out)]) == 0
    model = json.loads(out.read_text())
    assert model["features"] == list(KR_FEATURES) and len(model["weights"]) == len(KR_FEATURES)
    assert set(model["scale"]) == {"2", "3"}
    assert set(model["calibration"]) == set(model["leader_gain"]) == {"2", "3"} >= set(model["leader_calibration"])
    for held in model["held_out"]["by_players"].values():
        assert sum(b["positions"] for b in held["model"]["bins"]) == held["model"]["positions"] > 0
        assert held["per_car_curve"]["positions"] == held["model"]["positions"] and len(held["leader_curve"]) == 2
        assert 0.0 <= held["model"]["brier"] <= 1.0 and held["shares_before"]["brier_fair"] > 0
    assert "Brier" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="cannot read"):
        script.main(["fit", str(tmp_path / "missing.jsonl"), "--out", str(out)])


def test_the_knightrider_script_calibrates_as_the_package_does() -> None:
    """The script measures and fits with its own array form of the calibration: it must give
    what :func:`rallye.analysis.krwinmodel.calibrate` and ``calibrate_leader`` give, ties
    and all."""
    script = load("kr_win_model")
    rng = np.random.default_rng(5)
    curve = {"predicted": [0.3, 0.5, 0.7, 0.9], "won": [0.32, 0.48, 0.6, 0.75]}
    for n in (2, 3, 4, 5):
        p = rng.dirichlet(np.full(n, 0.7), size=300)
        p[:3] = 1.0 / n  # every car tied
        p[3:6] = [0.4, 0.4, *([0.2 / (n - 2)] * (n - 2))] if n > 2 else [0.5, 0.5]  # tied leaders
        each = script.apply_curve(p, curve)
        assert np.allclose(each, [kr_calibrate(list(row), curve) for row in p], rtol=0, atol=1e-12)
        got = script.apply_leader(p, curve)
        assert np.allclose(got, [kr_calibrate_leader(list(row), curve) for row in p], rtol=0, atol=1e-12)
        assert np.allclose(got.sum(axis=1), 1.0) and np.array_equal(got[:3], p[:3])
        # the curve is fitted on the leaders: one chance per car tied for the lead
        top, won = script.leaders(p, np.eye(n)[rng.integers(0, n, size=len(p))])
        # (rows of all cars tied left out: 3, or 6 at two players; the 3 rows of two tied leaders give 2 each)
        assert len(top) == len(won) == (len(p) if n > 2 else len(p) - 6) and np.all(top >= 1.0 / n)
