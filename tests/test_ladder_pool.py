"""``benchmarks/ladder_pool.py``: pooling ladder runs counts each game once and refuses to
mix two versions of a bot."""

from __future__ import annotations

import csv
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

Capture = pytest.CaptureFixture[str]
FIELDS = ("a", "b", "deal_seed", "seat_a", "result_a", "points_a", "points_b", "hands")


def _write(path: Path, rows: list[tuple[object, ...]]) -> Path:
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(FIELDS)
        w.writerows(rows)
    return path


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import ladder_pool

    return ladder_pool


def test_two_runs_pool_and_a_repeated_file_counts_once(pool: Any, tmp_path: Path, capsys: Capture) -> None:
    one = _write(tmp_path / "1.csv", [("x", "y", 1, 0, 1.0, 5000, 4000, 4), ("x", "y", 1, 1, 0.0, 3000, 5100, 4)])
    two = _write(tmp_path / "2.csv", [("x", "y", 2, 0, 1.0, 5200, 3000, 3), ("x", "y", 2, 1, 1.0, 5000, 4800, 5)])
    assert pool.main([str(one), str(two), str(one)]) == 0
    out = capsys.readouterr().out
    # 3 of 4 games; margins per deal: (1000 - 2100) / 2 = -550 and (2200 + 200) / 2 = +1200
    assert "x won 3 of 4 games = 75.0%" in out
    assert "margin +325 " in out and "2 deals (2 in both seat orders)" in out
    lo, hi = pool.wilson(3, 4)
    assert f"Wilson [{lo:.1%}, {hi:.1%}]" in out


def test_the_same_game_with_another_result_is_refused(pool: Any, tmp_path: Path, capsys: Capture) -> None:
    one = _write(tmp_path / "1.csv", [("x", "y", 1, 0, 1.0, 5000, 4000, 4)])
    other = _write(tmp_path / "2.csv", [("x", "y", 1, 0, 0.0, 4000, 5000, 4)])
    assert pool.main([str(one), str(other)]) == 2
    assert "deal 1 seat 0 of x vs y has different results" in capsys.readouterr().err


def test_a_file_that_is_not_a_ladder_csv_is_named(pool: Any, tmp_path: Path, capsys: Capture) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    assert pool.main([str(bad)]) == 2
    assert f"{bad}: not a ladder.py CSV" in capsys.readouterr().err
    broken = _write(tmp_path / "broken.csv", [("x", "y", "one", 0, 1.0, 5000, 4000, 4)])
    assert pool.main([str(broken)]) == 2
    assert f"{broken}, line 2:" in capsys.readouterr().err
    assert pool.main([str(tmp_path / "missing.csv")]) == 2
