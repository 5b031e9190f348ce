"""``research/distil_policy.py``: fits what the search measured, and writes weights the bot reads."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from types import ModuleType

import pytest

from benchmark_modules import load
from rallye.agents.mille.distilled import DistilledAgent, Weights


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load("distil_policy")


def _decision(script: ModuleType, deal: int, rng: random.Random) -> object:
    """Three candidates; the search measured: the 'good' kind +60 when the table says
    'late', -40 otherwise; the 'bad' kind -80."""
    late = rng.random() < 0.5
    ctx = "late" if late else "early"
    feats = [{"default": 1.0}, {"good": 1.0, f"good|{ctx}": 1.0}, {"bad": 1.0, f"bad|{ctx}": 1.0}]
    gains = [0.0, (60.0 if late else -40.0) + rng.gauss(0, 10), -80.0 + rng.gauss(0, 10)]
    return script.Decision("wm2006", deal, feats, gains, [0.0, 10.0, 10.0], 1 if late else 0)


def test_the_fit_recovers_when_an_alternative_pays(script: ModuleType) -> None:
    rng = random.Random(3)
    decisions = [_decision(script, d, rng) for d in range(400)]
    w = script.fit(decisions, lam=0.01, clip=1000.0, tau=20.0)
    weights = Weights(w, 10.0, {})
    late = {"good": 1.0, "good|late": 1.0}
    early = {"good": 1.0, "good|early": 1.0}
    assert weights.value(late) - weights.value({"default": 1.0}) == pytest.approx(60.0, abs=5.0)
    assert weights.value(early) - weights.value({"default": 1.0}) == pytest.approx(-40.0, abs=5.0)
    gain, se, changed = script.judge(decisions, weights)
    assert changed == pytest.approx(0.5, abs=0.1)  # exactly the late decisions move
    assert gain == pytest.approx(30.0, abs=3.0) and se < 3.0
    # a heavy ridge penalty pulls every weight towards zero: the heuristic's move stands
    flat = Weights(script.fit(decisions, lam=1e6, clip=1000.0, tau=20.0), 10.0, {})
    assert script.judge(decisions, flat)[2] == 0.0


def test_clipping_caps_what_a_bad_move_teaches(script: ModuleType) -> None:
    d = script.Decision("wm2006", 0, [{"a": 1.0}, {"b": 1.0}], [0.0, -500.0], [0.0, 1.0], 0)
    assert script.fit([d], lam=1e-6, clip=100.0, tau=1.0)["b"] - script.fit([d], lam=1e-6, clip=100.0, tau=1.0).get(
        "a", 0.0
    ) == pytest.approx(-100.0, abs=0.5)
    # an alternative the search never measured teaches nothing and gains nothing
    unmeasured = script.Decision("wm2006", 1, [{"a": 1.0}, {"b": 1.0}], [0.0, math.nan], [0.0, math.nan], 0)
    with pytest.raises(SystemExit, match="no measured alternative"):
        script.fit([unmeasured], lam=1.0, clip=100.0, tau=1.0)
    assert script.judge([unmeasured], Weights({"b": 50.0}, 0.0, {})) == (0.0, math.inf, 1.0)


def test_records_of_a_search_fit_into_a_weights_file_the_bot_plays(
    script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "hard.jsonl"
    for seed in (3, 4):
        load("expert_decisions").main(
            ["--matches", "1", "--first-seed", str(seed), "--workers", "1", "--bot", "hard", "--out", str(records)]
        )
        (tmp_path / f"{seed}.jsonl").write_text(records.read_text())
    out = tmp_path / "w.json"
    script.main(
        [str(tmp_path / "3.jsonl"), str(tmp_path / "4.jsonl"), "--lams", "30", "--margins", "0,10", "--out", str(out)]
    )
    printed = capsys.readouterr().out
    assert "of 2 deals" in printed and "lam     30  margin    0:" in printed and "chosen: lam 30" in printed
    data = json.loads(out.read_text())
    assert data["decisions"] > 20 and data["fitted_on"] == ["3.jsonl", "4.jsonl"] and data["editions"] == ["wm2006"]
    bot = DistilledAgent(weights=Weights.from_json(data))
    assert bot.weights.margin in (0.0, 10.0) and len(bot.weights.weights) > 20


def test_bad_records_and_arguments_are_refused(script: ModuleType, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"view": {}}\n')
    with pytest.raises(SystemExit, match=r"bad\.jsonl:1: not a record"):
        script.main([str(bad)])
    with pytest.raises(SystemExit):
        script.main([str(tmp_path / "missing.jsonl")])
    with pytest.raises(SystemExit):
        script.main([str(bad), "--lams", "x"])
    with pytest.raises(SystemExit):
        script.main([str(bad), "--editions", "wm2006,nosuch"])
