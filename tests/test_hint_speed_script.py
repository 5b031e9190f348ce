"""``benchmarks/hint_speed.py`` on a tiny budget: it times the coach's hints of a game's
decisions, each one a legal move (the figures are in docs/analysis.md, "Coach")."""

from __future__ import annotations

import pytest

from benchmark_modules import load
from rallye.analysis.coach import Coach


def test_the_hint_benchmark_times_hints_of_both_games(capsys: pytest.CaptureFixture[str]) -> None:
    speed = load("hint_speed")
    times = speed.hint_times("mille", {"edition": "meilen", "players": 3}, 2, "easy", Coach("mille", "hard"), 3, 4)
    assert len(times) == 4 and all(t >= 0 for t in times)
    kr = speed.hint_times("knightrider", {"players": 3, "options": {"quick_build": True}}, 2, "heuristic",
                          Coach("knightrider"), 1, 40)  # fmt: skip
    assert len(kr) == 40
    assert {key for _, key, _, _ in speed.SETTINGS} == {"mille", "knightrider"}
