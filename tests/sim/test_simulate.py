"""``rallye simulate``: small runs with random bots give consistent, reproducible numbers."""

from __future__ import annotations

import json

import pytest

from rallye.cli import main
from rallye.mille import get_edition
from rallye.mille.edition import SCORE_LINES


def _simulate_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(["simulate", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_mille_json_report_is_consistent(capsys: pytest.CaptureFixture[str]) -> None:
    rep = _simulate_json(
        capsys, "mille", "--edition", "hu", "--players", "2", "--games", "6", "--seed", "4", "--bots", "random"
    )
    assert rep["games"] == 6 and rep["edition"] == "hu" and rep["bots"] == ["random", "random"]
    sides = rep["sides"]
    assert len(sides) == 2
    assert sum(s["win_rate"] for s in sides) == pytest.approx(1.0)
    assert sum(s["wins"] for s in sides) == pytest.approx(6.0)
    for s in sides:
        lo, hi = s["ci95"]
        assert 0.0 <= lo <= s["win_rate"] <= hi <= 1.0
        assert list(s["score_lines"]) == list(SCORE_LINES)
        ed = get_edition("hu")
        for line, entry in s["score_lines"].items():
            assert entry["word"] == ed.word(line)
        # the score lines add up to the points per hand, and those to the final totals
        per_hand = sum(e["mean_per_hand"] for e in s["score_lines"].values())
        assert per_hand == pytest.approx(s["mean_points_per_hand"])
        assert s["mean_final_total"] == pytest.approx(per_hand * rep["mean_hands_per_match"])
    assert rep["mean_hands_per_match"] == pytest.approx(rep["hands"] / 6)
    assert rep["mean_decisions_per_hand"] == pytest.approx(rep["decisions"] / rep["hands"])
    assert rep["hands"] >= 6  # a wm/hu match goes to 5000 points: several hands


def test_mille_same_seed_same_report_any_worker_count(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("mille", "--players", "3", "--games", "4", "--seed", "9", "--bots", "random")
    one = _simulate_json(capsys, *args)
    two = _simulate_json(capsys, *args, "--workers", "2")
    other = _simulate_json(capsys, "mille", "--players", "3", "--games", "4", "--seed", "10", "--bots", "random")
    assert one == two
    assert one != other


def test_mille_team_sides_and_bots_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    rep = _simulate_json(
        capsys, "mille", "--edition", "fxschmid", "--players", "6", "--games", "2", "--bots", "heuristic,random"
    )
    # fxschmid: 6 players are two teams of three [docs/rules/mille-bornes.md: table, sides]
    assert [s["seats"] for s in rep["sides"]] == [[1, 3, 5], [2, 4, 6]]
    assert rep["bots"] == ["heuristic", "random", "random", "random", "random", "random"]
    assert rep["sides"][0]["bots"] == ["heuristic", "random", "random"]


def test_mille_text_report_uses_the_edition_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "mille", "--edition", "wm2006", "--games", "2", "--bots", "random"]) == 0
    out = capsys.readouterr().out
    ed = get_edition("wm2006")
    for line in SCORE_LINES:
        assert ed.word(line) in out and line in out
    assert "95%" in out and "mean hands per match" in out


def test_bad_input_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "mille", "--players", "5", "--games", "1"]) == 2
    assert "not 5" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["simulate", "mille", "--games", "1", "--bots", "nobody"])
    assert info.value.code == 2 and "unknown bot 'nobody'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["simulate", "mille", "--games", "0"])


def test_knightrider_report(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("rallye.knightrider.engine")
    rep = _simulate_json(capsys, "knightrider", "--players", "3", "--games", "4", "--seed", "2", "--bots", "random")
    seats = rep["seats"]
    assert [s["seat"] for s in seats] == [1, 2, 3]
    caught = 4 - rep["unfinished"]
    assert sum(s["wins"] for s in seats) == pytest.approx(caught)
    for s in seats:
        lo, hi = s["ci95"]
        assert lo <= s["win_rate"] <= hi
    r = rep["rounds_to_capture"]
    assert r["q1"] <= r["median"] <= r["q3"] and r["iqr"] == pytest.approx(r["q3"] - r["q1"])
    assert set(rep["table_rows"]) == {"ram", "ram_fail", "oil"}
    for counts in rep["table_rows"].values():
        assert all(1 <= int(roll) <= 6 and n > 0 for roll, n in counts.items())
    assert sum(sum(c.values()) for c in rep["table_rows"].values()) > 0  # random cars do crash
    again = _simulate_json(capsys, "knightrider", "--players", "3", "--games", "4", "--seed", "2", "--bots", "random")
    assert again == rep


def test_knightrider_report_shows_the_town_the_start_and_round_one(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue #62: the report gives the games won in round 1 (by seat and by place in the
    turn order), the town's largest road-connected piece and the start distance in road
    fields and tiles, in the text and in --json; ``--rules 2`` plays the old set-up."""
    args = ["knightrider", "--players", "2", "--games", "6", "--seed", "3", "--turn-limit", "80"]
    rep = _simulate_json(capsys, *args)
    assert rep["rules"] == 3
    one = rep["round_one"]
    assert sum(one["by_seat"]) == sum(one["by_turn_position"]) == one["games"] <= 6 - rep["unfinished"]
    assert one["share"] == pytest.approx(one["games"] / 6) and one["ci95"][0] <= one["share"] <= one["ci95"][1]
    town = rep["town"]
    assert town["games"] == 6 and town["tiles"] >= 34
    assert 0 < town["largest_piece_share"] <= 1 and town["largest_piece_tiles"] == town["villain_piece_tiles"]
    fields, tiles = town["start_fields"], town["start_tiles"]
    assert fields["median"] == 3 * tiles["median"] and fields["min"] == 3 * tiles["min"] > 0
    old = _simulate_json(capsys, *args, "--rules", "2")
    assert old["rules"] == 2 and old["town"]["largest_piece_share"] < town["largest_piece_share"]
    assert old["town"]["start_fields"]["median"] < fields["median"]
    assert main(["simulate", *args]) == 0
    text = capsys.readouterr().out
    assert "rules 3, quick build" in text
    assert "won in round 1:" in text and "by place in the turn order: 1." in text
    assert "road-connected pieces, one piece in" in text and "largest piece" in text
    assert f"median {fields['median']:.0f} road fields" in text and f"= {tiles['median']:.0f} tiles" in text
    with pytest.raises(SystemExit):
        main(["simulate", *args, "--rules", "4"])


def test_bots_get_views_never_states(monkeypatch: pytest.MonkeyPatch) -> None:
    from rallye.agents import base
    from rallye.agents.base import RandomAgent
    from rallye.mille import MilleState, MilleView, legal_from_view
    from rallye.sim.play import MatchJob, play_job

    seen: list[object] = []

    class Spy(RandomAgent):
        def choose(self, view, legal):  # type: ignore[no-untyped-def]
            assert isinstance(view, MilleView) and not isinstance(view, MilleState)
            assert tuple(legal) == legal_from_view(view)
            seen.append(view)
            return super().choose(view, legal)

    monkeypatch.setitem(base._REGISTRY, ("mille", "spy-test"), lambda seed: Spy(seed, name="spy-test"))
    job = MatchJob(
        index=0, game="mille", players=2, seat_bots=("spy-test", "random"), seed=1, bot_seeds=(1, 2), edition="wm2006"
    )
    result = play_job(job)
    assert len(seen) > 0 and result.decisions > len(seen)
    assert all(getattr(v, "seat", None) == 0 for v in seen)
