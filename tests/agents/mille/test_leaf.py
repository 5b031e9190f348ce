"""The learned leaf value of the Mille Bornes search (``rallye.agents.mille.leaf``)."""

from __future__ import annotations

import pytest

from rallye import mille
from rallye.agents.mille import search as mille_search
from rallye.agents.mille.heuristic import best_action
from rallye.agents.mille.leaf import (
    DECISION_FEATURES,
    DECISION_WEIGHTS,
    FEATURES,
    WEIGHTS,
    banked,
    decision_estimate,
    decision_features,
    leaf_features,
    learned_estimate,
)
from rallye.agents.mille.search import PimcAgent
from rallye.mille.cards import CARDS
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


def test_the_decision_leaf_adds_the_cards_each_side_holds() -> None:
    """The decision leaf's features: the leaf's, then the count of each card in the side's
    hands, then those counts times the share of the draw pile left."""
    s = _mid_hand(players=4)
    for side in range(2):
        f = decision_features(s, side)
        assert len(f) == len(DECISION_FEATURES) == len(FEATURES) + 2 * len(CARDS)
        assert f[: len(FEATURES)] == leaf_features(s, side)
        held = [c for p in s.sides[side] for c in s.hands[p]]
        counts = f[len(FEATURES) : len(FEATURES) + len(CARDS)]
        assert counts == [float(held.count(c)) for c in CARDS] and sum(counts) == len(held) > 6
        dr = s.draw_count / len(s.deck)
        assert f[len(FEATURES) + len(CARDS) :] == pytest.approx([n * dr for n in counts])
    assert set(DECISION_WEIGHTS) == {("wm2006", 2)}
    w = DECISION_WEIGHTS[("wm2006", 2)]
    assert len(w) == len(DECISION_FEATURES)
    s = _mid_hand()
    rest = sum(a * b for a, b in zip(w, decision_features(s, 1), strict=True))
    assert decision_estimate(s, 1, w) == pytest.approx(banked(s, 1) + rest)


def test_the_decision_leaf_tells_which_card_was_given_up() -> None:
    """Two hands that differ in one card (a discard's choice) differ in the decision
    leaf's value, where the rest-of-hand leaf sees only distance, safeties and a cure."""
    s = _mid_hand()
    w = DECISION_WEIGHTS[("wm2006", 2)]
    hand = ("D100", "D50", "D25", "GASOLINE", "STOP", "D75")
    kept_spare = s._replace(hands=(("SPARE_TIRE", *hand[1:]), *s.hands[1:]))
    kept_light = s._replace(hands=(("END_OF_LIMIT", *hand[1:]), *s.hands[1:]))
    assert leaf_features(kept_spare, 0) == leaf_features(kept_light, 0)
    assert decision_estimate(kept_spare, 0, w) != decision_estimate(kept_light, 0, w)


@pytest.mark.parametrize(("players", "learned"), [(2, True), (3, False)])
@pytest.mark.parametrize("leaf", [True, "decisions"])
def test_pimc_leaf_uses_the_fit_where_one_exists(
    monkeypatch: pytest.MonkeyPatch, players: int, learned: bool, leaf: bool | str
) -> None:
    """``leaf=True`` (the rest-of-hand leaf) and ``leaf="decisions"``: rollouts stopped
    before the end of the hand are valued by that fit for the edition and number of sides;
    without one (3 sides), by the hand-set estimate."""
    calls = {"hand": 0, "decisions": 0, "hand-set": 0}
    real_learned, real_decision, real_estimate = learned_estimate, decision_estimate, mille_search._estimate

    def spy_learned(state, side, weights):  # type: ignore[no-untyped-def]
        calls["hand"] += 1
        return real_learned(state, side, weights)

    def spy_decision(state, side, weights):  # type: ignore[no-untyped-def]
        calls["decisions"] += 1
        return real_decision(state, side, weights)

    def spy_estimate(state, side):  # type: ignore[no-untyped-def]
        calls["hand-set"] += 1
        return real_estimate(state, side)

    monkeypatch.setattr(mille_search, "learned_estimate", spy_learned)
    monkeypatch.setattr(mille_search, "decision_estimate", spy_decision)
    monkeypatch.setattr(mille_search, "_estimate", spy_estimate)
    bot = PimcAgent(seed=1, deals=4, plies=10_000, top_k=3, horizon=4, leaf=leaf)
    s = mille.new_match("wm2006", players, seed=9)
    for _ in range(40):
        v = mille.view_for(s, s.current)
        legal = mille.legal_from_view(v)
        a = bot.choose(v, legal)
        assert a in legal
        s = mille.apply(s, a)
    used = "decisions" if leaf == "decisions" else "hand"
    unused = "hand" if used == "decisions" else "decisions"
    assert (calls[used] > 0) is learned and (calls["hand-set"] > 0) is not learned and calls[unused] == 0


def test_pimc_leaf_setting_is_named_or_refused() -> None:
    assert PimcAgent(leaf=False).leaf is None and PimcAgent(leaf=0).leaf is None
    assert PimcAgent(leaf=True).leaf == PimcAgent(leaf=1).leaf == PimcAgent(leaf="hand").leaf == "hand"
    assert PimcAgent(leaf="decisions").leaf == "decisions"
    for bad in ("decision", 2, ""):
        with pytest.raises(ValueError, match="leaf is one of hand, decisions"):
            PimcAgent(leaf=bad)
