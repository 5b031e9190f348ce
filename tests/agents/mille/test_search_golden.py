"""The search's decisions are pinned (``tests/data/mille_search_decisions.json``, written
by ``tests/agents/mille/regen_search_golden.py``): the engine's fast path for rollouts
(:mod:`rallye.mille.playout`) and any other speed-up must leave every move, budget spent
and paired gain as the engine's own path gave them."""

from __future__ import annotations

import json

import pytest

from . import regen_search_golden


@pytest.fixture(scope="module")
def golden():
    return json.loads(regen_search_golden.GOLDEN.read_text(encoding="utf-8"))


def test_search_decisions_match_the_golden_file(golden):
    assert [(g["edition"], g["players"], g["seed"]) for g in golden["games"]] == list(regen_search_golden.GAMES)
    for old in golden["games"]:
        new = regen_search_golden.game_record(old["edition"], old["players"], old["seed"])
        where = f"{old['edition']} {old['players']}p seed {old['seed']}"
        for k, (a, b) in enumerate(zip(old["steps"], new["steps"], strict=False)):
            assert a == b, f"{where}, decision {k + 1}: golden {a} != now {b} (regen_search_golden.py if intended)"
        assert len(old["steps"]) == len(new["steps"]), where


def test_golden_search_file_holds_searched_decisions_of_every_edition(golden):
    assert {g["edition"] for g in golden["games"]} == {"wm2006", "hu", "fxschmid", "meilen"}
    steps = [s for g in golden["games"] for s in g["steps"]]
    assert len(steps) > 100
    assert sum(1 for s in steps if s["gains"]) > 100  # decisions that compared candidates
    assert any(s["move"] in ("extend", "decline") for s in steps)  # the extension decision too
