"""Knight Rider views back to states: ``legal_from_view`` and ``sample_state``."""

from __future__ import annotations

import itertools
import random

import pytest

from rallye.knightrider import Options, apply, is_over, legal_actions, view_for
from rallye.knightrider.actions import DETOUR_KINDS, KITT_KINDS
from rallye.knightrider.sampling import legal_from_view, sample_state, state_from_view
from rallye.knightrider.state import State, evolve

from .helpers import random_states as states

VARIANTS = (
    Options(turn_limit=40),
    Options(quick_build=True, turn_limit=40),
    Options(quick_build=True, deal_spares=True, turn_limit=40),
    Options(quick_build=True, shuffle_cards=True, turn_limit=40),
    Options(quick_build=True, tour=2, rolled_start=True, turn_limit=40),
    Options(deal_spares=True, shuffle_cards=True, tour=1, turn_limit=40),
)


def _strs(actions: object) -> list[str]:
    return [str(a) for a in actions]  # type: ignore[attr-defined]


@pytest.mark.parametrize("vi", range(len(VARIANTS)))
def test_legal_from_view_equals_the_engine(vi: int) -> None:
    """The legal actions depend only on public facts and the own hand: computed from the
    view they equal the engine's on the true state (paths included), building and chase."""
    opts = VARIANTS[vi]
    phases: set[str] = set()
    for players in (2, 3, 4, 5):
        for s in states(players, 10 * vi + players, opts, 90 if opts.quick_build else 140):
            v = view_for(s, s.current)
            phases.add(s.phase)
            assert _strs(legal_from_view(v)) == _strs(legal_actions(s))
            assert _strs(legal_from_view(v, opts)) == _strs(legal_actions(s))
    assert "turn" in phases
    if not opts.quick_build:
        assert "build" in phases


@pytest.mark.parametrize("vi", range(len(VARIANTS)))
def test_sampled_state_has_the_same_view(vi: int) -> None:
    """For every seat (acting or not): the sampled state's view for that seat is the
    given view; the map's road links are the true ones."""
    opts = VARIANTS[vi]
    rng = random.Random(vi)
    for players in (2, 3, 5):
        for i, s in enumerate(states(players, 100 + 10 * vi + players, opts, 70)):
            if i % 3:
                continue
            for me in range(players):
                v = view_for(s, me)
                o = opts if rng.random() < 0.5 else None
                t = sample_state(v, rng, o)
                assert view_for(t, me) == v
                assert t.links == s.links
                assert sorted(t.escape_deck) == sorted(s.escape_deck)
                assert view_for(state_from_view(v, o), me) == v


def test_sampled_states_play_on() -> None:
    """A sampled state is a real state: the engine plays it on to the end."""
    rng = random.Random(3)
    for players in (2, 4):
        for i, s in enumerate(states(players, 7 + players, Options(turn_limit=30), 120)):
            if i % 20:
                continue
            t = sample_state(view_for(s, s.current), rng)
            for _ in range(60):
                if is_over(t):
                    break
                t = apply(t, rng.choice(legal_actions(t)))


def _chase_state(players: int, seed: int, options: Options, turned: int) -> State:
    """A chase state at the start of a turn with ``turned`` escape cards turned."""
    for s in states(players, seed, options, 5000):
        if s.phase == "turn" and s.escape_pos == turned and not s.moved and not s.cars[s.current].roof:
            return s
    raise AssertionError("no such state")


def test_every_order_of_the_unturned_escape_cards_appears() -> None:
    """Escape deck: the turned cards stay in order, the unturned ones take every order."""
    s = _chase_state(2, 5, Options(quick_build=True), 8)
    v = view_for(s, s.current)
    rng = random.Random(0)
    seen = {sample_state(v, rng).escape_deck for _ in range(400)}
    turned = s.escape_deck[:8]
    expected = {turned + p for p in itertools.permutations(s.escape_deck[8:])}
    assert seen == expected


def test_every_split_of_the_unseen_cards_appears_with_shuffled_cards() -> None:
    """Variant 'shuffled and dealt round': the other hands are every split of the unseen
    cards into hands of the shown sizes (the own hand and the played cards excluded)."""
    opts = Options(quick_build=True, shuffle_cards=True)
    s = _chase_state(3, 11, opts, 2)
    me = s.current
    v = view_for(s, me)
    others = [p for p in range(3) if p != me]
    rng = random.Random(1)
    seen = set()
    for _ in range(1500):
        t = sample_state(v, rng, opts)
        assert t.kitt_hands[me] == s.kitt_hands[me] and t.detour_hands[me] == s.detour_hands[me]
        seen.add(tuple((t.kitt_hands[p], t.detour_hands[p]) for p in others))

    # every consistent split: the unseen pool dealt into the two other hands
    def splits(which: int, kinds: int) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
        hands = s.kitt_hands if which == 0 else s.detour_hands
        pool = [sum(hands[p][k] for p in others) for k in range(kinds)]
        size = sum(hands[others[0]])
        out = set()
        for a in itertools.product(*(range(n + 1) for n in pool)):
            if sum(a) == size:
                out.add((tuple(a), tuple(n - x for n, x in zip(pool, a, strict=True))))
        return out

    # K.I.T.T. and detour cards are dealt apart: each kind's splits all appear
    assert {(a[0], b[0]) for a, b in seen} == splits(0, len(KITT_KINDS))
    assert {(a[1], b[1]) for a, b in seen} == splits(1, len(DETOUR_KINDS))
    assert (tuple((s.kitt_hands[p], s.detour_hands[p]) for p in others)) in seen


def test_basic_deal_hands_are_known() -> None:
    """Basic game: one of each card per player, so the other hands are the dealt cards
    minus what each played — the sampler never varies them."""
    s = _chase_state(4, 2, Options(quick_build=True), 6)
    v = view_for(s, s.current)
    rng = random.Random(2)
    for _ in range(20):
        t = sample_state(v, rng)
        assert t.kitt_hands == s.kitt_hands and t.detour_hands == s.detour_hands


def test_every_choice_of_centre_tiles_appears_while_building() -> None:
    """Building: which face-down tiles are the centre is hidden; every choice appears."""
    for s in states(2, 4, Options(), 400):
        if s.phase == "build" and s.centre and len(s.pile) == 2:
            break
    else:
        raise AssertionError("no late building state")
    v = view_for(s, s.current)
    face_down = sorted(s.pile + s.centre)
    rng = random.Random(4)
    seen = {sample_state(v, rng).centre for _ in range(600)}
    assert seen == {tuple(c) for c in itertools.combinations(face_down, 4)}


def test_legal_from_view_refuses_when_not_the_viewers_turn() -> None:
    s = _chase_state(3, 1, Options(quick_build=True), 1)
    other = (s.current + 1) % 3
    with pytest.raises(ValueError, match="not P"):
        legal_from_view(view_for(s, other))


def test_a_view_that_does_not_fit_the_options_is_refused() -> None:
    """Cards of a shuffled deal read with basic-deal options: a clear error."""
    opts = Options(quick_build=True, shuffle_cards=True)
    for s in states(3, 6, opts, 200):
        if s.phase == "turn":
            basic = [tuple(1 for _ in KITT_KINDS)] * 3
            if [tuple(h) for h in s.kitt_hands] != basic:
                break
    else:
        raise AssertionError("no uneven deal found")
    with pytest.raises(ValueError, match="basic deal"):
        sample_state(view_for(s, s.current), random.Random(0), Options(quick_build=True))


def test_sampling_changes_only_hidden_parts() -> None:
    s = _chase_state(3, 8, Options(quick_build=True, shuffle_cards=True), 3)
    v = view_for(s, s.current)
    t = sample_state(v, random.Random(5))
    public = ("board", "laid", "cars", "detours", "villain", "turn", "roll", "pips", "played", "set_aside")
    for name in public:
        assert getattr(t, name) == getattr(s, name), name
    assert evolve(t, rng=s.rng).escape_deck[: s.escape_pos] == s.escape_deck[: s.escape_pos]
