"""``benchmarks/engine_speed.py``: both paths play the same random matches, and the table
has a row per edition and path."""

from __future__ import annotations

from types import ModuleType

import pytest

from benchmark_modules import load


@pytest.fixture(scope="module")
def engine_speed() -> ModuleType:
    return load("engine_speed")


def test_both_paths_play_the_same_matches(engine_speed: ModuleType) -> None:
    # a tiny budget: one match each, the same picks from the same seed
    engine = engine_speed.playouts("hu", 3, 1e-9, seed=4, path="engine")
    fast = engine_speed.playouts("hu", 3, 1e-9, seed=4, path="playout")
    assert engine[:3] == fast[:3]
    assert engine[2] == 1 and engine[0] > 50 and engine[1] >= 1


def test_table_has_a_row_per_edition_and_path(engine_speed: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert engine_speed.main(["--seconds", "0.1", "--rounds", "2", "--edition", "wm2006", "--edition", "meilen"]) == 0
    out = capsys.readouterr().out
    assert out.count("playout / engine, round by round: median") == 2
    rows = [line.split() for line in out.splitlines()]
    assert [(r[0], r[1]) for r in rows if r and r[0] in ("wm2006", "meilen")] == [
        ("wm2006", "engine"),
        ("wm2006", "playout"),
        ("meilen", "engine"),
        ("meilen", "playout"),
    ]
