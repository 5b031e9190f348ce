"""``research/zoo.py``: the levels against the opponent zoo (and the ladder) at every size."""

from __future__ import annotations

import json

import pytest

from benchmark_modules import load

zoo = load("zoo")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict]:
    assert zoo.main([*args, "--json", "--workers", "1"]) == 0
    return json.loads(capsys.readouterr().out)


def test_every_side_takes_the_level_in_turn_on_the_same_deals(capsys: pytest.CaptureFixture[str]) -> None:
    rows = run(capsys, "--sizes", "2,4,6", "--levels", "easy", "--against", "zoo-racer,random", "--deals", "2")
    assert [(r["players"], r["opponent"]) for r in rows] == [(n, o) for n in (2, 4, 6) for o in ("zoo-racer", "random")]
    for r in rows:
        assert r["matches"] == 2 * r["sides"]  # each deal once with the level at every side
        assert r["low"] <= r["rate"] <= r["high"]
        assert r["fair"] == pytest.approx(1 / r["sides"])
        assert r["line"] == pytest.approx(min(1.0, 1.5 / r["sides"]))
    # 4 players in wm2006 are two teams of two; 6 players three teams
    assert [r["sides"] for r in rows] == [2, 2, 2, 2, 3, 3]
    jobs, where = zoo.jobs_for("wm2006", [4], ["easy"], "random", 1, 63)
    assert [j.seat_bots for j in jobs] == [("easy", "random", "easy", "random"), ("random", "easy", "random", "easy")]
    assert len({j.seed for j in jobs}) == 1  # one deal, duplicated
    assert [where[j.index][2] for j in jobs] == [0, 1]


def test_the_same_run_gives_the_same_table(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--sizes", "3", "--levels", "medium", "--against", "below", "--deals", "1")
    first = run(capsys, *args)
    assert first == run(capsys, *args)
    assert [(r["level"], r["opponent"], r["line"]) for r in first] == [("medium", "easy", pytest.approx(1 / 3))]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sizes", "5"], "wm2006 is played by 2, 3, 4, 6 players, not 5"),
        (["--levels", "godlike"], "unknown level 'godlike'"),
        (["--against", "nobody"], "unknown bot 'nobody'"),
        (["--edition", "nope"], "nope"),
        (["--deals", "0"], "must be at least 1"),
    ],
)
def test_bad_arguments_are_named(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as exc:
        zoo.main(args)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_the_learned_level_is_measured_against_hard_below_it(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("numpy")
    rows = run(capsys, "--sizes", "2", "--levels", "learned", "--against", "zoo-racer", "--deals", "1")
    assert [(r["level"], r["opponent"], r["matches"]) for r in rows] == [("learned", "zoo-racer", 2)]
    assert zoo.opponents("below", "learned") == ["hard"]  # its goal (issue #63 item 5) is hard
