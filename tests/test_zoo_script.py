"""``research/zoo.py``: the levels against the opponent zoo (and the ladder) at every size."""

from __future__ import annotations

import json
from pathlib import Path

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


ARGS = ("--sizes", "2,3", "--levels", "easy", "--against", "random", "--deals", "2")


def test_a_stopped_run_is_resumed_from_its_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole_file = tmp_path / "whole.csv"
    whole = run(capsys, *ARGS, "--csv", str(whole_file))
    lines = whole_file.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[0].rstrip() == ",".join(zoo.CSV_FIELDS) and len(lines) == 1 + 2 * 2 + 2 * 3
    part = tmp_path / "part.csv"
    part.write_text("".join(lines[:4]), encoding="utf-8")  # stopped after three matches
    played: list[int] = []
    real = zoo.run_jobs
    monkeypatch.setattr(zoo, "run_jobs", lambda jobs, **kw: played.append(len(jobs)) or real(jobs, **kw))
    assert run(capsys, *ARGS, "--csv", str(part), "--resume") == whole  # the same table
    assert played == [10 - 3]  # only the matches not in the file
    assert sorted(part.read_text(encoding="utf-8").splitlines()) == sorted(x.rstrip("\n") for x in lines)
    assert run(capsys, *ARGS, "--csv", str(part), "--resume") == whole and played[-1] == 0  # nothing left
    assert run(capsys, *ARGS, "--csv", str(tmp_path / "new.csv"), "--resume") == whole  # a new file: all of it


def _refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    with pytest.raises(SystemExit) as exc:
        zoo.main([*args, "--workers", "1"])
    assert exc.value.code == 2
    return capsys.readouterr().err


def test_resume_refuses_a_file_it_cannot_carry_on(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    made = tmp_path / "made.csv"
    run(capsys, *ARGS, "--deals", "1", "--csv", str(made))
    text = made.read_text(encoding="utf-8")
    header, first, *rest = text.splitlines(keepends=True)
    match, share = first.rstrip("\n").rsplit(",", 1)
    other = f"{match},{1.0 - float(share)}\n"  # the same match, the other result
    assert "--resume needs --csv" in _refused(capsys, *ARGS, "--resume")
    assert "already holds matches: --resume" in _refused(capsys, *ARGS, "--csv", str(made))
    assert made.read_text(encoding="utf-8") == text  # not overwritten
    bad = tmp_path / "bad.csv"
    for content, message in (
        (text, "line 2: the deal's seed is"),  # --seed 64 below: another run's deals
        (text.rstrip("\n"), "its last line is incomplete"),
        ("a,b\n" + first, "line 1 is not this script's header"),
        (header + first.replace("easy", "hard", 1), "is not a match of this command"),
        (header + first + other, "line 3: this match is in the file already, with another result"),
        (header + "2,easy,random,x,0,1,1.0\n", "line 2: players, deal, side and seed are whole numbers"),
        (header + first.rstrip("\n") + ",7\n", "line 2 has 8 fields"),
    ):
        bad.write_text(content, encoding="utf-8")
        seed = ("--seed", "64") if message.startswith("line 2: the deal") else ()
        assert message in _refused(capsys, *ARGS, *seed, "--csv", str(bad), "--resume"), message
    assert rest  # (the file held more than one match)
