"""The incremental Mille Bornes encoder (``ViewEncoder``) against the reference ``encode_view``."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from rallye import mille
from rallye.mille.cards import CARDS, SAFETIES
from rallye.rl.mille import encoding as menc

from .helpers import reshuffle_hidden

# every edition, every player count it allows
CONFIGS = [(ed.key, n) for ed in mille.editions() for n in ed.players]


def _random_steps(edition: str, players: int, seed: int, steps: int):
    """States of random play, across hands and into new matches when one ends."""
    rng = random.Random(seed)
    s = mille.new_match(edition, players, seed=seed)
    match = 0
    for _ in range(steps):
        if mille.is_over(s):
            match += 1
            s = mille.new_match(edition, players, seed=1000 * seed + match)
        yield s
        legal = mille.legal_actions(s)
        s = mille.apply(s, legal[rng.randrange(len(legal))])


def test_configs_cover_every_edition():
    assert {ed for ed, _ in CONFIGS} == {ed.key for ed in mille.editions()}
    assert len(CONFIGS) >= 10


@pytest.mark.parametrize(("edition", "players"), CONFIGS)
def test_one_encoder_per_seat_matches_the_reference_bit_for_bit(edition, players):
    encoders = [menc.ViewEncoder() for _ in range(players)]
    hands_seen = set()
    for i, s in enumerate(_random_steps(edition, players, seed=players, steps=700)):
        hands_seen.add((s.seed, s.hand_no))
        # the acting seat every step, every seat every 7th step (as PettingZoo / OpenSpiel ask)
        seats = range(players) if i % 7 == 0 else (s.current,)
        for p in seats:
            v = mille.view_for(s, p)
            got = encoders[p].encode(v)
            want = menc.encode_view(v)
            assert got.dtype == np.float32 and got.shape == (menc.OBS_SIZE,)
            assert np.array_equal(got, want), (edition, players, i, p, np.flatnonzero(got != want))
    assert len(hands_seen) > 1  # the encoders crossed at least one new hand or match


def test_one_encoder_for_everything_in_any_order():
    """A single encoder fed views of random seats, editions and matches in random order."""
    rng = random.Random(5)
    pools = [list(_random_steps(ed, n, seed=k, steps=150)) for k, (ed, n) in enumerate(CONFIGS)]
    enc = menc.ViewEncoder()
    for _ in range(3000):
        pool = pools[rng.randrange(len(pools))]
        s = pool[rng.randrange(len(pool))]
        v = mille.view_for(s, rng.randrange(s.n_players))
        assert np.array_equal(enc.encode(v), menc.encode_view(v))


def test_masks_are_fresh_writable_arrays_of_the_legal_codes():
    legal = mille.legal_actions(next(iter(_random_steps("hu", 3, seed=2, steps=1))))
    a, b = menc.mask_from_legal(legal), menc.mask_from_legal(legal)
    assert a is not b and a.dtype == np.int8 and a.flags.writeable
    assert sorted(np.flatnonzero(a)) == sorted(x.code for x in legal)
    a[:] = 0
    assert b.sum() == len(legal)
    # an equal action built elsewhere (not the engine's own object) counts the same
    copies = [dataclasses.replace(x) for x in legal]
    assert np.array_equal(menc.mask_from_legal(copies), b)


def test_encode_into_and_fresh_arrays():
    s = next(iter(_random_steps("hu", 3, seed=2, steps=1)))
    enc = menc.ViewEncoder()
    v = mille.view_for(s, 1)
    a, b = enc.encode(v), enc.encode(v)
    assert a is not b and np.array_equal(a, b)
    a[0] = 99.0  # writable, and not the encoder's own buffer
    assert enc.encode(v)[0] != 99.0
    out = np.full(menc.OBS_SIZE, 7.0, np.float32)
    assert enc.encode_into(v, out) is out and np.array_equal(out, b)


@pytest.mark.parametrize(("edition", "players"), [("wm2006", 2), ("hu", 4), ("meilen", 5)])
def test_incremental_encoding_ignores_hidden_cards(edition, players):
    """The same property as the reference's: dealing a player's unseen cards anew never
    changes what that player's encoder produces (also when it was fed the true states)."""
    checked = 0
    encoders = [menc.ViewEncoder() for _ in range(players)]
    for i, s in enumerate(_random_steps(edition, players, seed=3, steps=240)):
        if i % 20:
            continue
        for p in range(players):
            other = reshuffle_hidden(s, p, seed=i + p)
            if other == s:
                continue
            checked += 1
            x = encoders[p].encode(mille.view_for(s, p))
            assert np.array_equal(encoders[p].encode(mille.view_for(other, p)), x)
    assert checked > 0


def _mutated(v, rng):
    """``v`` with one pile, tableau, total or count changed arbitrarily (no game makes most
    of these: the encoder must still agree with the reference on any view)."""
    cards = list(CARDS)
    fits = {  # the cards each pile can hold (the reference encoder refuses others)
        "battle": ["ROLL", "STOP", "OUT_OF_GAS", "FLAT_TIRE", "ACCIDENT", "GASOLINE", "SPARE_TIRE", "REPAIRS"],
        "speed": ["SPEED_LIMIT", "END_OF_LIMIT"],
        "distance": ["D25", "D50", "D75", "D100", "D200"],
        "safeties": sorted(SAFETIES),
        "coups": sorted(SAFETIES),
    }
    tabs = list(v.tableaus)
    k = rng.randrange(len(tabs))
    tab = tabs[k]
    what = rng.randrange(10)
    if what < 5:  # a tableau pile: grows, shrinks at the top or the bottom, or is replaced
        name = ("battle", "speed", "distance", "safeties", "coups")[what]
        pile = getattr(tab, name)
        how = rng.randrange(4)
        if how == 0:
            pile = (*pile, rng.choice(fits[name]))
        elif how == 1:
            pile = pile[:-1]
        elif how == 2:
            pile = pile[1:]
        else:
            pile = tuple(rng.choice(fits[name]) for _ in range(rng.randrange(4)))
        tabs[k] = tab._replace(**{name: pile, "km": rng.randrange(1200), "d200": rng.randrange(3)})
        return dataclasses.replace(v, tableaus=tuple(tabs))
    if what == 5:
        hand = list(v.hand)
        rng.shuffle(hand)
        hand = hand[: rng.randrange(len(hand) + 1)] + [rng.choice(cards) for _ in range(rng.randrange(3))]
        return dataclasses.replace(v, hand=tuple(hand))
    if what == 6:
        pile = v.discard[: rng.randrange(len(v.discard) + 1)] + tuple(rng.choice(cards) for _ in range(2))
        return dataclasses.replace(v, discard=pile)
    if what == 7:
        return dataclasses.replace(v, totals=tuple(rng.randrange(-30000, 30000) for _ in v.totals))
    if what == 8:
        return dataclasses.replace(v, draw_count=0, extended_by=rng.choice([None, 0, 1]), hand_no=rng.randrange(20))
    # the values the encoder rewrites only when they change: target, phase, turn, hand sizes
    return dataclasses.replace(
        v,
        target=rng.choice([700, 1000, v.target]),
        phase=rng.choice(["play", "extend", "over"]),
        current=rng.randrange(v.n_players),
        cf_turn=rng.random() < 0.5,
        hand_sizes=tuple(rng.randrange(8) for _ in v.hand_sizes),
    )


@pytest.mark.parametrize(("edition", "players"), [("wm2006", 2), ("hu", 4), ("meilen", 5)])
def test_any_change_of_any_pile_matches_the_reference(edition, players):
    """Piles that gain or lose their top card take the fast path, anything else is recounted;
    chains of arbitrary changes, each view fed to the same encoder, must all agree."""
    rng = random.Random(players)
    enc = menc.ViewEncoder()
    checked = 0
    for i, s in enumerate(_random_steps(edition, players, seed=11, steps=300)):
        if i % 3:
            continue
        v = mille.view_for(s, 0)
        for _ in range(4):
            assert np.array_equal(enc.encode(v), menc.encode_view(v)), (edition, players, i)
            v = _mutated(v, rng)
            checked += 1
    assert checked > 300


def test_huge_piles_still_match_the_reference():
    s = next(iter(_random_steps("wm2006", 2, seed=1, steps=1)))
    v = mille.view_for(s, 0)
    huge = dataclasses.replace(v, discard=("D25",) * 3000)  # no game makes this, but it is a view
    tab = v.tableaus[1]._replace(distance=("D50",) * 2500, km=125000)
    wide = dataclasses.replace(v, tableaus=(v.tableaus[0], tab))
    enc = menc.ViewEncoder()
    enc.encode(v)
    assert np.array_equal(enc.encode(huge), menc.encode_view(huge))
    assert np.array_equal(enc.encode(wide), menc.encode_view(wide))
    assert np.array_equal(enc.encode(v), menc.encode_view(v))  # and back


def test_too_many_seats_is_a_clear_error():
    s = next(iter(_random_steps("wm2006", 2, seed=1, steps=1)))
    v = dataclasses.replace(mille.view_for(s, 0), n_players=7)
    with pytest.raises(ValueError, match="at most 6 seats"):
        menc.ViewEncoder().encode(v)
