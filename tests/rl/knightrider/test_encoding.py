"""The Knight Rider observation encoding, compact action codes and oracle encoding."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rallye import knightrider as kr
from rallye.core.errors import IllegalAction
from rallye.core.rng import Rng
from rallye.knightrider import geometry as g
from rallye.knightrider.state import evolve
from rallye.rl.knightrider import encoding as ke

CONFIGS = [
    (2, kr.Options(quick_build=True, turn_limit=40)),
    (3, kr.Options(quick_build=True, turn_limit=30, shuffle_cards=True, tour=1)),
    (4, kr.Options(quick_build=False, turn_limit=8, deal_spares=True)),
    (5, kr.Options(quick_build=True, turn_limit=20, rolled_start=True)),
]


def _states(players, options, seed, limit=400):
    """The states of one random game (the acting player's legal actions are non-empty)."""
    rng = random.Random(seed)
    s = kr.new_game(players, seed, options)
    out = []
    while not kr.is_over(s) and len(out) < limit:
        out.append(s)
        legal = kr.legal_actions(s)
        s = kr.apply(s, legal[rng.randrange(len(legal))])
    out.append(s)
    return out


@pytest.fixture(scope="module")
def games():
    return [(opts, _states(n, opts, seed)) for seed, (n, opts) in enumerate(CONFIGS)]


def test_vector_has_the_documented_size_type_and_bounds(games):
    assert ke.OBS_SIZE == ke.PLANES_SIZE + ke.SCALARS_SIZE == sum(n for _, n in ke.OBS_FIELDS)
    assert len(ke.PLANES) * 48 * 48 == ke.PLANES_SIZE
    for opts, states in games:
        for s in states[::7]:
            for p in range(s.players):
                x = ke.encode_view(kr.view_for(s, p), opts)
                assert x.shape == (ke.OBS_SIZE,) and x.dtype == np.float32
                assert x.min() >= ke.OBS_LOW and x.max() <= ke.OBS_HIGH


def _hide(state, observer, seed):
    """The same public position with everything ``observer`` cannot see changed: the escape
    cards still to come reordered, the other hands' cards dealt anew (sizes kept), the
    face-down tiles swapped between pile and centre, and another Rng."""
    r = random.Random(seed)
    rest = list(state.escape_deck[state.escape_pos :])
    r.shuffle(rest)
    changes = {"escape_deck": state.escape_deck[: state.escape_pos] + tuple(rest), "rng": Rng(r.getrandbits(64))}
    for name in ("kitt_hands", "detour_hands"):
        hands = getattr(state, name)
        pool = [k for q, h in enumerate(hands) if q != observer for k, c in enumerate(h) for _ in range(c)]
        r.shuffle(pool)
        new, pos = [], 0
        for q, h in enumerate(hands):
            if q == observer:
                new.append(h)
                continue
            counts = [0] * len(h)
            for k in pool[pos : pos + sum(h)]:
                counts[k] += 1
            pos += sum(h)
            new.append(tuple(counts))
        changes[name] = tuple(new)
    if state.centre:
        tiles = list(state.pile + state.centre)
        r.shuffle(tiles)
        changes["centre"] = tuple(sorted(tiles[: len(state.centre)]))
        changes["pile"] = tuple(sorted(tiles[len(state.centre) :]))
    return evolve(state, **changes)


def test_encoding_ignores_hidden_information(games):
    hidden_changed = 0
    for opts, states in games:
        for s in states[::5]:
            for p in range(s.players):
                other = _hide(s, p, seed=len(states) + p)
                a = ke.encode_view(kr.view_for(s, p), opts)
                b = ke.encode_view(kr.view_for(other, p), opts)
                assert np.array_equal(a, b)
                if not np.array_equal(ke.encode_oracle(s, p), ke.encode_oracle(other, p)):
                    hidden_changed += 1
    assert hidden_changed > 20  # the oracle does see what was changed


def test_oracle_is_the_observation_followed_by_the_hidden_state(games):
    opts, states = games[1]
    s = states[len(states) // 2]
    o = ke.encode_oracle(s, 1)
    assert o.shape == (ke.ORACLE_SIZE,)
    assert np.array_equal(o[: ke.OBS_SIZE], ke.encode_view(kr.view_for(s, 1), opts))
    hands = o[ke.OBS_SIZE : ke.OBS_SIZE + 5 * 9].reshape(5, 9) * 5
    for k in range(s.players):
        q = (1 + k) % s.players
        assert hands[k].tolist() == list(s.kitt_hands[q] + s.detour_hands[q])
    order = o[ke.OBS_SIZE + 45 : ke.OBS_SIZE + 45 + 121].reshape(11, 11)
    assert [int(np.argmax(r)) for r in order[: 11 - s.escape_pos]] == list(s.escape_deck[s.escape_pos :])


def test_link_planes_are_the_engines_road_links(games):
    checked_detours = 0
    for opts, states in games:
        for s in states[::3]:
            if s.phase == "build":
                continue
            x = ke.encode_view(kr.view_for(s, 0), opts)
            p = ke.planes(x)
            links = np.frombuffer(s.links, dtype=np.uint8).reshape(48, 48)
            assert np.array_equal(p[ke.PLANE["road"]] > 0, (links & 0x10) > 0)
            for d, name in enumerate(("link_n", "link_e", "link_s", "link_w")):
                assert np.array_equal(p[ke.PLANE[name]] > 0, ((links >> d) & 1) > 0), name
            checked_detours += bool(s.detours)
    assert checked_detours > 5


def _cell(p, plane):
    rows, cols = np.nonzero(p[ke.PLANE[plane]])
    return [(int(c) + g.CELL_MIN, int(r) + g.CELL_MIN) for r, c in zip(rows, cols, strict=True)]


def test_planes_show_the_villain_the_cars_and_the_villains_flight(games):
    opts, states = games[0]
    seen_other = False
    for s in states[10::9]:
        if kr.is_over(s):
            continue
        me = s.current
        x = ke.encode_view(kr.view_for(s, me), opts)
        p = ke.planes(x)
        assert _cell(p, "villain") == [g.cell_xy(s.villain)]
        car = s.cars[me]
        if car.cell >= 0:
            assert _cell(p, "me_" + "nesw"[car.heading]) == [g.cell_xy(car.cell)]
        for c in s.cars:
            if c.player != me and c.cell >= 0:
                assert p[ke.PLANE["other_" + "nesw"[c.heading]]][ke._rc(*g.cell_xy(c.cell))] >= 1
                seen_other = True
        # one escape card is turned next: the flight probabilities cover 1 tile (9 cells)
        assert p[ke.PLANE["flee"]].sum() == pytest.approx(9.0, abs=1e-4)
        turned = {e.id for e in kr.view_for(s, me).escape_turned}
        assert x[ke.field_slice("escape")][:11].sum() == len(turned)
    assert seen_other


def test_scalars_are_relative_to_the_observer(games):
    opts, states = games[3]  # 5 players
    s = next(st for st in states if st.phase == "turn")
    for p in range(5):
        d = ke.describe(ke.encode_view(kr.view_for(s, p), opts))
        assert d["players"].tolist() == [0, 0, 0, 1]
        assert int(np.argmax(d["to_act"])) == (s.current - p) % 5
        assert int(np.argmax(d["start_player"])) == (s.start_player - p) % 5
        assert d["roll"][s.roll] == 1.0
        assert d["hand_kitt"].tolist() == pytest.approx([c / 5 for c in s.kitt_hands[p]])
        assert d["cars"][0] == 1.0  # slot 0 is my own car


# ----------------------------------------------------------------------------- actions


def test_action_codes_name_every_legal_action_exactly_once(games):
    seen = set()
    for _, states in games:
        for s in states:
            if kr.is_over(s):
                continue
            legal = kr.legal_actions(s)
            view = kr.view_for(s, s.current)
            table = ke.legal_table(view, legal)
            assert len(table) == len(legal)
            mask = ke.mask_from_table(table)
            assert mask.dtype == np.int8 and mask.shape == (ke.NUM_ACTIONS,) and mask.sum() == len(legal)
            for code, a in table.items():
                assert 0 <= code < ke.NUM_ACTIONS
                assert ke.action_code(a, view) == code and ke.decode(code, table) is a
                seen.add(ke.describe_code(code).split()[0])
    assert {"place", "enter", "move", "ram", "detour", "end", "kitt", "recover"} <= seen


def test_the_action_context_of_a_state_is_that_of_the_acting_players_view(games):
    rams = 0
    for _, states in games:
        for s in states:
            if kr.is_over(s):
                continue
            a, b = ke.ActionContext.of_state(s), ke.ActionContext(kr.view_for(s, s.current))
            assert (a.me, a.players, a.left, a.rammable, a.at) == (b.me, b.players, b.left, b.rammable, b.at)
            legal = kr.legal_actions(s)
            assert ke.legal_table(a, legal) == ke.legal_table(b, legal)
            rams += bool(a.rammable)
    assert rams > 0


def test_the_state_table_is_the_legal_table_of_the_acting_players_view(games):
    """``state_table`` (the adapters' fast path: detour codes cached by the engine's shared
    run of detour plays) gives the same mapping as ``legal_table`` of the view."""
    runs = 0
    for _, states in games:
        for s in states:
            legal = kr.legal_actions(s)
            plays = kr.detour_plays(s)
            assert plays == tuple(a for a in legal if isinstance(a, kr.PlayDetour))
            if kr.is_over(s):
                assert ke.state_table(s) == {}
                continue
            assert ke.state_table(s) == ke.legal_table(kr.view_for(s, s.current), legal)
            runs += len(plays) > 1
            # states with the same map, detour hand and full tiles share one run
            again = evolve(s, rng=Rng(1))
            assert kr.detour_plays(again) is plays or not plays
    assert runs > 40  # (49 in the random games of rules 2)


def test_the_state_table_takes_its_detour_codes_from_the_map_not_one_by_one(games, monkeypatch):
    """The fast path is the one taken (a fallback to ``legal_table`` over every legal action
    would give the same mapping, only slowly): with a run of detour plays, ``legal_table``
    sees the other actions only."""
    seen: list[int] = []
    slow = ke.legal_table
    monkeypatch.setattr(ke, "legal_table", lambda ctx, legal: seen.append(len(legal)) or slow(ctx, legal))
    checked = 0
    for _, states in games:
        for s in states:
            plays = kr.detour_plays(s)
            if kr.is_over(s) or len(plays) < 2:
                continue
            seen.clear()
            ke.state_table(s)
            assert seen == [len(kr.legal_actions(s)) - len(plays)]
            checked += 1
    assert checked > 40  # (49 in the random games of rules 2)


def test_a_full_tile_leaves_the_detour_run_and_the_state_table(games):
    """No fourth detour card on a tile (MAX_DETOURS_PER_TILE): the run without that tile's
    plays is its own shared tuple, and the state table follows it."""
    s = next(s for _, states in games for s in states if len(kr.detour_plays(s)) > 1)
    play = kr.detour_plays(s)[0]
    sq = g.sq_index(play.x, play.y)
    full = evolve(s, detours=s.detours + ((sq, "STRAIGHT", 0, 0),) * 3)
    plays = kr.detour_plays(full)
    assert plays and not any((a.x, a.y) == (play.x, play.y) for a in plays)
    assert kr.detour_plays(evolve(full, rng=Rng(2))) is plays
    table = ke.state_table(full)
    assert table == ke.legal_table(kr.view_for(full, full.current), kr.legal_actions(full))
    assert ke.action_code(play, ke.ActionContext.of_state(s)) not in table


def test_codes_below_the_detours_are_the_engines_codes(games):
    for _, states in games:
        for s in states[::4]:
            if kr.is_over(s):
                continue
            view = kr.view_for(s, s.current)
            for a in kr.legal_actions(s):
                code = ke.action_code(a, view)
                if code < ke.DETOUR0:
                    assert code == kr.encode_action(a)


def test_a_ram_stop_and_a_full_move_to_the_same_field_get_different_codes():
    # a ram stop names the rammed seat, a full move its field: both can end on one field
    s = kr.new_game(2, 0, kr.Options(quick_build=True))
    rng = random.Random(0)
    found = False
    for _ in range(3000):
        if kr.is_over(s):
            s = kr.new_game(2, rng.randrange(1000), kr.Options(quick_build=True))
        legal = kr.legal_actions(s)
        view = kr.view_for(s, s.current)
        table = ke.legal_table(view, legal)
        rams = {(a.x, a.y, a.heading) for c, a in table.items() if c >= ke.RAM0}
        full = {(a.x, a.y, a.heading) for c, a in table.items() if ke.MOVE0 <= c < ke.RAM0}
        if rams & full:
            found = True
            break
        s = kr.apply(s, legal[rng.randrange(len(legal))])
    assert found


def test_a_turn_alone_beside_a_car_is_a_normal_move_not_a_ram_stop():
    """Rules 2: a move may be a turn alone where the car stands; beside a rammable car, with
    pips left, it is still no ram stop, and its code is the field's (a ram stop on the
    mover's own field takes a way of 4 pips or more)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "knightrider"))
    from test_kr_rule_model import turn_alone_beside_a_car

    s = turn_alone_beside_a_car()
    (turn,) = [a for a in kr.legal_actions(s) if isinstance(a, kr.Move)]
    assert (turn.x, turn.y, turn.cost, s.pips - s.used) == (8, 1, 2, 3)
    table = ke.legal_table(kr.view_for(s, s.current), kr.legal_actions(s))
    code = next(c for c, a in table.items() if a == turn)
    assert ke.MOVE0 <= code < ke.RAM0
    loop = ke.ActionContext.of_state(evolve(s, pips=7))  # a way back to 8,1 (4 pips) with pips left rams
    assert ke.action_code(kr.Move(8, 1, 1, 4), loop) >= ke.RAM0


def test_decoding_an_illegal_code_is_a_clear_error(games):
    _, states = games[0]
    s = states[5]
    table = ke.legal_table(kr.view_for(s, s.current), kr.legal_actions(s))
    bad = next(c for c in range(ke.NUM_ACTIONS) if c not in table)
    with pytest.raises(IllegalAction, match=f"action code {bad} .* is not legal now"):
        ke.decode(bad, table)
    assert ke.describe_code(ke.NUM_ACTIONS) == f"outside 0..{ke.NUM_ACTIONS - 1}"
    assert ke.describe_code(ke.RAM0).startswith("ram the car 1 seat")


def test_describe_and_field_slice_reject_bad_input():
    with pytest.raises(KeyError, match="no observation block 'nope'"):
        ke.field_slice("nope")
    with pytest.raises(ValueError, match="an observation has"):
        ke.describe(np.zeros(10, np.float32))


def test_fast_encoder_matches_the_reference_bit_for_bit(games):
    """``encode_view`` (sparse writes, identity caches) against the encoder as first
    written (``reference``), for every seat of every state of the test games, and
    ``encode_view_into`` into a used buffer and into a non-contiguous one."""
    from .reference import encode_view as reference

    buf = np.full(ke.OBS_SIZE, 3.0, np.float32)
    strided = np.full(2 * ke.OBS_SIZE, 5.0, np.float32)[::2]
    checked = 0
    for opts, states in games:
        for i, s in enumerate(states):
            for p in range(s.players):
                v = kr.view_for(s, p)
                want = reference(v, opts)
                assert ke.encode_view(v, opts).tobytes() == want.tobytes(), (i, p)
                checked += 1
                if i % 5 == 0:
                    assert ke.encode_view_into(v, buf, opts) is buf and buf.tobytes() == want.tobytes()
                    assert np.array_equal(ke.encode_view_into(v, strided, opts), want)
    assert checked > 900  # (980 in the random games of rules 2)
