"""What the OpenSpiel games of both games do alike (each game's own behaviour:
``tests/rl/mille/test_spiel.py``, ``tests/rl/knightrider/test_spiel.py``): OpenSpiel's
random simulation test, the Python shortcuts against pyspiel's C++ path, one player's view
only, and ISMCTS against a rallye bot."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import rallye.rl.knightrider.spiel as ks
import rallye.rl.mille.spiel as ms
from rallye.agents.base import make_agent
from rallye.games import GAMES
from rallye.rl.games import make_adapter

NAMES = {"mille": ms.SHORT_NAME, "knightrider": ks.SHORT_NAME}


def _chance(state: Any, rng: Any) -> None:
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
    assert sum(probs) == pytest.approx(1.0)
    state.apply_action(int(rng.choice(outcomes, p=probs)))


@pytest.mark.parametrize(
    "name",
    [
        ms.SHORT_NAME,
        ms.SHORT_NAME + "(edition=hu,players=4)",
        ms.SHORT_NAME + "(edition=meilen,players=3)",
        ks.SHORT_NAME + "(turn_limit=15)",
        ks.SHORT_NAME + "(players=3,turn_limit=6,quick_build=False,seeds=20)",
        ks.SHORT_NAME + "(players=4,turn_limit=8,shuffle_cards=True,tour=1)",
    ],
)
def test_random_sim_test(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def _check_python_shortcuts(s: Any, players: int, tensors: bool) -> None:
    """The Python ``legal_actions`` / ``*_tensor`` overrides give what pyspiel's C++ path gives."""
    base = pyspiel.State
    assert s.legal_actions() == base.legal_actions(s)
    for p in range(players):
        assert s.legal_actions(p) == base.legal_actions(s, p)
    if not tensors:
        return
    for p in range(players):
        obs = s.observation_tensor(p)
        assert obs == base.observation_tensor(s, p) and type(obs[0]) is float
        assert s.information_state_tensor(p) == base.information_state_tensor(s, p)
    if s.current_player() >= 0:
        assert s.observation_tensor() == base.observation_tensor(s)
    else:  # chance and terminal nodes: pyspiel's own error
        with pytest.raises(pyspiel.SpielError):
            s.observation_tensor()
    with pytest.raises(pyspiel.SpielError):
        s.observation_tensor(players)


@pytest.mark.parametrize(
    ("name", "games", "every"),
    [
        (ms.SHORT_NAME, 3, 1),
        (ms.SHORT_NAME + "(edition=hu,players=3)", 3, 1),
        (ks.SHORT_NAME + "(players=3,turn_limit=4)", 1, 6),  # (Knight Rider's tensors are large: some nodes only)
    ],
)
def test_python_shortcuts_match_the_cpp_path(name: str, games: int, every: int) -> None:
    """At decision, chance and terminal nodes of whole games (the tensors at every
    ``every``-th node and at the end)."""
    game = pyspiel.load_game(name)
    players = game.num_players()
    rng = np.random.default_rng(1)
    for _ in range(games):
        s = game.new_initial_state()
        step = 0
        while True:
            _check_python_shortcuts(s, players, tensors=step % every == 0 or s.is_terminal())
            if s.is_terminal():
                break
            if s.is_chance_node():
                _chance(s, rng)
            else:
                s.apply_action(int(rng.choice(s.legal_actions())))
            step += 1


@pytest.mark.parametrize("key", list(NAMES))
def test_the_observer_sees_one_players_view_only(key: str) -> None:
    game = pyspiel.load_game(NAMES[key])
    with pytest.raises(ValueError, match="SINGLE_PLAYER"):
        everyone = pyspiel.PrivateInfoType.ALL_PLAYERS
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False, private_info=everyone))


@pytest.mark.parametrize(
    ("key", "params", "simulations", "decisions"),
    [("mille", "", 4, 11), ("knightrider", "(turn_limit=3,seeds=5)", 3, 3)],
)
def test_ismcts_plays_against_a_rallye_bot(key: str, params: str, simulations: int, decisions: int) -> None:
    """ISMCTS in seat 0 of a hand (Mille Bornes) or a short game (Knight Rider); the rallye
    bot in seat 1 chooses from its view (the game's face) and plays the environments' code
    of its action (the OpenSpiel game's codes are theirs)."""
    game = pyspiel.load_game(NAMES[key] + params)
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game=game, evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs),
        uct_c=2.0, max_simulations=simulations, random_state=rs,
    )  # fmt: skip
    face, adapter = GAMES[key], make_adapter(key)
    opponent = make_agent(key, "random", 1)
    s = game.new_initial_state()
    taken = 0
    while not s.is_terminal():
        if s.is_chance_node():
            _chance(s, rs)
        elif s.current_player() == 0:
            action = bot.step(s)
            assert action in s.legal_actions()
            s.apply_action(action)
            taken += 1
        else:
            engine = s._d.state
            view = face.view_for(engine, 1)
            s.apply_action(adapter.encode(engine, opponent.choose(view, face.legal_from_view(view))))
    assert taken >= decisions
    assert sum(s.returns()) == pytest.approx(0.0)
