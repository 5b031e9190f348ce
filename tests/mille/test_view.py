"""Views (DESIGN habit 8): secrets leave the engine only through ``view_for``. Changing any
card hidden from a player never changes that player's view; views round-trip through JSON;
a malformed view is a RecordError."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rallye.core.errors import RecordError
from rallye.mille import MilleView, apply, editions, legal_actions, legal_from_view, new_match, view_for

from .conftest import sort_cards

CONFIGS = [(ed.key, n) for ed in editions() for n in ed.players]


def reach(key, players, seed, steps):
    """A state reached by ``steps`` random actions (stops early if the match ends)."""
    rnd = random.Random(seed)
    s = new_match(key, players, seed)
    for _ in range(steps):
        if s.phase == "over":
            break
        la = legal_actions(s)
        s = apply(s, la[rnd.randrange(len(la))])
    return s


def swap_hand_and_pile(s, seat, i, j):
    """Swap card ``i`` of ``seat``'s hand with card ``j`` of the draw pile."""
    hand = list(s.hands[seat])
    deck = list(s.deck)
    k = s.draw_pos + j
    hand[i], deck[k] = deck[k], hand[i]
    hands = s.hands[:seat] + (sort_cards(hand),) + s.hands[seat + 1 :]
    return s._replace(hands=hands, deck=tuple(deck))


def swap_between_hands(s, a, i, b, j):
    ha, hb = list(s.hands[a]), list(s.hands[b])
    ha[i], hb[j] = hb[j], ha[i]
    hands = list(s.hands)
    hands[a], hands[b] = sort_cards(ha), sort_cards(hb)
    return s._replace(hands=tuple(hands))


def shuffle_pile(s, rnd):
    pile = list(s.draw_pile)
    rnd.shuffle(pile)
    return s._replace(deck=s.deck[: s.draw_pos] + tuple(pile))


state_params = st.tuples(st.sampled_from(CONFIGS), st.integers(0, 10_000), st.integers(0, 250))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(params=state_params, data=st.data())
def test_no_leak_hidden_cards_never_change_a_players_view(params, data):
    (key, players), seed, steps = params
    s = reach(key, players, seed, steps)
    viewer = data.draw(st.integers(0, players - 1), label="viewer")
    view = view_for(s, viewer)
    others = [p for p in range(players) if p != viewer and s.hands[p]]
    changed = s
    # 1. swap cards between other hands and the draw pile
    for _ in range(data.draw(st.integers(0, 4), label="hand/pile swaps")):
        if not others or not changed.draw_count:
            break
        q = data.draw(st.sampled_from(others))
        i = data.draw(st.integers(0, len(changed.hands[q]) - 1))
        j = data.draw(st.integers(0, changed.draw_count - 1))
        changed = swap_hand_and_pile(changed, q, i, j)
    # 2. swap cards between two other players' hands
    if len(others) >= 2 and data.draw(st.booleans(), label="swap between hands"):
        a, b = data.draw(st.permutations(others))[:2]
        i = data.draw(st.integers(0, len(changed.hands[a]) - 1))
        j = data.draw(st.integers(0, len(changed.hands[b]) - 1))
        changed = swap_between_hands(changed, a, i, b, j)
    # 3. reorder the draw pile
    if data.draw(st.booleans(), label="shuffle pile"):
        changed = shuffle_pile(changed, random.Random(data.draw(st.integers(0, 2**32))))
    assert view_for(changed, viewer) == view
    assert view_for(changed, viewer).to_json() == view.to_json()
    # and my legal actions, computed from my view, are still the true ones
    if s.phase != "over" and s.current == viewer:
        assert legal_from_view(view_for(changed, viewer)) == legal_actions(changed) == legal_actions(s)


def test_no_leak_check_is_not_vacuous():
    """The same kind of change to the viewer's own hand does change the view."""
    s = reach("wm2006", 3, 5, 40)
    seat = next(p for p in range(3) if any(c != s.draw_pile[0] for c in s.hands[p]))
    i = next(k for k, c in enumerate(s.hands[seat]) if c != s.draw_pile[0])
    changed = swap_hand_and_pile(s, seat, i, 0)
    assert view_for(changed, seat) != view_for(s, seat)
    assert view_for(changed, (seat + 1) % 3) == view_for(s, (seat + 1) % 3)


def test_view_holds_no_hidden_information():
    s = reach("hu", 4, 2, 30)
    v = view_for(s, 1)
    fields = set(v.to_json())
    assert not fields & {"deck", "hands", "draw_pile", "seed", "draw_pos"}
    assert not hasattr(v, "hands") and not hasattr(v, "deck") and not hasattr(v, "seed")
    assert v.hand == s.hands[1]
    assert v.hand_sizes == tuple(len(h) for h in s.hands)
    assert v.draw_count == s.draw_count
    assert sum(v.unseen_counts().values()) == s.draw_count + sum(len(h) for p, h in enumerate(s.hands) if p != 1)


def test_view_for_rejects_a_seat_that_does_not_exist():
    s = new_match("wm2006", 2)
    for seat in (-1, 2):
        with pytest.raises(ValueError, match="no seat"):
            view_for(s, seat)


# -- JSON ----------------------------------------------------------------------------
def test_view_json_round_trip_for_many_views():
    count = 0
    for k, (key, players) in enumerate(CONFIGS):
        rnd = random.Random(k)
        s = new_match(key, players, seed=k)
        step = 0
        while s.phase != "over" and step < 300:
            if step % 13 == 0:
                for seat in range(players):
                    v = view_for(s, seat)
                    back = MilleView.from_json(json.loads(json.dumps(v.to_json())))
                    assert back == v
                    count += 1
            la = legal_actions(s)
            s = apply(s, la[rnd.randrange(len(la))])
            step += 1
        v = view_for(s, 0)
        assert MilleView.from_json(json.loads(json.dumps(v.to_json()))) == v
    assert count > 500


def test_view_json_round_trip_after_the_match():
    s = reach("meilen", 3, 1, 10_000)
    assert s.phase == "over" and s.sheets
    for seat in range(3):
        v = view_for(s, seat)
        assert MilleView.from_json(json.loads(json.dumps(v.to_json()))) == v


@pytest.fixture(scope="module")
def view_json():
    return view_for(reach("wm2006", 3, 9, 120), 1).to_json()


def _broken(view_json, edit):
    data = json.loads(json.dumps(view_json))
    edit(data)
    return data


MALFORMED_VIEWS = [
    ("not an object", lambda d: d.clear() or d.update(x=1), None),
    ("wrong game", lambda d: d.update(game="knightrider"), "field 'game'"),
    ("wrong version", lambda d: d.update(version=99), "field 'version'"),
    ("missing field", lambda d: d.pop("hand"), "missing field 'hand'"),
    ("missing tableau field", lambda d: d["tableaus"][0].pop("km"), "missing field 'tableaus[0].km'"),
    ("bad card", lambda d: d.update(hand=["D300"]), "field 'hand'"),
    ("hand not a list", lambda d: d.update(hand="D100"), "field 'hand'"),
    ("bad discard", lambda d: d.update(discard=[1]), "field 'discard'"),
    ("bad integer", lambda d: d.update(current="two"), "view JSON"),
    ("bool list", lambda d: d.update(totals=[True]), "field 'totals'"),
    ("seat out of range", lambda d: d.update(seat=7), "seat"),
    ("hand sizes do not fit", lambda d: d.update(hand_sizes=[6]), "hand_sizes"),
    ("tableaus do not fit", lambda d: d.update(tableaus=d["tableaus"][:1]), "one tableau per side"),
    ("event not an object", lambda d: d.update(events=[3]), "view JSON"),
    ("sheet row missing a line", lambda d: d.update(sheets=[{"hand": 0}]), "view JSON"),
]


@pytest.mark.parametrize(("desc", "edit", "fragment"), MALFORMED_VIEWS, ids=[m[0] for m in MALFORMED_VIEWS])
def test_malformed_view_json_raises_record_error(view_json, desc, edit, fragment):
    with pytest.raises(RecordError) as info:
        MilleView.from_json(_broken(view_json, edit))
    assert info.value.rule == "view-json"
    if fragment:
        assert fragment in str(info.value)


@pytest.mark.parametrize("value", [None, [], "view", 3])
def test_view_json_that_is_not_an_object_raises_record_error(value):
    with pytest.raises(RecordError):
        MilleView.from_json(value)


def test_malformed_view_json_unknown_edition_raises_record_error(view_json):
    with pytest.raises(RecordError):
        MilleView.from_json(_broken(view_json, lambda d: d.update(edition="monopoly")))


def test_malformed_view_json_non_text_edition_raises_record_error(view_json):
    with pytest.raises(RecordError):
        MilleView.from_json(_broken(view_json, lambda d: d.update(edition=5)))


SEMANTICALLY_BROKEN = [
    ("unknown phase", lambda d: d.update(phase="banana")),
    ("extended_by not a side", lambda d: d.update(extended_by="x")),
    ("current not a seat", lambda d: d.update(current=9)),
    ("side not the seat's side", lambda d: d.update(side=5)),
    ("negative draw count", lambda d: d.update(draw_count=-3)),
    ("event with an unknown card", lambda d: d.update(events=[{"seat": 0, "kind": "play", "card": "X", "side": None}])),
]


@pytest.mark.parametrize(("desc", "edit"), SEMANTICALLY_BROKEN, ids=[m[0] for m in SEMANTICALLY_BROKEN])
def test_malformed_view_json_impossible_values_raise_record_error(view_json, desc, edit):
    with pytest.raises(RecordError):
        MilleView.from_json(_broken(view_json, edit))
