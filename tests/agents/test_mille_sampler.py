"""The deal sampler: samples never contradict the view and can place any card anywhere."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from agents_helpers import PLAYER_COUNTS, random_states, views_of

from rallye import mille
from rallye.agents.mille_sampler import Deal, exclusions, sample_deal, sample_state, state_from_view, unseen_cards
from rallye.mille.cards import SAFETY_FOR


@pytest.mark.parametrize("edition", sorted(PLAYER_COUNTS))
def test_sampled_state_gives_back_the_same_view(edition: str) -> None:
    """The sampled state's view for the seat equals the given view (public fields, own hand)."""
    rng = random.Random(1)
    for players in PLAYER_COUNTS[edition]:
        for i, v in enumerate(views_of(edition, players, seed=7 + players, steps=300)):
            if i % 5:
                continue
            s = sample_state(v, rng)
            assert mille.view_for(s, v.seat) == v
            assert mille.legal_actions(s) == mille.legal_from_view(v)
            # the sampled state is a live engine state: one move applies
            mille.apply(s, mille.legal_actions(s)[0])


def test_sample_keeps_the_unseen_multiset() -> None:
    rng = random.Random(2)
    for v in views_of("wm2006", 4, seed=5, steps=200):
        d = sample_deal(v, rng)
        hidden = [c for p, h in enumerate(d.hands) if p != v.seat for c in h] + list(d.draw_pile)
        assert Counter(hidden) == Counter(unseen_cards(v))
        assert [len(h) for h in d.hands] == list(v.hand_sizes)


def test_every_unseen_card_can_land_in_every_opponent_hand() -> None:
    s = next(x for i, x in enumerate(random_states("wm2006", 3, seed=4, steps=40)) if i == 30)
    v = mille.view_for(s, s.current)
    excl = exclusions(v)
    rng = random.Random(3)
    seen: dict[int, set[str]] = {p: set() for p in range(3) if p != v.seat}
    pile: set[str] = set()
    for _ in range(1500):
        d = sample_deal(v, rng, excl)
        for p in seen:
            seen[p].update(d.hands[p])
        pile.update(d.draw_pile)
    unseen = set(unseen_cards(v))
    hard = {(x.seat, x.card) for x in excl if x.drawn == 0}
    for p, cards in seen.items():
        if v.hand_sizes[p]:
            assert cards == {c for c in unseen if (p, c) not in hard}
    assert pile == unseen


def test_state_from_view_rejects_a_deal_that_changes_the_own_hand() -> None:
    v = mille.view_for(mille.new_match("wm2006", 2, seed=1), 0)
    d = sample_deal(v, random.Random(0))
    bad = Deal((d.hands[1], d.hands[1]), d.draw_pile)
    with pytest.raises(ValueError, match="own hand"):
        state_from_view(v, bad)


def test_core_coup_fourre_inference_is_true_in_real_games() -> None:
    """[core: Coup fourré, Resolution (declaring)] an attack without a coup fourré proves the
    attacked side held no matching safety; with no draw since, the real hand lacks it."""
    hard_checked = 0
    for players in (2, 3, 4):
        for s in random_states("wm2006", players, seed=40 + players, steps=1500):
            v = mille.view_for(s, s.current)
            for x in exclusions(v):
                assert x.seat != v.seat
                if x.drawn == 0:
                    assert x.card not in s.hands[x.seat]
                    hard_checked += 1
    assert hard_checked > 20


def test_core_coup_fourre_inference_is_respected_by_samples() -> None:
    rng = random.Random(9)
    checked = 0
    for s in random_states("wm2006", 3, seed=77, steps=1500):
        v = mille.view_for(s, s.current)
        hard = [x for x in exclusions(v) if x.drawn == 0 and x.card in unseen_cards(v)]
        if not hard:
            continue
        for _ in range(20):
            d = sample_deal(v, rng)
            for x in hard:
                assert x.card not in d.hands[x.seat]
        checked += 1
    assert checked > 5


def test_exclusion_names_the_attacked_sides_players() -> None:
    for s in random_states("wm2006", 4, seed=12, steps=800):
        v = mille.view_for(s, s.current)
        attacked = {
            (p, SAFETY_FOR[e.card]) for e in v.events if e.kind == "attack" and e.card for p in v.sides[e.side or 0]
        }
        for x in exclusions(v):
            assert (x.seat, x.card) in attacked
