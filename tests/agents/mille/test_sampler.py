"""The deal sampler: samples never contradict the view and can place any card anywhere."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest

from rallye import mille
from rallye.agents.mille.heuristic import HeuristicAgent
from rallye.agents.mille.sampler import (
    Deal,
    Exclusion,
    discard_inferences,
    exclusions,
    last_turn_replay,
    sample_deal,
    sample_state,
    state_from_view,
    unseen_cards,
)
from rallye.mille.cards import SAFETIES, SAFETY_FOR
from rallye.mille.state import MilleState
from rallye.mille.view import MilleView

from .helpers import PLAYER_COUNTS, random_states, views_of


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


@pytest.mark.parametrize("infer", [discard_inferences])
def test_soft_inferences_weigh_placements_down_without_forbidding_them(
    infer: Callable[[MilleView], tuple[Exclusion, ...]],
) -> None:
    """A soft inference makes the card rarer in that hand, never impossible: every card
    consistent with the view can still be dealt anywhere."""
    found = None
    for _, v in _heuristic_views("wm2006", 2, range(40)):
        hard = {y.card for y in exclusions(v)}
        soft = [x for x in infer(v) if x.drawn == 0 and x.card in unseen_cards(v) and x.card not in hard]
        if soft and not any(x.hard for x in exclusions(v)):
            found = v, soft[0]
            break
    assert found is not None
    v, x = found
    rng = random.Random(5)
    trials = 3000
    plain = sum(x.card in sample_deal(v, rng, exclusions(v)).hands[x.seat] for _ in range(trials))
    inferred = exclusions(v) + infer(v)
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


def _heuristic_history(
    edition: str, players: int, seeds: range
) -> Iterator[tuple[MilleState, MilleView, MilleView | None]]:
    """Heuristic games: the state, the view of the player to act, and the view the player
    who moved before had when they moved (``None`` at a hand's first move)."""
    for seed in seeds:
        s = mille.new_match(edition, players, seed=seed)
        bots = [HeuristicAgent(seed + p) for p in range(players)]
        last: dict[int, MilleView] = {}
        while not mille.is_over(s):
            v = mille.view_for(s, s.current)
            if v.events:
                yield s, v, last.get(v.events[-1].seat)
            last[s.current] = v
            s = mille.apply(s, bots[s.current].choose(v, mille.legal_from_view(v)))


@pytest.mark.parametrize("edition", sorted(PLAYER_COUNTS))
def test_last_turn_replay_rebuilds_the_table_the_mover_saw(edition: str) -> None:
    """Module doc, "What the last turn reveals": the rebuilt view, given the mover's true
    hand, is the view the mover had (every field the heuristic reads), and the heuristic
    replayed on it makes the move the heuristic made -- in every edition and player count.
    (Not rebuilt, as the heuristic reads neither: the events and the coup-fourré turn flag.)"""
    checked = 0
    kinds = set()
    for players in PLAYER_COUNTS[edition]:
        for s, v, then in _heuristic_history(edition, players, range(2)):
            rep = last_turn_replay(v)
            if rep is None:
                continue
            hand_now = s.hands[rep.seat]
            rebuilt = replace(rep.view, hand=rep.hand_then(hand_now))
            assert then is not None
            assert replace(rebuilt, events=then.events, cf_turn=then.cf_turn) == then
            assert rep.heuristic_move(hand_now) == rep.action
            checked += 1
            kinds.add(rep.action.verb)
    assert checked > 300
    assert kinds == {"play", "attack", "discard"}


def test_last_turn_replay_reads_only_a_plain_last_move_of_another_player() -> None:
    for s, v, _ in _heuristic_history("wm2006", 4, range(3)):
        rep = last_turn_replay(v)
        last = v.events[-1]
        plain = (
            last.seat != v.seat
            and last.kind in ("play", "attack", "discard")
            and last.card not in SAFETIES
            and v.draw_count > 0
            and v.phase == "play"
        )
        assert (rep is not None) == plain, (last, v.draw_count, v.phase)
        if rep is not None:
            assert rep.seat == last.seat and rep.action.card == last.card
            assert rep.view.draw_count == v.draw_count + 1
            assert rep.view.hand_sizes[v.seat] == v.hand_sizes[v.seat] - 1
            assert s.hands[v.seat] == v.hand  # nothing hidden was read to build it
