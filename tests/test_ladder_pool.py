"""``research/ladder_pool.py``: pooling ladder runs counts each game once and refuses to
mix two versions of a bot."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from benchmark_modules import EXPERT_SPEC, RESEARCH

Capture = pytest.CaptureFixture[str]
FIELDS = ("a", "b", "deal_seed", "seat_a", "result_a", "points_a", "points_b", "hands")


def _write(path: Path, rows: Sequence[tuple[object, ...]]) -> Path:
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(FIELDS)
        w.writerows(rows)
    return path


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(RESEARCH))
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
    clo, chi = pool.clustered_ci95([(1.0, 2), (2.0, 2)])
    assert (
        f"deal-clustered [{clo:.1%}, {chi:.1%}], reported (the wider) [{min(lo, clo):.1%}, {max(hi, chi):.1%}]" in out
    )


def test_the_reported_interval_is_wilsons_when_the_seat_orders_split(
    pool: Any, tmp_path: Path, capsys: Capture
) -> None:
    # duplicate play's negative correlation: A wins one seat order of 60 of 80 deals and both
    # of the other 20 (62.5 % of the games); the clustered interval is narrower than Wilson's and
    # is printed, but not reported
    rows = [("x", "y", d, s, 1.0 if s == 0 or d < 20 else 0.0, 5000, 4000, 4) for d in range(80) for s in (0, 1)]
    assert pool.main([str(_write(tmp_path / "split.csv", rows))]) == 0
    out = capsys.readouterr().out
    lo, hi = pool.wilson(100, 160)
    clo, chi = pool.clustered_ci95([(2.0, 2)] * 20 + [(1.0, 2)] * 60)
    assert lo < clo and chi < hi
    assert f"deal-clustered [{clo:.1%}, {chi:.1%}], reported (the wider) [{lo:.1%}, {hi:.1%}]" in out


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


def test_against_pairs_games_by_opponent_deal_and_seat(pool: Any, tmp_path: Path, capsys: Capture) -> None:
    # x and z met y on deals 1-3; deal 3 seat 1 only x played, deal 4 only z: 5 common games.
    # Each game: (deal, seat, result, points, y's points)
    xs = [(1, 0, 1.0, 5000, 4000), (1, 1, 1.0, 5100, 3000), (2, 0, 0.0, 4000, 5000)]
    xs += [(2, 1, 1.0, 5000, 4500), (3, 0, 1.0, 5200, 2000), (3, 1, 0.0, 1000, 5000)]
    zs = [(1, 0, 0.0, 4000, 5000), (1, 1, 1.0, 5000, 3000), (2, 0, 0.0, 3000, 5000)]
    zs += [(2, 1, 0.0, 4500, 5000), (3, 0, 1.0, 5000, 2000), (4, 0, 1.0, 5000, 2000)]
    first = _write(tmp_path / "x.csv", [("x", "y", *g, 4) for g in xs])
    against = _write(tmp_path / "z.csv", [("z", "y", *g, 4) for g in zs])
    assert pool.main([str(first), "--against", str(against)]) == 0
    out = capsys.readouterr().out
    # differences by deal: [+1, 0], [0, +1], [0]: +2 / 5 games = +40 points of win rate;
    # margins: x's [1000, 2100, -1000, 500, 3200] against z's [-1000, 2000, -2000, -500, 3000],
    # differences [2000, 100, 1000, 1000, 200]: +860 a game
    assert "against y, 5 common games (3 deals): x won 4 (80.0%), z (--against) won 2 (40.0%)" in out
    assert "difference +40.0 points of win rate" in out and "margin +860 " in out
    m, lo, hi = pool.clustered_mean_ci95([[1.0, 0.0], [0.0, 1.0], [0.0]])
    assert m == pytest.approx(0.4) and lo < 0.4 < hi
    assert f"[{100 * lo:+.1f}, {100 * hi:+.1f}]" in out and "(95 %, deals clustered)" in out


def test_against_refuses_two_bots_against_one_opponent_and_no_common_game(
    pool: Any, tmp_path: Path, capsys: Capture
) -> None:
    first = _write(tmp_path / "x.csv", [("x", "y", 1, 0, 1.0, 5000, 4000, 4)])
    mixed = _write(tmp_path / "m.csv", [("z", "y", 1, 0, 0.0, 4000, 5000, 4), ("w", "y", 2, 0, 1.0, 5000, 1, 4)])
    assert pool.main([str(first), "--against", str(mixed)]) == 2
    assert "the --against files hold two bots against y (z and w)" in capsys.readouterr().err
    elsewhere = _write(tmp_path / "e.csv", [("z", "y", 9, 0, 0.0, 4000, 5000, 4)])
    assert pool.main([str(first), "--against", str(elsewhere)]) == 2
    assert "no game of the first files is also in the --against files" in capsys.readouterr().err
    empty = _write(tmp_path / "empty.csv", [])
    assert pool.main([str(first), "--against", str(empty)]) == 2
    assert "no games in the --against files" in capsys.readouterr().err


def test_games_to_show_a_goal_is_the_first_count_whose_wilson_interval_clears_it(pool: Any) -> None:
    for rate, goal in ((0.707, 0.70), (0.75, 0.70), (0.6, 0.5), (1.0, 0.9)):
        n = pool.games_to_show(rate, goal)
        assert pool.wilson(rate * n, n)[0] > goal
        assert n == 1 or pool.wilson(rate * (n - 1), n - 1)[0] <= goal
    # the normal approximation's figure, z^2 p (1 - p) / (p - goal)^2, is close
    assert pool.games_to_show(0.707, 0.70) == pytest.approx(1.96**2 * 0.707 * 0.293 / 0.007**2, rel=0.05)
    assert pool.games_to_show(0.70, 0.70) is None and pool.games_to_show(0.65, 0.70) is None


def test_goal_says_shown_not_shown_or_below(pool: Any, tmp_path: Path, capsys: Capture) -> None:
    def run(won: int, deals: int) -> str:
        # each deal in both seat orders; A wins the first `won` games
        rows = [("x", "y", d, s, 1.0 if 2 * d + s < won else 0.0, 5000, 4000, 4) for d in range(deals) for s in (0, 1)]
        path = _write(tmp_path / f"{won}_{deals}.csv", rows)
        assert pool.main([str(path), "--goal", "0.7"]) == 0
        return capsys.readouterr().out

    assert (
        "x vs y against the goal 70.0%: 90.0% [" in (out := run(180, 100))
        and "shown, the interval lies wholly above" in out
    )
    assert "the interval lies wholly below it" in run(100, 100)
    out = run(150, 100)  # 75 % of 200 games: the interval holds 70 %
    n = pool.games_to_show(0.75, 0.7)
    assert f"not shown; were the true rate the 75.0% measured, Wilson's interval would clear it at about {n:,} " in out
    assert f"({n - 200:,} more)" in out
    assert "no number of games would show it" in run(136, 100)  # 68 %
    with pytest.raises(SystemExit):
        pool.main([str(tmp_path / "150_100.csv"), "--goal", "70"])


def test_seats_pairs_the_two_seat_orders_of_each_deal(pool: Any, tmp_path: Path, capsys: Capture) -> None:
    # deals 0-3 in both seat orders, deal 4 from seat 0 only (left out); A wins from seat 0 on
    # deals 0-2 and from seat 1 on deal 0 only: per deal seat 0 less seat 1 = 0, 1, 1, 0
    rows = [
        *(("x", "y", d, 0, 1.0 if d < 3 else 0.0, 5000 if d < 3 else 4000, 4500, 4) for d in range(5)),
        *(("x", "y", d, 1, 1.0 if d == 0 else 0.0, 5000 if d == 0 else 3000, 4500, 4) for d in range(4)),
    ]
    assert pool.main([str(_write(tmp_path / "s.csv", rows)), "--seats"]) == 0
    out = capsys.readouterr().out
    d, lo, hi = pool.mean_ci([0.0, 1.0, 1.0, 0.0])
    # margins: seat 0 +500, +500, +500, -500; seat 1 +500, -1500, -1500, -1500
    m, mlo, mhi = pool.mean_ci([0.0, 2000.0, 2000.0, 1000.0])
    assert (
        "x vs y by seat, 4 deals in both seat orders: x won 3 from seat 0 (75.0%), 1 from seat 1 (25.0%); "
        f"seat 0 less seat 1, paired by deal, {100 * d:+.1f} points of win rate [{100 * lo:+.1f}, {100 * hi:+.1f}], "
        f"margin {m:+.0f} [{mlo:+.0f}, {mhi:+.0f}] a match"
    ) in out
    one_seat = _write(tmp_path / "one.csv", [("x", "y", 1, 0, 1.0, 5000, 4000, 4)])
    assert pool.main([str(one_seat), "--seats"]) == 0
    assert "x vs y by seat: no deal played in both seat orders" in capsys.readouterr().out


ROOT = RESEARCH.parent


def test_the_bot_notes_state_expert_s_record_as_its_files_hold_it(pool: Any) -> None:
    """Expert's record in the bot notes (``docs/bots.md``, "The 70 % goal") is what the committed runs
    hold: the record's command names every file of today's expert (the first filter's
    ``h16track_2[23]1000.csv`` aside), and the wins and games it states are the files'."""
    results = ROOT / "research" / "results"
    notes = (results / "README.md").read_text(encoding="utf-8")
    lead = "Today's expert's record: `ladder_pool.py "
    assert lead in notes, "the results README no longer gives the record's command"
    command = notes.split(lead, 1)[1].split("`", 1)[0]
    named = {p for arg in command.split() for p in ROOT.glob(arg)}
    every = {p for p in results.glob("h16track_*.csv") if p.name not in ("h16track_221000.csv", "h16track_231000.csv")}
    assert named == every, f"the record's command misses {sorted(p.name for p in every - named)}"
    games = pool.read_games(sorted(named))
    assert {(a, b) for a, b, _, _ in games} == {(EXPERT_SPEC, "medium")}
    wins, n = sum(g[0] for g in games.values()), len(games)
    stated = f"{wins:,.0f} of {n:,}"
    bots = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    assert f"| all its games | | | **{stated}** |" in bots
    assert f"| expert vs medium | | | {stated} ({wins / n:.1%}".replace("%", " %") in bots
    assert f"has won {stated} 5000-point matches".replace(" ", "") in bots.replace("\n", "").replace(" ", "")
    search = (ROOT / "src" / "rallye" / "agents" / "mille" / "search.py").read_text(encoding="utf-8")
    assert f"{stated} matches ({wins / n:.1%})".replace("%", " %") in search
