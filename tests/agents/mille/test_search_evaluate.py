"""``PimcAgent.evaluate``: the search of one decision without its verdict, which
``choose`` is built on (issue #61: the analysis values the move played too)."""

from __future__ import annotations

from rallye.agents.mille.search import PimcAgent, paired
from rallye.games import game_for
from rallye.mille.actions import Action
from rallye.mille.view import MilleView


def _position(seed: int, moves: int) -> tuple[MilleView, list[Action]]:
    """A position ``moves`` into a hand: the acting seat's view and the legal moves."""
    game = game_for("mille")
    state = game.new(game.settings({"edition": "wm2006", "players": 2}), seed)
    for _ in range(moves):
        state = game.apply(state, game.legal_actions(state)[0])
    seat = game.current_player(state)
    assert seat is not None
    return game.view_for(state, seat), list(game.legal_actions(state))


def test_choose_is_evaluate_and_its_verdict() -> None:
    view, legal = _position(3, 6)
    a, b = PimcAgent(5, deals=12, plies=2000), PimcAgent(5, deals=12, plies=2000)
    assert a.choose(view, legal) == b.verdict(b.evaluate(view, legal))
    assert a.last_gains == b.last_gains and a.last_candidates == b.last_candidates


def test_a_move_asked_about_is_valued_on_every_deal_with_the_others() -> None:
    view, legal = _position(4, 5)
    bot = PimcAgent(2, deals=10, plies=10_000, top_k=2)
    plain = bot.evaluate(view, legal)
    asked = next(a for a in reversed(legal) if a not in plain.candidates)
    ev = PimcAgent(2, deals=10, plies=10_000, top_k=2).evaluate(
        view, legal, (asked,), prune=False, measure=lambda s: [float(s.draw_pos)]
    )
    assert ev.candidates[: len(plain.candidates)] == plain.candidates and ev.candidates[-1] == asked
    assert ev.deals == 10 and all(len(ev.values[a]) == 10 == len(ev.measures[a]) for a in ev.candidates)
    gain, se = ev.gain(asked)
    assert (gain, se) == paired(ev.values[asked], ev.values[ev.candidates[0]]) and se >= 0
    assert PimcAgent(2).evaluate(view, legal[:1]).candidates == (legal[0],)  # one move: no search


def test_the_pruned_evaluation_gives_the_pruning_searchs_verdict() -> None:
    # the deals do not depend on the candidates: a full evaluation, pruned after the fact,
    # takes the move the pruning search takes (when the step budget does not bind)
    for seed, moves in ((3, 6), (4, 5), (8, 9), (11, 14)):
        view, legal = _position(seed, moves)
        bot = PimcAgent(seed, deals=12, plies=100_000, z=1.0, min_gain=0.0)
        full = PimcAgent(seed, deals=12, plies=100_000, z=1.0, min_gain=0.0)
        ev = full.evaluate(view, legal, prune=False)
        assert bot.choose(view, legal) == full.verdict(ev.pruned(4))
