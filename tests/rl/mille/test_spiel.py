"""Mille Bornes as an OpenSpiel game: the deal by chance, resampling, the information state
(what both games do alike: ``tests/rl/test_openspiel.py``)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import rallye.rl.mille.spiel as ms
from rallye import mille
from rallye.mille.cards import CARDS


def _deal(state, rng):
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))


def test_chance_deals_the_deck_card_by_card():
    game = pyspiel.load_game(ms.SHORT_NAME)
    s = game.new_initial_state()
    outcomes = dict(s.chance_outcomes())
    assert sum(outcomes.values()) == pytest.approx(1.0)
    assert outcomes[CARDS.index("D100")] == pytest.approx(12 / 102)  # 2 players: 4 hazards out
    _deal(s, np.random.default_rng(0))
    assert len(s.history()) == 102 and not s.is_chance_node()
    deck = tuple(CARDS[a] for a in s.history())
    assert s._d.state == mille.new_match("wm2006", 2, 0, deck=deck)


def test_resample_keeps_the_information_state_and_deals_hidden_cards_anew():
    game = pyspiel.load_game(ms.SHORT_NAME + "(players=3,edition=hu)")
    rng = np.random.default_rng(1)
    s = game.new_initial_state()
    _deal(s, rng)
    for _ in range(20):
        s.apply_action(int(rng.choice(s.legal_actions())))
    p = s.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = False
    for _ in range(5):
        r = s.resample_from_infostate(p, sampler)
        assert r.information_state_string(p) == s.information_state_string(p)
        assert np.array_equal(r.information_state_tensor(p), s.information_state_tensor(p))
        assert r.legal_actions() == s.legal_actions()
        a, b = s._d.state, r._d.state
        hidden = lambda st: sorted(st.draw_pile + sum((st.hands[q] for q in range(3) if q != p), ()))  # noqa: E731
        assert hidden(a) == hidden(b)
        assert [len(h) for h in a.hands] == [len(h) for h in b.hands]
        changed |= a != b
    assert changed


def test_bad_parameters_are_clear_errors():
    with pytest.raises(Exception, match="not 5"):
        pyspiel.load_game(ms.SHORT_NAME + "(players=5)")


def test_information_state_string_is_the_perfect_recall_record():
    """One token per decision (seat, code, '!cf' after a coup fourré), each followed by the
    player's hand after it, rebuilt here from the engine states the game went through."""
    import random as _random

    game = pyspiel.load_game("python_rallye_mille(edition=wm2006,players=2)")
    rng = _random.Random(3)
    for _hand in range(4):
        s = game.new_initial_state()
        while s.is_chance_node():
            s.apply_action(rng.choice(s.chance_outcomes())[0])
        states = [s._d.state]
        record = []
        while not s.is_terminal():
            seat = s.current_player()
            a = rng.choice(s.legal_actions())
            s.apply_action(a)
            record.append((seat, a))
            states.append(s._d.state)
        for p in range(2):
            want = f"P{p} deal (" + " ".join(states[0].hands[p]) + ")"
            for (seat, a), before, after in zip(record, states, states[1:], strict=False):
                cf = after.hand_no == before.hand_no and sum(len(t.coups) for t in after.tableaus) > sum(
                    len(t.coups) for t in before.tableaus
                )
                want += f"|P{seat}:{a}" + ("!cf" if cf else "") + " (" + " ".join(after.hands[p]) + ")"
            assert s.information_state_string(p) == want
        counts = np.asarray(s.information_state_tensor(0))[270:].reshape(6, mille.NUM_ACTIONS)
        assert counts.sum() * 10 == pytest.approx(len(record))
