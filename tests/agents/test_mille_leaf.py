"""The learned leaf value of the Mille Bornes search (``rallye.agents.mille_leaf``)."""

from __future__ import annotations

import pytest

from rallye import mille
from rallye.agents import mille_search
from rallye.agents.mille_heuristic import best_action
from rallye.agents.mille_leaf import FEATURES, WEIGHTS, banked, leaf_features, learned_estimate
from rallye.agents.mille_search import PimcAgent
from rallye.mille.edition import editions
from rallye.mille.state import MilleState, Tableau


def _mid_hand(seed: int = 4, players: int = 2, steps: int = 30) -> MilleState:
    s = mille.new_match("wm2006", players, seed=seed)
    for _ in range(steps):
        v = mille.view_for(s, s.current)
        s = mille.apply(s, best_action(v, mille.legal_from_view(v)))
    return s


def test_every_edition_has_two_sided_weights_of_the_feature_length() -> None:
    s = _mid_hand()
    assert len(leaf_features(s, 0)) == len(leaf_features(s, 1)) == len(FEATURES)
    assert set(WEIGHTS) == {(ed.key, 2) for ed in editions()}
    assert all(len(w) == len(FEATURES) for w in WEIGHTS.values())


def test_banked_points_are_kilometres_safeties_and_coups() -> None:
    """Rule model, scoring: a safety scores its points, a coup fourré its bonus on top."""
    s = _mid_hand()
    sc = s.edition.scoring
    tab = Tableau(
        battle=("ROLL",),
        distance=("D100", "D75"),
        safeties=("EXTRA_TANK", "DRIVING_ACE"),
        coups=("DRIVING_ACE",),
        km=175,
    )
    s = s._replace(tableaus=(tab, s.tableaus[1]))
    assert banked(s, 0) == 175 + 2 * sc.safety + sc.coup_fourre_bonus
    w = WEIGHTS[("wm2006", 2)]
    rest = sum(a * b for a, b in zip(w, leaf_features(s, 0), strict=True))
    assert learned_estimate(s, 0, w) == pytest.approx(banked(s, 0) + rest)


def test_the_fit_values_the_road_and_a_cure_in_hand() -> None:
    """Same kilometres and cards: rolling is worth more than stopped by an accident, and
    stopped with the repairs in hand more than stopped without them."""
    s = _mid_hand()
    w = WEIGHTS[("wm2006", 2)]
    hand = ("D100", "D50", "D25", "GASOLINE", "STOP", "D75")
    hands = (hand, *s.hands[1:])
    rolling = Tableau(battle=("ROLL",), distance=("D100", "D200"), km=300, d200=1)
    stopped = rolling._replace(battle=("ROLL", "ACCIDENT"))
    value = {
        name: learned_estimate(s._replace(tableaus=(tab, s.tableaus[1]), hands=h), 0, w)
        for name, tab, h in [
            ("rolling", rolling, hands),
            ("stopped", stopped, hands),
            ("stopped, repairs held", stopped, (("REPAIRS", *hand[1:]), *s.hands[1:])),
        ]
    }
    assert value["rolling"] > value["stopped, repairs held"] > value["stopped"]


@pytest.mark.parametrize(("players", "learned"), [(2, True), (3, False)])
def test_pimc_leaf_uses_the_fit_where_one_exists(monkeypatch: pytest.MonkeyPatch, players: int, learned: bool) -> None:
    """``leaf=True``: rollouts stopped before the end of the hand are valued by the fit for
    the edition and number of sides; without one (3 sides), by the hand-set estimate."""
    calls = {"learned": 0, "hand-set": 0}
    real_learned, real_estimate = learned_estimate, mille_search._estimate

    def spy_learned(state, side, weights):  # type: ignore[no-untyped-def]
        calls["learned"] += 1
        return real_learned(state, side, weights)

    def spy_estimate(state, side):  # type: ignore[no-untyped-def]
        calls["hand-set"] += 1
        return real_estimate(state, side)

    monkeypatch.setattr(mille_search, "learned_estimate", spy_learned)
    monkeypatch.setattr(mille_search, "_estimate", spy_estimate)
    bot = PimcAgent(seed=1, deals=4, plies=10_000, top_k=3, horizon=4, leaf=True)
    s = mille.new_match("wm2006", players, seed=9)
    for _ in range(40):
        v = mille.view_for(s, s.current)
        legal = mille.legal_from_view(v)
        a = bot.choose(v, legal)
        assert a in legal
        s = mille.apply(s, a)
    assert (calls["learned"] > 0) is learned and (calls["hand-set"] > 0) is not learned
