"""``research/expert_decisions.py``: one JSON line per searched decision, each readable back."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from benchmark_modules import load
from rallye import mille
from rallye.mille.view import MilleView


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load("expert_decisions")


def test_records_read_back_and_name_what_the_search_compared(
    script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "hard.jsonl"
    script.main(["--matches", "1", "--first-seed", "3", "--workers", "1", "--bot", "hard", "--out", str(out)])
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and f"{len(rows)} decisions of hard from 1 matches" in capsys.readouterr().out
    for r in rows:
        assert r["deal"] == 3 and r["seat"] == 1
        view = MilleView.from_json(r["view"])
        assert view.seat == 1 and view.to_json() == r["view"]
        legal = {str(a) for a in mille.legal_from_view(view)}
        assert len(r["candidates"]) >= 2 and set(r["candidates"]) <= legal
        assert r["chosen"] in r["candidates"]
        assert set(r["gains"]) <= set(r["candidates"][1:])
        assert all(len(v) == 2 for v in r["gains"].values())
        assert 2 <= r["deals"] <= 24 and r["plies"] > 0  # hard's budget
    assert any(r["chosen"] != r["candidates"][0] for r in rows)  # the search does overrule its default
    assert script.play((3, "hard")) == rows  # the same match again: the same records


def test_a_bad_output_path_or_bot_is_refused_before_any_play(script: ModuleType, tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        script.main(["--matches", "1", "--out", str(tmp_path / "missing" / "x.jsonl")])
    for bot in ("medium", "nosuch"):  # refused by the command line before any match, and by play()
        with pytest.raises(SystemExit):
            script.main(["--matches", "1", "--bot", bot, "--out", str(tmp_path / "x.jsonl")])
    with pytest.raises(ValueError, match="not a search bot"):
        script.play((0, "medium"))
