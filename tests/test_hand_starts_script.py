"""``research/ladder.py --hands-csv`` (one row per hand) and ``research/hand_starts.py``
(what starting a hand is worth to each bot)."""

from __future__ import annotations

import csv
import math
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from benchmark_modules import RESEARCH, load
from rallye.sim.stats import t95

hand_starts = load("hand_starts")
LADDER = RESEARCH / "ladder.py"


def _ladder(*args: str | Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, str(LADDER), "--pairs", "medium:easy", "--first-seed", "70", "--workers", "1"]
    return subprocess.run(cmd + [str(a) for a in args], capture_output=True, text=True, check=check, timeout=300)


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def test_hands_csv_holds_every_hand_of_every_game(tmp_path: Path) -> None:
    games, hands = tmp_path / "games.csv", tmp_path / "hands.csv"
    _ladder("--matches", "3", "--csv", games, "--hands-csv", hands)
    assert hands.read_text().splitlines()[0] == ",".join(hand_starts.HAND_FIELDS)
    by_game: dict[tuple[str, str], list[dict[str, str]]] = defaultdict(list)
    for r in _rows(hands):
        by_game[(r["deal_seed"], r["seat_a"])].append(r)
    game_rows = _rows(games)
    assert sorted(by_game) == sorted((g["deal_seed"], g["seat_a"]) for g in game_rows)
    for g in game_rows:
        rows = sorted(by_game[(g["deal_seed"], g["seat_a"])], key=lambda r: int(r["hand"]))
        assert [int(r["hand"]) for r in rows] == list(range(1, int(g["hands"]) + 1))
        # the game's points are its hands' points; the totals run on
        assert sum(int(r["points_a"]) for r in rows) == int(g["points_a"])
        assert sum(int(r["points_b"]) for r in rows) == int(g["points_b"])
        assert (int(rows[-1]["total_a"]), int(rows[-1]["total_b"])) == (int(g["points_a"]), int(g["points_b"]))
        # seat 0 starts the first hand, then the players take turns [core: Deal]
        seat_a = int(g["seat_a"])
        assert [int(r["started_a"]) for r in rows] == [int((h % 2 == 0) == (seat_a == 0)) for h in range(len(rows))]
        assert all(r["completed"] in ("a", "b", "") and r["extended"] in ("a", "b", "") for r in rows)
    # A 5000-point match: the last hand takes a side there, and only then
    for g in game_rows:
        rows = sorted(by_game[(g["deal_seed"], g["seat_a"])], key=lambda r: int(r["hand"]))
        assert all(max(int(r["total_a"]), int(r["total_b"])) < 5000 for r in rows[:-1])
        assert max(int(rows[-1]["total_a"]), int(rows[-1]["total_b"])) >= 5000


def test_hands_csv_is_refused_when_it_holds_hands_unless_resumed(tmp_path: Path) -> None:
    games, hands = tmp_path / "games.csv", tmp_path / "hands.csv"
    _ladder("--matches", "1", "--hands", "--csv", games, "--hands-csv", hands)
    before = hands.read_text()
    assert len(before.splitlines()) == 3  # the header and the two games' single hands
    done = _ladder("--matches", "1", "--hands", "--hands-csv", hands, check=False)
    assert done.returncode == 2 and "already holds hands: --resume" in done.stderr
    assert hands.read_text() == before  # nothing lost
    _ladder("--matches", "2", "--hands", "--csv", games, "--hands-csv", hands, "--resume")
    after = hands.read_text().splitlines()
    assert after[: len(before.splitlines())] == before.splitlines() and len(after) == 5  # two games appended
    hands.write_text(hands.read_text() + "medium,easy,72")  # a run stopped mid-row
    done = _ladder("--matches", "3", "--hands", "--csv", games, "--hands-csv", hands, "--resume", check=False)
    assert done.returncode == 2 and "last line is incomplete" in done.stderr
    done = _ladder("--matches", "1", "--csv", games, "--hands-csv", games, "--resume", check=False)
    assert done.returncode == 2 and "two files" in done.stderr
    other = tmp_path / "other.csv"
    other.write_text(games.read_text())  # a game file given as the hands file: not appended to
    done = _ladder("--matches", "1", "--csv", games, "--hands-csv", other, "--resume", check=False)
    assert done.returncode == 2 and "line 1 is not this script's header (a,b,deal_seed,seat_a,hand," in done.stderr
    assert other.read_text() == games.read_text()


def _write(path: Path, rows: list[tuple[object, ...]]) -> Path:
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(hand_starts.HAND_FIELDS)
        w.writerows(rows)
    return path


def _hand(deal: int, seat: int, hand: int, started: int, pa: int, pb: int, done: str = "") -> tuple[object, ...]:
    return ("x", "y", deal, seat, hand, started, pa, pb, pa, pb, done, "")


def test_summary_splits_the_margins_by_who_started(tmp_path: Path) -> None:
    rows = []
    for deal in range(6):  # A gains 300 a hand it starts and 100 a hand it does not, noise +-50 by deal
        e = 50 if deal % 2 else -50
        rows += [_hand(deal, 0, 1, 1, 1000 + e, 700, "a" if deal < 3 else ""), _hand(deal, 0, 2, 0, 800 - e, 700, "b")]
    path = _write(tmp_path / "h.csv", rows + rows[:3])  # a hand recorded twice, the same: counted once
    lines = hand_starts.summary(hand_starts.read_hands([path]))
    assert lines[0] == "x (A) vs y (B): 12 hands of 6 deals"
    assert lines[1].startswith("  A started: 6 hands, A's margin +300 [") and "A won 100.0%" in lines[1]
    assert "trip completed by A 50.0%, by B 0.0%; extended by A 0.0%" in lines[1]
    assert lines[2].startswith("  B started: 6 hands, A's margin +100 [")
    assert "trip completed by A 0.0%, by B 100.0%" in lines[2]
    assert lines[3].startswith("  A started less B started: +200 [")


def test_difference_interval_is_the_wider_of_independent_and_clustered() -> None:
    # independent values: one per cluster, so the clustered interval is about Welch's
    first = {c: [v] for c, v in enumerate([1, 3, 5, 7])}
    second = {c + 10: [v] for c, v in enumerate([0, 2, 4])}
    d, lo, hi = hand_starts.difference_ci95(first, second)
    assert d == pytest.approx(2.0)
    welch = t95(5) * math.sqrt((20 / 3) / 4 + 4.0 / 3)
    assert hi - d >= welch - 1e-9 and d - lo == pytest.approx(hi - d)
    # values that move together within a deal: the clustered interval is the wider one
    together = {c: [c % 2] * 4 for c in range(8)}
    apart = {c: [0, 1, 0, 1] for c in range(8)}
    d, lo, hi = hand_starts.difference_ci95(together, apart)
    welch = t95(62) * math.sqrt(2 * (8 / 31) / 32)
    assert d == pytest.approx(0.0) and hi - d > 1.5 * welch
    assert hand_starts.difference_ci95({0: [1]}, {0: [2]})[1:] == (-math.inf, math.inf)
    with pytest.raises(ValueError, match="values on both sides"):
        hand_starts.difference_ci95({}, {0: [1]})


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("a,b,deal_seed\nx,y,1\n", "not a ladder.py --hands-csv file (no column seat_a"),
        (",".join(hand_starts.HAND_FIELDS) + "\nx,y,1,0,one,1,0,0,0,0,,\n", "line 2: invalid literal"),
        (",".join(hand_starts.HAND_FIELDS) + "\nx,y,1,2,1,1,0,0,0,0,,\n", "line 2: a seat is 0 or 1"),
        (",".join(hand_starts.HAND_FIELDS) + "\nx,y,1,0,1,1,0\n", "line 2: its fields are not the header's 12"),
        (
            ",".join(hand_starts.HAND_FIELDS) + "\nx,y,1,0,1,1,0,0,0,0,A,\n",
            "line 2: completed and extended are a, b or empty",
        ),
    ],
)
def test_a_broken_file_is_refused_naming_the_line(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(hand_starts.PoolError, match=re.escape(says)):
        hand_starts.read_hands([path])


def test_two_records_of_one_hand_are_refused_naming_both_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = _write(tmp_path / "one.csv", [_hand(5, 1, 2, 1, 700, 0)])
    two = _write(tmp_path / "two.csv", [_hand(5, 1, 2, 1, 600, 0)])
    assert hand_starts.main([str(one), str(two)]) == 2
    err = capsys.readouterr().err
    assert "hand 2 of deal 5 seat 1 (x vs y) is recorded differently" in err
    assert f"{one}, line 2" in err and f"{two}, line 2" in err
    assert hand_starts.main([str(tmp_path / "none.csv")]) == 2
    assert "No such file" in capsys.readouterr().err
    empty = _write(tmp_path / "empty.csv", [])
    assert hand_starts.main([str(empty)]) == 2 and "no hands" in capsys.readouterr().err
    assert hand_starts.main([str(one)]) == 0
    assert "A started: 1 hands" in capsys.readouterr().out
