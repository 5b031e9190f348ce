"""The same MatchJob gives the same MatchResult, in every field: a few jobs of each game
against results recorded before simulation went through the game face (issue #60).

Regenerate (only when a rules or bot change is meant to change them) with
``python tests/sim/test_match_results.py``.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from rallye.sim.play import MatchJob, MatchResult, play_job

GOLDEN = Path(__file__).parent / "data" / "match_results.json"

JOBS = [
    MatchJob(0, "mille", 2, ("random", "easy"), seed=11, bot_seeds=(1, 2), edition="wm2006"),
    MatchJob(1, "mille", 4, ("medium", "heuristic", "random", "easy"), seed=12, bot_seeds=(3, 4, 5, 6), edition="hu"),
    MatchJob(2, "mille", 3, ("easy", "medium", "heuristic"), seed=13, bot_seeds=(7, 8, 9), edition="meilen"),
    MatchJob(3, "mille", 6, ("random",) * 6, seed=14, bot_seeds=tuple(range(6)), edition="wm2006"),
    *(
        MatchJob(i, "knightrider", len(bots), bots, seed=seed, bot_seeds=seeds, options=options, rules=rules)
        for i, bots, seed, seeds, options, rules in (
            (4, ("easy", "random"), 21, (1, 2), {"quick_build": True, "turn_limit": 80}, None),
            (5, ("medium", "easy", "heuristic"), 22, (3, 4, 5), {"turn_limit": 90}, None),
            (6, ("random",) * 4, 23, (6, 7, 8, 9), {"rolled_start": True, "tour": 2, "turn_limit": 60}, None),
            (7, ("easy", "easy"), 24, (1, 1), {"quick_build": True, "turn_limit": 50}, 2),
        )
    ),
]


def as_json(value: Any) -> Any:
    """A MatchJob or MatchResult as JSON (tuples as lists)."""
    return json.loads(json.dumps(dataclasses.asdict(value)))


@pytest.mark.parametrize("job", JOBS, ids=lambda j: f"{j.game}-{j.index}")
def test_a_job_gives_the_result_it_gave_before(job: MatchJob) -> None:
    golden = {g["job"]["index"]: g for g in json.loads(GOLDEN.read_text(encoding="utf-8"))}[job.index]
    assert golden["job"] == as_json(job)
    result = play_job(job)
    assert isinstance(result, MatchResult)
    assert as_json(result) == golden["result"]


if __name__ == "__main__":  # pragma: no cover - regenerates the golden file
    GOLDEN.write_text(
        json.dumps([{"job": as_json(j), "result": as_json(play_job(j))} for j in JOBS], indent=1) + "\n",
        encoding="utf-8",
    )


@pytest.mark.parametrize("workers", [1, 2])
def test_run_jobs_hands_over_each_result_as_it_finishes(workers: int) -> None:
    """``finished``: every match's result once, as its piece of work ends (research/zoo.py
    writes its rows with it, so a run stopped early keeps them); the same results either way."""
    from rallye.sim.runner import run_jobs

    jobs = [
        MatchJob(i, "mille", 2, ("random", "random"), seed=100 + i, bot_seeds=(i, i + 1), edition="wm2006")
        for i in range(6)
    ]
    seen: list[MatchResult] = []
    steps: list[int] = []
    results = run_jobs(jobs, workers=workers, advance=steps.append, finished=seen.extend)
    assert sorted(seen, key=lambda r: r.index) == results and len(results) == 6
    assert sum(steps) == 6
