"""The ``distilled`` bot: the fitted heuristic corrected by a model of expert's estimates."""

from __future__ import annotations

import json

import pytest

from rallye import mille
from rallye.agents.base import make_agent
from rallye.agents.mille.distilled import (
    FEATURE_VERSION,
    DistilledAgent,
    Weights,
    candidates,
    context,
    features,
    pick,
    shipped_weights,
)
from rallye.agents.mille.heuristic import FITTED, Reading, best_action, score_action
from rallye.agents.mille.search import PimcAgent

from .helpers import random_states, views_of

NO_CORRECTION = Weights({}, 10.0, {})


def test_without_weights_it_is_the_fitted_heuristic_and_the_shipped_ones_differ() -> None:
    """No weights, no correction: fitted's choice everywhere. The shipped weights change
    some choices, always to one of expert's candidates."""
    plain = DistilledAgent(weights=NO_CORRECTION)
    shipped = DistilledAgent()
    changed = 0
    for players in (2, 3):
        for v in views_of("wm2006", players, seed=40 + players, steps=500):
            legal = mille.legal_from_view(v)
            fitted = best_action(v, legal, FITTED)
            assert plain.choose(v, legal) == fitted
            choice = shipped.choose(v, legal)
            assert choice in candidates(v, legal)
            if choice != fitted:
                changed += 1
                assert shipped.last_values[choice] > shipped.weights.margin
    assert changed >= 10


def test_a_weight_moves_the_choice_only_past_the_margin() -> None:
    v = next(v for v in views_of("wm2006", 2, seed=7, steps=200) if v.phase == "play" and len(v.hand) == 7)
    legal = mille.legal_from_view(v)
    cands = candidates(v, legal)
    assert len(cands) >= 3
    target = cands[2]
    r = Reading.of(v, FITTED)
    feats = features(r, target, context(r), score_action(r, cands[0]))
    kind = next(iter(feats))  # the move's kind comes first (e.g. "discard:D25")
    assert kind == (f"{target.verb}:{target.card}" if target.card else target.verb)
    others = [a for a in cands if features(r, a, context(r), 0.0).get(kind)]
    assert others == [target]  # no other candidate shares the kind
    assert pick(v, cands, Weights({kind: 25.0}, 10.0, {}))[0] == target
    assert pick(v, cands, Weights({kind: 25.0}, 30.0, {}))[0] == cands[0]  # not past the margin
    assert pick(v, cands, Weights({kind: -25.0}, 0.0, {}))[0] != target


def test_the_shipped_weights_load_and_bad_files_are_refused() -> None:
    w = shipped_weights()
    assert w.meta["feature_version"] == FEATURE_VERSION and w.margin >= 0 and len(w.weights) > 100
    assert Weights.from_json(json.loads(json.dumps(w.to_json()))) == w
    good = {"feature_version": FEATURE_VERSION, "margin": 5, "weights": {"play:ROLL": 1.5}}
    assert Weights.from_json(good).weights == {"play:ROLL": 1.5}
    for bad, says in [
        ([1, 2], "JSON object"),
        ({**good, "feature_version": 0}, "feature_version 0"),
        ({**good, "weights": {"play:ROLL": "x"}}, "'weights' must map"),
        ({**good, "weights": [1]}, "'weights' must map"),
        ({**good, "margin": -1}, "'margin'"),
        ({"feature_version": FEATURE_VERSION, "weights": {}}, "'margin'"),
        ({**good, "editions": []}, "'editions'"),
        ({**good, "editions": "wm2006"}, "'editions'"),
    ]:
        with pytest.raises(ValueError, match=says):
            Weights.from_json(bad, "w.json")  # type: ignore[arg-type]


def test_the_search_with_distilled_on_makes_its_pick_the_move_to_beat() -> None:
    """``PimcAgent(distilled=True)``: the same candidates, the distilled pick first (the
    move the search keeps unless an alternative beats it)."""
    shipped = DistilledAgent()
    moved = 0
    for v in views_of("wm2006", 2, seed=5, steps=400):
        legal = mille.legal_from_view(v)
        d_choice = shipped.choose(v, legal)
        if v.phase != "play" or d_choice == best_action(v, legal, FITTED):
            continue
        plain = PimcAgent(1, deals=2, plies=50, top_k=4, extra_discards=3, style=FITTED)
        search = PimcAgent(1, deals=2, plies=50, top_k=4, extra_discards=3, style=FITTED, distilled=True)
        plain.choose(v, legal)
        search.choose(v, legal)
        assert search.last_candidates[0] == d_choice
        assert set(search.last_candidates) == set(plain.last_candidates)
        assert plain.last_candidates[0] == best_action(v, legal, FITTED)
        moved += 1
        if moved == 5:
            break
    assert moved == 5


def test_hard_is_the_small_search_over_experts_candidates_from_the_distilled_pick() -> None:
    """The ``hard`` level (docs/bots.md, levels): expert's candidates (fitted's best 4 and its next
    3 discards), the distilled bot's pick first as the move to beat, and a small budget; a
    search that cannot measure any alternative plays that pick."""
    shipped = DistilledAgent()
    seen = moved = 0
    for v in views_of("wm2006", 2, seed=7, steps=400):
        legal = mille.legal_from_view(v)
        if v.phase != "play" or len(candidates(v, legal)) < 2:
            continue
        hard = make_agent("mille", "hard", seed=3)
        assert isinstance(hard, PimcAgent) and (hard.deals, hard.plies) == (24, 1200)
        hard.plies = 1  # one deal: no alternative has the two deals a comparison needs
        d_choice = shipped.choose(v, legal)
        assert hard.choose(v, legal) == d_choice
        assert hard.last_candidates[0] == d_choice
        assert set(hard.last_candidates) == set(candidates(v, legal))
        seen += 1
        moved += d_choice != best_action(v, legal, FITTED)
    assert seen > 50 and moved > 0


def test_on_an_edition_the_weights_are_not_for_it_plays_the_heuristic() -> None:
    """The shipped weights are for wm2006 and its close relatives; meilen (one hand to
    1000 km that ends with the draw pile) keeps the fitted heuristic's move."""
    w = shipped_weights()
    assert w.editions is not None and "wm2006" in w.editions and "meilen" not in w.editions
    bot = DistilledAgent()
    everywhere = DistilledAgent(weights=Weights(w.weights, w.margin, {}))
    changed = 0
    for s in random_states("meilen", 2, seed=9, steps=300):
        v = mille.view_for(s, s.current)
        legal = mille.legal_from_view(v)
        fitted = best_action(v, legal, FITTED)
        assert bot.choose(v, legal) == fitted
        changed += everywhere.choose(v, legal) != fitted
    assert changed > 0  # without the edition list the same weights would act there
