"""The Mille Bornes observation encoding, masks and the oracle encoding."""

from __future__ import annotations

import numpy as np
import pytest

from rallye import mille
from rallye.mille.cards import CARD_INDEX, CARDS
from rallye.rl.mille import encoding as menc

from .helpers import play_random, reshuffle_hidden

CONFIGS = [("wm2006", 2), ("hu", 3), ("fxschmid", 4), ("wm2006", 6), ("fxschmid", 6), ("meilen", 5)]


def test_layout_is_fixed_and_versioned():
    assert menc.OBS_VERSION == 1
    assert menc.OBS_SIZE == sum(n for _, n in menc.OBS_FIELDS) == 270
    assert menc.SIDE_SIZE == 31
    assert menc.ORACLE_SIZE == 270 + 6 * 19 + 19 + menc.ORACLE_ORDER * 19
    with pytest.raises(KeyError, match="no observation block"):
        menc.field_slice("nope")


@pytest.mark.parametrize(("edition", "players"), CONFIGS)
def test_values_stay_in_bounds_and_mask_is_legal_actions(edition, players):
    s = mille.new_match(edition, players, seed=4)
    for step in range(0, 160, 8):
        s = play_random(s, 8, seed=step)
        if mille.is_over(s):
            break
        for p in range(players):
            v = mille.view_for(s, p)
            x = menc.encode_view(v)
            assert x.shape == (menc.OBS_SIZE,) and x.dtype == np.float32
            assert x.min() >= menc.OBS_LOW and x.max() <= menc.OBS_HIGH
            blocks = menc.describe(x)
            assert blocks["hand"].sum() == len(v.hand)
            assert blocks["my_side"][v.side] == 1.0
            m = menc.action_mask(v)
            expected = sorted(a.code for a in mille.legal_from_view(v))
            assert m.dtype == np.int8 and sorted(np.flatnonzero(m).tolist()) == expected
            if p == s.current:
                assert expected == sorted(a.code for a in mille.legal_actions(s))
            else:
                assert not m.any()


def test_unseen_counts_match_the_view():
    s = play_random(mille.new_match("hu", 3, seed=11), 40, seed=3)
    v = mille.view_for(s, 1)
    x = menc.encode_view(v)
    copies = menc._table(v.edition, 3).copies
    unseen = v.unseen_counts()
    want = [unseen[c] / k if k else 0.0 for c, k in zip(CARDS, copies, strict=True)]
    assert np.allclose(menc.describe(x)["unseen"], want)


def test_sides_are_relative_to_the_observer():
    s = mille.new_match("wm2006", 2, seed=2)
    s = play_random(s, 30, seed=1)
    x0 = menc.describe(menc.encode_view(mille.view_for(s, 0)))["sides"]
    x1 = menc.describe(menc.encode_view(mille.view_for(s, 1)))["sides"]
    size = menc.SIDE_SIZE
    assert np.array_equal(x0[:size], x1[size : 2 * size])  # my side first, then the others
    assert np.array_equal(x0[size : 2 * size], x1[:size])


@pytest.mark.parametrize(("edition", "players"), CONFIGS)
def test_view_encoding_ignores_hidden_cards(edition, players):
    """DESIGN habit 8: secrets leave only through view_for, so dealing the cards a player
    has not seen anew never changes that player's encoding (but does change the oracle's)."""
    s = mille.new_match(edition, players, seed=9)
    checked = 0
    for k in range(6):
        s = play_random(s, 12, seed=k)
        if mille.is_over(s):
            break
        for p in range(players):
            other = reshuffle_hidden(s, p, seed=100 * k + p)
            if other == s:
                continue
            checked += 1
            assert np.array_equal(menc.encode_view(mille.view_for(s, p)), menc.encode_view(mille.view_for(other, p)))
            assert np.array_equal(menc.action_mask(mille.view_for(s, p)), menc.action_mask(mille.view_for(other, p)))
            assert not np.array_equal(menc.encode_oracle(s, p), menc.encode_oracle(other, p))
    assert checked > 0


def test_oracle_holds_every_hand_and_the_pile_order():
    s = play_random(mille.new_match("wm2006", 2, seed=5), 10, seed=2)
    o = menc.encode_oracle(s, 1)
    assert o.shape == (menc.ORACLE_SIZE,) and o.dtype == np.float32
    assert np.array_equal(o[: menc.OBS_SIZE], menc.encode_view(mille.view_for(s, 1)))
    hands = o[menc.OBS_SIZE : menc.OBS_SIZE + 6 * 19].reshape(6, 19)
    assert hands[0].sum() == len(s.hands[1]) and hands[1].sum() == len(s.hands[0])
    order = o[-menc.ORACLE_ORDER * 19 :].reshape(menc.ORACLE_ORDER, 19)
    assert [int(r.argmax()) for r in order] == [CARD_INDEX[c] for c in s.draw_pile[: menc.ORACLE_ORDER]]


def test_encode_view_into_matches_and_returns_new_arrays():
    v = mille.view_for(mille.new_match("hu", 2, seed=1), 0)
    a, b = menc.encode_view(v), menc.encode_view(v)
    assert a is not b and np.array_equal(a, b)
    a[0] = 99.0  # writable, and not shared with the next call
    assert b[0] != 99.0
    out = np.zeros(menc.OBS_SIZE, np.float32)
    assert np.array_equal(menc.encode_view_into(v, out), b)


def test_describe_rejects_a_wrong_length():
    with pytest.raises(ValueError, match="270 values"):
        menc.describe(np.zeros(5, np.float32))
