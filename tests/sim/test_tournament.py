"""``rallye tournament``: duplicate deals, reproducible on any backend and worker count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rallye.cli import main
from rallye.sim.play import MatchJob, MatchResult
from rallye.sim.stats import wilson
from rallye.sim.tournament import (
    FEW_DEALS,
    TournamentConfig,
    deal_group,
    play_tournament,
    print_report,
    schedule,
    summarize,
)

CONFIG = TournamentConfig(game="mille", bots=("heuristic", "random"), players=2, matches=6, seed=5, bootstrap=30)


def test_deal_groups_put_every_bot_on_every_side() -> None:
    assert deal_group(["a", "b"], 2) == [("a", "b"), ("b", "a")]
    three = deal_group(["a", "b", "c"], 3)
    assert len(three) == 6 and all(sorted(g) == ["a", "b", "c"] for g in three)
    rr = deal_group(["a", "b", "c"], 2)  # round robin: each pair, both ways
    assert sorted(rr) == sorted([("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"), ("c", "b")])
    five = deal_group(["a", "b", "c", "d", "e"], 5)  # more than 4 sides: the rotations
    assert len(five) == 5 and all(sum(g[s] == "a" for g in five) == 1 for s in range(5))
    with pytest.raises(ValueError, match="two different bots"):
        deal_group(["a"], 2)
    with pytest.raises(ValueError, match="twice"):
        deal_group(["a", "a"], 2)


def test_every_deal_is_replayed_with_the_seats_swapped() -> None:
    jobs, g = schedule(CONFIG)
    assert g == 2 and len(jobs) == 6 and [j.index for j in jobs] == list(range(6))
    for first, second in zip(jobs[::2], jobs[1::2], strict=True):
        assert first.seed == second.seed  # the same deal …
        assert first.seat_bots == tuple(reversed(second.seat_bots))  # … with the bots swapped
    assert len({j.seed for j in jobs}) == 3


def test_team_sides_get_one_bot_each() -> None:
    cfg = TournamentConfig(game="mille", bots=("heuristic", "random"), players=4, matches=2, edition="wm2006")
    jobs, _ = schedule(cfg)
    # wm2006, 4 players: seats 1+3 against 2+4
    assert jobs[0].seat_bots == ("heuristic", "random", "heuristic", "random")
    assert jobs[1].seat_bots == ("random", "heuristic", "random", "heuristic")


def test_same_seed_same_report_whatever_the_worker_count() -> None:
    one, res1 = play_tournament(CONFIG, workers=1)
    again, _ = play_tournament(CONFIG, workers=1)
    two, res2 = play_tournament(CONFIG, workers=2)
    assert one == again == two
    assert res1 == res2
    other, _ = play_tournament(
        TournamentConfig(game="mille", bots=("heuristic", "random"), players=2, matches=6, seed=6, bootstrap=30),
        workers=1,
    )
    assert other != one
    # the report is consistent
    bots = {b["bot"]: b for b in one["bots"]}
    assert bots["heuristic"]["matches"] == bots["random"]["matches"] == 6
    assert bots["heuristic"]["match_wins"] + bots["random"]["match_wins"] == pytest.approx(6)
    for b in one["bots"]:
        assert b["match_ci95"][0] <= b["match_win_rate"] <= b["match_ci95"][1]
        assert b["hand_ci95"][0] <= b["hand_win_rate"] <= b["hand_ci95"][1]
    assert bots["heuristic"]["elo"] > bots["random"]["elo"]
    assert bots["heuristic"]["elo"] + bots["random"]["elo"] == pytest.approx(0, abs=1e-9)


def test_cli_writes_csv_json_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--bots", "heuristic,random", "--matches", "4", "--seed", "3", "--workers", "1",
            "--bootstrap", "20", "--out", str(tmp_path)]  # fmt: skip
    assert main([*argv, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert json.loads((tmp_path / "tournament.json").read_text(encoding="utf-8")) == printed
    bots_csv = (tmp_path / "bots.csv").read_text(encoding="utf-8").splitlines()
    assert bots_csv[0].startswith("bot,elo,elo_lo,elo_hi") and len(bots_csv) == 3
    matches_csv = (tmp_path / "matches.csv").read_text(encoding="utf-8").splitlines()
    assert len(matches_csv) == 1 + 4 * 2  # a row per match and side
    png = (tmp_path / "tournament.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    assert main(argv[:-2]) == 0  # the text report
    out = capsys.readouterr().out
    assert "Elo" in out and "heuristic" in out and "2 deals × 2 seatings" in out
    assert "only 2 deals" in out  # and a warning that so few make rough intervals


def test_bad_input_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "heuristic,nobody", "--matches", "2"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err
    assert main(["tournament", "--bots", "random,random", "--matches", "2"]) == 2
    assert "named twice" in capsys.readouterr().err
    assert main(["tournament", "--bots", "random,heuristic", "--address", "x:1", "--matches", "2"]) == 2
    assert "--backend ray" in capsys.readouterr().err


def test_knightrider_tournament_runs_duplicate_games(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("rallye.knightrider.engine")
    from rallye.agents import base

    # Only the random bot exists for Knight Rider so far: a second, differently seeded one.
    monkeypatch.setitem(
        base._REGISTRY, ("knightrider", "random-b"), lambda seed: base.RandomAgent(seed + 1, "random-b")
    )
    cfg = TournamentConfig(
        game="knightrider",
        bots=("random", "random-b"),
        players=2,
        matches=4,
        seed=1,
        options={"quick_build": True, "turn_limit": 300},
        bootstrap=20,
    )
    report, results = play_tournament(cfg, workers=1)
    assert report["matches"] == 4 and report["group_size"] == 2
    assert results[0].seed == results[1].seed and results[0].seat_bots == ("random", "random-b")
    assert all(r.hands == 1 and not r.hand_totals for r in results)
    wins = sum(b["match_wins"] for b in report["bots"])
    assert wins == pytest.approx(4)  # a game without a capture is shared as a draw
    assert "edition" not in report["config"]


def _won_by(job: MatchJob, sides: tuple[tuple[int, ...], ...], side: int) -> MatchResult:
    """A synthetic result of ``job``: ``side`` won (for the report's arithmetic)."""
    return MatchResult(
        index=job.index, seed=job.seed, seat_bots=job.seat_bots, sides=sides, winners=(side,), decisions=1, hands=0
    )


def test_win_rate_intervals_count_deals_not_just_matches() -> None:
    """Two deals of a 4-bot Knight Rider group (24 arrangements each) whose matches all
    went the way the seat decided: 48 matches, but the intervals may not claim what 48
    independent matches would (rallye.sim.stats.rate_ci95)."""
    cfg = TournamentConfig(game="knightrider", bots=("a", "b", "c", "d"), players=4, matches=48, bootstrap=20)
    jobs, g = schedule(cfg)
    assert g == 24 and len(jobs) == 48
    sides = ((0,), (1,), (2,), (3,))
    # deal 0: seat 1 always wins; deal 1: seat 2 always wins
    results = [_won_by(j, sides, j.index // g) for j in jobs]
    report = summarize(cfg, results, g)
    for b in report["bots"]:
        assert b["matches"] == 48 and b["match_wins"] == 12
        lo, hi = b["match_ci95"]
        wlo, whi = wilson(12, 48)
        assert lo <= wlo and whi <= hi
        # every bot won 6 of 24 in each deal: the deals agree, so here Wilson's is the wider
        assert (lo, hi) == pytest.approx((wlo, whi))
    # now the bots, not the seats, decide, but only two deals were played: 'a' won all 48
    results = [_won_by(j, sides, j.seat_bots.index("a" if j.index < g else "b")) for j in jobs]
    bots = {b["bot"]: b for b in summarize(cfg, results, g)["bots"]}
    assert bots["a"]["match_wins"] == 24 and bots["b"]["match_wins"] == 24
    assert bots["a"]["match_ci95"] == [0.0, 1.0]  # 24 of 24, then 0 of 24: two deals say little
    assert wilson(24, 48)[1] - wilson(24, 48)[0] < 0.3


def test_the_report_warns_only_when_deals_are_few(capsys: pytest.CaptureFixture[str]) -> None:
    def report(deals: int) -> dict:
        cfg = TournamentConfig(game="knightrider", bots=("a", "b"), players=2, matches=2 * deals, bootstrap=10)
        jobs, g = schedule(cfg)
        return summarize(cfg, [_won_by(j, ((0,), (1,)), j.index % 3 % 2) for j in jobs], g)

    print_report(report(FEW_DEALS - 1))
    assert f"only {FEW_DEALS - 1} deals" in capsys.readouterr().out
    print_report(report(FEW_DEALS))
    out = capsys.readouterr().out
    assert f"{FEW_DEALS} deals × 2 seatings" in out and "only" not in out


def test_batch_play_lifts_the_search_levels_cpu_ceiling() -> None:
    """Item 4's identical results for a seed on any backend: tournament and simulation bots
    play their whole count budgets, never the CPU ceiling that keeps a person's wait short."""
    from rallye.agents.base import make_agent
    from rallye.agents.mille.search import PimcAgent
    from rallye.sim.play import make_agents

    job = MatchJob(index=0, game="mille", players=4, seat_bots=("hard", "expert", "medium", "pimc"),
                   seed=1, bot_seeds=(1, 2, 3, 4), edition="wm2006")  # fmt: skip
    agents = make_agents("mille", job)
    assert isinstance(agents[0], PimcAgent) and isinstance(agents[1], PimcAgent)
    assert agents[0].cpu_limit is None and agents[1].cpu_limit is None
    assert agents[0].deals == 24 and agents[1].deals == 160  # the levels' budgets themselves are kept
    assert make_agent("mille", "expert").cpu_limit is not None  # type: ignore[attr-defined]  # (interactive play)


def test_the_plot_draws_an_open_ended_interval_as_open(tmp_path: Path) -> None:
    """Issue 65, item 8: a bot that won (or lost) everything has a one-sided interval; its
    open end is a dashed arrow running to the edge of the axis, not a bar stopping at the point."""
    from rallye.sim.tournament import figure, plot

    report = {
        "bots": [
            {"bot": "winner", "elo": 120.0, "elo_ci95": [70.0, None]},
            {"bot": "middle", "elo": 0.0, "elo_ci95": [-40.0, 40.0]},
            {"bot": "loser", "elo": -120.0, "elo_ci95": [None, -70.0]},
        ],
        "config": {"game": "mille", "edition": "wm2006", "players": 2, "seed": 1},
        "matches": 12,
    }
    fig = figure(report, [])
    ratings = fig.axes[0]
    bottom, top = ratings.get_ylim()
    arrows = [(t.xy, t.xyann) for t in ratings.texts if getattr(t, "arrow_patch", None) is not None]
    assert sorted(arrows) == sorted([((0, top), (0, 120.0)), ((2, bottom), (2, -120.0))])
    assert bottom < -120.0 - 50 and top > 120.0 + 50  # the open ends reach past every closed one
    caps = sorted((x, y) for line in ratings.lines if line.get_marker() == "_" for x, y in line.get_xydata())
    assert caps == [(0, 70.0), (1, -40.0), (1, 40.0), (2, -70.0)]  # no cap where an interval is open
    assert plot(report, [], tmp_path / "t.png").read_bytes().startswith(b"\x89PNG")
