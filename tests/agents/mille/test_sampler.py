"""The deal sampler: samples never contradict the view and can place any card anywhere."""

from __future__ import annotations

import math
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
    play_inferences,
    sample_deal,
    sample_state,
    state_from_view,
    unseen_cards,
)
from rallye.mille.cards import HAZARDS, SAFETIES, SAFETY_FOR
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


@pytest.mark.parametrize("infer", [discard_inferences, play_inferences])
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


def test_play_inferences_are_true_of_heuristic_players_in_every_edition() -> None:
    """Module doc, "What the others' turns reveal": the classic heuristic cures before
    anything else and attacks before it drives or discards, so every inference about a
    heuristic player with no draw since is true of the real hand, over every turn read back
    (not only the last one) and in team games."""
    checked = 0
    kinds: set[str] = set()
    turns_back = 0
    for edition, players in (("wm2006", 2), ("hu", 3), ("wm2006", 4), ("fxschmid", 6), ("meilen", 5)):
        for s, v in _heuristic_views(edition, players, range(12)):
            for x in play_inferences(v):
                assert x.seat not in v.sides[v.side] and x.weight == 0.1
                if x.drawn == 0:
                    assert x.card not in s.hands[x.seat], (edition, players, x)
                    checked += 1
                    kinds.add(x.card)
                else:
                    turns_back += 1
    assert checked > 1000 and turns_back > 300
    # cures (a stopped side) and hazards (an attack not made) are both read
    assert {"ROLL", "GASOLINE", "STOP", "SPEED_LIMIT", "ACCIDENT"} <= kinds


def test_play_inferences_cover_the_last_discard_and_more() -> None:
    """Every hint the last discard gives is among them (with the same draws since), and
    earlier turns add more."""
    more = 0
    for _, v in _heuristic_views("wm2006", 2, range(20)):
        read = {(x.seat, x.card): x.drawn for x in play_inferences(v)}
        for x in discard_inferences(v):
            assert read.get((x.seat, x.card), -1) == x.drawn
        more += len(read) > len(discard_inferences(v))
    assert more > 100


def test_play_inferences_stop_at_what_they_cannot_take_back() -> None:
    """The walk back stops at a safety, a coup fourré or an extension: a view whose last
    event is one of them reads nothing; and the own turns say nothing of the own hand."""
    walls = 0
    for _, v in _heuristic_views("wm2006", 2, range(30)):
        last = v.events[-1] if v.events else None
        if last is not None and (last.kind in ("coup_fourre", "extend", "decline") or last.card in SAFETIES):
            assert play_inferences(v) == ()
            walls += 1
    assert walls > 5
    s = mille.new_match("wm2006", 2, seed=3)
    v = mille.view_for(s, 0)
    assert play_inferences(replace(v, events=(mille.Event(0, "discard", "D25"),))) == ()


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
            assert rep.acceptance(hand_now) == 1.0
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


def test_a_replayed_turn_weighs_deals_without_forbidding_any() -> None:
    """A deal in which the heuristic would not have made the last move is accepted with
    the replay's weight: rarer, never impossible; the samples still keep the view."""
    found = None
    for _, v, _ in _heuristic_history("wm2006", 2, range(10)):
        rep = last_turn_replay(v, weight=0.05)
        if rep is None or exclusions(v):
            continue
        rng = random.Random(1)
        plain = [sample_deal(v, rng, ()) for _ in range(400)]
        share = sum(rep.acceptance(d.hands[rep.seat]) == 1.0 for d in plain) / len(plain)
        if 0.1 < share < 0.6:
            found = v, rep, share
            break
    assert found is not None
    v, rep, share = found
    rng = random.Random(2)
    weighted = [sample_deal(v, rng, (), replay=rep) for _ in range(1500)]
    for d in weighted[:50]:
        assert mille.view_for(state_from_view(v, d), v.seat) == v
    agree = sum(rep.acceptance(d.hands[rep.seat]) == 1.0 for d in weighted) / len(weighted)
    # accepted with weight 1 against 0.05: the consistent share rises from ``share``
    expect = share / (share + 0.05 * (1 - share))
    assert agree > (share + expect) / 2
    assert agree < 1.0  # inconsistent deals still occur


def _hazards_in_other_hands(v: MilleView, d: Deal) -> int:
    return sum(c in HAZARDS for p, h in enumerate(d.hands) if p != v.seat for c in h)


def test_hazard_odds_weigh_each_hazard_in_the_others_hands_exactly() -> None:
    """Sampler, "Hazards in hand": with ``hazard_odds`` r a deal is accepted with weight
    r ** (hazards in the others' hands). In a 2-player view the opponent's hand is a
    hypergeometric draw from the unseen cards, so the weighted mean number of hazards in it
    is known exactly; the samples match it, and keep the view."""
    s = next(x for i, x in enumerate(random_states("wm2006", 2, seed=11, steps=60)) if i == 20)
    v = mille.view_for(s, s.current)
    pool = unseen_cards(v)
    n, h = len(pool), v.hand_sizes[1 - v.seat]
    k_max = sum(c in HAZARDS for c in pool)
    assert k_max >= 3 and h >= 5
    prob = [math.comb(k_max, k) * math.comb(n - k_max, h - k) / math.comb(n, h) for k in range(h + 1)]

    def expected(r: float) -> float:
        w = [p * r**k for k, p in enumerate(prob)]
        return sum(k * x for k, x in enumerate(w)) / sum(w)

    rng = random.Random(4)
    trials = 4000
    for r in (1.0, 0.5, 0.25):
        deals = [sample_deal(v, rng, (), hazard_odds=r) for _ in range(trials)]
        mean = sum(_hazards_in_other_hands(v, d) for d in deals) / trials
        assert abs(mean - expected(r)) < 0.06, (r, mean, expected(r))
        for d in deals[:20]:
            assert mille.view_for(state_from_view(v, d), v.seat) == v
    assert expected(0.25) < 0.6 * expected(1.0)  # the test can tell the weights apart


def test_hazard_odds_keep_every_hazard_possible_in_every_hand() -> None:
    """Weighted down, never forbidden: each unseen hazard still lands in each other hand."""
    s = next(x for i, x in enumerate(random_states("wm2006", 3, seed=6, steps=40)) if i == 25)
    v = mille.view_for(s, s.current)
    rng = random.Random(8)
    seen: dict[int, set[str]] = {p: set() for p in range(3) if p != v.seat and v.hand_sizes[p]}
    for _ in range(2500):
        d = sample_deal(v, rng, (), hazard_odds=0.3)
        for p in seen:
            seen[p].update(c for c in d.hands[p] if c in HAZARDS)
    unseen = {c for c in unseen_cards(v) if c in HAZARDS}
    assert unseen
    for cards in seen.values():
        assert cards == unseen


@pytest.mark.parametrize("odds", [0.0, -0.5, 1.5])
def test_hazard_odds_outside_0_1_are_refused(odds: float) -> None:
    v = mille.view_for(mille.new_match("wm2006", 2, seed=1), 0)
    with pytest.raises(ValueError, match="hazard_odds"):
        sample_deal(v, random.Random(0), hazard_odds=odds)
