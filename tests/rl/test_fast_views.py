"""``view_for`` of both games builds its frozen dataclasses without their ``__init__`` and
shares the views of unchanged state parts; the results must be the very values the
dataclass constructors give: same type, equal, hashable, frozen, ``dataclasses.replace``
and the JSON round trip working."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rallye import knightrider as kr
from rallye import mille
from rallye.core.values import IdentityCache


def _rebuilt(obj):
    """The same dataclass value built by its own constructor, recursively."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return type(obj)(**{f.name: _rebuilt(getattr(obj, f.name)) for f in dataclasses.fields(obj)})
    if isinstance(obj, tuple) and not hasattr(obj, "_fields"):
        return tuple(_rebuilt(x) for x in obj)
    return obj


def _check_value(v):
    again = _rebuilt(v)
    assert type(v) is type(again) and v == again and hash(v) == hash(again)
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.current = 1  # type: ignore[misc]
    changed = dataclasses.replace(v, current=None if type(v) is kr.View else 0)
    assert type(changed) is type(v) and changed.current in (None, 0)


def test_mille_views_are_the_dataclass_values():
    rng = random.Random(1)
    for key, n in (("wm2006", 2), ("hu", 4), ("meilen", 3)):
        s = mille.new_match(key, n, seed=n)
        for step in range(120):
            if mille.is_over(s):
                break
            if step % 10 == 0:
                for p in range(n):
                    v = mille.view_for(s, p)
                    _check_value(v)
                    assert mille.MilleView.from_json(v.to_json()) == v
                    assert v.hand_sizes == tuple(len(h) for h in s.hands)
                    assert v.draw_count == s.draw_count and v.deck_size == len(s.deck)
            legal = mille.legal_actions(s)
            s = mille.apply(s, legal[rng.randrange(len(legal))])
    with pytest.raises(ValueError, match="no seat 2"):
        mille.view_for(mille.new_match("wm2006", 2), 2)


def test_knightrider_views_are_the_dataclass_values_and_share_unchanged_parts():
    rng = random.Random(2)
    opts = kr.Options(quick_build=True, turn_limit=30, tour=1)
    s = kr.new_game(3, 4, opts)
    before = None
    steps = 0
    while not kr.is_over(s) and steps < 400:
        if steps % 9 == 0:
            for p in range(s.players):
                v = kr.view_for(s, p)
                _check_value(v)
                assert kr.View.from_json(v.to_json()) == v
                for part in (*v.cars, *v.detours, *v.events, *v.escape_turned, *v.tiles):
                    assert part == _rebuilt(part)
            if before is not None and before[0].detours == s.detours:
                assert kr.view_for(s, 0).detours is before[1].detours  # shared, not rebuilt
        before = (s, kr.view_for(s, 0))
        legal = kr.legal_actions(s)
        s = kr.apply(s, legal[rng.randrange(len(legal))])
        steps += 1
    assert steps > 50


def test_identity_caches_never_confuse_equal_ids():
    """An entry holds its key object: a new object can never share a cached id."""
    calls = []
    cache = IdentityCache(lambda t: calls.append(t) or len(t), size=2)
    a, b, c = (1, 2), (3, 4, 5), (6,)
    assert [cache(a), cache(b), cache(a), cache(c), cache(a)] == [2, 3, 2, 1, 2]
    assert calls == [a, b, c, a]  # the third entry cleared the cache
