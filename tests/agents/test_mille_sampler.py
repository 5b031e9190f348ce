"""The deal sampler: samples never contradict the view and can place any card anywhere."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from agents_helpers import PLAYER_COUNTS, random_states, views_of

from rallye import mille
from rallye.agents.mille_sampler import (
    Deal,
    discard_inferences,
    exclusions,
    sample_deal,
    sample_state,
    state_from_view,
    unseen_cards,
)
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


def _heuristic_views(edition: str, players: int, seeds: range):
    """(state, view of the player to act) along heuristic-only hands."""
    from rallye.agents.base import make_agent

    for seed in seeds:
        s = mille.new_match(edition, players, seed=seed)
        bots = [make_agent("mille", "heuristic", seed + i) for i in range(players)]
        while not mille.is_over(s) and not s.sheets:
            v = mille.view_for(s, s.current)
            yield s, v
            s = mille.apply(s, bots[s.current].choose(v, mille.legal_from_view(v)))


def test_a_discard_while_stopped_says_no_cure_was_held_by_the_heuristic() -> None:
    """The heuristic never discards while it holds a cure for its stopped side, so every
    inference about a heuristic player with no draw since is true of the real hand."""
    checked = 0
    kinds = set()
    for edition, players in (("wm2006", 2), ("hu", 3), ("wm2006", 4), ("meilen", 5)):
        for s, v in _heuristic_views(edition, players, range(25)):
            for x in discard_inferences(v):
                assert x.seat != v.seat and 0 < x.weight < 1
                if x.drawn == 0:
                    assert x.card not in s.hands[x.seat], (edition, players, x)
                    checked += 1
                    kinds.add(x.card)
    assert checked > 500
    assert {"ROLL", "RIGHT_OF_WAY", "GASOLINE", "REPAIRS"} <= kinds


def test_discard_inferences_weigh_placements_down_without_forbidding_them() -> None:
    """A soft inference makes the card rarer in that hand, never impossible: every card
    consistent with the view can still be dealt anywhere."""
    found = None
    for _, v in _heuristic_views("wm2006", 2, range(40)):
        soft = [x for x in discard_inferences(v) if x.drawn == 0 and x.card in unseen_cards(v)]
        if soft and not any(x.hard for x in exclusions(v)):
            found = v, soft[0]
            break
    assert found is not None
    v, x = found
    rng = random.Random(5)
    trials = 3000
    plain = sum(x.card in sample_deal(v, rng, exclusions(v)).hands[x.seat] for _ in range(trials))
    inferred = exclusions(v) + discard_inferences(v)
    weighted = sum(x.card in sample_deal(v, rng, inferred).hands[x.seat] for _ in range(trials))
    assert plain > 100
    assert 0 < weighted < plain / 2


def test_no_inference_once_the_battle_pile_changed_or_from_the_own_discards() -> None:
    """Only the other players' last turn counts, and only while nothing has touched their
    side's battle pile since (an attack on it, or a cure played by a team mate)."""
    for _, v in _heuristic_views("wm2006", 4, range(15)):
        for x in discard_inferences(v):
            side = next(i for i, seats in enumerate(v.sides) if x.seat in seats)
            assert not v.tableaus[side].rolling
            turns = [i for i, e in enumerate(v.events) if e.seat == x.seat and e.kind in ("play", "attack", "discard")]
            last = turns[-1]
            assert v.events[last].kind == "discard"
            assert not any(e.kind == "attack" and e.side == side for e in v.events[last + 1 :])
