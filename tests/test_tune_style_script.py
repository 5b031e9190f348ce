"""``research/tune_style.py``: the duplicate score of a style, and a climb that takes a
step only when it wins by ``z`` paired standard errors."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from benchmark_modules import RESEARCH, load
from rallye.agents.mille.heuristic import CLASSIC, FITTED, STYLES

tune = load("tune_style")


def test_every_climbed_weight_is_a_style_field_and_moves_by_its_kind() -> None:
    names = {f.name for f in dataclasses.fields(CLASSIC) if f.init}
    assert set(tune.STEPS) <= names
    assert tune.moved(CLASSIC, "risky_when_close", 1).risky_when_close is False
    assert tune.moved(CLASSIC, "risky_draw_per_player", -1).risky_draw_per_player == 1
    assert tune.moved(CLASSIC, "risky_draw_per_player", -5).risky_draw_per_player == 0  # no negative counts
    assert tune.moved(CLASSIC, "hazard_keep", -7.5).hazard_keep == 52.5
    assert tune.changed(tune.moved(FITTED, "hazard_keep", 10.0), FITTED) == {"hazard_keep": 70.0}


def test_the_same_style_in_both_seats_scores_zero_on_every_deal() -> None:
    """A deal is played twice with the seats swapped: the same style on both sides plays the
    same hand twice, mirrored, so its mean margin is exactly 0."""
    for deal in range(3):
        assert tune.play_deal((FITTED, FITTED, deal)) == 0.0
    assert any(tune.play_deal((FITTED, CLASSIC, deal)) != 0.0 for deal in range(3))


class FakePool:
    """Scores a style by a made-up function of its weights plus deal noise (no games)."""

    def __init__(self, score: Callable[[Any, int], float]) -> None:
        self.score = score

    def map(self, fn: object, jobs: Iterable[tuple[Any, Any, int]], chunksize: int = 1) -> list[float]:
        return [self.score(style, deal) for style, _, deal in jobs]


def test_the_climb_takes_only_steps_that_win_clearly(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    """A hill in hazard_keep with its top at 30 and roll_keep that changes nothing but the
    noise: the climb walks hazard_keep down in steps of 15 to 30 and leaves roll_keep."""
    monkeypatch.setattr(tune, "STEPS", {"hazard_keep": 15.0, "roll_keep": 20.0})

    def score(style: Any, deal: int) -> float:
        noise = random.Random(deal * 7919 + int(style.roll_keep)).gauss(0, 1)
        return -((style.hazard_keep - 30.0) ** 2) / 10 + noise

    best = tune.climb(FakePool(score), CLASSIC, range(200), rounds=2, z=2.0)
    assert best == dataclasses.replace(CLASSIC, hazard_keep=30.0)
    out = capsys.readouterr().out
    assert "round 1 hazard_keep=45.0" in out and "round 1 hazard_keep=30.0" in out and "TAKEN" in out
    assert "round 1 hazard_keep=15.0" in out  # tried past the top, not taken
    assert "round 2 hazard_keep=37.5" in out  # the second round tries half steps


def test_check_plays_real_hands_and_a_bad_field_is_refused() -> None:
    script = str(RESEARCH / "tune_style.py")
    cmd = [sys.executable, script, "--deals", "3", "--workers", "1", "--check", '{"hazard_keep": 45}']
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=120)
    # the weight is a float: the whole number given is taken as one
    assert "{'hazard_keep': 45.0} against fitted, 3 deals: paired margin against classic" in done.stdout
    bad = subprocess.run([*cmd[:-1], '{"no_such_weight": 1}'], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--check:" in bad.stderr and "no_such_weight" in bad.stderr
    one = subprocess.run([*cmd[:2], "--deals", "1"], capture_output=True, text=True, timeout=120)
    assert one.returncode == 2 and "--deals: at least 2" in one.stderr and not one.stdout
    assert set(STYLES) >= {"classic", "fitted"}
