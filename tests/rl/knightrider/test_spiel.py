"""Knight Rider as an OpenSpiel game: explicit chance, resampling (what both games do
alike: ``tests/rl/test_openspiel.py``)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import rallye.rl.knightrider.spiel as ks
from rallye import knightrider as kr
from rallye.rl.knightrider import encoding as ke


def _chance(state, rng):
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
    assert sum(probs) == pytest.approx(1.0)
    state.apply_action(int(rng.choice(outcomes, p=probs)))


def test_serialized_states_replay_their_history():
    game = pyspiel.load_game(ks.SHORT_NAME + "(turn_limit=6,seeds=10)")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _play_to(state, rng, stop):
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            _chance(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_the_root_chance_node_picks_the_engine_seed():
    game = pyspiel.load_game(ks.SHORT_NAME + "(players=3,seeds=50,turn_limit=20)")
    s = game.new_initial_state()
    assert s.is_chance_node() and len(s.chance_outcomes()) == 50
    s.apply_action(17)
    expected = kr.new_game(3, 17, kr.Options(quick_build=True, turn_limit=20))
    assert s._d.state.laid == expected.laid and s._d.state.villain == expected.villain
    assert s.current_player() == expected.current
    legal = kr.legal_actions(expected)
    assert len(s.legal_actions()) == len(legal)


def test_each_die_the_engine_rolls_is_a_chance_node_with_six_even_outcomes():
    game = pyspiel.load_game(ks.SHORT_NAME + "(turn_limit=30)")
    rng = np.random.default_rng(1)
    s = _play_to(game.new_initial_state(), rng, lambda st: st._d.state is not None and st._d.state.phase == "turn")
    rolls = 0
    while not s.is_terminal() and rolls < 8:
        if s.is_chance_node() and s._d.pending.need[0] == "die":
            assert s.chance_outcomes() == [(i, 1 / 6) for i in range(6)]
            before = s._d.state
            face = int(rng.integers(6))
            s.apply_action(face)
            after = s._d.state
            if after is not before and after.phase == "turn" and after.turn == before.turn + 1:
                assert after.roll == face + 1  # the outcome is the new turn's roll
                rolls += 1
        elif s.is_chance_node():
            _chance(s, rng)
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
    assert rolls == 8


def test_end_turns_the_escape_card_drawn_by_chance_among_those_not_turned():
    game = pyspiel.load_game(ks.SHORT_NAME + "(turn_limit=40)")
    rng = np.random.default_rng(2)
    pieces = kr.Options().pieces()
    cards = reshuffles = 0
    while cards < 14 or not reshuffles:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node() and s._d.pending is not None and s._d.pending.need[0] == "card":
                before = s._d.state
                turned = set(before.escape_deck[: before.escape_pos])
                outcomes = dict(s.chance_outcomes())
                assert set(outcomes) == set(range(11)) - turned
                assert all(p == pytest.approx(1 / len(outcomes)) for p in outcomes.values())
                card = int(rng.choice(sorted(outcomes)))
                s.apply_action(card)
                _play_to(s, rng, lambda st: st._d.pending is None)
                if s._d.state.phase == "over":
                    break
                ids = [e.id for e in kr.view_for(s._d.state, 0).escape_turned]
                if len(turned) == 10:  # the last card: the pile is shuffled again
                    assert ids == []
                    reshuffles += 1
                else:
                    assert ids[-1] == pieces.escape[card].id and len(ids) == len(turned) + 1
                cards += 1
            elif s.is_chance_node():
                _chance(s, rng)
            else:
                s.apply_action(int(rng.choice(s.legal_actions())))


def test_the_game_never_exceeds_its_max_length_and_returns_sum_to_zero():
    game = pyspiel.load_game(ks.SHORT_NAME + "(players=3,turn_limit=5)")
    assert game.max_game_length() == 1 + 3 + 15 * 5
    rng = np.random.default_rng(3)
    for _ in range(3):
        s = game.new_initial_state()
        decisions = 0
        while not s.is_terminal():
            if s.is_chance_node():
                _chance(s, rng)
            else:
                s.apply_action(int(rng.choice(s.legal_actions())))
                decisions += 1
        assert decisions <= game.max_game_length()
        assert sum(s.returns()) == pytest.approx(0.0)


def test_observation_tensor_is_the_view_encoding():
    game = pyspiel.load_game(ks.SHORT_NAME + "(players=3,turn_limit=20)")
    rng = np.random.default_rng(4)
    s = _play_to(game.new_initial_state(), rng, lambda st: len(st.history()) > 30 and not st.is_chance_node())
    engine = s._d.state
    for p in range(3):
        x = np.asarray(s.observation_tensor(p), dtype=np.float32)
        assert np.array_equal(x, ke.encode_view(kr.view_for(engine, p), game.options))
        info = np.asarray(s.information_state_tensor(p))
        assert info.shape == (ke.OBS_SIZE + ks.HISTORY_SIZE,)
        assert np.array_equal(info[: ke.OBS_SIZE], x)


@pytest.mark.parametrize(
    "params", ["(players=3,turn_limit=20,shuffle_cards=True)", "(players=3,turn_limit=20,quick_build=False,seeds=5)"]
)
def test_resample_keeps_the_information_state_and_deals_hidden_parts_anew(params):
    game = pyspiel.load_game(ks.SHORT_NAME + params)
    rng = np.random.default_rng(5)
    s = _play_to(game.new_initial_state(), rng, lambda st: len(st.history()) > 12 and not st.is_chance_node())
    p = s.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = False
    for _ in range(6):
        r = s.resample_from_infostate(p, sampler)
        assert r.information_state_string(p) == s.information_state_string(p)
        assert np.array_equal(r.information_state_tensor(p), s.information_state_tensor(p))
        assert np.array_equal(r.observation_tensor(p), s.observation_tensor(p))
        assert r.legal_actions() == s.legal_actions()
        a, b = s._d.state, r._d.state
        assert a.kitt_hands[p] == b.kitt_hands[p] and a.detour_hands[p] == b.detour_hands[p]
        assert [sum(h) for h in a.kitt_hands] == [sum(h) for h in b.kitt_hands]
        assert sorted(a.pile + a.centre) == sorted(b.pile + b.centre)
        changed |= a != b
        _play_to(r, rng, lambda st: False)  # the resampled state plays on to the end
    assert changed


def test_without_shuffled_cards_the_hands_are_public_and_stay():
    game = pyspiel.load_game(ks.SHORT_NAME + "(players=3,turn_limit=20)")
    rng = np.random.default_rng(6)
    s = _play_to(game.new_initial_state(), rng, lambda st: len(st.history()) > 12 and not st.is_chance_node())
    r = s.resample_from_infostate(s.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert r._d.state == s._d.state


def test_bad_parameters_are_clear_errors():
    with pytest.raises(Exception, match="2 to 5 players, not 6"):
        pyspiel.load_game(ks.SHORT_NAME + "(players=6)")
    with pytest.raises(Exception, match="seeds must be at least 1"):
        pyspiel.load_game(ks.SHORT_NAME + "(seeds=0)")
